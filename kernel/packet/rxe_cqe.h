/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_RXE_CQE_H
#define _ROCECTL_RXE_CQE_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_verbs.h>

/*
 * rdma_rxe's struct rxe_cqe, the second argument of its rxe_cq_post(): a
 * completion in the kernel's form or the user's (rxe_verbs.h, the same
 * from 5.10 to 7.x), chosen by its CQ's owner (ib_cq.uobject).
 */
union rocectl_rxe_cqe {
	struct ib_wc ibwc;
	struct ib_uverbs_wc uibwc;
};

/*
 * An error completion, not a flush: what precedes rdma_rxe's own move of
 * the QP to ERR. Both forms keep the status in one place.
 */
static inline bool rocectl_rxe_cqe_failed(const union rocectl_rxe_cqe *cqe)
{
	BUILD_BUG_ON(offsetof(struct ib_wc, status) !=
		     offsetof(struct ib_uverbs_wc, status));
	return cqe->ibwc.status != IB_WC_SUCCESS &&
	       cqe->ibwc.status != IB_WC_WR_FLUSH_ERR;
}

#endif /* _ROCECTL_RXE_CQE_H */
