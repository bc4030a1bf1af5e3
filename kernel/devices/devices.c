// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA device registry: an ib_client that keeps one entry per device,
 * so that a netlink request never reaches a device being unregistered
 * (remove() waits for rocectl_devs_lock), and the port queries behind
 * `rocectl dev show`.
 */
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include "devices.h"

/* Serializes the table, the names in it and the notifications about it. */
DEFINE_MUTEX(rocectl_devs_lock);
/* Bumped on every add/remove/rename so dumps can flag NLM_F_DUMP_INTR. */
unsigned int rocectl_devs_gen;

static DEFINE_XARRAY(rocectl_devs);
/*
 * Soft-RoCE devices by the netdev their packets use, for the packet path,
 * whatever network namespace it is in (an ifindex names a netdev only
 * within its own). The key is compared, never dereferenced: the RDMA core
 * holds the port's netdev until after its clients' remove().
 */
static DEFINE_HASHTABLE(rocectl_netdevs, 4);
static DEFINE_SPINLOCK(rocectl_netdevs_lock);
/* Every device by the ifindex of its port 1's netdev, for the watchdog. */
static DEFINE_XARRAY(rocectl_port_netdevs);
static bool rocectl_unloading;
static struct ib_client rocectl_ib_client;
/*
 * Who hears of devices (devices.h: enum rocectl_dev_event): the QP table,
 * DevX and netlink subscribe; the registry calls none of them by name.
 */
static BLOCKING_NOTIFIER_HEAD(rocectl_dev_chain);

int rocectl_dev_subscribe(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&rocectl_dev_chain, nb);
}

void rocectl_dev_unsubscribe(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&rocectl_dev_chain, nb);
}

static int rocectl_dev_publish(enum rocectl_dev_event ev,
			       struct rocectl_dev *rdev, const char *prev_name)
{
	struct rocectl_dev_change c = { .rdev = rdev, .prev_name = prev_name };

	return notifier_to_errno(blocking_notifier_call_chain(&rocectl_dev_chain,
								ev, &c));
}

/* For the packet path: the caller holds rcu_read_lock(). */
struct rocectl_dev *rocectl_dev_by_netdev_rcu(const struct net_device *ndev)
{
	struct rocectl_dev *rdev;

	hash_for_each_possible_rcu(rocectl_netdevs, rdev, netdev_node,
				   (unsigned long)ndev)
		if (rdev->netdev == ndev)
			return rdev;
	return NULL;
}

/*
 * The device whose port 1 is ndev, which the caller holds, with
 * rcu_read_lock(): by its ifindex, unless it moved namespace since the
 * device came (its ifindex there may be another device's key), then by
 * identity among the few devices.
 */
struct rocectl_dev *rocectl_dev_by_port_netdev_rcu(const struct net_device *ndev)
{
	struct rocectl_dev *rdev;
	unsigned long i;

	rdev = xa_load(&rocectl_port_netdevs, ndev->ifindex);
	if (rdev && rdev->port_ndev == ndev)
		return rdev;
	xa_for_each(&rocectl_port_netdevs, i, rdev)
		if (rdev->port_ndev == ndev)
			return rdev;
	return NULL;
}

/* For the QP hooks and the packet path: the caller holds rcu_read_lock(). */
struct rocectl_dev *rocectl_dev_lookup_rcu(u32 index)
{
	return xa_load(&rocectl_devs, index);
}

struct rocectl_dev *rocectl_dev_by_index(u32 index)
{
	lockdep_assert_held(&rocectl_devs_lock);
	return xa_load(&rocectl_devs, index);
}

struct rocectl_dev *rocectl_dev_by_name(const char *name)
{
	struct rocectl_dev *rdev;
	unsigned long index;

	lockdep_assert_held(&rocectl_devs_lock);
	xa_for_each(&rocectl_devs, index, rdev)
		if (!strcmp(rocectl_dev_name(rdev), name))
			return rdev;
	return NULL;
}

/*
 * The device whose parent is parent (a ConnectX function's PCI device is
 * mlx5_ib's parent), for the DevX hook: the caller holds rcu_read_lock().
 */
