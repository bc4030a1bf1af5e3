// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl's metrics: each scrape reads the module afresh (one dump of the
 * devices, the watches and the QPs; the driver's port counters and DCQCN
 * where a backend serves it) and writes them in Prometheus' format.
 *
 * Per-QP counters are summed per (device, port, comm): a label per QP
 * would make a series per QP, unbounded as QPs come and go by the
 * thousand. The sums stay counters (they never go down): a QP's counts
 * do not leave its sum when it is destroyed, because the module's destroy
 * event carries its final counters, and the exporter, subscribed to the
 * events, adds them to what its group has retired. The N busiest QPs by
 * one counter are also shown one by one, N bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <linux/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "attrs.h"
#include "dcqcn.h"
#include "errors.h"
#include "metrics.h"
#include "nl.h"
#include "qp_fields.h"
#include "rocectl.h"
#include "watchdog.h"

#define NQP_STATES	7	/* enum rocectl_qp_state: RESET .. ERR */

struct kv {
	char name[64];
	uint64_t v;
};

struct kvs {
	struct kv *v;
	size_t n;
};

/* A port's lists of named values, each written as one family. */
enum { PORT_HW, PORT_DCQCN_PARAMS, PORT_DCQCN_STATS, PORT_NLISTS };

struct port {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char netdev[IFNAMSIZ];
	uint32_t dev_index, port;
	int state;			/* -1: unknown */
	uint32_t active_mtu;
	struct kvs lists[PORT_NLISTS];
};

struct prio {
	char netdev[IFNAMSIZ], prio[4];
	const char *direction;
	int state;
	bool held;
	uint64_t storms, restores, storm_ms, actions, actions_failed, conflicts;
};

struct qp {
	uint32_t dev_index, qpn, port, pid;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	int state;
	bool counted;			/* the module counts its packets */
	bool gone;			/* destroyed after the dump: its final counts are retired */
	uint64_t v[QP_NSTATS];
};

/* A (device, port, comm) group of QPs: what its live QPs count and what its destroyed ones did. */
struct group {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	uint32_t port;
	bool counted;
	unsigned int qps[NQP_STATES];
	uint64_t live[QP_NSTATS], retired[QP_NSTATS];
};

/* A soft-RoCE device's packets that no counting QP took (the module's). */
struct dev_acct {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint64_t unattributed[QP_NSTATS];
};

struct snapshot {
	struct port *ports;
	size_t nports;
	struct dev_acct *accts;
	size_t naccts;
	bool has_unseen;
	uint64_t unseen, probe_missed;
	bool has_hook_missed;
	uint64_t qp_hook_missed;
	struct prio *prios;
	size_t nprios;
	struct qp *qps;
	size_t nqps;
};

/* Across scrapes: the event subscription, the retired counts, the last QPs seen. */
static struct {
	struct nl ev;
	uint32_t family_id;	/* of the subscription: another id is another module load */
	struct group *groups;
	size_t ngroups;
	struct qp *last;	/* the previous scrape's QPs, sorted */
	size_t nlast;
	uint64_t events_lost;
} st;

static bool grow(void **arr, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1) && n > 8)
		return true;	/* capacity doubles at powers of two */
	p = realloc(*arr, (n < 8 ? 8 : 2 * n) * size);
	if (!p)
		return false;
	*arr = p;
	return true;
}

static void kv_add(struct kvs *l, const char *name, uint64_t v)
{
	if (!grow((void **)&l->v, l->n, sizeof(*l->v)))
		return;
	snprintf(l->v[l->n].name, sizeof(l->v[l->n].name), "%s", name);
	l->v[l->n++].v = v;
}

