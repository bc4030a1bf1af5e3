// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog's view of a DCB netdev: IEEE PFC frame counters and the
 * PFC enable mask through dcbnl, and, where the driver reports them in its
 * ethtool statistics under mlx5e's names, per-priority pause time and data
 * packets; or, where a hardware backend claims the netdev, what it reads
 * and sets. Called under rtnl_lock, in process context, except a
 * backend's counters: firmware reads, under the watch's be_lock only.
 */
#include <linux/ethtool.h>
#include <linux/slab.h>
#include <linux/rtnetlink.h>
#include "backend/backend.h"
#include "watchdog.h"
#include "wd_counters.h"
#include "wd_judge.h"

static const char *const rocectl_dir_prefix[ROCECTL_WD_NDIR] = { "rx", "tx" };

bool rocectl_wd_dcb_capable(const struct net_device *ndev)
{
	const struct dcbnl_rtnl_ops *ops = ndev->dcbnl_ops;

	return ops && ops->ieee_getpfc && ops->ieee_setpfc;
}

static int rocectl_stat_index(const char *names, int n, const char *fmt,
			      const char *dir, int prio)
{
	char want[ETH_GSTRING_LEN];
	int i;

	snprintf(want, sizeof(want), fmt, dir, prio);
	for (i = 0; i < n; i++)
		if (!strncmp(names + i * ETH_GSTRING_LEN, want, ETH_GSTRING_LEN))
			return i;
	return -1;
}

/* Find, once per watch, which ethtool statistics carry what we need. */
void rocectl_wd_layout(struct net_device *ndev, struct rocectl_wd_layout *l)
{
	const struct ethtool_ops *ops = ndev->ethtool_ops;
	char *names = NULL;
	int n = 0, d, p;

	ASSERT_RTNL();
	memset(l, 0xff, sizeof(*l));	/* every index -1 */
	l->n_stats = 0;
	l->duration = true;
	l->pkts_known = true;
	if (ops && ops->get_sset_count && ops->get_strings && ops->get_ethtool_stats)
		n = ops->get_sset_count(ndev, ETH_SS_STATS);
	if (n > 0)
		names = kcalloc(n, ETH_GSTRING_LEN, GFP_KERNEL);
	if (names)
		ops->get_strings(ndev, ETH_SS_STATS, names);
	else
		n = 0;

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			const char *dir = rocectl_dir_prefix[d];

			l->frames[d][p] = rocectl_stat_index(names, n, "%s_prio%d_pause", dir, p);
			l->pause_us[d][p] = rocectl_stat_index(names, n,
							       "%s_prio%d_pause_duration",
							       dir, p);
			l->pkts[d][p] = rocectl_stat_index(names, n, "%s_prio%d_packets", dir, p);
			if (l->pause_us[d][p] < 0)
				l->duration = false;
			if (l->pkts[d][p] < 0)
				l->pkts_known = false;
		}
	}
	l->stall[0] = rocectl_stat_index(names, n, "%s_pause_storm_warning_events", "tx", 0);
	l->stall[1] = rocectl_stat_index(names, n, "%s_pause_storm_error_events", "tx", 0);
	l->stall_known = l->stall[0] >= 0 && l->stall[1] >= 0;
	l->n_stats = n;
	kfree(names);
}

/* A backend's live counters: no rtnl_lock, w->be held still by be_lock. */
int rocectl_wd_read_backend(struct rocectl_wd *w, struct rocectl_wd_sample *s)
{
	struct rocectl_be_sample *b;
	int err, d;

	lockdep_assert_held(&w->be_lock);
	if (!w->be)
		return -ENODEV;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	err = w->be->read(w->be_priv, b);
	if (!err) {
		BUILD_BUG_ON(sizeof(b->frames) != sizeof(s->frames));
		memcpy(s->frames, b->frames, sizeof(s->frames));
		memcpy(s->pause_us, b->pause_us, sizeof(s->pause_us));
		memcpy(s->pkts, b->pkts, sizeof(s->pkts));
		for (d = 0; d < ROCECTL_WD_NDIR; d++)
			s->pfc_en[d] = b->pfc_en[d];
		s->stall_known = b->stall_known;
		s->stall[0] = b->stall_events[0];
		s->stall[1] = b->stall_events[1];
	}
	kfree(b);
	return err;
}

