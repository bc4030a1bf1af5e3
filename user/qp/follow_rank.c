// SPDX-License-Identifier: GPL-2.0
/* qp counters follow's order of service (see follow_rank.h). */
#include <string.h>

#include "follow_rank.h"
#include "lib/attrs.h"
#include "lib/rdma_stat.h"

int follow_rank_cmp(const struct follow_rank *a, const struct follow_rank *b)
{
	if (a->policy != b->policy)
		return a->policy < b->policy ? -1 : 1;
	if (a->busy != b->busy)
		return a->busy ? -1 : 1;
	if (a->created != b->created)
		return a->created < b->created ? -1 : 1;
	return a->qpn < b->qpn ? -1 : a->qpn > b->qpn;
}

bool follow_rank_outranks(const struct follow_rank *a, const struct follow_rank *b)
{
	return follow_rank_cmp(a, b) < 0;
}

/*
 * The port counters that show congestion (CE received, CNPs sent and
 * handled) or retransmissions (sequence errors, timeouts, RNR and
 * duplicates), as mlx5 and the RDMA core name them.
 */
static bool busy_counter(const char *name)
{
	static const char *const names[] = {
		"cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts",
		"np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled",
		"out_of_sequence", "packet_seq_err", "implied_nak_seq_err",
		"local_ack_timeout_err", "rnr_nak_retry_err", "duplicate_request",
		"req_transport_retries_exceeded", "roce_slow_restart",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

bool follow_port_busy(const struct qpc_value *old, size_t nold,
		      const struct qpc_value *now, size_t nnow)
{
	size_t i, j;

	for (i = 0; i < nnow; i++) {
		uint64_t before = 0;

		if (!busy_counter(now[i].name))
			continue;
		for (j = 0; j < nold; j++)
			if (!strcmp(old[j].name, now[i].name))
				before = old[j].value;
		if (now[i].value > before)
			return true;
	}
	return false;
}
