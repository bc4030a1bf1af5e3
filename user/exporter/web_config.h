/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl exporter web-config FILE: TLS and basic authentication as
 * Prometheus' exporters take them, in a strict subset of node_exporter's
 * web configuration file (rocectl-exporter(8), WEB CONFIGURATION):
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM; relative to the file's directory
 *     key_file: server.key       # PEM, unencrypted
 *     client_auth_type: NoClientCert   # the only one taken
 *     min_version: TLS12         # TLS12 (default) or TLS13
 *     max_version: TLS13
 *   basic_auth_users:
 *     USER: BCRYPT-HASH          # $2y$, $2b$ or $2a$, as htpasswd -nbB makes
 *
 * Read once, before the port is bound: any unknown key, bad value or
 * unreadable file is an error naming the file and line, and nothing is
 * served. libyaml parses it (opened at run time, lib/optional_libs.h); the
 * system's crypt(3) checks the passwords.
 */
#ifndef ROCECTL_WEB_CONFIG_H
#define ROCECTL_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct web_user {
	char *name;
	char *hash;		/* bcrypt */
};

struct web_config {
	bool tls;
	char *cert_pem, *key_pem;	/* the files' contents, NUL-terminated */
	const char *priorities;		/* gnutls's, from min/max_version */
	struct web_user *users;		/* none: no authentication */
	size_t nusers;
};

/* Read path into wc: EXIT_OK, or EXIT_USAGE after an error naming path and line. */
int web_config_load(const char *path, struct web_config *wc);
void web_config_free(struct web_config *wc);

/* Whether user's password matches its hash; an unknown user costs the same crypt. */
bool web_config_allows(const struct web_config *wc, const char *user, const char *password);

/* Whether s has bcrypt's form: $2a$, $2b$ or $2y$, cost 04-31, 53 characters of its base64. */
bool web_bcrypt_form(const char *s);

#endif
