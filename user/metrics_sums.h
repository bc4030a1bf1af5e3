/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's bookkeeping across scrapes: per-QP counters summed per
 * (device, port, comm), sums that never go down. A QP's counts do not
 * leave its sum when it is destroyed: the module's destroy event carries
 * its final counters, and the exporter, subscribed to the events, adds
 * them to what its group has retired.
 */
#ifndef ROCECTL_METRICS_SUMS_H
#define ROCECTL_METRICS_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics_read.h"

#define NQP_STATES	7	/* enum rocectl_qp_state: RESET .. ERR */

/* A (device, port, comm) group of QPs: what its live QPs count and what its destroyed ones did. */
struct group {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	uint32_t port;
	bool counted;
	unsigned int qps[NQP_STATES];
	uint64_t live[QP_NSTATS], retired[QP_NSTATS];
};

/*
 * Before the dump: subscribed to the events of the module with this
 * family id (anew after a module load, which starts the sums over), and
 * the destroys already queued taken, so that they leave their QPs out of
 * it. False if the events failed.
 */
bool sums_begin(uint32_t family_id);
/*
 * After the dump, s's QPs sorted: the destroys during it (their final
 * counts replace the dumped ones), then the live QPs into their groups.
 * False if the events failed.
 */
bool sums_add(struct snapshot *s);
/* This scrape's QPs (taken from s), so that the next attributes them when they go. */
void sums_keep(struct snapshot *s);

/* The groups, and the times the kernel dropped events for the exporter. */
const struct group *sums_groups(size_t *n);
uint64_t sums_events_lost(void);

#endif
