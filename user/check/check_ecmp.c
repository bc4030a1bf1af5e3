// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check, ECMP entropy (ecmp): the network's ECMP hashes RoCEv2 on
 * the UDP 5-tuple, whose only per-QP part is the UDP source port. QPs to
 * one destination on one source port take one path; a process whose many
 * QPs leave on a handful of ports spreads over a handful of paths. The
 * ports are each QP's best (qp_sport.h): the hardware's QP context (mlx5),
 * else seen on the wire (soft-RoCE), else the kernel's rule's
 * (rdma_get_udp_sport).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/attrs.h"
#include "lib/utils.h"
#include "qp/qp_fields.h"
#include "qp/qp_sport.h"

/* A process with this many QPs or more ... */
#define ECMP_MANY_QPS		8
/* ... over at most one port per this many of them uses a handful. */
#define ECMP_QPS_PER_PORT	4
/* Destinations and processes named in one finding; the rest are counted. */
#define ECMP_SHOWN		3

#define ECMP_RULE_FIX \
	"give the QPs to one destination distinct GRH flow labels (the port follows the flow label), or more QPs per connection (NCCL: NCCL_IB_QPS_PER_CONNECTION=4)"

struct ecmp_scan {
	const struct check_port *p;
	struct ecmp_qp *q;
	size_t n;
	bool oom;
	struct qp_sport_hw hw;
};

static bool connected(unsigned int type)
{
	return type == ROCECTL_QPT_RC || type == ROCECTL_QPT_UC ||
	       type == ROCECTL_QPT_XRC_INI || type == ROCECTL_QPT_XRC_TGT;
}

static int ecmp_qps_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct ecmp_scan *s = data;
	struct qp_sport sp;
	struct ecmp_qp *q;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_TYPE] || !tb[ROCECTL_A_QP_DGID] ||
	    !connected(mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE])) ||
	    (!tb[ROCECTL_A_QP_SPORT_WIRE] && !tb[ROCECTL_A_QP_SPORT_RULE]))
		return MNL_CB_OK;
	if (!qp_live_on(tb, s->p->port))
		return MNL_CB_OK;
	if (!grow_array((void **)&s->q, s->n, sizeof(*s->q))) {
		s->oom = true;
		return MNL_CB_ERROR;
	}
	q = &s->q[s->n++];
	memset(q, 0, sizeof(*q));
	memcpy(q->dgid, mnl_attr_get_payload(tb[ROCECTL_A_QP_DGID]), sizeof(q->dgid));
	qp_sport_best(tb, &s->hw, &sp);
	q->rule = sp.rule;
	q->sport = sp.port;
	q->wire = sp.source == QP_SPORT_WIRE;
	q->hw = sp.source == QP_SPORT_HW;
	if (tb[ROCECTL_A_QP_PID])
		q->pid = mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]);
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(q->comm, sizeof(q->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	return MNL_CB_OK;
}

static void ecmp_qps_restart(void *data)
{
	((struct ecmp_scan *)data)->n = 0;
}

/* --- the judgement ------------------------------------------------------------- */

static int by_dest_port(const void *a, const void *b)
{
	const struct ecmp_qp *x = a, *y = b;
	int r = memcmp(x->dgid, y->dgid, sizeof(x->dgid));

	return r ? r : (x->sport > y->sport) - (x->sport < y->sport);
}

static int by_pid_port(const void *a, const void *b)
{
	const struct ecmp_qp *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->sport > y->sport) - (x->sport < y->sport);
}

static int cmp_port(const void *a, const void *b)
{
	unsigned int x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x > y) - (x < y);
}

