/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages on stderr, and exit codes. While a policy file is
 * applied, each line of a message starts with "FILE:LINE: " so the
 * operator can find the culprit.
 */
#ifndef ROCECTL_ERRORS_H
#define ROCECTL_ERRORS_H

#include <stdio.h>

/* Exit codes, documented in the README and rocectl(8). */
enum {
	EXIT_OK = 0,
	EXIT_CONDITION = 1,	/* a check found what it looks for */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_NO_MODULE = 3,	/* the rocectl kernel module is not loaded */
	EXIT_FAILED = 4,	/* the kernel refused the request, or it failed */
};

/* "FILE:LINE" of the policy line being applied, or NULL. */
extern const char *err_where;

/* Writes the "FILE:LINE: " prefix to f when a policy line is applied. */
void err_prefix(FILE *f);

/* fprintf(stderr, ...) behind the prefix. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
