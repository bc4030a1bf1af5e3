// SPDX-License-Identifier: GPL-2.0
/*
 * The one printing path for text and JSON. Outside a list (monitor),
 * each top-level object is one JSON line, flushed at once. Text prints
 * string values (names, paths) with their control and invalid bytes
 * escaped; JSON escapes its own way.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * The length of the well-formed UTF-8 sequence of a printable character
 * (U+00A0 and up: not a C1 control, a surrogate, an overlong form, beyond
 * U+10FFFF) at s, or 0.
 */
static size_t utf8_printable(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also the string's end */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < 0xa0 || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

char *out_text_escape(const char *value)
{
	const unsigned char *p = (const unsigned char *)value;
	size_t n, o = 0;
	char *e;

	/* Each byte at most 4 ("\xNN"). */
	e = malloc(4 * strlen(value) + 1);
	if (!e)
		return NULL;
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f) {
			e[o++] = (char)*p++;
		} else if (*p >= 0x80 && (n = utf8_printable(p))) {
			memcpy(e + o, p, n);
			o += n;
			p += n;
		} else {
			o += (size_t)sprintf(e + o, "\\x%02x", *p++);
		}
	}
	e[o] = '\0';
	return e;
}

/* Whether text would print value as it is: the common case, no copy made. */
static bool text_plain(const char *value)
{
	const unsigned char *p;

	for (p = (const unsigned char *)value; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return false;
	return true;
}

void out_str(const char *key, const char *fmt, const char *value)
{
	char *e;

	if (out.json) {
		if (key) {
			jw_name(&out.jw, key);
			jw_string(&out.jw, value);
		} else if (!fmt) {
			jw_string(&out.jw, value);	/* array element */
		}
	} else if (fmt) {
		if (text_plain(value)) {
			fprintf(out.f, fmt, value);
			return;
		}
		/* A name or path may hold bytes a terminal obeys: never printed raw. */
		e = out_text_escape(value);
		fprintf(out.f, fmt, e ? e : "?");
		free(e);
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
