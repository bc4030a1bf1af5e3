/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_CHECK_ECMP_TEST_H
#define ROCECTL_CHECK_ECMP_TEST_H

/* rocectl check's ecmp judgement, each case reported through report. */
void check_ecmp_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