/* --- reading the module ------------------------------------------------------- */

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct snapshot *s = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	if (tb[ROCECTL_A_DEV_UNATTRIBUTED]) {
		struct dev_acct *d;

		if (!grow((void **)&s->accts, s->naccts, sizeof(*s->accts)))
			return MNL_CB_ERROR;
		d = &s->accts[s->naccts++];
		memset(d, 0, sizeof(*d));
		snprintf(d->dev, sizeof(d->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		qp_stat_values(tb[ROCECTL_A_DEV_UNATTRIBUTED], d->unattributed);
	}
	if (tb[ROCECTL_A_DEV_QP_HOOK_MISSED]) {
		s->has_hook_missed = true;
		s->qp_hook_missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_QP_HOOK_MISSED]);
	}
	if (tb[ROCECTL_A_DEV_PKT_UNSEEN]) {
		s->has_unseen = true;
		s->unseen = mnl_attr_get_u64(tb[ROCECTL_A_DEV_PKT_UNSEEN]);
		if (tb[ROCECTL_A_DEV_PROBE_MISSED])
			s->probe_missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_PROBE_MISSED]);
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *pt[ROCECTL_A_PORT_MAX + 1];
		struct port *p;

		if (mnl_attr_get_type(a) != ROCECTL_A_DEV_PORT ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) || attrs_parse_port(a, pt) < 0 ||
		    !pt[ROCECTL_A_PORT_INDEX])
			continue;
		if (!grow((void **)&s->ports, s->nports, sizeof(*s->ports)))
			return MNL_CB_ERROR;
		p = &s->ports[s->nports++];
		memset(p, 0, sizeof(*p));
		snprintf(p->dev, sizeof(p->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		p->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
		p->port = mnl_attr_get_u32(pt[ROCECTL_A_PORT_INDEX]);
		p->state = pt[ROCECTL_A_PORT_STATE] ? mnl_attr_get_u8(pt[ROCECTL_A_PORT_STATE]) : -1;
		if (pt[ROCECTL_A_PORT_ACTIVE_MTU])
			p->active_mtu = mnl_attr_get_u32(pt[ROCECTL_A_PORT_ACTIVE_MTU]);
		if (pt[ROCECTL_A_PORT_NETDEV_NAME])
			snprintf(p->netdev, sizeof(p->netdev), "%s",
				 mnl_attr_get_str(pt[ROCECTL_A_PORT_NETDEV_NAME]));
	}
	return MNL_CB_OK;
}

static int hw_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *e;
	struct port *p = data;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_STAT_HWCOUNTERS ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED))
			continue;
		mnl_attr_for_each_nested(e, a) {
			const char *name;
			uint64_t v;

			if (nl_rdma_hwcounter(e, &name, &v))
				kv_add(&p->lists[PORT_HW], name, v);
		}
	}
	return MNL_CB_OK;
}

static void cong_values(const struct nlmsghdr *nlh, int type, struct kvs *l)
{
	const struct nlattr *a;
	const char *name;
	uint64_t v;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == type && cong_entry(a, &name, &v))
			kv_add(l, name, v);
}

static int cong_cb(const struct nlmsghdr *nlh, void *data)
{
	struct port *p = data;

	cong_values(nlh, ROCECTL_A_CONG_PARAM, &p->lists[PORT_DCQCN_PARAMS]);
	cong_values(nlh, ROCECTL_A_CONG_STAT, &p->lists[PORT_DCQCN_STATS]);
	return MNL_CB_OK;
}

static int wd_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct snapshot *s = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_NETDEV_NAME])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *p[ROCECTL_A_WDP_MAX + 1];
		struct prio *w;

		if (mnl_attr_get_type(a) != ROCECTL_A_WD_PRIO ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) || attrs_parse_wd_prio(a, p) < 0 ||
		    !p[ROCECTL_A_WDP_PRIO])
			continue;
		if (!grow((void **)&s->prios, s->nprios, sizeof(*s->prios)))
			return MNL_CB_ERROR;
		w = &s->prios[s->nprios++];
		memset(w, 0, sizeof(*w));
		snprintf(w->netdev, sizeof(w->netdev), "%s", mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]));
		snprintf(w->prio, sizeof(w->prio), "%u", mnl_attr_get_u8(p[ROCECTL_A_WDP_PRIO]));
		w->direction = p[ROCECTL_A_WDP_DIRECTION] ?
			wd_direction_name(mnl_attr_get_u8(p[ROCECTL_A_WDP_DIRECTION])) : "rx";
		w->state = p[ROCECTL_A_WDP_STATE] ? mnl_attr_get_u8(p[ROCECTL_A_WDP_STATE]) : -1;
		w->held = p[ROCECTL_A_WDP_PFC_CLEARED] && mnl_attr_get_u8(p[ROCECTL_A_WDP_PFC_CLEARED]);
