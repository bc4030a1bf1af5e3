/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_METRICS_WORKLOADS_TEST_H
#define ROCECTL_METRICS_WORKLOADS_TEST_H

/* The exporter's per-workload (device, cgroup) sums (user/exporter/metrics_workloads.c). */
void metrics_workloads_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
