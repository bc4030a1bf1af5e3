// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's reading: each scrape reads the module afresh (one dump
 * of the devices, the watches and the QPs; the driver's port counters and
 * DCQCN where a backend serves it) into a snapshot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "dev/dcqcn.h"
#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/rdma_stat.h"
#include "lib/utils.h"
#include "metrics_read.h"
#include "qp/qp_follow.h"
#include "qp/qp_hw_cong.h"
#include "qp/qp_sport.h"
#include "watchdog/watchdog.h"

static void kv_add(struct kvs *l, const char *name, uint64_t v)
{
	if (!grow_array((void **)&l->v, l->n, sizeof(*l->v)))
		return;
	snprintf(l->v[l->n].name, sizeof(l->v[l->n].name), "%s", name);
	l->v[l->n++].v = v;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct snapshot *s = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	if (tb[ROCECTL_A_DEV_UNATTRIBUTED]) {
		struct dev_acct *d;

		if (!grow_array((void **)&s->accts, s->naccts, sizeof(*s->accts)))
			return MNL_CB_ERROR;
		d = &s->accts[s->naccts++];
		memset(d, 0, sizeof(*d));
		snprintf(d->dev, sizeof(d->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		qp_stat_values(tb[ROCECTL_A_DEV_UNATTRIBUTED], d->unattributed);
	}
	if (tb[ROCECTL_A_DEV_DEVX_MISSED]) {
		struct devx_miss *x;

		if (!grow_array((void **)&s->devx, s->ndevx, sizeof(*s->devx)))
			return MNL_CB_ERROR;
		x = &s->devx[s->ndevx++];
		snprintf(x->dev, sizeof(x->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		x->missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_DEVX_MISSED]);
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
		if (!grow_array((void **)&s->ports, s->nports, sizeof(*s->ports)))
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
	if (tb[ROCECTL_A_WD_STALL_WARNINGS] || tb[ROCECTL_A_WD_STALL_ERRORS]) {
		struct stall *st;

		if (!grow_array((void **)&s->stalls, s->nstalls, sizeof(*s->stalls)))
			return MNL_CB_ERROR;
		st = &s->stalls[s->nstalls++];
		memset(st, 0, sizeof(*st));
		snprintf(st->netdev, sizeof(st->netdev), "%s", mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]));
		if (tb[ROCECTL_A_WD_STALL_WARNINGS])
			st->warnings = mnl_attr_get_u64(tb[ROCECTL_A_WD_STALL_WARNINGS]);
		if (tb[ROCECTL_A_WD_STALL_ERRORS])
			st->errors = mnl_attr_get_u64(tb[ROCECTL_A_WD_STALL_ERRORS]);
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *p[ROCECTL_A_WDP_MAX + 1];
		struct prio *w;

		if (mnl_attr_get_type(a) != ROCECTL_A_WD_PRIO ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) || attrs_parse_wd_prio(a, p) < 0 ||
		    !p[ROCECTL_A_WDP_PRIO])
			continue;
		if (!grow_array((void **)&s->prios, s->nprios, sizeof(*s->prios)))
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
		if (p[ROCECTL_A_WDP_BLAST_QPS]) {
			w->has_blast = true;
			w->blast_qps = mnl_attr_get_u32(p[ROCECTL_A_WDP_BLAST_QPS]);
			w->blast_procs = p[ROCECTL_A_WDP_BLAST_PROCS] ?
				mnl_attr_get_u32(p[ROCECTL_A_WDP_BLAST_PROCS]) : 0;
		}
#undef U64
	}
	return MNL_CB_OK;
}

/* A QP_GET reply into q; false if it names no QP. */
static bool metrics_qp_parse(const struct nlmsghdr *nlh, struct qp *q)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_sport sp;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_DEV_INDEX])
		return false;
	memset(q, 0, sizeof(*q));
	q->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	q->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(q->dev, sizeof(q->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(q->comm, sizeof(q->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	if (tb[ROCECTL_A_QP_CGROUP])
		q->cgroup = mnl_attr_get_u64(tb[ROCECTL_A_QP_CGROUP]);
	if (tb[ROCECTL_A_QP_PORT])
		q->port = mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]);
	if (tb[ROCECTL_A_QP_PID])
		q->pid = mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]);
	q->state = tb[ROCECTL_A_QP_STATE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]) : -1;
	q->prio = tb[ROCECTL_A_QP_PRIO] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_PRIO]) : -1;
	q->prio_source = qp_prio_source_name(tb[ROCECTL_A_QP_PRIO_SOURCE] ?
					     mnl_attr_get_u8(tb[ROCECTL_A_QP_PRIO_SOURCE]) : 0);
	/* The module's sources: top QPs are counted ones, whose NIC is not read. */
	qp_sport_best(tb, NULL, &sp);
	q->sport = sp.port;
	q->counted = qp_stat_values(tb[ROCECTL_A_QP_STATS], q->v);
	return true;
}

