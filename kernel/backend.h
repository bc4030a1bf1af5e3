/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware backends: modules that know one NIC family better than the
 * generic DCB and ethtool view (rocectl_mlx5.ko for ConnectX). rocectl.ko
 * works without any; a backend registers, and every watch of a netdev it
 * claims reads its live counters and changes its PFC through it.
 *
 * Every call is made under rtnl_lock, in process context. Unregistering
 * takes rtnl_lock too, so no call is in flight once it returns; it hands
 * every PFC bit a watch holds back to the NIC first.
 */
#ifndef _ROCECTL_BACKEND_H
#define _ROCECTL_BACKEND_H

#include <linux/list.h>
#include <linux/types.h>

struct module;
struct net_device;

#define ROCECTL_BE_NPRIO	8
#define ROCECTL_BE_RX		0	/* pause received: honoured */
#define ROCECTL_BE_TX		1	/* pause sent: generated */

/* One reading of a port's per-priority pause counters and PFC masks. */
struct rocectl_be_sample {
	u64 frames[2][ROCECTL_BE_NPRIO];	/* pause frames */
	u64 pause_us[2][ROCECTL_BE_NPRIO];	/* time paused */
	u64 pkts[2][ROCECTL_BE_NPRIO];		/* data frames */
	u8 pfc_en[2];				/* per direction */
};

struct rocectl_backend {
	const char *name;
	struct module *owner;
	/* A handle for a netdev this backend drives, or NULL if not ours. */
	void *(*attach)(struct net_device *ndev);
	void (*detach)(void *priv);
	/* Live counters and both PFC masks; and the masks alone. */
	int (*read)(void *priv, struct rocectl_be_sample *s);
	int (*get_pfc)(void *priv, u8 en[2]);
	/* New PFC masks: only the priorities in mask[d] change in direction d. */
	int (*set_pfc)(void *priv, const u8 en[2], const u8 mask[2]);
	struct list_head list;	/* rocectl.ko's */
};

int rocectl_backend_register(struct rocectl_backend *be);
void rocectl_backend_unregister(struct rocectl_backend *be);

#endif /* _ROCECTL_BACKEND_H */
