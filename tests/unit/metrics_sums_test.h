/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_METRICS_SUMS_TEST_H
#define ROCECTL_METRICS_SUMS_TEST_H

/* The exporter's QP sums (user/exporter/metrics_sums.c), each case reported through report. */
void metrics_sums_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
