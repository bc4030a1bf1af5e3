/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hardware QP's congestion counts: the optional congestion counters its
 * counter set carries (mlx5: cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts,
 * bound per QP by the RDMA core from Linux 6.15), shown in the fields
 * soft-RoCE's QPs fill from the module's counts (rx_ecn_ce, rx_cnp,
 * tx_cnp), with their source; or why a QP has none.
 */
#ifndef ROCECTL_QP_HW_CONG_H
#define ROCECTL_QP_HW_CONG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qp_fields.h"

struct nl;
struct nl_error;
struct qpc_counter;

#define QP_HW_CONG_N	3
#define QP_HW_CONG_SOURCE "hardware"

/* Each optional counter's name, and the QP counter (ROCECTL_A_QP_STAT_*) it fills. */
extern const struct qp_hw_cong_name {
	const char *hw;
	unsigned int stat;
} qp_hw_cong_names[QP_HW_CONG_N];

/*
 * Whether this kernel's RDMA core binds a port's enabled optional counters
 * to a QP's counter (Linux 6.15: a counter made by a manual bind carries
 * them; before, optional counters count per port only). release: uname's,
 * or NULL for this machine's.
 */
bool qp_hw_cong_kernel_binds(const char *release);

/*
 * A QP's congestion counts from its counter set c (NULL: it has none):
 * v[QP_NSTATS] gets them at their QP counters' places; the mask bit i
 * (of qp_hw_cong_names) says that counter was there. 0: none were.
 */
unsigned int qp_hw_cong_values(const struct qpc_counter *c, uint64_t *v);

/* Why a hardware QP with counter set c (or none) has no congestion counts. */
const char *qp_hw_cong_absent(const struct qpc_counter *c, bool kernel_binds);

/*
 * The congestion optional counters a port offers, enabled where they are
 * off, so that a counter bound next carries them (only where the kernel
 * binds them: else nothing is asked). enabled: the names enabled now,
 * comma-separated ("" when none needed it). 0, or -errno with what the
 * kernel said in *e (nothing changed).
 */
int qp_hw_cong_enable(struct nl *rdma, uint32_t dev_index, uint32_t port,
		      char *enabled, size_t len, struct nl_error *e);

/*
 * For a QP the module does not count (hardware RoCE): its congestion
 * counts in the "counters" object with "counters_source" "hardware", or
 * "counters_source" "none" with the reason.
 */
void qp_hw_cong_print(const struct qpc_counter *c, bool kernel_binds, const char *indent);
/* "counters none" with why: JSON counters_source none and counters_absent. */
void qp_hw_cong_print_absent(const char *why, const char *indent);

#endif