static int qp_cb(const struct nlmsghdr *nlh, void *data)
{
	struct snapshot *s = data;
	struct qp q;

	if (!metrics_qp_parse(nlh, &q))
		return MNL_CB_OK;
	if (!grow_array((void **)&s->qps, s->nqps, sizeof(*s->qps)))
		return MNL_CB_ERROR;
	s->qps[s->nqps++] = q;
	return MNL_CB_OK;
}

static int retired_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct snapshot *s = data;
	struct retired *r;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_QP_STATS])
		return MNL_CB_OK;
	if (!grow_array((void **)&s->retired, s->nretired, sizeof(*s->retired)))
		return MNL_CB_ERROR;
	r = &s->retired[s->nretired];
	memset(r, 0, sizeof(*r));
	r->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(r->dev, sizeof(r->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	r->other = tb[ROCECTL_A_QP_RETIRED_OTHER];
	if (!r->other && tb[ROCECTL_A_QP_COMM])
		snprintf(r->comm, sizeof(r->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	if (!r->other && tb[ROCECTL_A_QP_CGROUP])
		r->cgroup = mnl_attr_get_u64(tb[ROCECTL_A_QP_CGROUP]);
	if (!r->other && tb[ROCECTL_A_QP_PORT])
		r->port = mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]);
	if (qp_stat_values(tb[ROCECTL_A_QP_STATS], r->v))
		s->nretired++;
	return MNL_CB_OK;
}

static int err_count_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct snapshot *s = data;
	struct qp_err_count *c;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_ERROR_COUNT] ||
	    !tb[ROCECTL_A_QP_ERROR_CAUSE])
		return MNL_CB_OK;
	if (!grow_array((void **)&s->errs, s->nerrs, sizeof(*s->errs)))
		return MNL_CB_ERROR;
	c = &s->errs[s->nerrs++];
	memset(c, 0, sizeof(*c));
	c->other = tb[ROCECTL_A_QP_ERROR_OTHER];
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(c->dev, sizeof(c->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(c->comm, sizeof(c->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	c->cause = mnl_attr_get_u8(tb[ROCECTL_A_QP_ERROR_CAUSE]);
	c->count = mnl_attr_get_u64(tb[ROCECTL_A_QP_ERROR_COUNT]);
	return MNL_CB_OK;
}

static void restart_errs(void *data)
{
	((struct snapshot *)data)->nerrs = 0;
}

static void restart_retired(void *data)
{
	((struct snapshot *)data)->nretired = 0;
}

static void restart_ports(void *data)
{
	((struct snapshot *)data)->nports = 0;
	((struct snapshot *)data)->naccts = 0;
	((struct snapshot *)data)->ndevx = 0;
}

static void restart_prios(void *data)
{
	((struct snapshot *)data)->nprios = 0;
	((struct snapshot *)data)->nstalls = 0;
}

static int dump(struct nl *nl, uint8_t cmd, mnl_cb_t cb, void *data, void (*restart)(void *))
{
	struct nl_error e;

	return nl_run_quiet(nl, nl_request(nl, cmd, NLM_F_DUMP), cb, data, restart, &e);
}

int metrics_qp_cmp(const void *a, const void *b)
{
	const struct qp *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return x->qpn < y->qpn ? -1 : x->qpn > y->qpn;
}

/*
 * A bound of the module (retired_groups, error_records: its parameter,
 * clamped to 1-65536 as the module clamps it), or 0 if it cannot be read.
 */
static unsigned int module_param_u32(const char *name)
{
	unsigned int v = 0;
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/rocectl/parameters/%s", name);
	f = fopen(path, "re");

	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v < 1 ? 0 : v > 65536 ? 65536 : v;
}

bool metrics_read_module(struct nl *nl, struct snapshot *s)
{
	bool failed = false;
	struct nl_error e;
	size_t i, n;

	s->retired_max = module_param_u32("retired_groups");
	s->err_records = module_param_u32("error_records");

	failed |= dump(nl, ROCECTL_CMD_DEV_GET, dev_cb, s, restart_ports) != 0;
	failed |= dump(nl, ROCECTL_CMD_WD_GET, wd_cb, s, restart_prios) != 0;
	failed |= dump(nl, ROCECTL_CMD_QP_RETIRED_GET, retired_cb, s, restart_retired) != 0;
	failed |= dump(nl, ROCECTL_CMD_QP_ERROR_COUNT_GET, err_count_cb, s, restart_errs) != 0;
	/*
	 * One pass: under QP churn a dump is interrupted again and again,
	 * and each try costs a scrape's time. A QP it misses makes its
	 * group's sum dip (held, metrics_sums.h); one seen twice is dropped.
	 * None can be counted twice with the destroyed QPs' groups, read
	 * before: a QP is in those only once it has left the QP table.
	 */
	failed |= nl_run_once(nl, nl_request(nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP), qp_cb, s, &e) != 0;
	s->qps_interrupted = nl->interrupted;
	if (s->nqps) {
		qsort(s->qps, s->nqps, sizeof(*s->qps), metrics_qp_cmp);
		for (i = 1, n = 1; i < s->nqps; i++)
			if (metrics_qp_cmp(&s->qps[n - 1], &s->qps[i]))
				s->qps[n++] = s->qps[i];
		s->nqps = n;
	}
	return !failed;
}

static void count_wait(struct snapshot *s, const char *dev, int why)
{
	struct set_wait *grown;
	size_t i;

	for (i = 0; i < s->nwaits && strcmp(s->waits[i].dev, dev); i++)
		;
	if (i == s->nwaits) {
		grown = realloc(s->waits, (s->nwaits + 1) * sizeof(*grown));
		if (!grown)
			return;
		s->waits = grown;
		memset(&grown[i], 0, sizeof(grown[i]));
		snprintf(grown[i].dev, sizeof(grown[i].dev), "%s", dev);
		s->nwaits++;
	}
	if (why == QPC_WAIT_MAX)
		s->waits[i].max++;
	else
		s->waits[i].full++;
}

/*
 * The hardware QPs' congestion counts (the module sees none of their
 * packets): their counter sets' congestion counters, one dump of the RDMA
 * core's counters per device that has such QPs. A device that refuses
 * (no counters) has none to give.
 */
static void read_hw_cong(struct nl *rdma, struct snapshot *s)
{
	struct qpc_list l = { 0 };
	struct nl_error e;
	size_t i, j;

	for (i = 0; i < s->nqps; i++) {
		bool seen = false;

		if (s->qps[i].counted)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = !s->qps[j].counted && s->qps[j].dev_index == s->qps[i].dev_index;
		if (!seen)
			qpc_dump(rdma, s->qps[i].dev_index, 0, &l, &e);
	}
	follow_fold(&l, NULL);
	for (i = 0; i < s->nqps && l.n; i++) {
		const struct qpc_counter *c;

		if (s->qps[i].counted)
			continue;
		c = qpc_find(&l, s->qps[i].dev_index, s->qps[i].port, s->qps[i].qpn);
		s->qps[i].hw_cong = qp_hw_cong_values(c, s->qps[i].v);
		if (c && c->waiting != QPC_WAIT_NONE)
			count_wait(s, s->qps[i].dev, c->waiting);
	}
	qpc_list_free(&l);
}

bool metrics_read_ports(struct nl *nl, struct snapshot *s)
{
	struct rdma_port_stats ps;
	bool failed = false;
	struct nl_error e;
	struct nl rdma;
	size_t i, j;

	if (nl_open_rdma(&rdma) == EXIT_OK) {
		for (i = 0; i < s->nports; i++) {
			/* A driver without port counters refuses: nothing to show. */
			if (rdma_port_stats(&rdma, s->ports[i].dev_index, s->ports[i].port, &ps, &e))
				continue;
			for (j = 0; j < ps.nhw; j++)
				kv_add(&s->ports[i].lists[PORT_HW], ps.hw[j].name, ps.hw[j].value);
			rdma_port_stats_free(&ps);
		}
		read_hw_cong(&rdma, s);
		nl_close(&rdma);
	} else {
		failed = true;
	}
	for (i = 0; i < s->nports; i++) {
		struct nlmsghdr *nlh = nl_request(nl, ROCECTL_CMD_CONG_GET, 0);

		mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, s->ports[i].dev_index);
		mnl_attr_put_u32(nlh, ROCECTL_A_CONG_PORT, s->ports[i].port);
		/* EOPNOTSUPP: no backend serves the port. */
		if (nl_run_quiet(nl, nlh, cong_cb, &s->ports[i], NULL, &e) &&
		    e.err != EOPNOTSUPP)
			failed = true;
	}
	return !failed;
}

void metrics_snapshot_free(struct snapshot *s)
{
	size_t i;
	int k;

	for (i = 0; i < s->nports; i++)
		for (k = 0; k < PORT_NLISTS; k++)
			free(s->ports[i].lists[k].v);
	free(s->ports);
	free(s->accts);
	free(s->prios);
	free(s->stalls);
	free(s->qps);
	free(s->retired);
	free(s->errs);
	free(s->waits);
	free(s->devx);
}