#define U64(attr) (p[attr] ? mnl_attr_get_u64(p[attr]) : 0)
		w->storms = U64(ROCECTL_A_WDP_STORMS);
		w->restores = U64(ROCECTL_A_WDP_RESTORES);
		w->storm_ms = U64(ROCECTL_A_WDP_STORM_MS);
		w->actions = U64(ROCECTL_A_WDP_ACTIONS);
		w->actions_failed = U64(ROCECTL_A_WDP_ACTIONS_FAILED);
		w->conflicts = U64(ROCECTL_A_WDP_CONFLICTS);
#undef U64
	}
	return MNL_CB_OK;
}

/* A QP_GET reply or a QP event into q; false if it names no QP. */
static bool qp_parse(const struct nlmsghdr *nlh, struct qp *q)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_DEV_INDEX])
		return false;
	memset(q, 0, sizeof(*q));
	q->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	q->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(q->dev, sizeof(q->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(q->comm, sizeof(q->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	if (tb[ROCECTL_A_QP_PORT])
		q->port = mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]);
	if (tb[ROCECTL_A_QP_PID])
		q->pid = mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]);
	q->state = tb[ROCECTL_A_QP_STATE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]) : -1;
	q->counted = qp_stat_values(tb[ROCECTL_A_QP_STATS], q->v);
	return true;
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct snapshot *s = data;
	struct qp q;

	if (!qp_parse(nlh, &q))
		return MNL_CB_OK;
	if (!grow((void **)&s->qps, s->nqps, sizeof(*s->qps)))
		return MNL_CB_ERROR;
	s->qps[s->nqps++] = q;
	return MNL_CB_OK;
}

static void restart_ports(void *data)
{
	((struct snapshot *)data)->nports = 0;
	((struct snapshot *)data)->naccts = 0;
}

static void restart_prios(void *data)
{
	((struct snapshot *)data)->nprios = 0;
}

static void restart_qps(void *data)
{
	((struct snapshot *)data)->nqps = 0;
}

static int dump(struct nl *nl, uint8_t cmd, mnl_cb_t cb, void *data, void (*restart)(void *))
{
	struct nl_error e;

	return nl_run_quiet(nl, nl_request(nl, cmd, NLM_F_DUMP), cb, data, restart, &e);
}

/* --- retired QPs: the destroy events ------------------------------------------- */

static int qp_key_cmp(const void *a, const void *b)
{
	const struct qp *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return x->qpn < y->qpn ? -1 : x->qpn > y->qpn;
}

static struct group *group_of(const char *dev, uint32_t port, const char *comm)
{
	struct group *g;
	size_t i;

	for (i = 0; i < st.ngroups; i++) {
		g = &st.groups[i];
		if (g->port == port && !strcmp(g->dev, dev) && !strcmp(g->comm, comm))
			return g;
	}
	if (!grow((void **)&st.groups, st.ngroups, sizeof(*st.groups)))
		return NULL;
	g = &st.groups[st.ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->dev, sizeof(g->dev), "%s", dev);
	snprintf(g->comm, sizeof(g->comm), "%s", comm);
	g->port = port;
	return g;
}

struct drain {
	struct snapshot *s;	/* the QPs dumped so far, sorted, or NULL */
	bool gone;		/* the module went: a new subscription is needed */
};

/*
 * A destroyed QP's final counts go to its group's retired sums. Its group
 * is the one it was dumped in (this scrape's, else the previous one's);
 * a QP never dumped goes to its device and port with no comm, the event
 * carrying no owner.
 */
static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct drain *d = data;
	struct qp q, *seen = NULL;
	struct group *g;
	int i;

	if (nl_family_gone(&st.ev, nlh)) {
		d->gone = true;
		return MNL_CB_STOP;
	}
	if (nlh->nlmsg_type != st.ev.family_id || mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN ||
	    genl->cmd != ROCECTL_CMD_QP_DESTROY_NTF || !qp_parse(nlh, &q) || !q.counted)
		return MNL_CB_OK;
	if (d->s && d->s->nqps)
		seen = bsearch(&q, d->s->qps, d->s->nqps, sizeof(q), qp_key_cmp);
	if (seen)
		seen->gone = true;	/* its live counts leave with it */
	else if (st.nlast)
		seen = bsearch(&q, st.last, st.nlast, sizeof(q), qp_key_cmp);
	g = seen ? group_of(seen->dev, seen->port, seen->comm) : group_of(q.dev, q.port, "");
	if (!g)
		return MNL_CB_OK;
	g->counted = true;
	for (i = 0; i < QP_NSTATS; i++)
		g->retired[i] += q.v[i];
	return MNL_CB_OK;
}

