/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl qp counters optional: a port's optional hardware counters. */
#ifndef ROCECTL_QP_OPTIONAL_H
#define ROCECTL_QP_OPTIONAL_H

struct rocectl;

/* rocectl qp counters optional [ show | set | unset ] ... */
int qpc_optional(struct rocectl *rc);

#endif