/* Distinct values among n ports (sorted in place). */
static size_t distinct_ports(uint16_t *v, size_t n)
{
	size_t i, d = 0;

	qsort(v, n, sizeof(*v), cmp_port);
	for (i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

/* Who owns q[0..n): "of pid P (comm)", "of K processes", the kernel, or an owner out of sight. */
static void owners(const struct ecmp_qp *q, size_t n, char *buf, size_t len)
{
	size_t i, k = 1;

	for (i = 1; i < n; i++) {
		size_t j;

		for (j = 0; j < i && q[j].pid != q[i].pid; j++)
			;
		k += j == i;
	}
	if (k > 1)
		snprintf(buf, len, "of %zu processes", k);
	else if (q[0].pid)
		snprintf(buf, len, "of pid %u (%s)", q[0].pid, q[0].comm);
	else if (*q[0].comm)
		snprintf(buf, len, "of the kernel (%s)", q[0].comm);
	else
		snprintf(buf, len, "of a process outside this pid namespace");
}

/*
 * The fix for QPs q[0..n) sharing ports: where the ports are the
 * kernel's rule's, flow labels or more QPs; where a process set them
 * itself (the wire's differ from the rule's), its port base.
 */
static void fix_for(const struct ecmp_qp *q, size_t n, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((q[i].wire || q[i].hw) && q[i].rule && q[i].sport != q[i].rule)
			break;
	if (i == n) {
		snprintf(buf, len, "%s", ECMP_RULE_FIX);
		return;
	}
	snprintf(buf, len,
		 "pid %u sets its QPs' source ports itself (the kernel's rule gives another): widen its port base (mlx5dv_modify_qp_udp_sport, the application's setting)",
		 q[i].pid);
}

/* Runs of one port in q[i..j), sorted by port: how many, and the longest. */
static size_t port_runs(const struct ecmp_qp *q, size_t i, size_t j,
			size_t *top, uint16_t *top_port)
{
	size_t k, e, d = 0;

	*top = 0;
	for (k = i; k < j; k = e) {
		for (e = k + 1; e < j && q[e].sport == q[k].sport; e++)
			;
		d++;
		if (e - k > *top) {
			*top = e - k;
			*top_port = q[k].sport;
		}
	}
	return d;
}

/* QPs to one destination sharing a source port take one path: a WARN per destination. */
static size_t judge_dests(struct ecmp_qp *q, size_t n, struct finding *f)
{
	char dst[64], who[64], fix[320];
	size_t i, j, d, top, warned = 0;
	uint16_t top_port = 0;

	qsort(q, n, sizeof(*q), by_dest_port);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !memcmp(q[j].dgid, q[i].dgid, sizeof(q[i].dgid)); j++)
			;
		d = port_runs(q, i, j, &top, &top_port);
		if (d == j - i || ++warned > ECMP_SHOWN)
			continue;
		qp_format_gid(q[i].dgid, dst, sizeof(dst));
		owners(q + i, j - i, who, sizeof(who));
		fix_for(q + i, j - i, fix, sizeof(fix));
		finding_add(f, CHECK_WARN, fix,
			    "%zu QPs %s to %s over %zu source port%s (port %u carries %zu of them): QPs on one port take one ECMP path",
			    j - i, who, dst, d, d == 1 ? "" : "s", top_port, top);
	}
	if (warned > ECMP_SHOWN)
		finding_add(f, CHECK_WARN, NULL, "%zu more destinations like these",
			    warned - ECMP_SHOWN);
	return warned;
}

/*
 * A process with many QPs to several destinations over a handful of
 * ports (every QP from one port, as a fixed port base gives): a WARN per
 * process. Kernel QPs (pid 0) are left to the destinations' judgement.
 */
