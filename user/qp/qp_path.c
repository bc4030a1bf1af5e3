// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp path (qp_path.h): the QPs qp.c's filter selected, traced one
 * group of identical headers at a time, TTL 1 upward until a hop is
 * silent, the hop limit, or one hop short of a destination whose distance
 * this run has learned; then each QP printed with its hops and its CE,
 * CNP and retransmission counters, or with links the links they cross and
 * where the marks of a window come from (path_links.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "path_links.h"
#include "path_plan.h"
#include "path_probe.h"
#include "qp_fields.h"
#include "qp_path.h"
#include "qp_sport.h"

#define PATH_MAX_HOPS	64

struct path_qp {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t port, qpn;
	uint8_t type;
	struct path_target t;
	char ifname[IF_NAMESIZE];
	const char *skip;		/* why it is not traced, or NULL */
	bool has_stats;
	uint64_t v[QP_NSTATS];
	bool has_end;			/* links: the window's end seen */
	uint64_t end[QP_NSTATS];	/* links: the counters then */
	struct path_hop *again;		/* links: a second probe of each hop */
	size_t group;			/* the QP whose trace serves it */
	struct path_hop *hops;
	unsigned int nhops;
	bool capped;			/* stopped one short of a known destination */
};

/* links: a QP that may be one added's destination, and its CE. */
struct path_peer {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t qpn, dqpn;
	uint8_t sgid[16], dgid[16];
	uint64_t ce, ce_end;
	bool has_end;
};

struct qp_path {
	struct qp_path_opts o;
	uint64_t start_ns;		/* the first dump */
	struct path_peer *peers;
	size_t npeers;
	struct path_qp *q;
	size_t n, cap;
	struct path_dists dists;
	struct path_pace pace;
	uint64_t next_ns;		/* no probe before this */
	uint64_t end_ns;		/* the traces' end */
	unsigned int sent;
};

void qp_path_opts_default(struct qp_path_opts *o)
{
	o->rate = 10;
	o->max_hops = 16;
	o->wait_ms = 1000;
	o->links = false;
	o->window_s = 10;
}

int qp_path_keyword(struct rocectl *rc, const char *w, struct qp_path_opts *o)
{
	if (!strcmp(w, "rate"))
		return parse_u32_range("rate", arg_next(rc), 1, 100, &o->rate) ? EXIT_USAGE : EXIT_OK;
	if (!strcmp(w, "max-hops"))
		return parse_u32_range("max-hops", arg_next(rc), 1, PATH_MAX_HOPS, &o->max_hops) ?
		       EXIT_USAGE : EXIT_OK;
	if (!strcmp(w, "wait"))
		return parse_u32_range("wait", arg_next(rc), 10, 10000, &o->wait_ms) ?
		       EXIT_USAGE : EXIT_OK;
	if (!strcmp(w, "links")) {
		o->links = true;
		return EXIT_OK;
	}
	if (!strcmp(w, "window")) {
		o->links = true;
		return parse_u32_range("window", arg_next(rc), 0, 3600, &o->window_s) ?
		       EXIT_USAGE : EXIT_OK;
	}
	return -1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

struct qp_path *qp_path_new(const struct qp_path_opts *o)
{
	struct qp_path *p = calloc(1, sizeof(*p));

	if (p) {
		p->o = *o;
		p->pace.rate = o->rate;
		p->start_ns = mono_ns();
	}
	return p;
}

void qp_path_free(struct qp_path *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		free(p->q[i].hops);
		free(p->q[i].again);
	}
	free(p->q);
	free(p->peers);
	path_dists_free(&p->dists);
	free(p);
}

/* Why a QP of the dump has no path to trace, or NULL. */
static const char *untraceable(const struct nlattr **tb, const struct qp_sport *s)
{
	unsigned int type = tb[ROCECTL_A_QP_TYPE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE]) : ~0u;
	const uint8_t *dgid;

	if (type != 2 && type != 3)		/* RC, UC */
		return "not RC or UC";
	if (!qp_live_on(tb, tb[ROCECTL_A_QP_PORT] ? mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]) : 0))
		return "not connected (RTR to SQE)";
	if (!tb[ROCECTL_A_QP_SGID] || !tb[ROCECTL_A_QP_DGID] || !tb[ROCECTL_A_QP_DEST_QPN])
		return "no addresses";
	dgid = mnl_attr_get_payload(tb[ROCECTL_A_QP_DGID]);
	/* fe80::/10: RoCEv1 or a link-local GID, not routed. */
	if (dgid[0] == 0xfe && (dgid[1] & 0xc0) == 0x80)
		return "not routable (link-local GID)";
	if (s->source == QP_SPORT_NONE || !s->port)
		return "no UDP source port known";
	return NULL;
}

