// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus exposition: "# HELP", "# TYPE", samples with escaped label
 * values. The two formats differ where a counter is named: the text
 * format types the sample's name (rocectl_x_total), OpenMetrics the
 * family's (rocectl_x) and ends with "# EOF".
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

void prom_init(struct prom *p, bool openmetrics)
{
	memset(p, 0, sizeof(*p));
	p->openmetrics = openmetrics;
}

void prom_free(struct prom *p)
{
	free(p->buf);
	p->buf = NULL;
	p->len = p->cap = 0;
}

static bool reserve(struct prom *p, size_t more)
{
	size_t cap = p->cap ? p->cap : 4096;
	char *grown;

	if (p->failed)
		return false;
	if (p->len + more + 1 <= p->cap)
		return true;
	while (cap < p->len + more + 1)
		cap *= 2;
	grown = realloc(p->buf, cap);
	if (!grown) {
		p->failed = true;
		return false;
	}
	p->buf = grown;
	p->cap = cap;
	return true;
}

static void put(struct prom *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct prom *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(p, n))
		return;
	va_start(ap, fmt);
	vsnprintf(p->buf + p->len, p->cap - p->len, fmt, ap);
	va_end(ap);
	p->len += n;
}

/*
 * The length of the valid UTF-8 sequence s starts with (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)	/* the NUL ends it too */
			return 0;
	return n;
}

/*
 * Label values escape \, " and newline; HELP text \ and newline. Both must
 * be UTF-8, or the scrape is refused whole (a process name is any bytes,
 * and the kernel's 15-byte cut can split a character): a run of bytes that
 * is not becomes one U+FFFD, as node_exporter does.
 */
static void put_escaped(struct prom *p, const char *str, bool quote)
{
	const unsigned char *s = (const unsigned char *)str;
	bool bad = false;
	size_t n;

	while (*s) {
		n = utf8_len(s);
		if (!n) {
			if (!bad)
				put(p, "\xef\xbf\xbd");
			bad = true;
			s++;
			continue;
		}
		bad = false;
		if (*s == '\\')
			put(p, "\\\\");
		else if (*s == '\n')
			put(p, "\\n");
		else if (quote && *s == '"')
			put(p, "\\\"");
		else
			put(p, "%.*s", (int)n, (const char *)s);
		s += n;
	}
}

void prom_family(struct prom *p, const char *name, enum prom_type type, const char *help)
{
	const char *suffix = type == PROM_COUNTER && !p->openmetrics ? "_total" : "";

	p->family = name;
	p->type = type;
	put(p, "# HELP %s%s ", name, suffix);
	put_escaped(p, help, false);
	put(p, "\n# TYPE %s%s %s\n", name, suffix, type == PROM_COUNTER ? "counter" : "gauge");
}

static void put_name(struct prom *p, const struct prom_label *l, size_t n)
{
	size_t i, shown = 0;

	put(p, "%s%s", p->family, p->type == PROM_COUNTER ? "_total" : "");
	for (i = 0; i < n; i++) {
		if (p->drop_label && p->drop_label(l[i].name))
			continue;
		put(p, "%s%s=\"", shown++ ? "," : "{", l[i].name);
		put_escaped(p, l[i].value ? l[i].value : "", true);
		put(p, "\"");
	}
	if (shown)
		put(p, "}");
}

void prom_u64(struct prom *p, const struct prom_label *l, size_t n, uint64_t v)
{
	put_name(p, l, n);
	put(p, " %" PRIu64 "\n", v);
}

void prom_double(struct prom *p, const struct prom_label *l, size_t n, double v)
{
	put_name(p, l, n);
	put(p, " %.17g\n", v);
}

void prom_end(struct prom *p)
{
	if (p->openmetrics)
		put(p, "# EOF\n");
}

const char *prom_content_type(const struct prom *p)
{
	return p->openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
				"text/plain; version=0.0.4; charset=utf-8";
}