/* Take every event already queued; false if the subscription is gone or broken. */
static bool drain_events(struct snapshot *s)
{
	struct drain d = { .s = s };
	int ret;

	if (!st.ev.sock)
		return false;
	for (;;) {
		ret = mnl_socket_recvfrom(st.ev.sock, st.ev.buf, 64 * 1024);
		if (ret < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return true;
			if (errno == ENOBUFS) {
				st.events_lost++;
				continue;
			}
			return false;
		}
		if (mnl_cb_run(st.ev.buf, ret, 0, 0, event_cb, &d) < 0 || d.gone)
			return false;
	}
}

/* Subscribe anew after a module load: what was retired counted the old one's QPs. */
static bool subscribe(uint32_t family_id)
{
	if (st.ev.sock && st.family_id == family_id)
		return true;
	nl_close(&st.ev);
	free(st.groups);
	free(st.last);
	st.groups = NULL;
	st.last = NULL;
	st.ngroups = st.nlast = 0;
	if (nl_open(&st.ev, true) != EXIT_OK)
		return false;
	if (nl_subscribe(&st.ev) != EXIT_OK ||
	    fcntl(mnl_socket_get_fd(st.ev.sock), F_SETFL, O_NONBLOCK) < 0) {
		nl_close(&st.ev);
		return false;
	}
	st.family_id = st.ev.family_id;
	return true;
}

/* --- writing -------------------------------------------------------------------- */

#define L(n, v) { .name = (n), .value = (v) }

/* One family of a port list's values, labelled with the port and the value's name. */
static void write_port_list(struct prom *p, const struct snapshot *s, int list,
			    const char *name, enum prom_type type, const char *help,
			    const char *label)
{
	char port[12];
	size_t i, j;

	prom_family(p, name, type, help);
	for (i = 0; i < s->nports; i++) {
		const struct kvs *l = &s->ports[i].lists[list];

		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		for (j = 0; j < l->n; j++) {
			struct prom_label lb[] = { L("device", s->ports[i].dev), L("port", port),
						   L(label, l->v[j].name) };

			prom_u64(p, lb, 3, l->v[j].v);
		}
	}
}

static void write_ports(struct prom *p, const struct snapshot *s)
{
	char port[12];
	size_t i;

	prom_family(p, "rocectl_port_state", PROM_GAUGE,
		    "The RDMA port's state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER.");
	for (i = 0; i < s->nports; i++) {
		const struct port *q = &s->ports[i];
		struct prom_label l[] = { L("device", q->dev), L("port", port), L("netdev", q->netdev) };

		snprintf(port, sizeof(port), "%u", q->port);
		if (q->state >= 0)
			prom_u64(p, l, 3, q->state);
	}
	prom_family(p, "rocectl_port_active_mtu_bytes", PROM_GAUGE,
		    "The RDMA port's active MTU (path MTU of its RoCE packets), 0 if unknown.");
	for (i = 0; i < s->nports; i++) {
		struct prom_label l[] = { L("device", s->ports[i].dev), L("port", port) };

		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		prom_u64(p, l, 2, s->ports[i].active_mtu);
	}
	write_port_list(p, s, PORT_HW, "rocectl_port_driver_stat", PROM_COUNTER,
			"The RDMA driver's own port counters, as rdma statistic show lists them.",
			"counter");
	write_port_list(p, s, PORT_DCQCN_PARAMS, "rocectl_dcqcn_parameter", PROM_GAUGE,
			"DCQCN parameters of the port, read from the NIC's firmware by its backend.",
			"parameter");
	write_port_list(p, s, PORT_DCQCN_STATS, "rocectl_dcqcn_stat", PROM_COUNTER,
			"Congestion counters of the port, read from the NIC by its backend.",
			"counter");
}

