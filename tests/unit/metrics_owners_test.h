/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_METRICS_OWNERS_TEST_H
#define ROCECTL_METRICS_OWNERS_TEST_H

/* The exporter without the QPs' owners, each case reported through report. */
void metrics_owners_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
