// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: a check's finding, built from parts (evidence and fixes),
 * and its report -- one line of text or one JSON object per check.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lib/output.h"

static const char *const result_names[] = { "SKIP", "PASS", "WARN", "FAIL" };

static void append(char *buf, size_t len, const char *sep, const char *fmt, va_list ap)
{
	size_t used = strlen(buf);

	if (used && used + strlen(sep) < len) {
		strcat(buf, sep);
		used += strlen(sep);
	}
	if (used < len)
		vsnprintf(buf + used, len - used, fmt, ap);
}

void check_append(char *buf, size_t len, const char *sep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append(buf, len, sep, fmt, ap);
	va_end(ap);
}

void finding_add(struct finding *f, enum check_result r, const char *fix,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append(f->evidence, sizeof(f->evidence), "; ", fmt, ap);
	va_end(ap);
	if (!f->any || r > f->result)
		f->result = r;
	f->any = true;
	if (fix && r >= CHECK_WARN && !strstr(f->fix, fix))
		check_append(f->fix, sizeof(f->fix), "; ", "%s", fix);
}

void check_report(struct check_ctx *c, const char *check, const struct finding *f)
{
	const struct check_port *p = c->p;

	if (f->result > c->worst)
		c->worst = f->result;
	out_open_object(NULL);
	out_str("result", "%s ", result_names[f->result]);
	out_str("check", "%s ", check);
	out_str("dev", "%s", p->dev);
	out_uint("port", "/%" PRIu64, p->port);
	out_str("netdev", " %s", *p->netdev ? p->netdev : "-");
	out_str("evidence", ": %s", f->evidence);
	if (f->result >= CHECK_WARN && *f->fix)
		out_str("fix", "; fix: %s", f->fix);
	out_close_object();
	out_nl();
}

/* "3" or "3,4" or "none": the priorities of a mask. */
const char *check_prio_list(uint8_t mask, char *buf, size_t len)
{
	unsigned int p;

	buf[0] = '\0';
	for (p = 0; p < 8; p++)
		if (mask & (1U << p))
			check_append(buf, len, ",", "%u", p);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}
