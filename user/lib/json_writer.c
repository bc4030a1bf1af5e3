// SPDX-License-Identifier: GPL-2.0
/* A small streaming JSON writer: compact or pretty, with string escaping. */
#include <string.h>

#include "json_writer.h"

/*
 * A dump of 10,000 QPs is over a MB of JSON, and the writer was most of
 * the tool's time (tests/bench): it gathers its output in its own buffer,
 * handed to the stream in large writes, and formats numbers itself.
 */
void jw_flush(struct json_writer *jw)
{
	if (jw->len)
		fwrite(jw->buf, 1, jw->len, jw->f);
	jw->len = 0;
}

static void jw_put(struct json_writer *jw, const void *s, size_t n)
{
	if (jw->len + n > sizeof(jw->buf))
		jw_flush(jw);
	if (n > sizeof(jw->buf)) {
		fwrite(s, 1, n, jw->f);
		return;
	}
	memcpy(jw->buf + jw->len, s, n);
	jw->len += n;
}

static void jw_putc(struct json_writer *jw, char c)
{
	if (jw->len == sizeof(jw->buf))
		jw_flush(jw);
	jw->buf[jw->len++] = c;
}

static void jw_puts(struct json_writer *jw, const char *s)
{
	jw_put(jw, s, strlen(s));
}

void jw_set_file(struct json_writer *jw, FILE *f)
{
	jw_flush(jw);
	jw->f = f;
}

void jw_init(struct json_writer *jw, FILE *f, bool pretty)
{
	jw->f = f;
	jw->len = 0;
	jw->pretty = pretty;
	jw->depth = 0;
	jw->after_name = false;
	jw->first[0] = true;
}

static void jw_indent(struct json_writer *jw)
{
	int i;

	if (!jw->pretty)
		return;
	jw_putc(jw, '\n');
	for (i = 0; i < jw->depth; i++)
		jw_put(jw, "    ", 4);
}

/* Before a value or a member name: the separator, unless a name precedes. */
static void jw_separate(struct json_writer *jw)
{
	if (jw->after_name) {
		jw->after_name = false;
		return;
	}
	if (!jw->first[jw->depth])
		jw_putc(jw, ',');
	jw->first[jw->depth] = false;
	if (jw->depth > 0)
		jw_indent(jw);
}

static void jw_open(struct json_writer *jw, char c)
{
	jw_separate(jw);
	jw_putc(jw, c);
	if (jw->depth < JSON_MAX_DEPTH - 1)
		jw->depth++;
	jw->first[jw->depth] = true;
}

static void jw_close(struct json_writer *jw, char c)
{
	bool empty = jw->first[jw->depth];

	if (jw->depth > 0)
		jw->depth--;
	if (!empty)
		jw_indent(jw);
	jw_putc(jw, c);
}

void jw_start_object(struct json_writer *jw)
{
	jw_open(jw, '{');
}

void jw_end_object(struct json_writer *jw)
{
	jw_close(jw, '}');
}

void jw_start_array(struct json_writer *jw)
{
	jw_open(jw, '[');
}

void jw_end_array(struct json_writer *jw)
{
	jw_close(jw, ']');
}

/* What stands for c in a JSON string; NULL where c stands for itself. */
static const char *jw_escape(unsigned char c, char buf[7])
{
	if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
		return NULL;
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:	/* the other control characters */
		snprintf(buf, 7, "\\u%04x", c);
		return buf;
	}
}

static void jw_quoted(struct json_writer *jw, const char *s)
{
	const unsigned char *p, *run;
	const char *esc;
	char buf[7];

	jw_putc(jw, '"');
	for (p = run = (const unsigned char *)s; *p; p++) {
		esc = jw_escape(*p, buf);
		if (!esc)
			continue;
		jw_put(jw, run, p - run);
		jw_puts(jw, esc);
		run = p + 1;
	}
	jw_put(jw, run, p - run);
	jw_putc(jw, '"');
}

/* v in decimal, with a minus sign before it if negative. */
static void jw_decimal(struct json_writer *jw, uint64_t v, bool negative)
{
	char buf[21], *p = buf + sizeof(buf);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	if (negative)
		*--p = '-';
	jw_put(jw, p, buf + sizeof(buf) - p);
}

void jw_name(struct json_writer *jw, const char *name)
{
	jw_separate(jw);
	jw_quoted(jw, name);
	jw_puts(jw, jw->pretty ? ": " : ":");
	jw->after_name = true;
}

void jw_string(struct json_writer *jw, const char *s)
{
	jw_separate(jw);
	jw_quoted(jw, s);
}

void jw_uint(struct json_writer *jw, uint64_t v)
{
	jw_separate(jw);
	jw_decimal(jw, v, false);
}

void jw_int(struct json_writer *jw, int64_t v)
{
	jw_separate(jw);
	/* The magnitude in unsigned arithmetic: INT64_MIN has no positive. */
	jw_decimal(jw, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void jw_bool(struct json_writer *jw, bool v)
{
	jw_separate(jw);
	jw_puts(jw, v ? "true" : "false");
}

void jw_null(struct json_writer *jw)
{
	jw_separate(jw);
	jw_put(jw, "null", 4);
}
