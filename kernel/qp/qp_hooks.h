/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_QP_HOOKS_H
#define _ROCECTL_QP_HOOKS_H

#include <linux/types.h>

/* qp_hooks.c: kretprobes on ib_core's QP verbs. */
int rocectl_qp_hooks_init(void);
void rocectl_qp_hooks_exit(void);
u64 rocectl_qp_hooks_missed(void);
void rocectl_qp_hooks_check(void);
bool rocectl_qp_verb_running(void);

#endif /* _ROCECTL_QP_HOOKS_H */
