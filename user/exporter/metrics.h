/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl's Prometheus metrics: one reading of the module (one dump per
 * object) turned into an exposition. Shared by the HTTP exporter and the
 * textfile writer.
 */
#ifndef ROCECTL_METRICS_H
#define ROCECTL_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "prom.h"

struct metrics_opts {
	unsigned int top;	/* the N QPs shown one by one */
	unsigned int top_by;	/* by this counter (qp_stat_name's index) */
	bool owners;		/* pids, comms, cgroups and workloads shown (metrics_owners.h) */
};

/* What the exporter knows of itself, across scrapes. */
struct metrics_health {
	uint64_t scrapes;
	uint64_t errors;	/* scrapes where a request to the kernel failed */
	uint64_t qps_interrupted;	/* scrapes whose QP dump raced with churn */
};

#define METRICS_TOP_DEFAULT	20
#define METRICS_TOP_MAX		1000

/*
 * Read the module and write every metric into p, the exporter's own last;
 * h is updated. Never prints: what failed is in the metrics (rocectl_up,
 * rocectl_scrape_errors_total).
 */
void metrics_write(struct prom *p, const struct metrics_opts *o, struct metrics_health *h);

/* The index of a QP counter by name, or -1. */
int metrics_counter(const char *name);

#endif
