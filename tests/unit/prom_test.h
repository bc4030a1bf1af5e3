/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_PROM_TEST_H
#define ROCECTL_PROM_TEST_H

/* The Prometheus exposition writer, each case reported through report. */
void prom_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
