// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl dcqcn: the congestion control (DCQCN) of RDMA ports whose NIC a
 * hardware backend of the module serves (rocectl_mlx5): parameters of the
 * reaction point (rp_*, the sender) and notification point (np_*, the
 * receiver), their enable per priority, and the port's congestion counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "dcqcn.h"
#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"

/* Names RoCE operators use, for the backend's (mlx5_ib's cc_params). */
static const struct {
	const char *alias, *name;
} cong_aliases[] = {
	{ "alpha-gain", "rp_dce_tcp_g" },
	{ "alpha-update-period", "rp_dce_tcp_rtt" },
	{ "initial-alpha", "rp_initial_alpha_value" },
	{ "rate-reduce-shift", "rp_gd" },
	{ "min-rate", "rp_min_rate" },
	{ "max-rate", "rp_max_rate" },
	{ "ai-rate", "rp_ai_rate" },
	{ "hai-rate", "rp_hai_rate" },
	{ "min-dec-factor", "rp_min_dec_fac" },
	{ "time-reset", "rp_time_reset" },
	{ "byte-reset", "rp_byte_reset" },
	{ "threshold", "rp_threshold" },
	{ "first-cnp-rate", "rp_rate_to_set_on_first_cnp" },
	{ "rate-reduce-period", "rp_rate_reduce_monitor_period" },
	{ "cnp-dscp", "np_cnp_dscp" },
	{ "cnp-prio", "np_cnp_prio" },
	{ "cnp-prio-mode", "np_cnp_prio_mode" },
	{ "cnp-interval", "np_min_time_between_cnps" },
};

struct cong_reply {
	bool params, stats;	/* what to print */
	const char *dev;
	const char *key;	/* of the params object: NULL in an array */
	uint32_t port;
	/* dcqcn show: the object around what is printed. */
	void (*head)(const struct cong_reply *r);
	void (*tail)(const struct cong_reply *r);
};

bool cong_entry(const struct nlattr *nest, const char **name, uint64_t *value)
{
	const struct nlattr *f, *n = NULL, *v = NULL;

	if (mnl_attr_validate(nest, MNL_TYPE_NESTED))
		return false;
	mnl_attr_for_each_nested(f, nest) {
		if (mnl_attr_get_type(f) == ROCECTL_A_CONG_NAME &&
		    !mnl_attr_validate(f, MNL_TYPE_NUL_STRING))
			n = f;
		else if (mnl_attr_get_type(f) == ROCECTL_A_CONG_VALUE &&
			 !mnl_attr_validate(f, MNL_TYPE_U64))
			v = f;
	}
	if (!n || !v)
		return false;
	*name = mnl_attr_get_str(n);
	*value = mnl_attr_get_u64(v);
	return true;
}

static void print_values(const struct nlmsghdr *nlh, int type, const char *key)
{
	const struct nlattr *a;
	const char *name;
	uint64_t value;

	out_open_object(key);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != type || !cong_entry(a, &name, &value))
			continue;
		out_uint(name, NULL, value);
		out_text("%s %" PRIu64 " ", name, value);
	}
	out_close_object();
}

static void print_prios(const char *key, const char *label, const struct nlattr *a)
{
	uint8_t mask = mnl_attr_get_u8(a);
	bool any = false;
	int p;

	out_open_array(key);
	out_text("%s ", label);
	for (p = 0; p < 8; p++) {
		if (!(mask & (1U << p)))
			continue;
		out_uint(NULL, any ? ",%" PRIu64 : "%" PRIu64, p);
		any = true;
	}
	if (!any)
		out_text("none");
	out_text(" ");
	out_close_array();
}

static void cong_print_msg(const struct nlmsghdr *nlh, const struct cong_reply *r)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (attrs_parse(nlh, tb) < 0)
		return;
	if (r->params) {
		out_open_object(r->key);
		out_text("\n    dcqcn ");
		if (!r->key)
			out_uint("port", "port %" PRIu64 " ", tb[ROCECTL_A_CONG_PORT] ?
				 mnl_attr_get_u32(tb[ROCECTL_A_CONG_PORT]) : 1);
		if (tb[ROCECTL_A_BACKEND])
			out_str("source", "(source %s firmware) ",
				mnl_attr_get_str(tb[ROCECTL_A_BACKEND]));
		if (tb[ROCECTL_A_CONG_RP_ENABLED])
			print_prios("rp_enabled", "rp_enabled", tb[ROCECTL_A_CONG_RP_ENABLED]);
		if (tb[ROCECTL_A_CONG_NP_ENABLED])
			print_prios("np_enabled", "np_enabled", tb[ROCECTL_A_CONG_NP_ENABLED]);
		out_text("\n    ");
		print_values(nlh, ROCECTL_A_CONG_PARAM, "params");
		out_close_object();
	}
	if (r->stats) {
		out_open_object(NULL);
		out_str("ifname", "%s", r->dev);
		out_uint("port", "/%" PRIu64 ": ", tb[ROCECTL_A_CONG_PORT] ?
			 mnl_attr_get_u32(tb[ROCECTL_A_CONG_PORT]) : 1);
		out_str("scope", "scope %s ", "port");
		out_str("source", "source %s firmware ", tb[ROCECTL_A_BACKEND] ?
			mnl_attr_get_str(tb[ROCECTL_A_BACKEND]) : "?");
		out_text("(congestion counters)");
		out_text("\n    ");
		print_values(nlh, ROCECTL_A_CONG_STAT, "counters");
		out_close_object();
		out_nl();
	}
}

