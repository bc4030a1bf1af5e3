// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check, what the NIC's DCB says (dcbnl) and its flow control: pfc
 * (PFC on the lossless priority only), trust (the APP table maps the RoCE
 * DSCP to it, and the live QPs use that DSCP), pause (no 802.3x pause).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/attrs.h"
#include "netdev.h"
#include "qp/qp_fields.h"

/* --- 2. pfc ------------------------------------------------------------------- */

/* The reason dcbnl gave, as a finding part; false if DCB was read. */
static bool dcb_unreadable(struct check_ctx *c, struct finding *f, bool fail)
{
	const char *nic = c->p->netdev;

	if (c->dcb_err == -EOPNOTSUPP || (!c->dcb_err && !c->dcb.has_pfc))
		finding_add(f, fail ? CHECK_FAIL : CHECK_SKIP, NULL,
			    "no DCB support: %s %s", nic,
			    c->dcb_err ? "has no dcbnl (RTM_GETDCB: operation not supported)"
				       : "reports no IEEE PFC (dcbnl)");
	else if (c->dcb_err)
		finding_add(f, fail ? CHECK_FAIL : CHECK_SKIP, NULL,
			    "cannot read %s's DCB (dcbnl RTM_GETDCB): %s", nic, strerror(-c->dcb_err));
	else
		return false;
	return true;
}

void check_pfc(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	char list[32], fix[160];
	uint8_t en, others;

	if (dcb_unreadable(c, &f, true)) {
		check_report(c, "pfc", &f);
		return;
	}
	en = c->dcb.pfc_en;
	if (c->prio < 0) {
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc 3:on", p->netdev);
		finding_add(&f, CHECK_FAIL, fix,
			    "PFC is enabled on no priority (dcbnl IEEE PFC, pfc_cap %u): no traffic is lossless",
			    c->dcb.pfc_cap);
		check_report(c, "pfc", &f);
		return;
	}
	if (!(en & (1U << c->prio))) {
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %d:on", p->netdev, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "PFC is off on priority %d (%s): enabled on %s (dcbnl IEEE PFC)",
			    c->prio, c->prio_why, check_prio_list(en, list, sizeof(list)));
	}
	others = en & ~(1U << c->prio);
	if (others) {
		char offs[48] = "";
		unsigned int q;

		for (q = 0; q < 8; q++)
			if (others & (1U << q))
				check_append(offs, sizeof(offs), " ", "%u:off", q);
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %s", p->netdev, offs);
		finding_add(&f, CHECK_WARN, fix,
			    "PFC is also on priority %s: only the lossless priority %d should pause (%s; dcbnl IEEE PFC)",
			    check_prio_list(others, list, sizeof(list)), c->prio, c->prio_why);
	}
	if (!f.any)
		finding_add(&f, CHECK_PASS, NULL,
			    "PFC on priority %d only (%s; dcbnl IEEE PFC, pfc_cap %u)",
			    c->prio, c->prio_why, c->dcb.pfc_cap);
	check_report(c, "pfc", &f);
}

/* --- 3. trust: the APP table and the QPs' DSCP ----------------------------------- */

struct qp_group {
	uint32_t pid;		/* 0: a kernel QP */
	char comm[32];
	unsigned int dscp;
	unsigned int count;
	bool devx;		/* made by DevX commands: the RDMA core never saw them */
};

struct qp_scan {
	const struct check_port *p;
	struct qp_group g[64];
	unsigned int n;
	unsigned int qps;	/* QPs with a traffic class */
	bool overflow;
};

static int qps_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_scan *s = data;
	unsigned int dscp, i;
	uint32_t pid;
	bool devx;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_QP_TCLASS])
		return MNL_CB_OK;
	if (!qp_live_on(tb, s->p->port))
		return MNL_CB_OK;
	dscp = mnl_attr_get_u8(tb[ROCECTL_A_QP_TCLASS]) >> 2;
	pid = tb[ROCECTL_A_QP_PID] ? mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]) : 0;
	devx = tb[ROCECTL_A_QP_DEVX];
	s->qps++;
	for (i = 0; i < s->n; i++)
		if (s->g[i].pid == pid && s->g[i].dscp == dscp && s->g[i].devx == devx)
			break;
	if (i == s->n) {
		if (s->n == ARRAY_SIZE(s->g)) {
			s->overflow = true;
			return MNL_CB_OK;
		}
		memset(&s->g[i], 0, sizeof(s->g[i]));
		s->g[i].pid = pid;
		s->g[i].dscp = dscp;
		s->g[i].devx = devx;
		if (tb[ROCECTL_A_QP_COMM])
			snprintf(s->g[i].comm, sizeof(s->g[i].comm), "%s",
				 mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
		s->n++;
	}
	s->g[i].count++;
	return MNL_CB_OK;
}

static void qps_restart(void *data)
{
	struct qp_scan *s = data;

	s->n = s->qps = 0;
	s->overflow = false;
}

