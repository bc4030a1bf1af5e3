// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's web configuration file (web_config.h): parsed from
 * libyaml's events into a fixed shape, so that whatever the file holds
 * beyond the documented keys is refused, not ignored.
 */
#include <crypt.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/optional_libs.h"
#include "web_config.h"

#define PEM_MAX		(1 << 20)	/* a certificate chain, not a disk image */

struct parse {
	const char *path;
	yaml_parser_t y;
	yaml_event_t ev;
	bool have_ev;
	bool failed;
	struct web_config *wc;
	char *dir;			/* the file's directory, for relative names */
};

static void perr(struct parse *ps, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void perr(struct parse *ps, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = true;
	fprintf(stderr, "Error: web-config %s:%lu: ", ps->path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(".\n", stderr);
}

/* The line of the current event, counted from 1. */
static unsigned long line_of(const struct parse *ps)
{
	return (unsigned long)ps->ev.start_mark.line + 1;
}

/* The next event into ps->ev; false at an error (said). */
static bool next(struct parse *ps)
{
	if (ps->have_ev)
		yaml_lib.event_delete(&ps->ev);
	ps->have_ev = false;
	if (ps->failed)
		return false;
	if (!yaml_lib.parser_parse(&ps->y, &ps->ev)) {
		perr(ps, (unsigned long)ps->y.problem_mark.line + 1, "not YAML: %s",
		     ps->y.problem ? ps->y.problem : "unknown error");
		return false;
	}
	ps->have_ev = true;
	if (ps->ev.type == YAML_ALIAS_EVENT) {
		perr(ps, line_of(ps), "anchors and aliases are not taken here");
		return false;
	}
	return true;
}

/* The current event as a scalar's text, or NULL after an error naming what. */
static const char *scalar(struct parse *ps, const char *what)
{
	if (ps->ev.type != YAML_SCALAR_EVENT) {
		perr(ps, line_of(ps), "%s takes a single value", what);
		return NULL;
	}
	return (const char *)ps->ev.data.scalar.value;
}

/* A file named in the config, relative to its directory, read whole. */
static char *read_named(struct parse *ps, const char *key, const char *name, unsigned long line)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int n;

	if (!*name) {
		perr(ps, line, "%s is empty", key);
		return NULL;
	}
	n = snprintf(path, sizeof(path), "%s%s%s", name[0] == '/' ? "" : ps->dir,
		     name[0] == '/' ? "" : "/", name);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		perr(ps, line, "%s: the name is too long", key);
		return NULL;
	}
	f = fopen(path, "r");
	if (!f) {
		perr(ps, line, "%s %s: %s", key, path, strerror(errno));
		return NULL;
	}
	buf = malloc(PEM_MAX + 1);
	if (buf)
		len = fread(buf, 1, PEM_MAX + 1, f);
	if (!buf || ferror(f) || len > PEM_MAX) {
		perr(ps, line, "%s %s: %s", key, path, !buf ? "out of memory" :
		     len > PEM_MAX ? "larger than 1 MiB, not a PEM file" : strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static const char *const tls_versions[] = { "TLS12", "TLS13" };

static int tls_version(const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(tls_versions) / sizeof(tls_versions[0]); i++)
		if (!strcmp(v, tls_versions[i]))
			return (int)i;
	return -1;
}

/* gnutls's priority strings for [min, max] of TLS12 (0) and TLS13 (1). */
static const char *priorities(int min, int max)
{
	if (min == 1)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.3";
	if (max == 0)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.2";
	return "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";
}

/* node_exporter's keys rocectl does not take: said so, not "unknown". */
static bool known_elsewhere(const char *k)
{
	static const char *const keys[] = {
		"cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
		"client_allowed_sans", "client_ca_file", "cert", "key", "client_ca",
		"http_server_config",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return true;
	return false;
}

static void unknown_key(struct parse *ps, const char *where, const char *k, const char *taken)
{
	if (known_elsewhere(k))
		perr(ps, line_of(ps), "%s%s%s is node_exporter's, not taken by rocectl (%s: %s)", where,
		     *where ? "." : "", k, *where ? where : "the file", taken);
	else
		perr(ps, line_of(ps), "unknown key %s%s%s (%s: %s)", where, *where ? "." : "", k,
		     *where ? where : "the file", taken);
}

static bool tls_section(struct parse *ps)
{
	struct web_config *wc = ps->wc;
	unsigned long start = line_of(ps), line;
	int min = 0, max = 1;
	bool seen[5] = { false };
	const char *v;
	char key[32];

	if (ps->ev.type != YAML_MAPPING_START_EVENT) {
		perr(ps, start, "tls_server_config takes keys (cert_file, key_file, ...)");
		return false;
	}
	while (next(ps) && ps->ev.type != YAML_MAPPING_END_EVENT) {
		static const char *const keys[] = { "cert_file", "key_file", "client_auth_type",
						    "min_version", "max_version" };
		size_t k;

		v = scalar(ps, "a key of tls_server_config");
		if (!v)
			return false;
		for (k = 0; k < 5 && strcmp(v, keys[k]); k++)
			;
		if (k == 5) {
			unknown_key(ps, "tls_server_config", v,
				    "cert_file, key_file, client_auth_type, min_version, max_version");
			return false;
		}
		if (seen[k]) {
			perr(ps, line_of(ps), "tls_server_config.%s given twice", v);
			return false;
		}
		seen[k] = true;
		snprintf(key, sizeof(key), "%s", v);
		if (!next(ps))
			return false;
		line = line_of(ps);
		v = scalar(ps, key);
		if (!v)
			return false;
		switch (k) {
		case 0:
			wc->cert_pem = read_named(ps, "cert_file", v, line);
			if (wc->cert_pem && !strstr(wc->cert_pem, "-----BEGIN CERTIFICATE-----"))
				perr(ps, line, "cert_file %s holds no PEM certificate", v);
			break;
		case 1:
			wc->key_pem = read_named(ps, "key_file", v, line);
			if (wc->key_pem && !strstr(wc->key_pem, "PRIVATE KEY-----"))
				perr(ps, line, "key_file %s holds no PEM private key", v);
			else if (wc->key_pem && strstr(wc->key_pem, "ENCRYPTED"))
				perr(ps, line, "key_file %s is encrypted: give it unencrypted, readable by the exporter alone", v);
			break;
		case 2:
			if (strcmp(v, "NoClientCert"))
				perr(ps, line, "client_auth_type %s: rocectl takes NoClientCert only (no client certificates)", v);
			break;
		case 3:
		case 4:
			if (tls_version(v) < 0) {
				perr(ps, line, "%s takes TLS12 or TLS13, not \"%s\"", key, v);
				break;
			}
			*(k == 3 ? &min : &max) = tls_version(v);
			break;
		}
		if (ps->failed)
			return false;
	}
	if (ps->failed)
		return false;
	if (!seen[0] || !seen[1]) {
		perr(ps, start, "tls_server_config needs cert_file and key_file");
		return false;
	}
	if (min > max) {
		perr(ps, start, "tls_server_config: min_version is above max_version");
		return false;
	}
	wc->tls = true;
	wc->priorities = priorities(min, max);
	return true;
}

bool web_bcrypt_form(const char *s)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	if (strlen(s) != 60 || s[0] != '$' || s[1] != '2' || !strchr("aby", s[2]) || s[3] != '$' ||
	    s[4] < '0' || s[4] > '9' || s[5] < '0' || s[5] > '9' || s[6] != '$')
		return false;
	cost = (s[4] - '0') * 10 + (s[5] - '0');
	if (cost < 4 || cost > 31)
		return false;
	return strspn(s + 7, b64) == 53;
}

static bool users_section(struct parse *ps)
{
	struct web_config *wc = ps->wc;
	unsigned long start = line_of(ps), line;
	struct web_user *grown;
	const char *v;
	size_t i;

	if (ps->ev.type != YAML_MAPPING_START_EVENT) {
		perr(ps, start, "basic_auth_users takes USER: BCRYPT-HASH lines");
		return false;
	}
	while (next(ps) && ps->ev.type != YAML_MAPPING_END_EVENT) {
		v = scalar(ps, "a user of basic_auth_users");
		if (!v)
			return false;
		line = line_of(ps);
		if (!*v || strchr(v, ':')) {
			perr(ps, line, "basic_auth_users: a user name is not empty and has no ':'");
			return false;
		}
		for (i = 0; i < wc->nusers; i++)
			if (!strcmp(wc->users[i].name, v)) {
				perr(ps, line, "basic_auth_users: %s given twice", v);
				return false;
			}
		grown = realloc(wc->users, (wc->nusers + 1) * sizeof(*grown));
		if (!grown) {
			perr(ps, line, "out of memory");
			return false;
		}
		wc->users = grown;
		wc->users[wc->nusers].hash = NULL;
		wc->users[wc->nusers].name = strdup(v);
		wc->nusers++;
		if (!next(ps))
			return false;
		v = scalar(ps, "a user's hash");
		if (!v)
			return false;
		/* The hash is not secret, but never echo what could be a password. */
		if (!web_bcrypt_form(v)) {
			perr(ps, line_of(ps), "basic_auth_users: %s's hash is not a bcrypt hash ($2y$, $2b$ or $2a$, a cost of 04 to 31, 53 characters: htpasswd -nbB USER PASSWORD makes one)",
			     wc->users[wc->nusers - 1].name);
			return false;
		}
		wc->users[wc->nusers - 1].hash = strdup(v);
		if (!wc->users[wc->nusers - 1].name || !wc->users[wc->nusers - 1].hash) {
			perr(ps, line, "out of memory");
			return false;
		}
	}
	if (ps->failed)
		return false;
	if (!wc->nusers) {
		perr(ps, start, "basic_auth_users names no user");
		return false;
	}
	return true;
}

static bool document(struct parse *ps)
{
	bool tls = false, users = false;
	const char *k;

	/* Stream start, document start, the top mapping. */
	if (!next(ps) || !next(ps))
		return false;
	if (ps->ev.type == YAML_STREAM_END_EVENT) {
		perr(ps, 1, "the file is empty (tls_server_config, basic_auth_users)");
		return false;
	}
	if (!next(ps))
		return false;
	if (ps->ev.type != YAML_MAPPING_START_EVENT) {
		perr(ps, line_of(ps), "the file takes keys: tls_server_config, basic_auth_users");
		return false;
	}
	while (next(ps) && ps->ev.type != YAML_MAPPING_END_EVENT) {
		k = scalar(ps, "a key");
		if (!k)
			return false;
		if (!strcmp(k, "tls_server_config") && !tls) {
			tls = true;
			if (!next(ps) || !tls_section(ps))
				return false;
		} else if (!strcmp(k, "basic_auth_users") && !users) {
			users = true;
			if (!next(ps) || !users_section(ps))
				return false;
		} else if (!strcmp(k, "tls_server_config") || !strcmp(k, "basic_auth_users")) {
			perr(ps, line_of(ps), "%s given twice", k);
			return false;
		} else {
			unknown_key(ps, "", k, "tls_server_config, basic_auth_users");
			return false;
		}
	}
	if (ps->failed)
		return false;
	/* One document only: document end, then the stream's. */
	if (!next(ps) || !next(ps))
		return false;
	if (ps->ev.type != YAML_STREAM_END_EVENT) {
		perr(ps, line_of(ps), "one YAML document only");
		return false;
	}
	return true;
}

int web_config_load(const char *path, struct web_config *wc)
{
	struct parse ps = { .path = path, .wc = wc };
	const char *slash;
	FILE *f;
	bool ok;

	memset(wc, 0, sizeof(*wc));
	if (yaml_lib_load())
		return EXIT_USAGE;
	f = fopen(path, "r");
	if (!f) {
		pr_err("Error: web-config %s: %s.\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	slash = strrchr(path, '/');
	ps.dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!ps.dir || !yaml_lib.parser_initialize(&ps.y)) {
		pr_err("Error: web-config %s: out of memory.\n", path);
		free(ps.dir);
		fclose(f);
		return EXIT_USAGE;
	}
	yaml_lib.parser_set_input_file(&ps.y, f);
	ok = document(&ps);
	if (ps.have_ev)
		yaml_lib.event_delete(&ps.ev);
	yaml_lib.parser_delete(&ps.y);
	fclose(f);
	free(ps.dir);
	if (!ok) {
		web_config_free(wc);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void web_config_free(struct web_config *wc)
{
	size_t i;

	free(wc->cert_pem);
	if (wc->key_pem)
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->key_pem);
	for (i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	memset(wc, 0, sizeof(*wc));
}

bool web_config_allows(const struct web_config *wc, const char *user, const char *password)
{
	/* An unknown user's password goes through a hash of the same cost. */
	static const char dummy[] = "$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi";
	const char *hash = dummy, *got;
	struct crypt_data *cd;
	size_t i, len;
	bool ok = false;

	for (i = 0; user && i < wc->nusers; i++)
		if (!strcmp(wc->users[i].name, user))
			hash = wc->users[i].hash;
	if (!password)
		return false;
	/* Thread-safe (the server's threads), and too large for their stacks. */
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	got = crypt_r(password, hash, cd);
	len = strlen(hash);
	/* crypt's failure token starts with '*': never a match. */
	if (got && got[0] != '*' && strlen(got) == len) {
		unsigned char diff = 0;

		for (i = 0; i < len; i++)
			diff |= (unsigned char)got[i] ^ (unsigned char)hash[i];
		ok = !diff && hash != dummy;
	}
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	return ok;
}
