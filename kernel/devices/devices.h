/* SPDX-License-Identifier: GPL-2.0 */
/* The RDMA devices rocectl knows (devices.c), from ib_client add() to remove(). */
#ifndef _ROCECTL_DEVICES_H
#define _ROCECTL_DEVICES_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/if.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "qp/qp_departed.h"
#include "qp/qp_retired.h"
#include "qp/qp_stats.h"

/* A device's name: replaced whole on rename, freed after a grace period. */
struct rocectl_dev_name {
	struct rcu_head rcu;
	char s[IB_DEVICE_NAME_MAX];
};

/*
 * One RDMA device, from ib_client add() to remove(). Found under RCU by
 * the QP hooks and the packet path, freed after a grace period.
 */
struct rocectl_dev {
	struct ib_device *ibdev;
	u32 index;
	/*
	 * Our copy, replaced in rename(): dev_name() may be freed under us,
	 * and readers under RCU (hooks, tracepoints) never see half of one.
	 * Read it with rocectl_dev_name().
	 */
	struct rocectl_dev_name __rcu *name;
	/* QPN -> struct rocectl_qp; its lock also guards dead and by_drv. */
	struct xarray qps;
	/*
	 * Counting devices: the same entries by their driver QP's address
	 * (rocectl_qp_drv_key()), for the packet path to find a packet's
	 * sender by identity (pkt_account.c).
	 */
	DECLARE_HASHTABLE(by_drv, 8);
	bool dead;
	/* The module computes per-QP packet counters on this device. */
	bool counts;
	/* Soft-RoCE: the netdev its packets use, a key for the packet path. */
	const struct net_device *netdev;
	struct hlist_node netdev_node;
	/*
	 * Any driver: the netdev of port 1's GIDs in the initial namespace
	 * (0: none), for its QPs' priority and a storm's QPs on it: its
	 * ifindex when the device came, and the netdev itself, an identity
	 * compared, never dereferenced (it may move namespace, where its
	 * ifindex can be another's).
	 */
	int port_ifindex;
	const struct net_device *port_ndev;
	/* Its driver: tells the driver's own sent packets (pkt_account.c). */
	struct module *owner;
	/*
	 * What no live QP's counters hold (dev_counters.c): destroyed QPs'
	 * final counts, packets no counting QP took. Rarely written.
	 */
	atomic64_t gone[ROCECTL_QP_NSTATS];
	atomic64_t unattributed[ROCECTL_QP_NSTATS];
	/* Counting devices: the same final counts per port and command name. */
	struct rocectl_retired retired;
	/* ... and the QPs destroyed last, one by one (a storm's walks). */
	struct rocectl_departed departed;
	/*
	 * Hardware devices: DevX QP commands the backend could not follow
	 * (qp_devx.c); the count when its DevX QPs were last marked.
	 */
	atomic64_t devx_missed;
	u64 devx_marked;
};

/* What a port is, read on demand from ib_core. */
struct rocectl_port_info {
	u8 state;
	u8 phys_state;
	u8 link_layer;
	u32 roce;
	u32 gid_types;
	u32 active_mtu;
	u32 max_mtu;
	int netdev_ifindex;
	char netdev_name[IFNAMSIZ];
	/* The same netdev, an identity only: never dereferenced. */
	const struct net_device *netdev;
	/* Its netdev is in another network namespace than the initial one. */
	bool netdev_other_ns;
};

/* The registry. Lookups and iteration need rocectl_devs_lock. */
extern struct mutex rocectl_devs_lock;

/* The device's name, under rcu_read_lock() or rocectl_devs_lock. */
#define rocectl_dev_name(rdev)						\
	(rcu_dereference_check((rdev)->name,				\
			       lockdep_is_held(&rocectl_devs_lock))->s)

/*
 * What the registry tells its subscribers, per device in this order (one
 * blocking notifier chain; data: struct rocectl_dev_change).
 */
enum rocectl_dev_event {
	/* Not published yet: a subscriber's error refuses the device. */
	ROCECTL_DEV_NEW,
	/* Published, under rocectl_devs_lock. */
	ROCECTL_DEV_ADDED,
	/* After ADDED, the lock released: QPs found now are not missed. */
	ROCECTL_DEV_LIVE,
	/* Renamed, under the lock; prev_name is the old name. */
	ROCECTL_DEV_RENAMED,
	/* Going, still published, under the lock; not when rocectl unloads. */
	ROCECTL_DEV_REMOVING,
	/* Unpublished, the lock released: no new QP entry after this. */
	ROCECTL_DEV_REMOVED,
	/* No reader and no RCU free left (or NEW refused): free what NEW took. */
	ROCECTL_DEV_FREEING,
};

struct rocectl_dev_change {
	struct rocectl_dev *rdev;
	const char *prev_name;
};

int rocectl_dev_subscribe(struct notifier_block *nb);
void rocectl_dev_unsubscribe(struct notifier_block *nb);

extern unsigned int rocectl_devs_gen;
int rocectl_devices_init(void);
void rocectl_devices_exit(void);
struct rocectl_dev *rocectl_dev_by_index(u32 index);
struct rocectl_dev *rocectl_dev_by_name(const char *name);
struct rocectl_dev *rocectl_dev_next(unsigned long *index);
u32 rocectl_dev_driver(const struct rocectl_dev *rdev);
const char *rocectl_dev_driver_name(const struct rocectl_dev *rdev);
int rocectl_port_query(struct ib_device *ibdev, u32 port,
		       struct rocectl_port_info *pi);
struct rocectl_dev *rocectl_dev_lookup_rcu(u32 index);
struct rocectl_dev *rocectl_dev_by_netdev_rcu(const struct net_device *ndev);
struct rocectl_dev *rocectl_dev_by_port_netdev_rcu(const struct net_device *ndev);
struct rocectl_dev *rocectl_dev_by_parent_rcu(const struct device *parent);

#endif /* _ROCECTL_DEVICES_H */
