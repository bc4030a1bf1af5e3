/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who owns the QPs -- a process's pid and command name, its cgroup and
 * the workload the cgroup names (pod, namespace, container, job) -- is
 * shown by the exporter only when the operator asks (rocectl exporter
 * owners): whoever reaches its port or reads its textfile, a hostNetwork
 * tenant included, learns which programs of which tenants use RDMA. Without
 * it the per-owner series are folded into their device and port (a sum
 * stays a counter: the groups it adds up are counters that are never
 * dropped before their module unloads), and the per-workload families are
 * not written at all: they exist only to name owners.
 */
#ifndef ROCECTL_METRICS_OWNERS_H
#define ROCECTL_METRICS_OWNERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics_read.h"
#include "metrics_sums.h"

/* Whether a label names an owner (those the exposition drops without owners). */
bool owner_label(const char *name);

/*
 * The groups (sorted as sums_groups() gives them) folded over their
 * command names: one per (device, port), the module's "other" apart,
 * comm empty, each sum never lower than the last fold's of the same
 * module load (family). A new array in *out (free() it), false if out of
 * memory.
 */
bool owners_fold_groups(uint32_t family, const struct group *g, size_t n, struct group **out,
			size_t *nout);

/*
 * QP failure counts folded over their command names: one per (device,
 * cause), "other" apart. A new array in *out, false if out of memory.
 */
bool owners_fold_errors(const struct qp_err_count *e, size_t n, struct qp_err_count **out,
			size_t *nout);

#endif
