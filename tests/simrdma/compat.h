/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simrdma: the RDMA core's differences between the kernels it builds for.
 * Built and run here on 5.10, 6.1 and 6.12; the versions in between are
 * where the kernel's history puts each change.
 */
#ifndef SIMRDMA_COMPAT_H
#define SIMRDMA_COMPAT_H

#include <linux/version.h>

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

#endif
