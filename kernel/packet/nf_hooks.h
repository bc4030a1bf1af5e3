/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_NF_HOOKS_H
#define _ROCECTL_NF_HOOKS_H

#include <linux/errno.h>
#include <linux/kconfig.h>

/*
 * nf_hooks.c: the soft-RoCE wire path, netfilter hooks in the initial
 * network namespace (where rdma_rxe's sockets are). Without netfilter in
 * the kernel, arming says so and wire packets are not counted.
 */
#if IS_ENABLED(CONFIG_NETFILTER)
int rocectl_nf_hooks_arm(void);
void rocectl_nf_hooks_disarm(void);
#else
static inline int rocectl_nf_hooks_arm(void)
{
	return -EOPNOTSUPP;
}

static inline void rocectl_nf_hooks_disarm(void)
{
}
#endif

#endif /* _ROCECTL_NF_HOOKS_H */
