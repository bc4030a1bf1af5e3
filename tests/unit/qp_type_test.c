// SPDX-License-Identifier: GPL-2.0
/*
 * The module's QP type mapping (kernel/qp/qp_type.h), compiled in user space:
 * the RDMA core's numbers (include/rdma/ib_verbs.h, enum ib_qp_type) in,
 * the ABI's out.
 */
#include "kshim.h"
#include "../../kernel/qp/qp_type.h"
#include "qp_type_test.h"

void qp_type_tests(void (*report)(const char *, int))
{
	/* enum ib_qp_type: SMI..XRC_TGT, DRIVER 0xff, RESERVED1 0x1000 on. */
	static const unsigned int generic[] = { 0, 1, 2, 3, 4, 8, 9, 10 };
	unsigned int i;
	int ok = 1;

	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		ok &= rocectl_qp_type(generic[i]) == generic[i];
	report("qp type: the generic types keep their numbers", ok);

	ok = rocectl_qp_type(0xff) == ROCECTL_QPT_DRIVER;
	report("qp type: IB_QPT_DRIVER is DRIVER", ok);

	/* mlx5's UMR QP (IB_QPT_RESERVED1): a u8 copy made it SMI. */
	ok = rocectl_qp_type(0x1000) == ROCECTL_QPT_DRIVER &&
	     rocectl_qp_type(0x1000) != ROCECTL_QPT_SMI;
	report("qp type: 0x1000 (mlx5 UMR) is DRIVER, not SMI", ok);

	ok = 1;
	for (i = 0x1001; i <= 0x1009; i++)	/* mlx5 HW GSI, DCI, DCT, ... */
		ok &= rocectl_qp_type(i) == ROCECTL_QPT_DRIVER;
	report("qp type: 0x1001..0x1009 are DRIVER", ok);

	/* RAW_IPV6, RAW_ETHERTYPE, the unused 7, IB_QPT_MAX, a wider number. */
	ok = rocectl_qp_type(5) == ROCECTL_QPT_DRIVER &&
	     rocectl_qp_type(6) == ROCECTL_QPT_DRIVER &&
	     rocectl_qp_type(7) == ROCECTL_QPT_DRIVER &&
	     rocectl_qp_type(11) == ROCECTL_QPT_DRIVER &&
	     rocectl_qp_type(0x10002) == ROCECTL_QPT_DRIVER;
	report("qp type: numbers the ABI does not name are DRIVER", ok);
}
