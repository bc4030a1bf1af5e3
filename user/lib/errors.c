// SPDX-License-Identifier: GPL-2.0
/* Error messages on stderr, prefixed with the policy line being applied. */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "errors.h"

const char *err_where;

void err_prefix(FILE *f)
{
	if (err_where)
		fprintf(f, "%s: ", err_where);
}

/* Messages printed in pieces get the prefix once, at the line's start. */
static bool err_line_start = true;

void pr_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if (err_line_start)
		err_prefix(stderr);
	fputs(buf, stderr);
	n = strlen(buf);
	err_line_start = buf[n - 1] == '\n';
}
