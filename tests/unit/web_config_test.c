// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's web-config file (node_exporter's format, a strict
 * subset): good files read into TLS, versions and users; each bad one
 * refused with exit status 2 and one sentence naming the file, the line
 * and what is wrong; passwords checked by the system's crypt against a
 * bcrypt hash made by htpasswd -nbB -C 5 (apache2-utils), not by rocectl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exporter/web_config.h"
#include "lib/errors.h"
#include "web_config_test.h"

/* htpasswd -nbB -C 5 prom s3cret */
#define HASH	"$2y$05$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaNG"
#define CERT	"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
#define KEY	"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* web_config_load of path: its status, and what it said on stderr in err. */
static int load_path(const char *path, struct web_config *wc, char *err, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n = 0;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = web_config_load(path, wc);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	/* The directory's name varies: "DIR" in the expected sentences. */
	{
		char *at = strstr(err, dir), rest[512];

		while (at) {
			snprintf(rest, sizeof(rest), "%s", at + strlen(dir));
			snprintf(at, len - (at - err), "DIR%s", rest);
			at = strstr(err, dir);
		}
	}
	return ret;
}

/* The same of text as DIR/web.yml. */
static int load(const char *text, struct web_config *wc, char *err, size_t len)
{
	char path[128];

	put("web.yml", text);
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	return load_path(path, wc, err, len);
}

static void bad(void (*report)(const char *, int, const char *, const char *), const char *name,
		const char *text, const char *want)
{
	struct web_config wc;
	char err[512], full[160];
	int ret = load(text, &wc, err, sizeof(err));

	snprintf(full, sizeof(full), "web-config: %s: exit 2, said so", name);
	report(full, ret == EXIT_USAGE && !strcmp(err, want), err, want);
	web_config_free(&wc);
}

