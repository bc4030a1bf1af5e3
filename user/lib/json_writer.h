/* SPDX-License-Identifier: GPL-2.0 */
/* A small streaming JSON writer: compact or pretty, with string escaping. */
#ifndef ROCECTL_JSON_WRITER_H
#define ROCECTL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *f;
	size_t len;			/* bytes in buf, not yet in f */
	char buf[16384];
	bool pretty;
	int depth;
	bool after_name;		/* a member name awaits its value */
	bool first[JSON_MAX_DEPTH];	/* no member written yet at this depth */
};

void jw_init(struct json_writer *jw, FILE *f, bool pretty);
/* Go on writing the same document to f, after what is due to the last. */
void jw_set_file(struct json_writer *jw, FILE *f);
/* Hand what was written to the stream: before writing to it directly. */
void jw_flush(struct json_writer *jw);
void jw_start_object(struct json_writer *jw);
void jw_end_object(struct json_writer *jw);
void jw_start_array(struct json_writer *jw);
void jw_end_array(struct json_writer *jw);
/* A member name; the value written next belongs to it. */
void jw_name(struct json_writer *jw, const char *name);
void jw_string(struct json_writer *jw, const char *s);
void jw_uint(struct json_writer *jw, uint64_t v);
void jw_int(struct json_writer *jw, int64_t v);
void jw_bool(struct json_writer *jw, bool v);
void jw_null(struct json_writer *jw);

#endif
