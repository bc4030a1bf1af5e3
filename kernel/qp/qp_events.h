/* SPDX-License-Identifier: GPL-2.0 */
/* The QP failures the kernel learns of other than by a modify (qp_events.c). */
#ifndef _ROCECTL_QP_EVENTS_H
#define _ROCECTL_QP_EVENTS_H

#include <rdma/ib_verbs.h>

int rocectl_qp_events_init(void);
void rocectl_qp_events_exit(void);
void rocectl_qp_fail_from_hook(struct ib_qp *qp, u8 cause);

#endif /* _ROCECTL_QP_EVENTS_H */