static void judge_processes(struct ecmp_qp *q, size_t n, struct finding *f)
{
	char fix[320];
	size_t i, j, k, d, dests, top, warned = 0;
	uint16_t top_port = 0;

	qsort(q, n, sizeof(*q), by_pid_port);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && q[j].pid == q[i].pid; j++)
			;
		if (!q[i].pid || j - i < ECMP_MANY_QPS)
			continue;
		d = port_runs(q, i, j, &top, &top_port);
		if (d * ECMP_QPS_PER_PORT > j - i)
			continue;
		for (dests = 0, k = i; k < j; k++) {
			size_t m;

			for (m = i; m < k && memcmp(q[m].dgid, q[k].dgid, sizeof(q[k].dgid)); m++)
				;
			dests += m == k;
		}
		/* To one destination: judge_dests said it. */
		if (dests < 2 || ++warned > ECMP_SHOWN)
			continue;
		fix_for(q + i, j - i, fix, sizeof(fix));
		finding_add(f, CHECK_WARN, fix,
			    "pid %u (%s): %zu QPs to %zu destinations over %zu source port%s (port %u carries %zu of them)",
			    q[i].pid, q[i].comm, j - i, dests, d, d == 1 ? "" : "s", top_port, top);
	}
	if (warned > ECMP_SHOWN)
		finding_add(f, CHECK_WARN, NULL, "%zu more processes like these",
			    warned - ECMP_SHOWN);
}

void check_ecmp_judge(struct ecmp_qp *q, size_t n, const char *where, struct finding *f)
{
	size_t i, dests, wire = 0, hw = 0;
	uint16_t *ports;

	if (!n) {
		finding_add(f, CHECK_SKIP, NULL,
			    "no live connected QP on %s with a source port (rocectl QP table)", where);
		return;
	}
	judge_dests(q, n, f);
	judge_processes(q, n, f);
	if (f->any)
		return;
	ports = malloc(n * sizeof(*ports));
	if (!ports) {
		finding_add(f, CHECK_SKIP, NULL, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		ports[i] = q[i].sport;
		wire += q[i].wire;
		hw += q[i].hw;
	}
	/* judge_processes sorted by pid: count destinations as judge_dests sees them. */
	qsort(q, n, sizeof(*q), by_dest_port);
	for (dests = 0, i = 0; i < n; i++)
		dests += !i || memcmp(q[i].dgid, q[i - 1].dgid, sizeof(q[i].dgid));
	finding_add(f, CHECK_PASS, NULL,
		    "%zu live QP%s on %s to %zu destination%s over %zu distinct source ports, none shared towards one destination (%s; rocectl QP table)",
		    n, n == 1 ? "" : "s", where, dests, dests == 1 ? "" : "s",
		    distinct_ports(ports, n),
		    hw == n ? "ports the hardware's QP contexts hold" :
		    hw ? "ports the hardware's QP contexts hold, else seen on the wire or the kernel's rule's" :
		    wire == n ? "ports seen on the wire" :
		    wire ? "ports seen on the wire, else the kernel's rule's" :
		    "ports the kernel's rule gives");
	free(ports);
}

void check_ecmp(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct ecmp_scan s = { .p = p };
	struct finding f = { .any = false };
	struct nlmsghdr *nlh;
	struct nl_error e;
	char where[ROCECTL_DEV_NAME_MAX + 16];

	if (!c->module) {
		finding_add(&f, CHECK_SKIP, NULL, "QPs not read: the rocectl module is not loaded");
		check_report(c, "ecmp", &f);
		return;
	}
	qp_sport_hw_read(&c->rc->nl, &s.hw);
	nlh = nl_request(&c->rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, p->dev);
	mnl_attr_put_u32(nlh, ROCECTL_A_QP_PORT, p->port);
	if (nl_run_quiet(&c->rc->nl, nlh, ecmp_qps_cb, &s, ecmp_qps_restart, &e) < 0)
		finding_add(&f, CHECK_SKIP, NULL, "QPs not read: %s",
			    s.oom ? "out of memory" : *e.msg ? e.msg : strerror(e.err));
	else {
		snprintf(where, sizeof(where), "%s/%u", p->dev, p->port);
		check_ecmp_judge(s.q, s.n, where, &f);
	}
	free(s.q);
	qp_sport_hw_free(&s.hw);
	check_report(c, "ecmp", &f);
}
