/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Libraries that only one command each needs, opened when it runs:
 * libmicrohttpd for rocectl exporter (and libyaml for its web-config
 * file), libsystemd for rocectl monitor's journal output. Linked in, they and what they pull in (gnutls, gcrypt,
 * lz4, zstd, ... about twenty libraries) would be loaded by every rocectl
 * run and more than double its start-up time.
 *
 * The pointers have the types of the libraries' own declarations, so a
 * call is checked as a direct one would be.
 */
#ifndef ROCECTL_OPTIONAL_LIBS_H
#define ROCECTL_OPTIONAL_LIBS_H

#include <microhttpd.h>
#include <systemd/sd-journal.h>
#include <yaml.h>

struct mhd_lib {
	typeof(MHD_start_daemon) *start_daemon;
	typeof(MHD_stop_daemon) *stop_daemon;
	typeof(MHD_create_response_from_buffer) *create_response_from_buffer;
	typeof(MHD_add_response_header) *add_response_header;
	typeof(MHD_queue_response) *queue_response;
	typeof(MHD_destroy_response) *destroy_response;
	typeof(MHD_lookup_connection_value) *lookup_connection_value;
	typeof(MHD_is_feature_supported) *is_feature_supported;
	typeof(MHD_basic_auth_get_username_password) *basic_auth_get_username_password;
	typeof(MHD_queue_basic_auth_fail_response) *queue_basic_auth_fail_response;
	typeof(MHD_free) *free;
};

struct yaml_lib {
	typeof(yaml_parser_initialize) *parser_initialize;
	typeof(yaml_parser_set_input_file) *parser_set_input_file;
	typeof(yaml_parser_parse) *parser_parse;
	typeof(yaml_parser_delete) *parser_delete;
	typeof(yaml_event_delete) *event_delete;
};

struct journal_lib {
	typeof(sd_journal_sendv) *sendv;
};

/* Filled by the loaders below. */
extern struct mhd_lib mhd;
extern struct journal_lib journal_lib;
extern struct yaml_lib yaml_lib;

/*
 * Open the library and resolve every symbol, once. 0, or -1 after saying
 * which library is missing and which package brings it.
 */
int mhd_load(void);
int journal_lib_load(void);
int yaml_lib_load(void);

#endif