static void write_watchdog(struct prom *p, const struct snapshot *s)
{
	static const struct {
		const char *name, *help;
		size_t off;
		enum prom_type type;
	} fields[] = {
		{ "rocectl_watchdog_pfc_held", "1 while the watchdog holds the priority's PFC cleared (forward).",
		  offsetof(struct prio, held), PROM_GAUGE },
		{ "rocectl_watchdog_storms", "PFC storms detected on the priority.",
		  offsetof(struct prio, storms), PROM_COUNTER },
		{ "rocectl_watchdog_restores", "Storms the watchdog saw end and restored.",
		  offsetof(struct prio, restores), PROM_COUNTER },
		{ "rocectl_watchdog_actions", "Actions taken on storms (PFC cleared or set back).",
		  offsetof(struct prio, actions), PROM_COUNTER },
		{ "rocectl_watchdog_actions_failed", "Actions the driver refused.",
		  offsetof(struct prio, actions_failed), PROM_COUNTER },
		{ "rocectl_watchdog_conflicts", "PFC changes by others found while the watchdog held the priority.",
		  offsetof(struct prio, conflicts), PROM_COUNTER },
	};
	unsigned int k;
	size_t i, f;

	prom_family(p, "rocectl_watchdog_state", PROM_GAUGE,
		    "The watched priority's state: 1 for the state it is in, 0 for the others.");
	for (i = 0; i < s->nprios; i++) {
		const struct prio *w = &s->prios[i];

		for (k = 0; k < WD_NSTATES; k++) {
			struct prom_label l[] = { L("netdev", w->netdev), L("prio", w->prio),
						  L("direction", w->direction),
						  L("state", wd_state_name(k)) };

			prom_u64(p, l, 4, w->state == (int)k);
		}
	}
	for (f = 0; f < ARRAY_SIZE(fields); f++) {
		prom_family(p, fields[f].name, fields[f].type, fields[f].help);
		for (i = 0; i < s->nprios; i++) {
			const struct prio *w = &s->prios[i];
			const char *at = (const char *)w + fields[f].off;
			struct prom_label l[] = { L("netdev", w->netdev), L("prio", w->prio),
						  L("direction", w->direction) };

			prom_u64(p, l, 3, fields[f].type == PROM_GAUGE ? *(const bool *)at :
				 *(const uint64_t *)at);
		}
	}
	prom_family(p, "rocectl_watchdog_storm_seconds", PROM_COUNTER,
		    "Time the priority spent in storms, all storms.");
	for (i = 0; i < s->nprios; i++) {
		struct prom_label l[] = { L("netdev", s->prios[i].netdev), L("prio", s->prios[i].prio),
					  L("direction", s->prios[i].direction) };

		prom_double(p, l, 3, s->prios[i].storm_ms / 1000.0);
	}
}

static int top_by;

static int busier(const void *a, const void *b)
{
	const struct qp *x = *(const struct qp *const *)a, *y = *(const struct qp *const *)b;

	if (x->v[top_by] != y->v[top_by])
		return x->v[top_by] > y->v[top_by] ? -1 : 1;
	return qp_key_cmp(x, y);
}

/* What no QP's counters hold: packets no counting QP took, packets not seen. */
static void write_unattributed(struct prom *p, const struct snapshot *s)
{
	static const int stats[] = {
		ROCECTL_A_QP_STAT_TX_PACKETS, ROCECTL_A_QP_STAT_TX_BYTES,
		ROCECTL_A_QP_STAT_RX_PACKETS, ROCECTL_A_QP_STAT_RX_BYTES,
		ROCECTL_A_QP_STAT_RX_ECN_CE,
	};
	char name[96], help[200];
	unsigned int k;
	size_t i;

	for (k = 0; k < ARRAY_SIZE(stats); k++) {
		int j = stats[k] - ROCECTL_A_QP_STAT_TX_PACKETS;

		snprintf(name, sizeof(name), "rocectl_device_unattributed_%s", qp_stat_name(j));
		snprintf(help, sizeof(help),
			 "The device's packets no counting QP took (%s): unknown or destroyed QPN, QP before RTR (soft-RoCE).",
			 qp_stat_name(j));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < s->naccts; i++) {
			struct prom_label l[] = { L("device", s->accts[i].dev) };

			prom_u64(p, l, 1, s->accts[i].unattributed[j]);
		}
	}
	if (s->has_hook_missed) {
		prom_family(p, "rocectl_qp_hook_missed", PROM_COUNTER,
			    "Calls of the RDMA core's QP verbs the module's hooks missed (more in progress at once than it follows), all devices: the QPs live then are marked incomplete.");
		prom_u64(p, NULL, 0, s->qp_hook_missed);
	}
	if (!s->has_unseen)
		return;
	prom_family(p, "rocectl_packets_unseen", PROM_COUNTER,
		    "Soft-RoCE packets the module took but could not read, all devices: packets still in segments, headers too short to parse.");
	prom_u64(p, NULL, 0, s->unseen);
	prom_family(p, "rocectl_loopback_probe_missed", PROM_COUNTER,
		    "Hits of the soft-RoCE loopback probe the kernel skipped (another probe ran on the CPU), all devices: a loopback packet each goes uncounted.");
	prom_u64(p, NULL, 0, s->probe_missed);
}