/* The reply is kept, and printed only once the request succeeded. */
static int cong_keep_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlmsghdr **copy = data;

	free(*copy);
	*copy = malloc(nlh->nlmsg_len);
	if (!*copy)
		return MNL_CB_ERROR;
	memcpy(*copy, nlh, nlh->nlmsg_len);
	return MNL_CB_OK;
}

/*
 * CONG_GET and print; with quiet, a port no backend serves is -1, not an
 * error.
 */
static int cong_get(struct rocectl *rc, const char *dev, uint32_t port,
		    struct cong_reply *r, bool quiet)
{
	struct nlmsghdr *nlh, *reply = NULL;
	struct nl_error e;
	int err;

	nlh = nl_request(&rc->nl, ROCECTL_CMD_CONG_GET, 0);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, dev);
	mnl_attr_put_u32(nlh, ROCECTL_A_CONG_PORT, port);
	r->dev = dev;
	err = nl_run_quiet(&rc->nl, nlh, cong_keep_cb, &reply, NULL, &e);
	if (!err && reply) {
		if (r->head)
			r->head(r);
		cong_print_msg(reply, r);
		if (r->tail)
			r->tail(r);
	}
	free(reply);
	if (!err)
		return EXIT_OK;
	if (quiet && e.err == EOPNOTSUPP)
		return -1;
	return nl_report(&rc->nl, &e);
}

int cong_print_params(struct rocectl *rc, const char *dev, uint32_t port)
{
	struct cong_reply r = { .params = true, .key = NULL };
	int err = cong_get(rc, dev, port, &r, true);

	return err < 0 ? EXIT_OK : err;
}

int cong_print_stats(struct rocectl *rc, const char *dev, uint32_t port)
{
	struct cong_reply r = { .stats = true };
	int err = cong_get(rc, dev, port, &r, true);

	return err < 0 ? EXIT_OK : err;
}

