/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware per-QP counters: QPs bound to counters of drivers that can bind
 * them (mlx5), as "rdma statistic qp" shows them. The RDMA core's side
 * (requests, replies, refusals) is rdma_stat.h; here the printing and the
 * "qp counters" command.
 */
#ifndef ROCECTL_QP_COUNTERS_H
#define ROCECTL_QP_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rdma_stat.h"

struct rocectl;

/*
 * Whether a counter the driver lists for a counter set is a port's: mlx5
 * lists its congestion counters (rp_cnp_handled, np_cnp_sent, ...) for
 * every counter set but counts them per port only. They are never shown
 * under a QP; rocectl dev stats shows them.
 */
bool qpc_port_scope(const char *name);

/* A record of "qp counters show". */
void qpc_print_counter(const struct qpc_counter *c);
/* In a QP's record of "qp stats": its bound counter, if it has one. */
void qpc_print_for_qp(const struct qpc_list *l, uint32_t dev_index,
		      uint32_t port, uint32_t qpn);

/*
 * qp stats: the counters bound on each of the devices, one dump each.
 * A device whose counters cannot be read gets a warning; nothing fails.
 */
struct qpc_dev {
	uint32_t index;
	const char *name;
};

void qpc_collect(const struct qpc_dev *devs, size_t n, struct qpc_list *l);

/* rocectl qp counters ...; and its usage lines, shared with qp help. */
int qp_counters(struct rocectl *rc);
extern const char qpc_usage[];

#endif