static void write_qps(struct prom *p, const struct snapshot *s, const struct metrics_opts *o)
{
	char port[12], qpn[12], pid[12], name[96], help[160];
	const struct qp **top;
	size_t i, n = 0;
	unsigned int k;

	/* Live QPs into their groups: the groups keep what their dead QPs counted. */
	for (i = 0; i < st.ngroups; i++) {
		memset(st.groups[i].qps, 0, sizeof(st.groups[i].qps));
		memset(st.groups[i].live, 0, sizeof(st.groups[i].live));
	}
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];
		struct group *g = group_of(q->dev, q->port, q->comm);

		if (!g)
			continue;
		if (q->state >= 0 && q->state < NQP_STATES && !q->gone)
			g->qps[q->state]++;
		if (!q->counted || q->gone)
			continue;
		g->counted = true;
		for (k = 0; k < QP_NSTATS; k++)
			g->live[k] += q->v[k];
	}
	prom_family(p, "rocectl_qps", PROM_GAUGE,
		    "Live QPs by device, port, owner's command name and state.");
	for (i = 0; i < st.ngroups; i++) {
		const struct group *g = &st.groups[i];

		snprintf(port, sizeof(port), "%u", g->port);
		for (k = 0; k < NQP_STATES; k++) {
			struct prom_label l[] = { L("device", g->dev), L("port", port),
						  L("comm", g->comm), L("state", qp_state_name(k)) };

			if (g->qps[k])
				prom_u64(p, l, 4, g->qps[k]);
		}
	}
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help),
			 "Per-QP %s summed over the QPs of a device, port and command name, destroyed ones included (soft-RoCE).",
			 qp_stat_name(k));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < st.ngroups; i++) {
			const struct group *g = &st.groups[i];
			struct prom_label l[] = { L("device", g->dev), L("port", port), L("comm", g->comm) };

			snprintf(port, sizeof(port), "%u", g->port);
			if (g->counted)
				prom_u64(p, l, 3, g->live[k] + g->retired[k]);
		}
	}

	/* The busiest live QPs, one by one. */
	top = calloc(s->nqps ? s->nqps : 1, sizeof(*top));
	if (!top)
		return;
	for (i = 0; i < s->nqps; i++)
		if (s->qps[i].counted && !s->qps[i].gone)
			top[n++] = &s->qps[i];
	top_by = o->top_by;
	qsort(top, n, sizeof(*top), busier);
	if (n > o->top)
		n = o->top;
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_top_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help), "Per-QP %s of the %u live QPs with the most %s.",
			 qp_stat_name(k), o->top, qp_stat_name(o->top_by));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < n; i++) {
			struct prom_label l[] = { L("device", top[i]->dev), L("port", port),
						  L("qpn", qpn), L("pid", pid), L("comm", top[i]->comm) };

			snprintf(port, sizeof(port), "%u", top[i]->port);
			snprintf(qpn, sizeof(qpn), "%u", top[i]->qpn);
			if (top[i]->pid)
				snprintf(pid, sizeof(pid), "%u", top[i]->pid);
			else
				pid[0] = '\0';
			prom_u64(p, l, 5, top[i]->v[k]);
		}
	}
	free(top);
}