void web_config_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	struct web_config wc;
	char err[512], cmd[256];
	int ret;

	snprintf(dir, sizeof(dir), "/tmp/rocectl-web-config-XXXXXX");
	if (!mkdtemp(dir)) {
		report("web-config: a temporary directory", 0, "mkdtemp failed", NULL);
		return;
	}
	put("server.crt", CERT);
	put("server.key", KEY);
	put("not.pem", "hello\n");
	put("enc.key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE\n-----END ENCRYPTED PRIVATE KEY-----\n");

	ret = load("# node_exporter's form\ntls_server_config:\n  cert_file: server.crt\n  key_file: \"server.key\"\n"
		   "  client_auth_type: NoClientCert\nbasic_auth_users:\n  prom: " HASH "\n  'other': '" HASH "'\n",
		   &wc, err, sizeof(err));
	report("web-config: TLS and two users, names relative to the file's directory",
	       ret == EXIT_OK && !*err && wc.tls && !strcmp(wc.cert_pem, CERT) && !strcmp(wc.key_pem, KEY) &&
	       wc.nusers == 2 && !strcmp(wc.users[1].name, "other") &&
	       !strcmp(wc.priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"), err, NULL);
	report("web-config: the right password", web_config_allows(&wc, "prom", "s3cret"), NULL, NULL);
	report("web-config: a wrong password, an empty one, an unknown user, none",
	       !web_config_allows(&wc, "prom", "s3cre") && !web_config_allows(&wc, "prom", "") &&
	       !web_config_allows(&wc, "nobody", "s3cret") && !web_config_allows(&wc, NULL, NULL) &&
	       !web_config_allows(&wc, "prom", NULL), NULL, NULL);
	web_config_free(&wc);

	ret = load("tls_server_config: {cert_file: server.crt, key_file: server.key, min_version: TLS13}\n",
		   &wc, err, sizeof(err));
	report("web-config: TLS 1.3 only, no users (flow style)",
	       ret == EXIT_OK && wc.tls && !wc.nusers && !strcmp(wc.priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.3"),
	       err, NULL);
	web_config_free(&wc);
	snprintf(cmd, sizeof(cmd), "tls_server_config:\n  cert_file: %s/server.crt\n  key_file: server.key\n  max_version: TLS12\n",
		 dir);
	ret = load(cmd, &wc, err, sizeof(err));
	report("web-config: an absolute cert_file, TLS 1.2 only",
	       ret == EXIT_OK && wc.tls && !strcmp(wc.priorities, "NORMAL:-VERS-ALL:+VERS-TLS1.2"), err, NULL);
	web_config_free(&wc);
	ret = load("basic_auth_users:\n  prom: " HASH "\n", &wc, err, sizeof(err));
	report("web-config: users without TLS", ret == EXIT_OK && !wc.tls && wc.nusers == 1, err, NULL);
	web_config_free(&wc);

	bad(report, "an unknown key", "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbogus: 1\n",
	    "Error: web-config DIR/web.yml:4: unknown key bogus (the file: tls_server_config, basic_auth_users).\n");
	bad(report, "an unknown key of tls_server_config",
	    "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  certfile: x\n",
	    "Error: web-config DIR/web.yml:4: unknown key tls_server_config.certfile (tls_server_config: cert_file, key_file, client_auth_type, min_version, max_version).\n");
	bad(report, "node_exporter's http_server_config",
	    "http_server_config:\n  http2: false\n",
	    "Error: web-config DIR/web.yml:1: http_server_config is node_exporter's, not taken by rocectl (the file: tls_server_config, basic_auth_users).\n");
	bad(report, "client certificates", "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n",
	    "Error: web-config DIR/web.yml:4: tls_server_config.client_ca_file is node_exporter's, not taken by rocectl (tls_server_config: cert_file, key_file, client_auth_type, min_version, max_version).\n");
	bad(report, "a client_auth_type other than NoClientCert",
	    "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: RequireAndVerifyClientCert\n",
	    "Error: web-config DIR/web.yml:4: client_auth_type RequireAndVerifyClientCert: rocectl takes NoClientCert only (no client certificates).\n");
	bad(report, "a missing cert_file", "tls_server_config:\n  cert_file: nosuch.crt\n  key_file: server.key\n",
	    "Error: web-config DIR/web.yml:2: cert_file DIR/nosuch.crt: No such file or directory.\n");
	bad(report, "a cert_file that is not PEM", "tls_server_config:\n  cert_file: not.pem\n  key_file: server.key\n",
	    "Error: web-config DIR/web.yml:2: cert_file not.pem holds no PEM certificate.\n");
	bad(report, "an encrypted key", "tls_server_config:\n  cert_file: server.crt\n  key_file: enc.key\n",
	    "Error: web-config DIR/web.yml:3: key_file enc.key is encrypted: give it unencrypted, readable by the exporter alone.\n");
	bad(report, "no key_file", "tls_server_config:\n  cert_file: server.crt\n",
	    "Error: web-config DIR/web.yml:2: tls_server_config needs cert_file and key_file.\n");
	bad(report, "an old TLS version", "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS11\n",
	    "Error: web-config DIR/web.yml:4: min_version takes TLS12 or TLS13, not \"TLS11\".\n");
	bad(report, "min_version above max_version",
	    "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS13\n  max_version: TLS12\n",
	    "Error: web-config DIR/web.yml:2: tls_server_config: min_version is above max_version.\n");
	bad(report, "a key given twice", "tls_server_config:\n  cert_file: server.crt\n  cert_file: server.crt\n",
	    "Error: web-config DIR/web.yml:3: tls_server_config.cert_file given twice.\n");
	bad(report, "a malformed hash", "basic_auth_users:\n  prom: s3cret\n",
	    "Error: web-config DIR/web.yml:2: basic_auth_users: prom's hash is not a bcrypt hash ($2y$, $2b$ or $2a$, a cost of 04 to 31, 53 characters: htpasswd -nbB USER PASSWORD makes one).\n");
	bad(report, "a hash of another scheme (SHA-512 crypt)", "basic_auth_users:\n  prom: $6$salt$abc\n",
	    "Error: web-config DIR/web.yml:2: basic_auth_users: prom's hash is not a bcrypt hash ($2y$, $2b$ or $2a$, a cost of 04 to 31, 53 characters: htpasswd -nbB USER PASSWORD makes one).\n");
	bad(report, "a user given twice", "basic_auth_users:\n  prom: " HASH "\n  prom: " HASH "\n",
	    "Error: web-config DIR/web.yml:3: basic_auth_users: prom given twice.\n");
	bad(report, "a user name with a colon", "basic_auth_users:\n  'a:b': " HASH "\n",
	    "Error: web-config DIR/web.yml:2: basic_auth_users: a user name is not empty and has no ':'.\n");
	bad(report, "no users", "basic_auth_users: {}\n",
	    "Error: web-config DIR/web.yml:1: basic_auth_users names no user.\n");
	bad(report, "a list where keys go", "tls_server_config:\n  - server.crt\n",
	    "Error: web-config DIR/web.yml:2: tls_server_config takes keys (cert_file, key_file, ...).\n");
	bad(report, "an empty file", "",
	    "Error: web-config DIR/web.yml:1: the file is empty (tls_server_config, basic_auth_users).\n");
	bad(report, "not YAML", "basic_auth_users:\n  prom: \"" HASH "\n",
	    "Error: web-config DIR/web.yml:3: not YAML: found unexpected end of stream.\n");
	bad(report, "an alias", "basic_auth_users:\n  a: &h " HASH "\n  b: *h\n",
	    "Error: web-config DIR/web.yml:3: anchors and aliases are not taken here.\n");
	bad(report, "two documents", "basic_auth_users:\n  prom: " HASH "\n---\nx: 1\n",
	    "Error: web-config DIR/web.yml:3: one YAML document only.\n");
	snprintf(cmd, sizeof(cmd), "%s/nosuch.yml", dir);
	ret = load_path(cmd, &wc, err, sizeof(err));
	report("web-config: a missing file: exit 2, said so", ret == EXIT_USAGE &&
	       !strcmp(err, "Error: web-config DIR/nosuch.yml: No such file or directory.\n"), err, NULL);

	report("web-config: bcrypt's form: $2y$, $2b$, $2a$ with 53 characters, cost 04-31",
	       web_bcrypt_form(HASH) && web_bcrypt_form("$2b$31$" "LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaNG") &&
	       !web_bcrypt_form("$2y$03$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaNG") &&
	       !web_bcrypt_form("$2y$32$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaNG") &&
	       !web_bcrypt_form("$2x$05$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaNG") &&
	       !web_bcrypt_form("$2y$05$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsaN") &&
	       !web_bcrypt_form("$2y$05$LBjZNv1n47Am1s.aDNbWPuI1b/ATpm0cAhfvNJMrHtZn7yySbsa!G"), NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		report("web-config: the temporary directory removed", 0, NULL, NULL);
}
