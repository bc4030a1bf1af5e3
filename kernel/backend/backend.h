/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware backends: modules that know one NIC family better than the
 * generic DCB and ethtool view (rocectl_mlx5.ko for ConnectX). rocectl.ko
 * works without any; a backend registers, and every watch of a netdev it
 * claims reads its live counters and changes its PFC through it.
 *
 * Calls are made in process context: attach, detach, get_pfc and set_pfc
 * under rtnl_lock; read (firmware reads, at every poll) without it,
 * serialized with detach by rocectl.ko. Unregistering waits for every
 * call in flight and hands every PFC bit a watch holds back to the NIC
 * through the backend first; what it refuses stays held by the watch,
 * which sets it back through the generic DCB view.
 */
#ifndef _ROCECTL_BACKEND_H
#define _ROCECTL_BACKEND_H

#include <linux/list.h>
#include <linux/types.h>

struct ib_device;
struct module;
struct net_device;

#define ROCECTL_BE_NPRIO	8
#define ROCECTL_BE_RX		0	/* pause received: honoured */
#define ROCECTL_BE_TX		1	/* pause sent: generated */

/* A named value: a congestion control parameter or counter. */
struct rocectl_cong_value {
	const char *name;	/* the backend's, static */
	u64 value;
};

#define ROCECTL_CONG_MAX	32

/* Why a congestion control change was refused: rocectl.ko says it. */
enum rocectl_cong_why {
	ROCECTL_CONG_WHY_NONE,
	ROCECTL_CONG_WHY_NOT_ALLOWED,	/* the firmware does not allow changes */
	ROCECTL_CONG_WHY_UNKNOWN,	/* no such parameter */
	ROCECTL_CONG_WHY_RANGE,		/* value out of the parameter's range */
	ROCECTL_CONG_WHY_CONFLICT,	/* two parameters that exclude each other */
	ROCECTL_CONG_WHY_FIRMWARE,	/* the firmware refused */
	ROCECTL_CONG_WHY_PORT,		/* the backend does not know that port */
	ROCECTL_CONG_WHY_PARTIAL,	/* refused, and undoing what was written too */
};

/* An RDMA port's congestion control, as far as the firmware tells it. */
struct rocectl_cong_info {
	int nparams, nstats;
	struct rocectl_cong_value params[ROCECTL_CONG_MAX];
	struct rocectl_cong_value stats[ROCECTL_CONG_MAX];
	bool status_known;
	u8 rp_enabled, np_enabled;	/* bit per priority */
};

/* One reading of a port's per-priority pause counters and PFC masks. */
struct rocectl_be_sample {
	u64 frames[2][ROCECTL_BE_NPRIO];	/* pause frames */
	u64 pause_us[2][ROCECTL_BE_NPRIO];	/* time paused */
	u64 pkts[2][ROCECTL_BE_NPRIO];		/* data frames */
	u8 pfc_en[2];				/* per direction */
	/* The NIC's stall prevention events: warnings, errors. */
	bool stall_known;
	u64 stall_events[2];
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
	/*
	 * Congestion control of an RDMA device's port (optional): whether the
	 * device is this backend's, reading it, and changing parameters (all
	 * checked before any is written; on error, *why says what is wrong,
	 * an enum rocectl_cong_why, and *bad which value, or -1).
	 * Called with a reference on the device (it is not torn down
	 * meanwhile), in process context, without rtnl_lock or rocectl's
	 * device lock: a call that blocks delays nothing else.
	 */
	bool (*ib_claims)(struct ib_device *ibdev);
	int (*cong_get)(struct ib_device *ibdev, u32 port, struct rocectl_cong_info *c);
	int (*cong_set)(struct ib_device *ibdev, u32 port,
			const struct rocectl_cong_value *v, int n,
			int *bad, int *why);
	struct list_head list;	/* rocectl.ko's */
};

int rocectl_backend_register(struct rocectl_backend *be);
void rocectl_backend_unregister(struct rocectl_backend *be);

#endif /* _ROCECTL_BACKEND_H */