static int parse_target(struct rocectl *rc, const char **dev, uint32_t *port)
{
	const char *s;

	*port = 1;
	if (!arg_peek(rc) || strcmp(arg_peek(rc), "dev"))
		return EXIT_OK;
	arg_next(rc);
	*dev = arg_next(rc);
	if (check_dev_name(*dev, "an RDMA device"))
		return EXIT_USAGE;
	if (arg_peek(rc) && !strcmp(arg_peek(rc), "port")) {
		arg_next(rc);
		s = arg_next(rc);
		if (!s || parse_u32(s, port) || !*port || *port > 255) {
			pr_err("Error: port takes a port number, 1..255.\n");
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int list_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct dev_list *l = data;
	void *p;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	p = realloc(l->names, (l->n + 1) * sizeof(*l->names));
	if (!p)
		return MNL_CB_ERROR;
	l->names = p;
	p = realloc(l->ports, (l->n + 1) * sizeof(*l->ports));
	if (!p)
		return MNL_CB_ERROR;
	l->ports = p;
	snprintf(l->names[l->n], sizeof(l->names[0]), "%s",
		 mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	l->ports[l->n++] = tb[ROCECTL_A_DEV_NUM_PORTS] ?
			   mnl_attr_get_u32(tb[ROCECTL_A_DEV_NUM_PORTS]) : 1;
	return MNL_CB_OK;
}

static void list_restart(void *data)
{
	((struct dev_list *)data)->n = 0;
}

int dev_list_get(struct rocectl *rc, struct dev_list *l)
{
	struct nlmsghdr *nlh = nl_request(&rc->nl, ROCECTL_CMD_DEV_GET, NLM_F_DUMP);

	return nl_run_restart(&rc->nl, nlh, list_cb, l, list_restart);
}

void dev_list_free(struct dev_list *l)
{
	free(l->names);
	free(l->ports);
}

static void show_head(const struct cong_reply *r)
{
	out_open_object(NULL);
	out_str("ifname", "%s", r->dev);
	out_uint("port", "/%" PRIu64 ": ", r->port);
}

static void show_tail(const struct cong_reply *r)
{
	(void)r;
	out_close_object();
	out_nl();
}

static int dcqcn_show(struct rocectl *rc)
{
	struct dev_list l = { .n = 0 };
	const char *dev = NULL;
	uint32_t port;
	size_t i;
	int err;

	err = parse_target(rc, &dev, &port);
	if (!err)
		err = args_done_connect(rc);
	if (err)
		return err;
	out_begin_list();
	if (dev) {
		struct cong_reply r = { .params = true, .key = "dcqcn", .port = port,
					.head = show_head, .tail = show_tail };

		err = cong_get(rc, dev, port, &r, false);
		out_end_list();
		return err;
	}
	err = dev_list_get(rc, &l);
	for (i = 0; !err && i < l.n; i++) {
		for (port = 1; !err && port <= l.ports[i]; port++) {
			struct cong_reply r = { .params = true, .key = "dcqcn", .port = port,
						.head = show_head, .tail = show_tail };

			/* Only the ports a backend serves. */
			err = cong_get(rc, l.names[i], port, &r, true);
			if (err < 0)
				err = EXIT_OK;
		}
	}
	out_end_list();
	dev_list_free(&l);
	return err;
}

static const char *cong_name(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(cong_aliases) / sizeof(cong_aliases[0]); i++)
		if (!strcmp(word, cong_aliases[i].alias))
			return cong_aliases[i].name;
	return word;
}

#define DCQCN_SET_MAX 32

static int dcqcn_set(struct rocectl *rc)
{
	const char *dev = NULL, *names[DCQCN_SET_MAX], *s;
	uint32_t port, values[DCQCN_SET_MAX];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err, i, n = 0;

	err = parse_target(rc, &dev, &port);
	if (err)
		return err;
	if (!dev) {
		pr_err("Error: dcqcn set needs dev DEV.\n");
		return EXIT_USAGE;
	}
	/* The whole command line first: a typo is a usage error, module or not. */
	while ((s = arg_next(rc))) {
		if (n == DCQCN_SET_MAX) {
			pr_err("Error: more than %d parameters.\n", DCQCN_SET_MAX);
			return EXIT_USAGE;
		}
		names[n] = cong_name(s);
		if (strlen(names[n]) > 63) {
			pr_err("Error: \"%.20s...\" is too long a parameter name.\n", s);
			return EXIT_USAGE;
		}
		s = arg_next(rc);
		if (!s || parse_u32(s, &values[n])) {
			pr_err("Error: %s needs a value, a whole number (0..4294967295).\n",
			       names[n]);
			return EXIT_USAGE;
		}
		n++;
	}
	if (!n) {
		pr_err("Error: dcqcn set needs PARAM VALUE pairs: try \"rocectl dcqcn help\".\n");
		return EXIT_USAGE;
	}
	err = rocectl_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_CONG_SET, 0);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, dev);
	mnl_attr_put_u32(nlh, ROCECTL_A_CONG_PORT, port);
	for (i = 0; i < n; i++) {
		nest = mnl_attr_nest_start(nlh, ROCECTL_A_CONG_PARAM);
		mnl_attr_put_strz(nlh, ROCECTL_A_CONG_NAME, names[i]);
		mnl_attr_put_u64(nlh, ROCECTL_A_CONG_VALUE, values[i]);
		mnl_attr_nest_end(nlh, nest);
	}
	return nl_run(&rc->nl, nlh, NULL, NULL);
}

static int dcqcn_help(struct rocectl *rc)
{
	size_t i;

	(void)rc;
	printf("Usage: rocectl dcqcn show [ dev DEV [ port N ] ]\n"
	       "       rocectl dcqcn set dev DEV [ port N ] PARAM VALUE [ PARAM VALUE ]...\n"
	       "       rocectl dcqcn help\n"
	       "The congestion control of RDMA ports a hardware backend serves\n"
	       "(rocectl_mlx5: ConnectX). PARAM is a name dcqcn show prints (rp_* for\n"
	       "the reaction point, np_* for the notification point) or one of:\n");
	for (i = 0; i < sizeof(cong_aliases) / sizeof(cong_aliases[0]); i++)
		printf("  %-20s %s\n", cong_aliases[i].alias, cong_aliases[i].name);
	printf("Values are checked by the module before any is written.\n");
	return EXIT_OK;
}

static const struct cmd dcqcn_cmds[] = {
	{ "show", dcqcn_show },
	{ "set", dcqcn_set },
	{ "help", dcqcn_help },
	{ NULL, NULL },
};

bool dcqcn_changes_config(const char *verb)
{
	const struct cmd *c;

	for (c = dcqcn_cmds; c->name; c++)
		if (matches(verb, c->name))
			return c->fn == dcqcn_set;
	return false;
}

int cmd_dcqcn(struct rocectl *rc)
{
	return dispatch(rc, "dcqcn", dcqcn_cmds);
}
