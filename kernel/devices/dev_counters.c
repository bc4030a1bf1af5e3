// SPDX-License-Identifier: GPL-2.0
/*
 * The packets no live QP's counters hold, so that a device's counters
 * close: the live QPs' sums, plus the final counts of its destroyed QPs,
 * plus what no counting QP took, equal every packet the packet path saw
 * on the device; and module-wide, what it could not look at.
 *
 * A destroyed QP is folded in from its entry's RCU free, after every
 * packet-path reader that found the entry is done: a packet counted on
 * it while it was being destroyed still lands in the sum.
 */
#include <linux/atomic.h>
#include "dev_counters.h"
#include "devices.h"
#include "qp/qp_stats.h"

static atomic64_t rocectl_unseen = ATOMIC64_INIT(0);

void rocectl_dev_unattributed(struct rocectl_dev *rdev, bool tx, u64 payload,
			      bool ce)
{
	atomic64_t *c = rdev->unattributed;

	if (tx) {
		atomic64_inc(&c[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_PACKETS)]);
		atomic64_add(payload, &c[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_BYTES)]);
		return;
	}
	atomic64_inc(&c[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_PACKETS)]);
	atomic64_add(payload, &c[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_BYTES)]);
	if (ce)
		atomic64_inc(&c[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_ECN_CE)]);
}

void rocectl_dev_qp_gone(struct rocectl_dev *rdev, const u64 *stats)
{
	int i;

	for (i = 0; i < ROCECTL_QP_NSTATS; i++)
		if (stats[i])
			atomic64_add(stats[i], &rdev->gone[i]);
}

void rocectl_dev_counters_read(const struct rocectl_dev *rdev, u64 *gone,
			       u64 *unattributed)
{
	int i;

	for (i = 0; i < ROCECTL_QP_NSTATS; i++) {
		gone[i] = atomic64_read(&rdev->gone[i]);
		unattributed[i] = atomic64_read(&rdev->unattributed[i]);
	}
}

void rocectl_pkt_unseen_add(u64 n)
{
	atomic64_add(n, &rocectl_unseen);
}

u64 rocectl_pkt_unseen_read(void)
{
	return atomic64_read(&rocectl_unseen);
}
