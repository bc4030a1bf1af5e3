/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_CHECK_TEST_H
#define ROCECTL_CHECK_TEST_H

/* rocectl check's findings and intent, each reported through report. */
void check_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