int qp_path_add(struct qp_path *p, const struct nlattr **tb, const struct qp_sport_hw *hw)
{
	struct qp_sport s;
	struct path_qp *q;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		struct path_qp *grown = realloc(p->q, cap * sizeof(*grown));

		if (!grown)
			return -1;
		p->q = grown;
		p->cap = cap;
	}
	q = &p->q[p->n];
	memset(q, 0, sizeof(*q));
	qp_sport_best(tb, hw, &s);
	q->skip = untraceable(tb, &s);
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(q->dev, sizeof(q->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	q->port = tb[ROCECTL_A_QP_PORT] ? mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]) : 0;
	q->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	q->type = tb[ROCECTL_A_QP_TYPE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE]) : 0;
	q->has_stats = qp_stat_values(tb[ROCECTL_A_QP_STATS], q->v);
	if (!q->skip) {
		memcpy(q->t.src, mnl_attr_get_payload(tb[ROCECTL_A_QP_SGID]), 16);
		memcpy(q->t.dst, mnl_attr_get_payload(tb[ROCECTL_A_QP_DGID]), 16);
		q->t.sport = s.port;
		q->t.tclass = tb[ROCECTL_A_QP_TCLASS] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_TCLASS]) : 0;
		q->t.dqpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_DEST_QPN]);
		if (!path_netdev_of(q->t.src, q->ifname))
			q->skip = "its source address is on no netdev here";
	}
	q->group = p->n;
	p->n++;
	return 0;
}

static uint64_t stat_of(const uint64_t *v, unsigned int attr)
{
	return v[attr - QP_STAT_FIRST];
}

int qp_path_add_peer(struct qp_path *p, const struct nlattr **tb)
{
	uint64_t v[QP_NSTATS];
	struct path_peer *pe, *grown;

	if (!tb[ROCECTL_A_QP_SGID] || !tb[ROCECTL_A_QP_DGID] || !tb[ROCECTL_A_QP_DEST_QPN] ||
	    !tb[ROCECTL_A_DEV_NAME] || !qp_stat_values(tb[ROCECTL_A_QP_STATS], v))
		return 0;
	grown = realloc(p->peers, (p->npeers + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	p->peers = grown;
	pe = &p->peers[p->npeers++];
	memset(pe, 0, sizeof(*pe));
	snprintf(pe->dev, sizeof(pe->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	pe->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	pe->dqpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_DEST_QPN]);
	memcpy(pe->sgid, mnl_attr_get_payload(tb[ROCECTL_A_QP_SGID]), 16);
	memcpy(pe->dgid, mnl_attr_get_payload(tb[ROCECTL_A_QP_DGID]), 16);
	pe->ce = stat_of(v, ROCECTL_A_QP_STAT_RX_ECN_CE);
	return 0;
}

void qp_path_update(struct qp_path *p, const struct nlattr **tb)
{
	const char *dev = tb[ROCECTL_A_DEV_NAME] ? mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]) : "";
	uint32_t qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	uint64_t v[QP_NSTATS];
	size_t i;

	if (!qp_stat_values(tb[ROCECTL_A_QP_STATS], v))
		return;
	for (i = 0; i < p->n; i++)
		if (p->q[i].qpn == qpn && !strcmp(p->q[i].dev, dev)) {
			memcpy(p->q[i].end, v, sizeof(v));
			p->q[i].has_end = true;
		}
	for (i = 0; i < p->npeers; i++)
		if (p->peers[i].qpn == qpn && !strcmp(p->peers[i].dev, dev)) {
			p->peers[i].ce_end = stat_of(v, ROCECTL_A_QP_STAT_RX_ECN_CE);
			p->peers[i].has_end = true;
		}
}

