/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl qp errors (qp_errors.c): the module's QP failure records. */
#ifndef ROCECTL_QP_ERRORS_H
#define ROCECTL_QP_ERRORS_H

struct rocectl;

int qp_errors(struct rocectl *rc);

#endif