struct rocectl_dev *rocectl_dev_by_parent_rcu(const struct device *parent)
{
	struct rocectl_dev *rdev;
	unsigned long index;

	xa_for_each(&rocectl_devs, index, rdev)
		if (rdev->ibdev->dev.parent == parent)
			return rdev;
	return NULL;
}

/* The first device at or after *index, for dumps that resume. */
struct rocectl_dev *rocectl_dev_next(unsigned long *index)
{
	lockdep_assert_held(&rocectl_devs_lock);
	return xa_find(&rocectl_devs, index, ULONG_MAX, XA_PRESENT);
}

u32 rocectl_dev_driver(const struct rocectl_dev *rdev)
{
	switch (rdev->ibdev->ops.driver_id) {
	case RDMA_DRIVER_RXE:
		return ROCECTL_DRIVER_RXE;
	case RDMA_DRIVER_MLX5:
		return ROCECTL_DRIVER_MLX5;
	default:
		return ROCECTL_DRIVER_OTHER;
	}
}

const char *rocectl_dev_driver_name(const struct rocectl_dev *rdev)
{
	struct module *owner = rdev->ibdev->ops.owner;

	return owner ? module_name(owner) : "unknown";
}

static u8 rocectl_link_layer(struct ib_device *ibdev, u32 port)
{
	switch (rdma_port_get_link_layer(ibdev, port)) {
	case IB_LINK_LAYER_INFINIBAND:
		return ROCECTL_LINK_LAYER_INFINIBAND;
	case IB_LINK_LAYER_ETHERNET:
		return ROCECTL_LINK_LAYER_ETHERNET;
	default:
		return ROCECTL_LINK_LAYER_UNSPECIFIED;
	}
}

/*
 * The GID table is the exported way from a port to its netdev before 6.13
 * (ib_device_get_netdev() is not exported); it also says which GID types
 * the port really has populated.
 */
static void rocectl_port_scan_gids(struct ib_device *ibdev, u32 port,
				   int tbl_len, struct rocectl_port_info *pi)
{
	const struct ib_gid_attr *ga;
	struct net_device *ndev;
	int i;

	for (i = 0; i < tbl_len; i++) {
		ga = rdma_get_gid_attr(ibdev, port, i);
		if (IS_ERR(ga))
			continue;

		switch (ga->gid_type) {
		case IB_GID_TYPE_IB:
			pi->gid_types |= ROCECTL_GID_TYPE_IB;
			break;
		case IB_GID_TYPE_ROCE:
			pi->gid_types |= ROCECTL_GID_TYPE_ROCE_V1;
			break;
		case IB_GID_TYPE_ROCE_UDP_ENCAP:
			pi->gid_types |= ROCECTL_GID_TYPE_ROCE_V2;
			break;
		default:
			break;
		}

		if (!pi->netdev_ifindex) {
			rcu_read_lock();
			ndev = rdma_read_gid_attr_ndev_rcu(ga);
			if (!IS_ERR(ndev)) {
				pi->netdev_ifindex = ndev->ifindex;
				pi->netdev = ndev;
				strscpy(pi->netdev_name, ndev->name,
					sizeof(pi->netdev_name));
				pi->netdev_other_ns =
					!net_eq(dev_net(ndev), &init_net);
			}
			rcu_read_unlock();
		}
		rdma_put_gid_attr(ga);
	}
}

static u32 rocectl_mtu_bytes(enum ib_mtu mtu)
{
	int bytes = ib_mtu_enum_to_int(mtu);

	return bytes > 0 ? bytes : 0;
}

int rocectl_port_query(struct ib_device *ibdev, u32 port,
		       struct rocectl_port_info *pi)
{
	struct ib_port_attr attr;
	int err;

	memset(pi, 0, sizeof(*pi));
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;

