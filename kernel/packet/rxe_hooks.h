/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_RXE_HOOKS_H
#define _ROCECTL_RXE_HOOKS_H

#include <linux/types.h>

/*
 * rxe_hooks.c: the soft-RoCE packet path, while rdma_rxe is loaded: the
 * netfilter hooks and a probe for loopback, which bypasses IP.
 */
int rocectl_rxe_hooks_init(void);
void rocectl_rxe_hooks_exit(void);
u64 rocectl_rxe_missed(void);

#endif /* _ROCECTL_RXE_HOOKS_H */
