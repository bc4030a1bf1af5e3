/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_DEV_COUNTERS_H
#define _ROCECTL_DEV_COUNTERS_H

#include <linux/types.h>

struct rocectl_dev;

/* dev_counters.c: what no live QP's counters hold. */
void rocectl_dev_unattributed(struct rocectl_dev *rdev, bool tx, u64 payload,
			      bool ce);
void rocectl_dev_qp_gone(struct rocectl_dev *rdev, const u64 *stats);
void rocectl_dev_counters_read(const struct rocectl_dev *rdev, u64 *gone,
			       u64 *unattributed);
void rocectl_pkt_unseen_add(u64 n);
u64 rocectl_pkt_unseen_read(void);

static inline void rocectl_pkt_unseen(void)
{
	rocectl_pkt_unseen_add(1);
}

#endif /* _ROCECTL_DEV_COUNTERS_H */