/* The generic view: dcbnl and ethtool ops, which expect rtnl_lock held. */
int rocectl_wd_read(struct rocectl_wd *w, struct rocectl_wd_sample *s)
{
	struct net_device *ndev = w->ndev;
	const struct rocectl_wd_layout *l = &w->layout;
	const struct ethtool_ops *ops = ndev->ethtool_ops;
	struct ethtool_stats stats = { .n_stats = l->n_stats };
	struct ieee_pfc pfc = {};
	u64 *data = NULL;
	int err, d, p;

	ASSERT_RTNL();
	if (!rocectl_wd_dcb_capable(ndev))
		return -EOPNOTSUPP;
	err = ndev->dcbnl_ops->ieee_getpfc(ndev, &pfc);
	if (err)
		return err;
	s->pfc_en[0] = pfc.pfc_en;
	s->pfc_en[1] = pfc.pfc_en;
	for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
		s->frames[0][p] = pfc.indications[p];	/* received */
		s->frames[1][p] = pfc.requests[p];	/* sent */
	}

	/* The statistics may have changed size since the layout: check. */
	if (l->n_stats && ops->get_sset_count(ndev, ETH_SS_STATS) == l->n_stats)
		data = kcalloc(l->n_stats, sizeof(u64), GFP_KERNEL);
	if (data)
		ops->get_ethtool_stats(ndev, &stats, data);

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			s->pause_us[d][p] = data && l->pause_us[d][p] >= 0 ?
					    data[l->pause_us[d][p]] : 0;
			s->pkts[d][p] = data && l->pkts[d][p] >= 0 ?
					data[l->pkts[d][p]] : 0;
		}
	}
	for (d = 0; d < 2; d++)
		s->stall[d] = data && l->stall[d] >= 0 ? data[l->stall[d]] : 0;
	s->stall_known = l->stall_known;
	kfree(data);
	return 0;
}

/*
 * The NIC's stall prevention (ethtool tunable pfc-prevention-tout): it
 * stops the NIC sending pause once its receive path has been stalled that
 * long. -EOPNOTSUPP when the driver has no such tunable.
 */
int rocectl_wd_get_stall(struct net_device *ndev, u16 *ms)
{
	const struct ethtool_tunable t = {
		.id = ETHTOOL_PFC_PREVENTION_TOUT,
		.type_id = ETHTOOL_TUNABLE_U16,
		.len = sizeof(u16),
	};
	const struct ethtool_ops *ops = ndev->ethtool_ops;

	ASSERT_RTNL();
	if (!ops || !ops->get_tunable || !ops->set_tunable)
		return -EOPNOTSUPP;
	return ops->get_tunable(ndev, &t, ms);
}

int rocectl_wd_set_stall(struct net_device *ndev, u16 ms)
{
	const struct ethtool_tunable t = {
		.id = ETHTOOL_PFC_PREVENTION_TOUT,
		.type_id = ETHTOOL_TUNABLE_U16,
		.len = sizeof(u16),
	};
	const struct ethtool_ops *ops = ndev->ethtool_ops;

	ASSERT_RTNL();
	if (!ops || !ops->get_tunable || !ops->set_tunable)
		return -EOPNOTSUPP;
	return ops->set_tunable(ndev, &t, &ms);
}

/* Both PFC masks; through dcbnl they are one and the same. */
int rocectl_wd_get_pfc(struct rocectl_wd *w, u8 en[ROCECTL_WD_NDIR])
{
	struct ieee_pfc pfc = {};
	int err;

	ASSERT_RTNL();
	if (w->be)
		return w->be->get_pfc(w->be_priv, en);
	err = w->ndev->dcbnl_ops->ieee_getpfc(w->ndev, &pfc);
	if (err)
		return err;
	en[0] = pfc.pfc_en;
	en[1] = pfc.pfc_en;
	return 0;
}

/*
 * New PFC masks, only the bits in mask changing. dcbnl has one mask for
 * both directions: the caller passes the same for both. Everything else
 * of the netdev's PFC is kept, and DCB listeners are told.
 */
int rocectl_wd_change_pfc(struct rocectl_wd *w, const u8 en[ROCECTL_WD_NDIR],
			  const u8 mask[ROCECTL_WD_NDIR])
{
	const struct dcbnl_rtnl_ops *ops = w->ndev->dcbnl_ops;
	struct ieee_pfc pfc = {};
	int err;

	ASSERT_RTNL();
	if (w->be)
		return w->be->set_pfc(w->be_priv, en, mask);
	err = ops->ieee_getpfc(w->ndev, &pfc);
	if (err)
		return err;
	pfc.pfc_en = (pfc.pfc_en & ~mask[0]) | (en[0] & mask[0]);
	err = ops->ieee_setpfc(w->ndev, &pfc);
	if (err)
		return err;
	dcbnl_ieee_notify(w->ndev, RTM_SETDCB, DCB_CMD_IEEE_SET, 0, 0);
	return 0;
}
