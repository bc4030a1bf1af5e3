/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one printing path: every field is printed by one call that serves
 * both the text output and the JSON output (-j, -p).
 */
#ifndef ROCECTL_OUTPUT_H
#define ROCECTL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

void out_init(FILE *f, bool json, bool pretty);
bool out_is_json(void);

/* A document: in JSON, a top-level array of objects (a dump's records). */
void out_begin_list(void);
void out_end_list(void);

/* Objects and arrays; name is NULL inside an array. */
void out_open_object(const char *name);
void out_close_object(void);
void out_open_array(const char *name);
void out_close_array(void);

/*
 * A field: text mode prints fmt with the value (fmt NULL: nothing),
 * JSON mode prints "key": value (key NULL: nothing, for text decoration).
 * out_str's text is out_text_escape()'s: a name or path never sends a
 * terminal its control bytes.
 */
void out_str(const char *key, const char *fmt, const char *value);
/*
 * value as text prints it, in a new string (NULL: out of memory): bytes
 * below 0x20, 0x7f, and bytes from 0x80 up that do not form a printable
 * UTF-8 character (a C1 control, an invalid or overlong sequence) as
 * "\xNN" (two lowercase hex digits); everything else as it is, '\'
 * included (systemd's own escapes in cgroup paths stay as they read).
 */
char *out_text_escape(const char *value);
void out_uint(const char *key, const char *fmt, uint64_t value);
void out_int(const char *key, const char *fmt, int64_t value);
void out_bool(const char *key, const char *fmt, bool value);
/*
 * A wall-clock time, nanoseconds since the epoch: JSON gets the number
 * under key; text "label TIME " in local time (strftime's tfmt) with
 * milliseconds, or "label never " for 0.
 */
void out_time(const char *key, const char *label, const char *tfmt,
	      uint64_t ns);
/* Text only. */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End of a text line; ends a JSON-lines record when not inside a list. */
void out_nl(void);
void out_flush(void);

/*
 * Hold back what is printed from here on: a dump that the kernel reports
 * interrupted is printed again from scratch, not twice. commit false
 * forgets it and returns to the state at out_capture_begin().
 */
void out_capture_begin(void);
void out_capture_end(bool commit);

#endif
