// SPDX-License-Identifier: GPL-2.0
/* A small streaming JSON writer: compact or pretty, with string escaping. */
#include <inttypes.h>

#include "json_writer.h"

void jw_init(struct json_writer *jw, FILE *f, bool pretty)
{
	jw->f = f;
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
	fputc('\n', jw->f);
	for (i = 0; i < jw->depth; i++)
		fputs("    ", jw->f);
}

/* Before a value or a member name: the separator, unless a name precedes. */
static void jw_separate(struct json_writer *jw)
{
	if (jw->after_name) {
		jw->after_name = false;
		return;
	}
	if (!jw->first[jw->depth])
		fputc(',', jw->f);
	jw->first[jw->depth] = false;
	if (jw->depth > 0)
		jw_indent(jw);
}

static void jw_open(struct json_writer *jw, char c)
{
	jw_separate(jw);
	fputc(c, jw->f);
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
	fputc(c, jw->f);
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

static void jw_quoted(struct json_writer *jw, const char *s)
{
	const unsigned char *p;

	fputc('"', jw->f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", jw->f);
			break;
		case '\\':
			fputs("\\\\", jw->f);
			break;
		case '\n':
			fputs("\\n", jw->f);
			break;
		case '\r':
			fputs("\\r", jw->f);
			break;
		case '\t':
			fputs("\\t", jw->f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(jw->f, "\\u%04x", *p);
			else
				fputc(*p, jw->f);
		}
	}
	fputc('"', jw->f);
}

void jw_name(struct json_writer *jw, const char *name)
{
	jw_separate(jw);
	jw_quoted(jw, name);
	fputs(jw->pretty ? ": " : ":", jw->f);
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
	fprintf(jw->f, "%" PRIu64, v);
}

void jw_int(struct json_writer *jw, int64_t v)
{
	jw_separate(jw);
	fprintf(jw->f, "%" PRId64, v);
}

void jw_bool(struct json_writer *jw, bool v)
{
	jw_separate(jw);
	fputs(v ? "true" : "false", jw->f);
}

void jw_null(struct json_writer *jw)
{
	jw_separate(jw);
	fputs("null", jw->f);
}
