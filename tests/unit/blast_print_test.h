/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_BLAST_PRINT_TEST_H
#define ROCECTL_BLAST_PRINT_TEST_H

/*
 * A storm's blast radius as watchdog stats and monitor print it, and a
 * QP's priority as qp show prints it; each case reported through report.
 */
void blast_print_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
