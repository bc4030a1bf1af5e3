// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check, the watchdog: the PFC storm watchdog watches the lossless
 * priority, and the NIC's own stall prevention is on.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "check.h"
#include "lib/attrs.h"
#include "netdev.h"

/* --- 6. watchdog -------------------------------------------------------------- */

struct wd_scan {
	const char *netdev;
	bool watched;
	uint8_t prios;
};

static int wd_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct wd_scan *s = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_NETDEV_NAME] ||
	    strcmp(mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]), s->netdev))
		return MNL_CB_OK;
	s->watched = true;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *pt[ROCECTL_A_WDP_MAX + 1];

		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0 &&
		    attrs_parse_wd_prio(a, pt) >= 0 && pt[ROCECTL_A_WDP_PRIO] &&
		    mnl_attr_get_u8(pt[ROCECTL_A_WDP_PRIO]) < 8)
			s->prios |= 1U << mnl_attr_get_u8(pt[ROCECTL_A_WDP_PRIO]);
	}
	return MNL_CB_OK;
}

static void wd_restart(void *data)
{
	struct wd_scan *s = data;

	s->watched = false;
	s->prios = 0;
}

void check_watchdog(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct wd_scan s = { .netdev = p->netdev };
	struct finding f = { .any = false };
	char list[32], fix[160];
	struct nlmsghdr *nlh;
	struct nl_error e;
	uint16_t ms;
	int err;

	if (c->prio < 0) {
		finding_add(&f, CHECK_SKIP, NULL, "no lossless priority to watch (see pfc)");
	} else if (!c->module) {
		finding_add(&f, CHECK_WARN, "modprobe rocectl",
			    "the rocectl module is not loaded: no PFC storm watchdog");
	} else {
		nlh = nl_request(&c->rc->nl, ROCECTL_CMD_WD_GET, NLM_F_DUMP);
		snprintf(fix, sizeof(fix), "rocectl watchdog set dev %s prio %d", p->netdev, c->prio);
		if (nl_run_quiet(&c->rc->nl, nlh, wd_cb, &s, wd_restart, &e) < 0)
			finding_add(&f, CHECK_FAIL, NULL, "cannot read the watches: %s",
				    *e.msg ? e.msg : strerror(e.err));
		else if (!s.watched)
			finding_add(&f, CHECK_WARN, fix,
				    "no watch on %s: PFC storms on priority %d go unnoticed (rocectl watchdog show)",
				    p->netdev, c->prio);
		else if (!(s.prios & (1U << c->prio)))
			finding_add(&f, CHECK_WARN, fix,
				    "%s is watched on priority %s, not on %d (rocectl watchdog show)",
				    p->netdev, check_prio_list(s.prios, list, sizeof(list)), c->prio);
		else
			finding_add(&f, CHECK_PASS, NULL,
				    "the watchdog watches priority %d on %s (rocectl watchdog show)",
				    c->prio, p->netdev);
	}
	err = netdev_stall_ms(p->netdev, &ms);
	if (!err && ms) {
		finding_add(&f, CHECK_PASS, NULL, "NIC stall prevention %u ms (ethtool tunable pfc-prevention-tout)", ms);
	} else if (!err) {
		/* A new watch needs a priority: the fix works with or without one. */
		if (c->prio >= 0)
			snprintf(fix, sizeof(fix), "rocectl watchdog set dev %s prio %d nic-stall-prevention auto",
				 p->netdev, c->prio);
		else
			snprintf(fix, sizeof(fix), "ethtool --set-tunable %s pfc-prevention-tout 100",
				 p->netdev);
		finding_add(&f, CHECK_WARN, fix,
			    "NIC stall prevention off (ethtool tunable pfc-prevention-tout 0)");
	} else if (err == -EOPNOTSUPP || err == -EINVAL) {
		finding_add(&f, f.any ? f.result : CHECK_SKIP, NULL,
			    "%s has no stall prevention (ethtool tunable pfc-prevention-tout)", p->netdev);
	} else {
		finding_add(&f, CHECK_WARN, NULL, "cannot read %s's stall prevention: %s",
			    p->netdev, strerror(-err));
	}
	check_report(c, "watchdog", &f);
}
