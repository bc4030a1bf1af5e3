// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: the intent a port is audited against (lossless priority,
 * RoCE DSCP, netdev MTU). It is declared on the command line, else by the
 * "check" lines of rocectl.conf, else inferred (from the port's DCB); each value keeps
 * where it was declared so the evidence can say so. One grammar serves the
 * command line and the file:
 *   check [ dev DEV [ port N ] ] [ prio P ] [ dscp D ] [ mtu M ]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/conf.h"
#include "lib/errors.h"
#include "lib/utils.h"

static int parse_num(struct rocectl *rc, const char *what, uint32_t min, uint32_t max,
		     const char *unit, uint32_t *out)
{
	const char *s = arg_next(rc);
	uint32_t v;

	if (!s || parse_u32(s, &v) || v < min || v > max) {
		pr_err("Error: %s takes %s from %u to %u, not \"%s\".\n",
		       what, unit, min, max, s ? s : "");
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

int check_decl_parse(struct rocectl *rc, struct check_decl *d, const char **conf)
{
	const char *w;
	uint32_t v;
	int err = EXIT_OK;

	memset(d, 0, sizeof(*d));
	d->prio = -1;
	d->dscp = -1;
	while (!err && (w = arg_next(rc))) {
		if (!strcmp(w, "dev")) {
			w = arg_next(rc);
			err = check_dev_name(w, "an RDMA device or netdev");
			if (!err)
				strcpy(d->dev, w);
		} else if (!strcmp(w, "port")) {
			err = parse_num(rc, "port", 1, 255, "a port number", &d->port);
		} else if (!strcmp(w, "prio") || !strcmp(w, "priority")) {
			err = parse_num(rc, "prio", 0, 7, "a priority", &v);
			d->prio = v;
		} else if (!strcmp(w, "dscp")) {
			err = parse_num(rc, "dscp", 0, 63, "a DSCP value", &v);
			d->dscp = v;
		} else if (!strcmp(w, "mtu")) {
			err = parse_num(rc, "mtu", 68, 65535, "a netdev MTU in bytes", &d->mtu);
		} else if (conf && !strcmp(w, "conf")) {
			*conf = arg_next(rc);
			if (!*conf || !**conf) {
				pr_err("Error: conf needs a file name.\n");
				err = EXIT_USAGE;
			}
		} else {
			pr_err("Error: unknown check argument \"%s\": try \"rocectl check help\".\n", w);
			err = EXIT_USAGE;
		}
	}
	if (!err && d->port && !*d->dev) {
		pr_err("Error: port N needs dev DEV, the RDMA device it belongs to.\n");
		err = EXIT_USAGE;
	}
	return err;
}

int check_line_parse(int n, char **words, struct check_decl *d)
{
	struct rocectl line = { .argc = n - 1, .argv = words + 1 };

	return check_decl_parse(&line, d, NULL);
}

/* Abbreviated as on the command line: no other object begins with "c". */
bool check_conf_line(int n, char **words)
{
	return n > 0 && matches(words[0], "check");
}

int check_conf_read(struct check_conf *conf, const char *path, bool named)
{
	char *line = NULL, *words[CONF_MAX_WORDS], where[512];
	unsigned int lineno = 0;
	struct check_decl d, *grown;
	size_t cap = 0;
	int n, err = EXIT_OK;
	FILE *f;

	conf->path = path;
	f = fopen(path, "r");
	if (!f) {
		/* The default file is optional; a file named must be there. */
		if (!named && errno == ENOENT)
			return EXIT_OK;
		pr_err("Error: cannot open the policy file %s: %s.\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	while (!err && getline(&line, &cap, f) >= 0) {
		lineno++;
		n = conf_split_words(line, words);
		if (n == 0 || (n > 0 && !check_conf_line(n, words)))
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		err_where = where;
		if (n < 0) {
			pr_err("Error: more than %d words on one line.\n", CONF_MAX_WORDS);
			err = EXIT_USAGE;
		} else {
			err = check_line_parse(n, words, &d);
		}
		err_where = NULL;
		if (err)
			break;
		d.line = lineno;
		grown = realloc(conf->decls, (conf->n + 1) * sizeof(*conf->decls));
		if (!grown) {
			pr_err("Error: out of memory.\n");
			err = EXIT_FAILED;
			break;
		}
		conf->decls = grown;
		conf->decls[conf->n++] = d;
	}
	if (!err && ferror(f)) {
		pr_err("Error: reading %s: %s.\n", path, strerror(errno));
		err = EXIT_FAILED;
	}
	free(line);
	fclose(f);
	return err;
}

void check_conf_free(struct check_conf *conf)
{
	free(conf->decls);
	conf->decls = NULL;
	conf->n = 0;
}

/* How closely a declaration names the port: -1 not at all, 0 every port, 1 its device, 2 the port. */
static int decl_match(const struct check_decl *d, const struct check_port *p)
{
	if (!*d->dev)
		return 0;
	if (strcmp(d->dev, p->dev) && (!*p->netdev || strcmp(d->dev, p->netdev)))
		return -1;
	if (!d->port)
		return 1;
	return d->port == p->port ? 2 : -1;
}

/*
 * A declaration at least as close as the best so far takes the value (so
 * among equals the later line, as apply would); src says where it is.
 */
static bool closer(int m, int *best, const struct check_conf *conf,
		   const struct check_decl *d, char *src, size_t len)
{
	if (m < *best)
		return false;
	*best = m;
	snprintf(src, len, "%s:%u", conf->path, d->line);
	return true;
}

void check_resolve_intent(struct check_ctx *c, const struct check_decl *args,
			  const struct check_conf *conf)
{
	int bp = -1, bd = -1, bm = -1, m;
	size_t i;

	c->want_prio = args->prio;
	c->want_dscp = args->dscp;
	c->want_mtu = args->mtu;
	c->prio_src[0] = c->dscp_src[0] = c->mtu_src[0] = '\0';
	for (i = 0; conf && i < conf->n; i++) {
		const struct check_decl *d = &conf->decls[i];

		m = decl_match(d, c->p);
		if (m < 0)
			continue;
		if (args->prio < 0 && d->prio >= 0 &&
		    closer(m, &bp, conf, d, c->prio_src, sizeof(c->prio_src)))
			c->want_prio = d->prio;
		if (args->dscp < 0 && d->dscp >= 0 &&
		    closer(m, &bd, conf, d, c->dscp_src, sizeof(c->dscp_src)))
			c->want_dscp = d->dscp;
		if (!args->mtu && d->mtu &&
		    closer(m, &bm, conf, d, c->mtu_src, sizeof(c->mtu_src)))
			c->want_mtu = d->mtu;
	}
}

const char *check_intent_source(const char *src, char *buf, size_t len)
{
	if (!*src)
		return "given";
	snprintf(buf, len, "declared at %s", src);
	return buf;
}

#define ROCE_DSCP_DEFAULT	26	/* the RoCE DSCP of both field guides, and mlx5's default */

static unsigned int popcount8(uint8_t v)
{
	return __builtin_popcount(v);
}

void check_infer_intent(struct check_ctx *c)
{
	const struct dcb_state *d = &c->dcb;
	uint8_t en = d->has_pfc ? d->pfc_en : 0;
	char list[32], src[CHECK_SRC_LEN + 16];
	int p;

	if (c->want_dscp >= 0) {
		c->dscp = c->want_dscp;
		snprintf(c->dscp_why, sizeof(c->dscp_why), "DSCP %u %s", c->dscp,
			 check_intent_source(c->dscp_src, src, sizeof(src)));
	} else {
		c->dscp = ROCE_DSCP_DEFAULT;
		snprintf(c->dscp_why, sizeof(c->dscp_why), "DSCP %u by default", c->dscp);
	}

	c->prio = -1;
	if (c->want_prio >= 0) {
		c->prio = c->want_prio;
		snprintf(c->prio_why, sizeof(c->prio_why), "priority %d %s", c->prio,
			 check_intent_source(c->prio_src, src, sizeof(src)));
	} else if (popcount8(en) == 1) {
		c->prio = __builtin_ctz(en);
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the only PFC-enabled one", c->prio);
	} else if (en && popcount8(en & d->dscp_prio[c->dscp]) == 1) {
		c->prio = __builtin_ctz(en & d->dscp_prio[c->dscp]);
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the PFC-enabled one DSCP %u maps to",
			 c->prio, c->dscp);
	} else if (en) {
		for (p = 7; !(en & (1U << p)); p--)
			;
		c->prio = p;
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the highest of the PFC-enabled %s",
			 p, check_prio_list(en, list, sizeof(list)));
	} else {
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "no lossless priority: none given and PFC enabled on none");
	}
}
