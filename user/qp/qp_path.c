// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp path (qp_path.h): the QPs qp.c's filter selected, traced one
 * group of identical headers at a time, TTL 1 upward until a hop is
 * silent, the hop limit, or one hop short of a destination whose distance
 * this run has learned; then each QP printed with its hops and its CE,
 * CNP and retransmission counters.
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
	size_t group;			/* the QP whose trace serves it */
	struct path_hop *hops;
	unsigned int nhops;
	bool capped;			/* stopped one short of a known destination */
};

struct qp_path {
	struct qp_path_opts o;
	struct path_qp *q;
	size_t n, cap;
	struct path_dists dists;
	struct path_pace pace;
	uint64_t next_ns;		/* no probe before this */
	unsigned int sent;
};

void qp_path_opts_default(struct qp_path_opts *o)
{
	o->rate = 10;
	o->max_hops = 16;
	o->wait_ms = 1000;
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
	return -1;
}

struct qp_path *qp_path_new(const struct qp_path_opts *o)
{
	struct qp_path *p = calloc(1, sizeof(*p));

	if (p) {
		p->o = *o;
		p->pace.rate = o->rate;
	}
	return p;
}

void qp_path_free(struct qp_path *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->q[i].hops);
	free(p->q);
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

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
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
	close(lock);
	out_begin_list();
	for (i = 0; i < p->n; i++)
		print_qp(p, &p->q[i]);
	out_end_list();
	return err;
}
