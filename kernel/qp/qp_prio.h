/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The priority a QP's traffic maps to on its netdev (qp_prio.c), computed
 * when it is asked for: a DCB or VLAN change after the QP's move to RTR
 * is seen at once, and the QP entry holds nothing for it.
 */
#ifndef _ROCECTL_QP_PRIO_H
#define _ROCECTL_QP_PRIO_H

#include <linux/netdevice.h>
#include "qps.h"

struct rocectl_dev;

/* A netdev's mapping, read once for many QPs (a storm's walk). */
struct rocectl_prio_map {
	u8 dscp[64];	/* DSCP -> bitmask of priorities (DCB APP table) */
	bool dscp_trust;	/* some DSCP entry exists */
	bool vlan;
	u8 pcp[16];	/* VLAN netdevs: service level -> PCP */
};

void rocectl_prio_map_read(struct net_device *ndev, struct rocectl_prio_map *m);
u8 rocectl_prio_of(const struct rocectl_prio_map *m, u8 tclass, u8 sl,
		   u8 *src);
bool rocectl_qp_prio(const struct rocectl_dev *rdev,
		     const struct rocectl_qp_info *in, u8 *prio, u8 *src);
const char *rocectl_prio_src_name(u8 src);

#endif /* _ROCECTL_QP_PRIO_H */
