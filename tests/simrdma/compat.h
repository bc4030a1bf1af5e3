/* SPDX-License-Identifier: GPL-2.0 */
/* simrdma: the RDMA core's differences between the kernels it builds for. */
#ifndef SIMRDMA_COMPAT_H
#define SIMRDMA_COMPAT_H

#include <linux/version.h>

/* 6.11 passes create_cq the whole uverbs bundle, not its udata. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define SIMRDMA_CQ_UDATA struct uverbs_attr_bundle
#else
#define SIMRDMA_CQ_UDATA struct ib_udata
#endif

#endif
