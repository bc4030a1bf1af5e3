/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl qp: the module's QPs: show, stats, errors, counters. */
#ifndef ROCECTL_QP_CMD_H
#define ROCECTL_QP_CMD_H

struct rocectl;

/* The object's handler: consumes rc->argv, returns an exit code. */
int cmd_qp(struct rocectl *rc);

#endif
