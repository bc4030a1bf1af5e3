/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's per-QP counters summed per (device, port, comm) -- a
 * label per QP would make a series per QP, unbounded as QPs come and go
 * by the thousand -- that never go back.
 *
 * A group's sum is what its live QPs count plus what its destroyed ones
 * did, which the module keeps itself (qp-retired-get, read in the same
 * scrape before the QPs): no event has to be caught, so none can be lost.
 * The two dumps are not one snapshot: a QP destroyed between them is in
 * neither, and its group's sum dips for that scrape. Each sum is shown as
 * the largest it has been (for the same device, by index, and the same
 * module load), so a dip shows as no growth, and the next scrape has the
 * QP in the destroyed ones' sum again. The groups are as many as the
 * module keeps (bounded per device, module parameter retired_groups, past
 * which it keeps one "other" group, shown with empty port and comm) plus
 * those of the live QPs; a group neither has any more is dropped. On a
 * device whose table is full, a live QP of a group the module does not
 * name -- by port, comm and cgroup, as the module keys them -- is shown in
 * "other" already, where its counts go when it is destroyed
 * (metrics_named.h): a series never comes back lower after it was dropped.
 */
#ifndef ROCECTL_METRICS_SUMS_H
#define ROCECTL_METRICS_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics_read.h"

#define NQP_STATES	7	/* enum rocectl_qp_state: RESET .. ERR */

/* A (device, port, comm) group of QPs. */
struct group {
	uint32_t dev_index;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	uint32_t port;
	bool other;			/* the module's group past its bound */
	bool counted;			/* it has counters (soft-RoCE) */
	unsigned int qps[NQP_STATES];	/* live QPs by state */
	uint64_t sum[QP_NSTATS];	/* live + destroyed, never lower than before */
};

/*
 * This scrape's groups from s (its destroyed QPs' groups and its QPs),
 * for the module load whose family id is family_id (another id starts
 * over: the module's counts started over). False if out of memory.
 */
bool sums_update(uint32_t family_id, const struct snapshot *s);
/* The groups, sorted by (device index, port, comm). */
const struct group *sums_groups(size_t *n);
/*
 * One group's QP_NSTATS sums raised to what the last scrape showed where
 * lower (a QP between the dumps): the number raised. Shared with the
 * per-workload sums (metrics_workloads.c).
 */
unsigned int sums_hold(uint64_t *sum, const uint64_t *prev);
/* Sums shown higher than this scrape read (a QP between the dumps), all groups. */
uint64_t sums_held(void);

#endif