static void free_snapshot(struct snapshot *s)
{
	size_t i;
	int k;

	for (i = 0; i < s->nports; i++)
		for (k = 0; k < PORT_NLISTS; k++)
			free(s->ports[i].lists[k].v);
	free(s->ports);
	free(s->accts);
	free(s->prios);
	free(s->qps);
}

int metrics_counter(const char *name)
{
	unsigned int i;

	for (i = 0; i < QP_NSTATS; i++)
		if (!strcmp(name, qp_stat_name(i)))
			return i;
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void metrics_write(struct prom *p, const struct metrics_opts *o, struct metrics_health *h)
{
	struct snapshot s = { .ports = NULL };
	double t0 = now();
	bool up, failed = false;
	struct nl nl, rdma;
	struct nl_error e;
	size_t i;

	h->scrapes++;
	up = nl_open(&nl, true) == EXIT_OK;
	if (up) {
		/* Destroys queued before the dump leave their QPs out of it. */
		if (!subscribe(nl.family_id) || !drain_events(NULL)) {
			nl_close(&st.ev);
			failed = true;
		}
		failed |= dump(&nl, ROCECTL_CMD_DEV_GET, dev_cb, &s, restart_ports) != 0;
		failed |= dump(&nl, ROCECTL_CMD_WD_GET, wd_cb, &s, restart_prios) != 0;
		failed |= dump(&nl, ROCECTL_CMD_QP_GET, qp_cb, &s, restart_qps) != 0;
		if (s.nqps)
			qsort(s.qps, s.nqps, sizeof(*s.qps), qp_key_cmp);
		/* Destroys during the dump: their final counts replace the dumped ones. */
		if (st.ev.sock && !drain_events(&s)) {
			nl_close(&st.ev);
			failed = true;
		}
		if (nl_open_rdma(&rdma) == EXIT_OK) {
			for (i = 0; i < s.nports; i++) {
				struct nlmsghdr *nlh = nl_request_rdma(&rdma, RDMA_NLDEV_CMD_STAT_GET, 0);

				mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, s.ports[i].dev_index);
				mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, s.ports[i].port);
				/* A driver without port counters refuses: nothing to show. */
				nl_run_quiet(&rdma, nlh, hw_cb, &s.ports[i], NULL, &e);
			}
			nl_close(&rdma);
		} else {
			failed = true;
		}
		for (i = 0; i < s.nports; i++) {
			struct nlmsghdr *nlh = nl_request(&nl, ROCECTL_CMD_CONG_GET, 0);

			mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, s.ports[i].dev_index);
			mnl_attr_put_u32(nlh, ROCECTL_A_CONG_PORT, s.ports[i].port);
			/* EOPNOTSUPP: no backend serves the port. */
			if (nl_run_quiet(&nl, nlh, cong_cb, &s.ports[i], NULL, &e) &&
			    e.err != EOPNOTSUPP)
				failed = true;
		}
		nl_close(&nl);
		write_ports(p, &s);
		write_watchdog(p, &s);
		write_qps(p, &s, o);
		write_unattributed(p, &s);
		/* The next scrape attributes this one's QPs when they go. */
		free(st.last);
		st.last = s.qps;
		st.nlast = s.nqps;
		s.qps = NULL;
	}
	if (failed)
		h->errors++;
	free_snapshot(&s);

	prom_family(p, "rocectl_up", PROM_GAUGE, "1 if the rocectl module answered this scrape, else 0.");
	prom_u64(p, NULL, 0, up);
	prom_family(p, "rocectl_scrapes", PROM_COUNTER, "Scrapes served since the exporter started.");
	prom_u64(p, NULL, 0, h->scrapes);
	prom_family(p, "rocectl_scrape_errors", PROM_COUNTER,
		    "Scrapes in which a request to the kernel failed (the metrics of that part are missing).");
	prom_u64(p, NULL, 0, h->errors);
	prom_family(p, "rocectl_events_lost", PROM_COUNTER,
		    "Times the kernel dropped events for the exporter (its socket overflowed): QP sums may have dipped.");
	prom_u64(p, NULL, 0, st.events_lost);
	prom_family(p, "rocectl_scrape_duration_seconds", PROM_GAUGE,
		    "Time this scrape took to read the kernel and write the metrics.");
	prom_double(p, NULL, 0, now() - t0);
	prom_end(p);
}