	pi->state = attr.state;
	pi->phys_state = attr.phys_state;
	pi->link_layer = rocectl_link_layer(ibdev, port);
	if (rdma_protocol_roce_eth_encap(ibdev, port))
		pi->roce |= ROCECTL_ROCE_V1;
	if (rdma_protocol_roce_udp_encap(ibdev, port))
		pi->roce |= ROCECTL_ROCE_V2;
	pi->active_mtu = rocectl_mtu_bytes(attr.active_mtu);
	pi->max_mtu = rocectl_mtu_bytes(attr.max_mtu);
	rocectl_port_scan_gids(ibdev, port, attr.gid_tbl_len, pi);
	return 0;
}

/*
 * Soft-RoCE: the netdev its packets use, for the packet path, in whatever
 * network namespace it is (the packet hooks are in every one).
 */
static void rocectl_dev_map_netdev(struct rocectl_dev *rdev,
				   const struct rocectl_port_info *pi, int err)
{
	bool taken;

	if (err || !pi->netdev) {
		pr_warn("%s: no netdev found: its packets are not counted\n",
			dev_name(&rdev->ibdev->dev));
		rdev->counts = false;
		return;
	}
	/* The lookup the packet path uses, under the writers' lock. */
	spin_lock(&rocectl_netdevs_lock);
	rcu_read_lock();
	taken = rocectl_dev_by_netdev_rcu(pi->netdev);
	rcu_read_unlock();
	if (!taken) {
		rdev->netdev = pi->netdev;
		hash_add_rcu(rocectl_netdevs, &rdev->netdev_node,
			     (unsigned long)rdev->netdev);
	}
	spin_unlock(&rocectl_netdevs_lock);
	if (taken) {
		pr_warn("%s: its netdev %s is another device's already: its packets are not counted\n",
			dev_name(&rdev->ibdev->dev), pi->netdev_name);
		rdev->counts = false;
	}
}

/*
 * Any driver: its port 1's netdev, where the watchdog watches and the DCB
 * tables its QPs' priority comes from live. One device a netdev: a second
 * one over the same netdev (a test's) has no priorities.
 */
static void rocectl_dev_map_port_netdev(struct rocectl_dev *rdev,
					const struct rocectl_port_info *pi,
					int err)
{
	if (err || !pi->netdev_ifindex || pi->netdev_other_ns)
		return;
	if (!xa_insert(&rocectl_port_netdevs, pi->netdev_ifindex, rdev,
		       GFP_KERNEL)) {
		rdev->port_ifindex = pi->netdev_ifindex;
		rdev->port_ndev = pi->netdev;
	}
}

static void rocectl_dev_unmap(struct rocectl_dev *rdev)
{
	if (rdev->netdev) {
		spin_lock(&rocectl_netdevs_lock);
		hash_del_rcu(&rdev->netdev_node);
		spin_unlock(&rocectl_netdevs_lock);
	}
	if (rdev->port_ifindex)
		xa_erase(&rocectl_port_netdevs, rdev->port_ifindex);
}

static int rocectl_ib_add(struct ib_device *ibdev)
{
	struct rocectl_port_info pi;
	struct rocectl_dev_name *name;
	struct rocectl_dev *rdev;
	int err;

	rdev = kzalloc(sizeof(*rdev), GFP_KERNEL);
	name = kzalloc(sizeof(*name), GFP_KERNEL);
	if (!rdev || !name) {
		kfree(rdev);
		kfree(name);
		return -ENOMEM;
	}
	rdev->ibdev = ibdev;
	rdev->index = ibdev->index;
	strscpy(name->s, dev_name(&ibdev->dev), sizeof(name->s));
	RCU_INIT_POINTER(rdev->name, name);
	xa_init_flags(&rdev->qps, XA_FLAGS_LOCK_IRQ);
	hash_init(rdev->by_drv);
	/* The module sees the packets of software RoCE only. */
	rdev->counts = ibdev->ops.driver_id == RDMA_DRIVER_RXE;
	rdev->owner = ibdev->ops.owner;
	err = rocectl_dev_publish(ROCECTL_DEV_NEW, rdev, NULL);
	if (err) {
		rocectl_dev_publish(ROCECTL_DEV_FREEING, rdev, NULL);
		kfree(name);
		kfree(rdev);
		return err;
	}
	/* Before it is published: its QPs count or not from the first. */
	err = rocectl_port_query(ibdev, 1, &pi);
	if (rdev->counts)
		rocectl_dev_map_netdev(rdev, &pi, err);
	rocectl_dev_map_port_netdev(rdev, &pi, err);

	mutex_lock(&rocectl_devs_lock);
	err = xa_insert(&rocectl_devs, rdev->index, rdev, GFP_KERNEL);
	if (!err) {
		rocectl_devs_gen++;
		ib_set_client_data(ibdev, &rocectl_ib_client, rdev);
		rocectl_dev_publish(ROCECTL_DEV_ADDED, rdev, NULL);
	}
	mutex_unlock(&rocectl_devs_lock);

	if (err) {
		pr_warn("cannot track RDMA device %s: %d\n", name->s, err);
		rocectl_dev_unmap(rdev);
		synchronize_rcu();	/* the packet path may have found it */
		rocectl_dev_publish(ROCECTL_DEV_FREEING, rdev, NULL);
		kfree(name);
		kfree(rdev);
		return err;
	}
	/* Published first, so QPs created during the scan are not missed. */
	rocectl_dev_publish(ROCECTL_DEV_LIVE, rdev, NULL);
	return 0;
}

