/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's QP sums per workload: per (device, cgroup), the cgroup
 * being the QPs' owners' (the root cgroup is no workload). Built as the
 * per-program sums are (metrics_sums.h): the live QPs' counters plus the
 * module's destroyed QPs' groups of that cgroup, each sum shown as the
 * largest it has been for this module load, so that it never goes back.
 * Past the module's bound on destroyed QPs' groups (retired_groups), a
 * destroyed QP's counts go to the device's "other" group, which names no
 * cgroup: so on a device whose table is full, a live QP of a (port, comm,
 * cgroup) group the module does not name is left out of its workload's
 * sum (it still counts as a live QP), as the per-program sums show it in
 * "other" already: a sum never falls when its QPs go, nor comes back lower
 * to a series dropped meanwhile. The workloads are the cgroups of the
 * module's groups (bounded) and of the live QPs.
 */
#ifndef ROCECTL_METRICS_WORKLOADS_H
#define ROCECTL_METRICS_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics_read.h"

struct workload_sum {
	uint32_t dev_index;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint64_t cgroup;
	bool counted;			/* it has counters (soft-RoCE) */
	unsigned int qps;		/* live QPs */
	uint64_t sum[QP_NSTATS];	/* live + destroyed, never lower than before */
};

/*
 * The same sums per (device, Slurm job): the job's workloads (its steps'
 * cgroups) added up, only where owners are shown. As many as the jobs
 * among the workloads (bounded as they are); each never lower than the
 * last scrape showed.
 */
struct job_sum {
	uint32_t dev_index;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint64_t job;
	bool counted;
	unsigned int qps;
	uint64_t sum[QP_NSTATS];
};

/*
 * From this scrape's workload sums (workload_sums()) and each one's job
 * (job[i], has[i] false: none), for the module load family_id. False if
 * out of memory.
 */
bool job_sums_update(uint32_t family_id, const uint64_t *job, const bool *has);
/* Sorted by (device index, job). */
const struct job_sum *job_sums(size_t *n);

/* This scrape's workloads from s, for the module load family_id. False if out of memory. */
bool workload_sums_update(uint32_t family_id, const struct snapshot *s);
/* Sorted by (device index, cgroup). */
const struct workload_sum *workload_sums(size_t *n);

#endif
