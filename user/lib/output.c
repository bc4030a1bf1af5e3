// SPDX-License-Identifier: GPL-2.0
/*
 * The one printing path for text and JSON. Outside a list (monitor),
 * each top-level object is one JSON line, flushed at once.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <inttypes.h>
#include <time.h>

#include "json_writer.h"
#include "output.h"

struct out_state {
	FILE *f;
	bool json;
	bool in_list;
	int objects;		/* open objects and arrays, for JSON lines */
	struct json_writer jw;
};

static struct out_state out;

static struct {
	struct out_state saved;
	char *buf;
	size_t len;
	bool active;
} capture;

void out_init(FILE *f, bool json, bool pretty)
{
	out.f = f;
	out.json = json;
	out.in_list = false;
	out.objects = 0;
	jw_init(&out.jw, f, pretty);
}

bool out_is_json(void)
{
	return out.json;
}

void out_begin_list(void)
{
	out.in_list = true;
	if (out.json)
		jw_start_array(&out.jw);
}

void out_end_list(void)
{
	if (out.json) {
		jw_end_array(&out.jw);
		jw_flush(&out.jw);
		fputc('\n', out.f);
	}
	out.in_list = false;
	fflush(out.f);
}

static void out_name(const char *name)
{
	if (name)
		jw_name(&out.jw, name);
}

void out_open_object(const char *name)
{
	if (!out.json)
		return;
	out_name(name);
	jw_start_object(&out.jw);
	out.objects++;
}

void out_close_object(void)
{
	if (!out.json)
		return;
	jw_end_object(&out.jw);
	/* A finished top-level record outside a list is one JSON line. */
	if (--out.objects == 0 && !out.in_list) {
		jw_flush(&out.jw);
		fputc('\n', out.f);
		jw_init(&out.jw, out.f, out.jw.pretty);
		fflush(out.f);
	}
}

void out_open_array(const char *name)
{
	if (!out.json)
		return;
	out_name(name);
	jw_start_array(&out.jw);
	out.objects++;
}

void out_close_array(void)
{
	if (!out.json)
		return;
	jw_end_array(&out.jw);
	out.objects--;
}

void out_str(const char *key, const char *fmt, const char *value)
{
	if (out.json) {
		if (key) {
			jw_name(&out.jw, key);
			jw_string(&out.jw, value);
		} else if (!fmt) {
			jw_string(&out.jw, value);	/* array element */
		}
	} else if (fmt) {
		fprintf(out.f, fmt, value);
	}
}

void out_uint(const char *key, const char *fmt, uint64_t value)
{
	if (out.json) {
		if (key)
			jw_name(&out.jw, key);
		if (key || !fmt)
			jw_uint(&out.jw, value);
	} else if (fmt) {
		fprintf(out.f, fmt, value);
	}
}

void out_int(const char *key, const char *fmt, int64_t value)
{
	if (out.json) {
		if (key)
			jw_name(&out.jw, key);
		if (key || !fmt)
			jw_int(&out.jw, value);
	} else if (fmt) {
		fprintf(out.f, fmt, value);
	}
}

void out_bool(const char *key, const char *fmt, bool value)
{
	if (out.json) {
		if (key)
			jw_name(&out.jw, key);
		if (key || !fmt)
			jw_bool(&out.jw, value);
	} else if (fmt) {
		fprintf(out.f, fmt, value ? "true" : "false");
	}
}

void out_time(const char *key, const char *label, const char *tfmt,
	      uint64_t ns)
{
	char buf[64];
	time_t t = ns / 1000000000ULL;
	struct tm tm;

	if (out_is_json()) {
		out_uint(key, NULL, ns);
		return;
	}
	if (!ns) {
		out_text("%s never ", label);
		return;
	}
	localtime_r(&t, &tm);
	strftime(buf, sizeof(buf), tfmt, &tm);
	out_text("%s %s.%03u ", label, buf, (unsigned int)(ns / 1000000 % 1000));
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (out.json)
		return;
	va_start(ap, fmt);
	vfprintf(out.f, fmt, ap);
	va_end(ap);
}

void out_nl(void)
{
	if (!out.json) {
		fputc('\n', out.f);
		if (!out.in_list)
			fflush(out.f);
	}
}

void out_flush(void)
{
	jw_flush(&out.jw);
	fflush(out.f);
}

void out_capture_begin(void)
{
	FILE *f;

	if (capture.active)
		return;
	f = open_memstream(&capture.buf, &capture.len);
	if (!f)
		return;		/* then print as we go */
	jw_flush(&out.jw);	/* the saved state owes nothing */
	capture.saved = out;
	capture.active = true;
	out.f = f;
	jw_set_file(&out.jw, f);
}

void out_capture_end(bool commit)
{
	FILE *real;

	if (!capture.active)
		return;
	jw_flush(&out.jw);
	fclose(out.f);
	real = capture.saved.f;
	if (commit) {
		fwrite(capture.buf, 1, capture.len, real);
		out.f = real;
		jw_set_file(&out.jw, real);
	} else {
		out = capture.saved;
	}
	free(capture.buf);
	capture.buf = NULL;
	capture.active = false;
}