static void check_qps(struct check_ctx *c, struct finding *f)
{
	const struct check_port *p = c->p;
	struct qp_scan s = { .p = p };
	struct nlmsghdr *nlh;
	char list[32], fix[256], who[80];
	unsigned int i, lossy = 0;
	struct nl_error e;
	uint8_t to;

	if (!c->module) {
		finding_add(f, CHECK_SKIP, NULL, "QPs not read: the rocectl module is not loaded");
		return;
	}
	nlh = nl_request(&c->rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, p->dev);
	mnl_attr_put_u32(nlh, ROCECTL_A_QP_PORT, p->port);
	if (nl_run_quiet(&c->rc->nl, nlh, qps_cb, &s, qps_restart, &e) < 0) {
		finding_add(f, CHECK_SKIP, NULL, "QPs not read: %s",
			    *e.msg ? e.msg : strerror(e.err));
		return;
	}
	for (i = 0; i < s.n; i++) {
		const struct qp_group *g = &s.g[i];

		to = c->dcb.dscp_prio[g->dscp];
		if (to == (1U << c->prio))
			continue;
		lossy += g->count;
		if (g->pid)
			snprintf(who, sizeof(who), "%sof pid %u (%s)",
				 g->devx ? "made with DevX " : "", g->pid, g->comm);
		else
			snprintf(who, sizeof(who), "of the kernel (%s)", g->comm);
		snprintf(fix, sizeof(fix),
			 "have pid %u use traffic class %u (DSCP %u), or dcb app replace dev %s dscp-prio %u:%d",
			 g->pid, c->dscp << 2, c->dscp, p->netdev, g->dscp, c->prio);
		if (!to)
			finding_add(f, CHECK_FAIL, fix,
				    "%u QP%s %s use%s DSCP %u, which no APP entry maps: not lossless priority %d",
				    g->count, g->count == 1 ? "" : "s", who, g->count == 1 ? "s" : "",
				    g->dscp, c->prio);
		else
			finding_add(f, CHECK_FAIL, fix,
				    "%u QP%s %s use%s DSCP %u, priority %s, which is %s",
				    g->count, g->count == 1 ? "" : "s", who, g->count == 1 ? "s" : "",
				    g->dscp, check_prio_list(to, list, sizeof(list)),
				    to & (1U << c->prio) ? "not only the lossless one" : "lossy");
	}
	if (!lossy)
		finding_add(f, CHECK_PASS, NULL,
			    "%u live QP%s on %s/%u, all on priority %d (rocectl QP table)",
			    s.qps, s.qps == 1 ? "" : "s", p->dev, p->port, c->prio);
	if (s.overflow)
		finding_add(f, CHECK_WARN, NULL, "more QP owners than shown");
}

void check_trust(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	char list[32], fix[160];
	uint8_t to;

	if (dcb_unreadable(c, &f, false) || c->prio < 0) {
		if (!f.any)
			finding_add(&f, CHECK_SKIP, NULL, "no lossless priority to map to (see pfc)");
		check_report(c, "trust", &f);
		return;
	}
	to = c->dcb.dscp_prio[c->dscp];
	if (to == (1U << c->prio)) {
		finding_add(&f, CHECK_PASS, NULL,
			    "the APP table maps DSCP %u to priority %d (%s, %s; dcbnl IEEE APP, DSCP selector)",
			    c->dscp, c->prio, c->dscp_why, c->prio_why);
	} else if (!to) {
		snprintf(fix, sizeof(fix), "dcb app add dev %s dscp-prio %u:%d",
			 p->netdev, c->dscp, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "no APP entry maps DSCP %u (%s) to a priority: %u DSCP entries, %s (dcbnl IEEE APP)",
			    c->dscp, c->dscp_why, c->dcb.dscp_entries,
			    c->dcb.dscp_entries ? "DSCP trust" : "the NIC trusts PCP, not DSCP");
	} else {
		snprintf(fix, sizeof(fix), "dcb app replace dev %s dscp-prio %u:%d",
			 p->netdev, c->dscp, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "the APP table maps DSCP %u (%s) to priority %s, not %d (%s; dcbnl IEEE APP)",
			    c->dscp, c->dscp_why, check_prio_list(to, list, sizeof(list)), c->prio,
			    c->prio_why);
	}
	check_qps(c, &f);
	check_report(c, "trust", &f);
}

/* --- 5. pause ----------------------------------------------------------------- */

void check_pause(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	struct netdev_pause pp;
	char list[32], fix[160];
	uint8_t en = !c->dcb_err && c->dcb.has_pfc ? c->dcb.pfc_en : 0;
	int err = netdev_pause(p->netdev, &pp);

	if (err == -EOPNOTSUPP) {
		finding_add(&f, CHECK_SKIP, NULL,
			    "%s has no 802.3x pause control (ETHTOOL_GPAUSEPARAM: not supported)",
			    p->netdev);
	} else if (err) {
		finding_add(&f, CHECK_FAIL, NULL, "cannot read %s's 802.3x pause (ETHTOOL_GPAUSEPARAM): %s",
			    p->netdev, strerror(-err));
	} else if (!pp.rx && !pp.tx) {
		finding_add(&f, CHECK_PASS, NULL,
			    "802.3x pause off: rx off tx off (ETHTOOL_GPAUSEPARAM); PFC on %s",
			    check_prio_list(en, list, sizeof(list)));
	} else {
		snprintf(fix, sizeof(fix), "ethtool -A %s autoneg off rx off tx off", p->netdev);
		finding_add(&f, en ? CHECK_FAIL : CHECK_WARN, fix,
			    "802.3x pause rx %s tx %s autoneg %s (ETHTOOL_GPAUSEPARAM) %s",
			    pp.rx ? "on" : "off", pp.tx ? "on" : "off", pp.autoneg ? "on" : "off",
			    en ? "with PFC on: the two conflict" :
				 "pauses all traffic, not the lossless priority alone");
		if (en)
			check_append(f.evidence, sizeof(f.evidence), " ", "(PFC on %s)",
				   check_prio_list(en, list, sizeof(list)));
	}
	check_report(c, "pause", &f);
}