bool qp_path_wait(struct qp_path *p)
{
	uint64_t end = p->start_ns + p->o.window_s * 1000000000ull, now = mono_ns();

	if (!p->o.links || !p->o.window_s)
		return false;
	if (now < end) {
		struct timespec ts = { (end - now) / 1000000000ull, (end - now) % 1000000000ull };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	return true;
}


/* Waits out the pace, then one probe. */
static void paced_probe(struct qp_path *p, struct path_qp *q, unsigned int ttl,
			struct path_hop *hop)
{
	uint64_t now = mono_ns();

	if (now < p->next_ns) {
		struct timespec ts = { (p->next_ns - now) / 1000000000ull,
				       (p->next_ns - now) % 1000000000ull };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	/* The PSN: any value; the opcode is what no responder takes. */
	path_probe_once(&q->t, q->ifname, ttl, p->o.wait_ms, 0, hop);
	p->sent++;
	path_pace_result(&p->pace, hop->reply == PATH_REPLY_TTL);
	p->next_ns = mono_ns() + path_pace_gap_ns(&p->pace, drand48());
}

static int trace(struct qp_path *p, struct path_qp *q)
{
	unsigned int limit = path_ttl_limit(&p->dists, q->t.dst, p->o.max_hops);
	unsigned int ttl;

	q->hops = calloc(p->o.max_hops, sizeof(*q->hops));
	if (!q->hops)
		return -1;
	q->capped = limit < p->o.max_hops;
	for (ttl = 1; ttl <= limit; ttl++) {
		struct path_hop *hop = &q->hops[q->nhops++];

		paced_probe(p, q, ttl, hop);
		if (hop->reply == PATH_REPLY_TTL)
			continue;
		/* Silence: the destination or a silent router; never further. */
		if (hop->reply == PATH_REPLY_NONE && path_learn(&p->dists, q->t.dst, ttl))
			return -1;
		break;
	}
	return 0;
}

static void print_counter(const struct path_qp *q, unsigned int attr)
{
	unsigned int i = attr - QP_STAT_FIRST;

	out_uint(qp_stat_name(i), NULL, q->v[i]);
	out_text("%s %" PRIu64 " ", qp_stat_name(i), q->v[i]);
}

static void print_hops(const struct path_qp *q)
{
	unsigned int i;

	out_open_array("hops");
	for (i = 0; i < q->nhops; i++) {
		const struct path_hop *h = &q->hops[i];

		out_open_object(NULL);
		out_uint("ttl", "\n    %" PRIu64 " ", h->ttl);
		switch (h->reply) {
		case PATH_REPLY_TTL:
			out_str("address", "%s ", h->addr);
			out_uint("rtt_us", NULL, h->rtt_us);
			out_text("%.3f ms", h->rtt_us / 1000.0);
			break;
		case PATH_REPLY_UNREACH:
			out_str("address", "%s ", h->addr);
			out_str("reply", NULL, "unreachable");
			out_text("unreachable");
			break;
		case PATH_REPLY_NONE:
			out_str("reply", NULL, "none");
			out_text("* (no reply: the destination, or a silent hop; not probed further)");
			break;
		case PATH_REPLY_ERROR:
			out_str("reply", NULL, "error");
			out_str("error", "not sent: %s", strerror(h->err));
			break;
		}
		out_close_object();
	}
	out_close_array();
	if (q->capped)
		out_text("\n    (one hop short of the destination, whose distance this run learned)");
}

static void print_qp(const struct qp_path *p, const struct path_qp *q)
{
	char buf[INET6_ADDRSTRLEN];

	out_open_object(NULL);
	out_str("ifname", "link %s", q->dev);
	out_uint("port", "/%" PRIu64 " ", q->port);
	out_uint("lqpn", "lqpn %" PRIu64 " ", q->qpn);
	out_str("type", "type %s ", qp_type_name(q->type));
	if (q->skip) {
		out_str("skipped", "not traced: %s", q->skip);
		out_close_object();
		out_nl();
		return;
	}
	out_uint("rqpn", "rqpn %" PRIu64 " ", q->t.dqpn);
	qp_format_gid(q->t.src, buf, sizeof(buf));
	out_str("sgid", "src %s ", buf);
	qp_format_gid(q->t.dst, buf, sizeof(buf));
	out_str("dgid", "dst %s ", buf);
	out_uint("sport", "sport %" PRIu64 " ", q->t.sport);
	out_uint("dscp", "dscp %" PRIu64 " ", q->t.tclass >> 2);
	out_uint("ecn", "ecn %" PRIu64 " ", q->t.tclass & 3);
	out_str("netdev", "dev %s", q->ifname);
	if (q->has_stats) {
		out_str("counters_source", NULL, QP_SOURCE);
		out_open_object("counters");
		out_text("\n    counters (%s): ", QP_SOURCE);
		print_counter(q, ROCECTL_A_QP_STAT_RX_ECN_CE);
		print_counter(q, ROCECTL_A_QP_STAT_RX_CNP);
		print_counter(q, ROCECTL_A_QP_STAT_TX_CNP);
		print_counter(q, ROCECTL_A_QP_STAT_TX_RETRANS);
		out_close_object();
	} else {
		out_str("counters_source", "\n    counters none (not seen by the module)", "none");
	}
	if (q->group != (size_t)(q - p->q))
		out_uint("traced_with", "\n    same headers as lqpn %" PRIu64 ": its trace",
			 p->q[q->group].qpn);
	print_hops(&p->q[q->group]);
	out_close_object();
	out_nl();
}

/*
 * links: the first trace of two hops or more probed again, hop by hop: a
 * fabric that hashes sends it the same way; one that sprays packets (adaptive
 * routing) may not.
 */
static int probe_again(struct qp_path *p)
{
	struct path_qp *q = NULL;
	unsigned int t;
	size_t i;

	for (i = 0; i < p->n && !q; i++)
		if (!p->q[i].skip && p->q[i].group == i && p->q[i].nhops >= 2)
			q = &p->q[i];
	if (!q)
		return EXIT_OK;
	q->again = calloc(q->nhops, sizeof(*q->again));
	if (!q->again)
		return EXIT_FAILED;
	for (t = 0; t < q->nhops; t++)
		if (q->hops[t].reply == PATH_REPLY_TTL)
			paced_probe(p, q, t + 1, &q->again[t]);
	return EXIT_OK;
}

/* Runs at once take turns: the rate is the host's, not each run's. */
#define PATH_LOCK	"/run/rocectl-qp-path.lock"

int qp_path_run(struct qp_path *p)
{
	int lock = open(PATH_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	size_t i, j;
	int err = EXIT_OK;

	if (lock < 0 || flock(lock, LOCK_EX)) {
		pr_err("Error: %s: %s.\n", PATH_LOCK, strerror(errno));
		if (lock >= 0)
			close(lock);
		return EXIT_FAILED;
	}
	srand48(mono_ns());
	for (i = 0; i < p->n && !err; i++) {
		struct path_qp *q = &p->q[i];

		if (q->skip)
			continue;
		/* One trace a group: a QP hashed as an earlier one shares its. */
		for (j = 0; j < i; j++)
			if (!p->q[j].skip && p->q[j].group == j && path_same_headers(&p->q[j].t, &q->t))
				break;
		q->group = j < i ? j : i;
		if (q->group == i && trace(p, q))
			err = EXIT_FAILED;
	}
	if (!err && p->o.links)
		err = probe_again(p);
	close(lock);
	p->end_ns = mono_ns();
	return err;
}

/* links: the QP whose destination is peer pe, on this host. */
static const struct path_peer *peer_of(const struct qp_path *p, const struct path_qp *q)
{
	size_t i;

	for (i = 0; i < p->npeers; i++) {
		const struct path_peer *pe = &p->peers[i];

		if (pe->qpn == q->t.dqpn && pe->dqpn == q->qpn && !memcmp(pe->sgid, q->t.dst, 16) &&
		    !memcmp(pe->dgid, q->t.src, 16))
			return pe;
	}
	return NULL;
}

/* From a to b: 0 if b is not past a (not seen at the end, or not the same QP). */
static uint64_t growth(bool seen, uint64_t a, uint64_t b)
{
	return seen && b > a ? b - a : 0;
}

/* A counter over the window: to its end, or since the QP's creation. */
static uint64_t delta(const struct qp_path *p, const struct path_qp *q, unsigned int attr)
{
	if (!p->o.window_s)
		return stat_of(q->v, attr);
	return growth(q->has_end, stat_of(q->v, attr), stat_of(q->end, attr));
}

/*
 * The marks on a QP's traced direction: the CE its destination counted
 * (when the destination is on this host), the CNPs it received, its
 * retransmissions. Its own CE is the other direction's.
 */
static void marks_of(const struct qp_path *p, const struct path_qp *q, struct links_qp *l,
		     bool *ce_known)
{
	const struct path_peer *pe = peer_of(p, q);

	*ce_known = pe != NULL;
	if (pe)
		l->ce = !p->o.window_s ? pe->ce : growth(pe->has_end, pe->ce, pe->ce_end);
	l->cnp = delta(p, q, ROCECTL_A_QP_STAT_RX_CNP);
	l->retrans = delta(p, q, ROCECTL_A_QP_STAT_TX_RETRANS);
}

/* known: the QPs whose destination's CE this host has. */
static void print_reason(const struct links_result *r, size_t known)
{
	char why[512];
	size_t i, len;

	switch (r->verdict) {
	case LINKS_LOCALIZED:
		snprintf(why, sizeof(why), "every marked QP crosses it, %zu unmarked QP(s) do",
			 r->l[r->link].nqps - r->l[r->link].marked);
		break;
	case LINKS_NO_MARKS:
		if (known < r->nqps)
			snprintf(why, sizeof(why),
				 "no QP was marked (CE or CNP) in the window; the CE of %zu QP(s) whose destination is not on this host is not known here",
				 r->nqps - known);
		else
			snprintf(why, sizeof(why), "no QP was marked (CE or CNP) in the window");
		break;
	case LINKS_PER_PACKET:
		snprintf(why, sizeof(why),
			 "a second probe of lqpn %u's headers was answered by %s, not %s: the fabric sends one flow's packets different ways (adaptive routing, spraying), so a trace is not a QP's path",
			 r->qpn, r->addr2, r->addr);
		break;
	case LINKS_ROUTERS:
		if (!r->addr2)
			snprintf(why, sizeof(why),
				 "hop %s is a loopback address: the hops answer from a router's address, which names a router, not a link",
				 r->addr);
		else
			snprintf(why, sizeof(why),
				 "hop %s follows both %s and %s, two ways out of %s: it is a router's address (Linux: net.ipv4.icmp_errors_use_inbound_ifaddr=0), not the link's a probe came in on",
				 r->addr, r->addr2, r->addr3, r->via);
		break;
	case LINKS_INDISTINCT:
		len = snprintf(why, sizeof(why), "links");
		for (i = 0; i < r->ntied && len < sizeof(why); i++)
			len += snprintf(why + len, sizeof(why) - len, "%s %s", i ? "," : "", r->l[i].addr);
		if (len < sizeof(why))
			snprintf(why + len, sizeof(why) - len,
				 " are crossed by the same QPs (in series or parallel): they cannot be told apart");
		break;
	case LINKS_NONE_EXPLAINS:
		snprintf(why, sizeof(why),
			 "no link is crossed by every marked QP and by at most one unmarked QP in four");
		break;
	}
	out_str("reason", ": %s", why);
}

static void print_link(const struct links_link *l, const struct path_qp *const *who)
{
	size_t i;

	out_open_object(NULL);
	out_str("address", "\nlink %s ", l->addr);
	out_uint("ttl", "ttl %" PRIu64 " ", l->ttl);
	out_open_array("from");
	for (i = 0; i < l->nprev; i++)
		out_str(NULL, i ? ",%s" : "from %s", l->prev[i]);
	out_close_array();
	out_uint("qps", " qps %" PRIu64 " ", l->nqps);
	out_uint("marked", "marked %" PRIu64 " ", l->marked);
	out_uint("rx_ecn_ce", "ce %" PRIu64 " ", l->ce);
	out_uint("rx_cnp", "cnp %" PRIu64 " ", l->cnp);
	out_uint("tx_retrans", "retrans %" PRIu64, l->retrans);
	out_open_array("crossing");
	out_text("\n   ");
	for (i = 0; i < l->nqps; i++) {
		out_open_object(NULL);
		out_str("ifname", " %s", who[l->qps[i]]->dev);
		out_uint("lqpn", "/%" PRIu64, who[l->qps[i]]->qpn);
		out_close_object();
	}
	out_close_array();
	out_close_object();
}

static void print_links(const struct qp_path *p)
{
	struct links_qp *lq = calloc(p->n + 1, sizeof(*lq));
	const struct path_qp **who = calloc(p->n + 1, sizeof(*who));
	const char **addrs = calloc(2 * p->n * PATH_MAX_HOPS + 1, sizeof(*addrs));
	char (*src)[INET6_ADDRSTRLEN] = calloc(p->n + 1, sizeof(*src));
	size_t i, n = 0, known = 0;
	struct links_result r;
	unsigned int t;

	if (!lq || !who || !addrs || !src) {
		pr_err("Error: out of memory.\n");
		goto out;
	}
	for (i = 0; i < p->n; i++) {
		const struct path_qp *q = &p->q[i], *g = &p->q[q->group];
		const char **h = addrs + 2 * i * PATH_MAX_HOPS;
		bool ce_known;

		if (q->skip)
			continue;
		for (t = 0; t < g->nhops; t++) {
			h[t] = g->hops[t].reply == PATH_REPLY_TTL ? g->hops[t].addr : "";
			if (g->again)
				h[PATH_MAX_HOPS + t] = g->again[t].reply == PATH_REPLY_TTL ?
						       g->again[t].addr : "";
		}
		qp_format_gid(q->t.src, src[n], sizeof(src[n]));
		lq[n].qpn = q->qpn;
		lq[n].src = src[n];
		lq[n].hops = h;
		lq[n].again = g->again ? h + PATH_MAX_HOPS : NULL;
		lq[n].nhops = g->nhops;
		marks_of(p, q, &lq[n], &ce_known);
		known += ce_known;
		who[n++] = q;
	}
	if (path_links_localize(lq, n, &r)) {
		pr_err("Error: out of memory.\n");
		goto out;
	}
	out_begin_list();
	out_open_object(NULL);
	out_uint("window_s", p->o.window_s ? "window %" PRIu64 " s " : NULL, p->o.window_s);
	if (!p->o.window_s)
		out_text("window: since each QP's creation ");
	out_uint("traced", "traced %" PRIu64 " ", n);
	out_uint("marked", "marked %" PRIu64 " ", r.nmarked);
	out_uint("ce_known", "(CE at the destination known for %" PRIu64 ")", known);
	out_str("verdict", "\nverdict %s", path_links_verdict_name(r.verdict));
	if (r.verdict == LINKS_LOCALIZED)
		out_str("link", " %s", r.l[r.link].addr);
	print_reason(&r, known);
	out_open_array("links");
	for (i = 0; i < r.n; i++)
		print_link(&r.l[i], who);
	out_close_array();
	out_close_object();
	out_nl();
	out_end_list();
	path_links_free(&r);
out:
	free(lq);
	free(who);
	free(addrs);
	free(src);
}

void qp_path_print(const struct qp_path *p)
{
	size_t i;

	if (p->o.links) {
		print_links(p);
		return;
	}
	out_begin_list();
	for (i = 0; i < p->n; i++)
		print_qp(p, &p->q[i]);
	out_end_list();
}
