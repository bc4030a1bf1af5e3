/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which live QPs' counts the module will put in a device's "other" group
 * when they are destroyed: past its bound (retired_groups) it names no new
 * (port, command name, cgroup) group of a device, so a QP of a group it
 * does not name already goes there. The per-program sums show such a QP
 * in "other" while it lives and the per-workload sums leave it out, so
 * that no sum falls when the QP goes, nor comes back lower to a series
 * dropped meanwhile (a counter reset for Prometheus).
 */
#ifndef ROCECTL_METRICS_NAMED_H
#define ROCECTL_METRICS_NAMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics_read.h"

struct named_groups {
	struct retired *g;	/* the module's named groups, sorted */
	size_t n;
	unsigned int max;	/* its bound a device, 0 unknown: none full */
	bool have_dev;		/* the last device asked about, and whether full */
	uint32_t dev_index;
	bool full;
};

/* The named groups of s into ng; false if out of memory. */
bool named_groups_init(struct named_groups *ng, const struct snapshot *s);
/* Whether q's counts go to "other" when it is destroyed (q in device order). */
bool named_groups_goes_other(struct named_groups *ng, const struct qp *q);
void named_groups_free(struct named_groups *ng);

#endif
