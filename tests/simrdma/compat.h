/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simrdma: the RDMA core's differences between the kernels it builds for.
 * Built and run here on 5.10, 6.1, 6.12 and 7.2; the versions in between
 * are where the kernel's history puts each change.
 */
#ifndef SIMRDMA_COMPAT_H
#define SIMRDMA_COMPAT_H

#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/version.h>
#include <rdma/ib_verbs.h>

/*
 * 5.9: drivers hand the RDMA netlink a QP's raw context
 * (fill_res_qp_entry_raw, RDMA_NLDEV_CMD_RES_QP_GET_RAW): every kernel
 * here has it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 9, 0)
#define SIMRDMA_RAW_QP
#endif

/* 5.13 numbers ports with a u32; before, a u8. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 13, 0)
typedef u32 simrdma_port_t;
#else
typedef u8 simrdma_port_t;
#endif

/*
 * 5.15: the RDMA core allocates QPs (INIT_RDMA_OBJ_SIZE) and its stats
 * have descriptors (struct rdma_stat_desc) and separate port and device
 * allocations; before, create_qp allocated the QP and returned it, and
 * stats had an array of names and one alloc_hw_stats (port 0: device).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 15, 0)
#define SIMRDMA_DRIVER_ALLOCS_QP
#define SIMRDMA_STAT_NAMES
#endif

/* 5.16: optional counters (IB_STAT_FLAG_OPTIONAL, modify_hw_stat). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
#define SIMRDMA_OPTIONAL_COUNTERS
#endif

/* 5.19 keeps kernel-only device capabilities apart (kernel_cap_flags). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 19, 0)
#define SIMRDMA_SET_LOCAL_DMA_LKEY(attr) ((attr)->kernel_cap_flags = IBK_LOCAL_DMA_LKEY)
#else
#define SIMRDMA_SET_LOCAL_DMA_LKEY(attr) ((attr)->device_cap_flags = IB_DEVICE_LOCAL_DMA_LKEY)
#endif

/* 6.11 passes create_cq the whole uverbs bundle, not its udata. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define SIMRDMA_CQ_UDATA struct uverbs_attr_bundle
#else
#define SIMRDMA_CQ_UDATA struct ib_udata
#endif

/*
 * 6.17 passes reg_user_mr a DMA handle (struct ib_dmah, TPH hints) before
 * its udata: the parameter, with its comma, or nothing.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define SIMRDMA_MR_DMAH_PARAM struct ib_dmah *dmah,
#else
#define SIMRDMA_MR_DMAH_PARAM
#endif

/*
 * 6.15 passes counter_bind_qp and counter_unbind_qp the port after the QP
 * (optional counters bound per QP): their parameters from the QP on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define SIMRDMA_COUNTER_QP_PARAMS struct ib_qp *ibqp, u32 port
#else
#define SIMRDMA_COUNTER_QP_PARAMS struct ib_qp *ibqp
#endif

/*
 * 6.15 allocates a QP counter (struct rdma_counter) as a driver object, of
 * the size the driver declares (INIT_RDMA_OBJ_SIZE), and calls the
 * driver's counter_init on it: without either, binding a QP to a new
 * counter oopses in the RDMA core (a zero-size object, a NULL call).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define SIMRDMA_DRIVER_OBJ_COUNTER
#endif

/*
 * An RDMA device by name, held (ib_device_put()). ib_device_get_by_name()
 * is exported up to 6.12 at least and no longer by 7.2's ib_core; past
 * 6.12 the device is found among those bound to a netdev of init_net
 * (every RoCE device, the only kind the tests name), through
 * ib_device_get_by_netdev(), which every kernel here exports.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define simrdma_device_get_by_name(name) \
	ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN)
#else
static inline struct ib_device *simrdma_device_get_by_name(const char *name)
{
	struct ib_device *ibdev, *found = NULL;
	struct net_device *ndev;

	rcu_read_lock();
	for_each_netdev_rcu(&init_net, ndev) {
		ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
		if (!ibdev)
			continue;
		if (!strcmp(dev_name(&ibdev->dev), name)) {
			found = ibdev;
			break;
		}
		ib_device_put(ibdev);
	}
	rcu_read_unlock();
	return found;
}
#endif

#endif
