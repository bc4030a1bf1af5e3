/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A QP's type as the ABI tells it (enum rocectl_qp_type, a u8). The RDMA
 * core's enum ib_qp_type is wider: drivers number their own types from
 * IB_QPT_RESERVED1 = 0x1000 (mlx5's UMR, DCI, DCT), which a plain u8 copy
 * would turn into SMI (0). Pure code, so that user-space unit tests
 * compile it too (with u8 defined for them).
 */
#ifndef _ROCECTL_QP_TYPE_H
#define _ROCECTL_QP_TYPE_H

#include <linux/rocectl.h>

/* The ABI numbers the generic types as the RDMA core does (qps.c checks). */
static inline u8 rocectl_qp_type(unsigned int ib_qp_type)
{
	switch (ib_qp_type) {
	case ROCECTL_QPT_SMI:
	case ROCECTL_QPT_GSI:
	case ROCECTL_QPT_RC:
	case ROCECTL_QPT_UC:
	case ROCECTL_QPT_UD:
	case ROCECTL_QPT_RAW_PACKET:
	case ROCECTL_QPT_XRC_INI:
	case ROCECTL_QPT_XRC_TGT:
		return ib_qp_type;
	default:	/* IB_QPT_DRIVER, a driver's own, or one no driver makes */
		return ROCECTL_QPT_DRIVER;
	}
}

#endif /* _ROCECTL_QP_TYPE_H */
