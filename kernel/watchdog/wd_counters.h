/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A watched netdev's counters and PFC: the generic DCB and ethtool view,
 * or its hardware backend's (wd_counters.c). Under rtnl_lock, but for
 * rocectl_wd_read_backend (the watch's be_lock).
 */
#ifndef _ROCECTL_WD_COUNTERS_H
#define _ROCECTL_WD_COUNTERS_H

#include "watchdog.h"

void rocectl_wd_layout(struct net_device *ndev, struct rocectl_wd_layout *l);
int rocectl_wd_read(struct rocectl_wd *w, struct rocectl_wd_sample *s);
int rocectl_wd_read_backend(struct rocectl_wd *w, struct rocectl_wd_sample *s);
int rocectl_wd_get_pfc(struct rocectl_wd *w, u8 en[ROCECTL_WD_NDIR]);
int rocectl_wd_change_pfc(struct rocectl_wd *w, const u8 en[ROCECTL_WD_NDIR],
			  const u8 mask[ROCECTL_WD_NDIR]);
bool rocectl_wd_dcb_capable(const struct net_device *ndev);
int rocectl_wd_get_stall(struct net_device *ndev, u16 *ms);
int rocectl_wd_set_stall(struct net_device *ndev, u16 ms);

#endif /* _ROCECTL_WD_COUNTERS_H */
