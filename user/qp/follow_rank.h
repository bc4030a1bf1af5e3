/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which QP qp counters follow serves first when a device has fewer counter
 * sets than QPs that match: the policy's order (the first policy line
 * first), then QPs whose port shows congestion or retransmissions, then
 * the oldest (then the lowest QPN): a strict order, so that the QPs bound
 * are always, a look later, the first that many in it. A bound QP gives up
 * its set to a waiting QP that comes before it; as the order is total and
 * new QPs are the youngest, sets move only towards it, never back and
 * forth.
 */
#ifndef ROCECTL_FOLLOW_RANK_H
#define ROCECTL_FOLLOW_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct qpc_value;

struct follow_rank {
	size_t policy;		/* the first policy that matches it */
	bool busy;		/* its port showed congestion or retransmissions */
	uint64_t created;	/* when it was created (ns); 0: unknown */
	uint32_t qpn;		/* the last tie-break */
};

/* Negative: a is served before b; positive: after; 0: the same QP. */
int follow_rank_cmp(const struct follow_rank *a, const struct follow_rank *b);

/* Whether a waiting QP a may take bound QP b's counter set. */
bool follow_rank_outranks(const struct follow_rank *a, const struct follow_rank *b);

/*
 * Whether a port's counters show congestion or retransmissions: one of
 * the counters that count them (mlx5's and the RDMA core's names) grew
 * from old to now. Counters absent from old count from 0.
 */
bool follow_port_busy(const struct qpc_value *old, size_t nold,
		      const struct qpc_value *now, size_t nnow);

#endif
