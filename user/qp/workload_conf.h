/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl.conf's workload lines: where a node nests the kubelet's
 * kubepods cgroup or slurmstepd's scope, for the views of workload.h.
 *   workload kubelet-root PATH
 *   workload slurm-root PATH
 * PATH as /proc/PID/cgroup writes it: absolute, below the cgroup root.
 */
#ifndef ROCECTL_WORKLOAD_CONF_H
#define ROCECTL_WORKLOAD_CONF_H

#include <stdbool.h>
#include "workload.h"

/* A line for this file: its first word is "workload". */
bool workload_conf_line(int n, char **words);
/*
 * One workload line (all its words) into roots: EXIT_OK, or EXIT_USAGE
 * with the error printed and roots unchanged.
 */
int workload_conf_parse(int n, char **words, struct workload_roots *roots);
/*
 * The workload lines of the policy file at path into roots (cleared
 * first). A file that is not there, or cannot be read, declares none; a
 * bad line is reported (FILE:LINE) and left out: EXIT_USAGE, the other
 * lines kept.
 */
int workload_conf_read(const char *path, struct workload_roots *roots);

#endif