static void rocectl_ib_remove(struct ib_device *ibdev, void *client_data)
{
	struct rocectl_dev *rdev = client_data;

	mutex_lock(&rocectl_devs_lock);
	/* Devices do not go away when only rocectl does: stay quiet then. */
	if (!rocectl_unloading)
		rocectl_dev_publish(ROCECTL_DEV_REMOVING, rdev, NULL);
	xa_erase(&rocectl_devs, rdev->index);
	rocectl_dev_unmap(rdev);
	rocectl_devs_gen++;
	mutex_unlock(&rocectl_devs_lock);
	rocectl_dev_publish(ROCECTL_DEV_REMOVED, rdev, NULL);
	/*
	 * The QP hooks and the packet path may still be looking at it, and
	 * its entries' RCU frees fold their counters into it: wait for the
	 * readers (a destroy hook among them may have queued a free), then
	 * for the frees.
	 */
	synchronize_rcu();
	rcu_barrier();
	rocectl_dev_publish(ROCECTL_DEV_FREEING, rdev, NULL);
	kfree(rcu_dereference_protected(rdev->name, true));
	kfree(rdev);
}

static void rocectl_ib_rename(struct ib_device *ibdev, void *client_data)
{
	struct rocectl_dev *rdev = client_data;
	struct rocectl_dev_name *old, *name;

	/*
	 * Without memory (the allocator says so) the old name stays: the
	 * device is still found by its index.
	 */
	name = kzalloc(sizeof(*name), GFP_KERNEL);
	if (!name)
		return;
	strscpy(name->s, dev_name(&ibdev->dev), sizeof(name->s));
	mutex_lock(&rocectl_devs_lock);
	old = rcu_dereference_protected(rdev->name,
					lockdep_is_held(&rocectl_devs_lock));
	rcu_assign_pointer(rdev->name, name);
	rocectl_devs_gen++;
	rocectl_dev_publish(ROCECTL_DEV_RENAMED, rdev, old->s);
	mutex_unlock(&rocectl_devs_lock);
	kfree_rcu(old, rcu);
}

static struct ib_client rocectl_ib_client = {
	.name = "rocectl",
	.add = rocectl_ib_add,
	.remove = rocectl_ib_remove,
	.rename = rocectl_ib_rename,
	/* We only read device and port state: no kernel verbs needed. */
	.no_kverbs_req = 1,
};

int rocectl_devices_init(void)
{
	return ib_register_client(&rocectl_ib_client);
}

void rocectl_devices_exit(void)
{
	mutex_lock(&rocectl_devs_lock);
	rocectl_unloading = true;
	mutex_unlock(&rocectl_devs_lock);
	ib_unregister_client(&rocectl_ib_client);
	WARN_ON(!xa_empty(&rocectl_devs));
	xa_destroy(&rocectl_devs);
	xa_destroy(&rocectl_port_netdevs);
	/* Entries and devices are freed by RCU callbacks of this module. */
	rcu_barrier();
}
