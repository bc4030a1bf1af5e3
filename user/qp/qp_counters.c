// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp counters: the hardware per-QP counters of drivers that bind
 * QPs to counters (mlx5: a Q counter set per counter), managed over the
 * RDMA core's netlink (rdma_stat.c) as "rdma statistic qp" manages them --
 * show, bind, unbind -- and put beside the module's own counters in
 * "rocectl qp stats". Here: the command line, the printing, the checks
 * that explain a refusal before the kernel does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_netlink.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp_counters.h"
#include "qp_fields.h"
#include "qp_follow.h"
#include "qp_hw_cong.h"
#include "qp_optional.h"

#define QPC_SOURCE "driver"	/* the driver counts them, in hardware */
#define QPN_MAX 0xffffff	/* QPNs are 24 bits */
#define PORT_MAX 255

const char qpc_usage[] =
	"       rocectl qp counters show [ dev DEV [ port N ] ]\n"
	"       rocectl qp counters bind dev DEV [ port N ] qpn N [ counter ID ]\n"
	"       rocectl qp counters unbind dev DEV [ port N ] qpn N [ counter ID ]\n"
	"       rocectl qp counters follow [ dev DEV [ port N ] ] [ type T ] [ comm NAME ]\n"
	"                                  [ pid PID ] [ max N ]\n"
	"       rocectl qp counters follow file FILE\n"
	"       rocectl qp counters optional [ show ] [ dev DEV [ port N ] ]\n"
	"       rocectl qp counters optional { set | unset } dev DEV [ port N ] NAME[,NAME...]\n"
	"       rocectl qp counters help\n";

/* --- the join and the printing ------------------------------------------- */

bool qpc_port_scope(const char *name)
{
	static const char *const port_scope[] = {
		/* mlx5: QUERY_CONG_STATISTICS, the port's congestion counters */
		"rp_cnp_ignored", "rp_cnp_handled",
		"np_ecn_marked_roce_packets", "np_cnp_sent",
		/* mlx5: PPCNT's Ethernet extended group */
		"rx_icrc_encapsulated",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(port_scope); i++)
		if (!strcmp(name, port_scope[i]))
			return true;
	return false;
}

static const char *mode_name(uint32_t mode)
{
	static const char *const modes[] = {
		[RDMA_COUNTER_MODE_NONE] = "none",
		[RDMA_COUNTER_MODE_AUTO] = "auto",
		[RDMA_COUNTER_MODE_MANUAL] = "manual",
	};

	return name_of(modes, ARRAY_SIZE(modes), mode);
}

/* The "counters" object: the counter set's per-QP counters. */
static void print_values(const struct qpc_counter *c)
{
	size_t i;

	out_open_object("counters");
	for (i = 0; i < c->nhw; i++) {
		if (qpc_port_scope(c->hw[i].name))
			continue;
		out_uint(c->hw[i].name, NULL, c->hw[i].value);
		out_text("%s %" PRIu64 " ", c->hw[i].name, c->hw[i].value);
	}
	out_close_object();
}

void qpc_print_counter(const struct qpc_counter *c)
{
	size_t i;

	out_open_object(NULL);
	out_uint("ifindex", NULL, c->dev_index);
	out_str("ifname", "link %s", c->ifname);
	out_uint("port", "/%" PRIu64 " ", c->port);
	out_uint("counter", "counter %" PRIu64 " ", c->id);
	out_str("mode", "mode %s ", mode_name(c->mode));
	if (c->has_type)
		out_str("type", "type %s ", qp_type_name(c->type));
	if (c->has_pid)
		out_uint("pid", "pid %" PRIu64 " ", c->pid);
	if (c->kern_name[0]) {
		out_bool("kernel", NULL, true);
		out_str("comm", "comm [%s] ", c->kern_name);
	}
	out_text("lqpn ");
	out_open_array("lqpns");
	for (i = 0; i < c->nqpns; i++) {
		out_text("%s", i ? "," : "");
		out_uint(NULL, NULL, c->qpns[i]);
		out_text("%" PRIu32, c->qpns[i]);
	}
	out_close_array();
	out_text("%s ", c->nqpns ? "" : "none");
	out_str("source", "source %s", QPC_SOURCE);
	if (c->followed)
		out_bool("followed", " followed", true);
	out_text("\n    ");
	print_values(c);
	out_close_object();
	out_nl();
}

void qpc_print_for_qp(const struct qpc_list *l, uint32_t dev_index,
		      uint32_t port, uint32_t qpn)
{
	const struct qpc_counter *c = l ? qpc_find(l, dev_index, port, qpn) : NULL;

	if (!c || (!c->id && !c->nhw))
		return;
	out_open_object("hw_counters");
	if (c->id) {
		out_uint("counter", "\n    hw counter %" PRIu64 " ", c->id);
		out_str("mode", NULL, mode_name(c->mode));
	} else {
		/* Follow released its set: what it counted is kept. */
		out_text("\n    hw counter none ");
	}
	out_str("source", "(%s", QPC_SOURCE);
	if (c->followed)
		out_bool("followed", ", followed", true);
	if (c->history)
		out_bool("history", ", with the sets it gave up", true);
	out_text("): ");
	print_values(c);
	out_close_object();
}

/* --- the command line ------------------------------------------------------ */

struct qpc_args {
	const char *dev;
	uint32_t port, qpn, counter;
	bool has_port, has_qpn, has_counter;
};

static int num_arg(struct rocectl *rc, const char *what, uint32_t min,
		   uint32_t max, uint32_t *v)
{
	return parse_u32_range(what, arg_next(rc), min, max, v);
}

/* show takes dev and port; bind and unbind also qpn and counter. */
static int parse_args(struct rocectl *rc, const char *cmd, bool target,
		      struct qpc_args *a)
{
	const char *w;
	int err = EXIT_OK;

	memset(a, 0, sizeof(*a));
	a->port = 1;
	while (!err && (w = arg_next(rc))) {
		if (!strcmp(w, "dev")) {
			a->dev = arg_next(rc);
			err = check_dev_name(a->dev, "an RDMA device");
		} else if (!strcmp(w, "port")) {
			err = num_arg(rc, "port", 1, PORT_MAX, &a->port);
			a->has_port = true;
		} else if (target && (!strcmp(w, "qpn") || !strcmp(w, "lqpn"))) {
			err = num_arg(rc, "qpn", 0, QPN_MAX, &a->qpn);
			a->has_qpn = true;
		} else if (target && !strcmp(w, "counter")) {
			err = num_arg(rc, "counter", 0, UINT32_MAX, &a->counter);
			a->has_counter = true;
		} else {
			pr_err("Error: unknown qp counters %s argument \"%s\": try \"rocectl qp counters help\".\n",
				cmd, w);
			err = EXIT_USAGE;
		}
	}
	if (err)
		return err;
	if (a->has_port && !a->dev) {
		pr_err("Error: port N needs dev DEV, the RDMA device it belongs to.\n");
		return EXIT_USAGE;
	}
	if (target && !a->dev) {
		pr_err("Error: qp counters %s needs dev DEV, the QP's RDMA device.\n", cmd);
		return EXIT_USAGE;
	}
	if (target && !a->has_qpn) {
		pr_err("Error: qp counters %s needs qpn N, the QP to %s.\n", cmd, cmd);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int resolve(struct nl *rdma, struct rdma_devs *devs, const struct qpc_args *a,
		   const struct rdma_dev **dev)
{
	return rdma_dev_resolve(rdma, devs, a->dev, a->port, dev);
}

static int qpc_show(struct rocectl *rc)
{
	struct rdma_devs devs = { 0 };
	const struct rdma_dev *one = NULL;
	struct qpc_list l = { 0 };
	struct qpc_args a;
	struct nl_error e;
	struct nl rdma;
	size_t i;
	int err = parse_args(rc, "show", false, &a);

	if (err)
		return err;
	err = nl_open_rdma(&rdma);
	if (err)
		return err;
	if (a.dev)
		err = resolve(&rdma, &devs, &a, &one);
	else
		err = rdma_devices(&rdma, &devs);
	for (i = 0; !err && i < devs.n; i++) {
		if (one && &devs.d[i] != one)
			continue;
		if (qpc_dump(&rdma, devs.d[i].index, one && a.has_port ? a.port : 0,
				  &l, &e) < 0)
			err = nl_report(&rdma, &e);
	}
	if (!err) {
		follow_mark(&l, NULL);
		out_begin_list();
		for (i = 0; i < l.n; i++)
			qpc_print_counter(&l.c[i]);
		out_end_list();
	}
	qpc_list_free(&l);
	free(devs.d);
	nl_close(&rdma);
	return err;
}

/* --- refusals explained -------------------------------------------------- */

/* The driver, from the rocectl module if it is loaded (quietly otherwise). */
struct driver_info {
	char name[64];
	uint32_t kind;
	bool known;
};

static int driver_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct driver_info *d = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_DRIVER_NAME] ||
	    !tb[ROCECTL_A_DEV_DRIVER])
		return MNL_CB_OK;
	snprintf(d->name, sizeof(d->name), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_DRIVER_NAME]));
	d->kind = mnl_attr_get_u32(tb[ROCECTL_A_DEV_DRIVER]);
	d->known = true;
	return MNL_CB_OK;
}

static void driver_of(const char *dev, struct driver_info *d)
{
	struct nlmsghdr *nlh;
	struct nl_error e;
	struct nl g;

	memset(d, 0, sizeof(*d));
	if (nl_open(&g, true) != EXIT_OK)
		return;
	nlh = nl_request(&g, ROCECTL_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, dev);
	nl_run_quiet(&g, nlh, driver_cb, d, NULL, &e);
	nl_close(&g);
}

static int refused(struct nl *rdma, enum qpc_op op, const struct nl_error *e,
		   const struct qpc_args *a, const struct rdma_dev *dev)
{
	struct qpc_why w = {
		.dev = a->dev, .port = a->port, .qpn = a->qpn,
		.has_counter = a->has_counter || op == QPC_UNBIND, .counter = a->counter,
	};
	struct driver_info d;
	const char *why;
	char buf[512];

	if (e->err == ENOMEM || e->err == EOPNOTSUPP) {
		driver_of(a->dev, &d);
		if (d.known) {
			w.driver = d.name;
			w.mlx5 = d.kind == ROCECTL_DRIVER_MLX5;
			w.rxe = d.kind == ROCECTL_DRIVER_RXE;
		}
	} else if (e->err == EINVAL) {
		w.auto_mode = qpc_mode(rdma, dev->index, a->port) == RDMA_COUNTER_MODE_AUTO;
	}
	why = qpc_explain(op, e->err, &w, buf, sizeof(buf));
	if (!why || e->msg[0])
		nl_report(rdma, e);	/* the kernel's own words first */
	if (why)
		pr_err("Error: %s\n", why);
	return EXIT_FAILED;
}

/* bind and unbind: the device, its counters and what the QP is bound to. */
struct qpc_cmd {
	struct qpc_args a;
	struct nl rdma;
	struct rdma_devs devs;
	const struct rdma_dev *dev;
	struct qpc_list l;
	const struct qpc_counter *bound;	/* the QP's counter, on any port */
	bool dumped;
};

static int cmd_begin(struct rocectl *rc, const char *name, struct qpc_cmd *c)
{
	struct nl_error e;
	int err;

	memset(c, 0, sizeof(*c));
	err = parse_args(rc, name, true, &c->a);
	if (err)
		return err;
	err = nl_open_rdma(&c->rdma);
	if (err)
		return err;
	err = resolve(&c->rdma, &c->devs, &c->a, &c->dev);
	if (err)
		return err;
	/* Bind does without (the kernel decides); unbind needs the counters. */
	if (qpc_dump(&c->rdma, c->dev->index, 0, &c->l, &e) < 0) {
		if (!strcmp(name, "unbind"))
			return nl_report(&c->rdma, &e);
		return EXIT_OK;
	}
	c->dumped = true;
	c->bound = qpc_find(&c->l, c->dev->index, 0, c->a.qpn);
	return EXIT_OK;
}

static void cmd_end(struct qpc_cmd *c)
{
	qpc_list_free(&c->l);
	free(c->devs.d);
	nl_close(&c->rdma);
}

static int bind_checks(const struct qpc_cmd *c)
{
	const struct qpc_args *a = &c->a;
	size_t i;

	if (!c->dumped)
		return EXIT_OK;
	if (c->bound) {
		pr_err("Error: QP %" PRIu32 " of %s is bound to counter %" PRIu32 " (port %" PRIu32
			") already: unbind it first.\n", a->qpn, a->dev, c->bound->id, c->bound->port);
		return EXIT_FAILED;
	}
	if (!a->has_counter)
		return EXIT_OK;
	for (i = 0; i < c->l.n; i++) {
		if (c->l.c[i].id != a->counter)
			continue;
		if (c->l.c[i].port != a->port) {
			pr_err("Error: counter %" PRIu32 " of %s counts port %" PRIu32 ", not port %" PRIu32 ".\n",
				a->counter, a->dev, c->l.c[i].port, a->port);
			return EXIT_FAILED;
		}
		return EXIT_OK;
	}
	pr_err("Error: %s has no counter %" PRIu32 " (rocectl qp counters show lists them).\n",
		a->dev, a->counter);
	return EXIT_FAILED;
}

static int qpc_bind_cmd(struct rocectl *rc)
{
	char enabled[256] = "";
	struct qpc_target t;
	uint32_t counter;
	struct nl_error e;
	struct qpc_cmd c;
	int err = cmd_begin(rc, "bind", &c);

	if (!err)
		err = bind_checks(&c);
	if (err) {
		cmd_end(&c);
		return err;
	}
	t = (struct qpc_target){
		.dev_index = c.dev->index, .port = c.a.port, .qpn = c.a.qpn,
		.has_counter = c.a.has_counter, .counter = c.a.counter,
	};
	/* A new counter set carries the port's congestion counters (6.15+). */
	if (!t.has_counter &&
	    qp_hw_cong_enable(&c.rdma, t.dev_index, t.port, enabled, sizeof(enabled), &e) < 0)
		pr_err("Warning: the port's congestion counters could not be enabled: %s.\n",
		       e.msg[0] ? e.msg : strerror(e.err));
	if (qpc_bind(&c.rdma, &t, &counter, &e) < 0) {
		err = refused(&c.rdma, QPC_BIND, &e, &c.a, c.dev);
	} else {
		out_open_object(NULL);
		out_uint("ifindex", NULL, c.dev->index);
		out_str("ifname", "link %s", c.dev->name);
		out_uint("port", "/%" PRIu64 " ", c.a.port);
		out_uint("lqpn", "lqpn %" PRIu64 " ", c.a.qpn);
		out_uint("counter", "counter %" PRIu64, counter);
		if (enabled[0])
			out_str("port_optional_enabled", " (enabled on the port: %s)", enabled);
		out_close_object();
		out_nl();
	}
	cmd_end(&c);
	return err;
}

static int unbind_checks(struct qpc_cmd *c)
{
	const struct qpc_args *a = &c->a;

	if (!c->bound) {
		pr_err("Error: QP %" PRIu32 " of %s is bound to no counter.\n", a->qpn, a->dev);
		return EXIT_FAILED;
	}
	if (c->bound->port != a->port) {
		pr_err("Error: QP %" PRIu32 " of %s is bound to counter %" PRIu32 " on port %" PRIu32
			", not on port %" PRIu32 ".\n", a->qpn, a->dev, c->bound->id,
			c->bound->port, a->port);
		return EXIT_FAILED;
	}
	if (a->has_counter && c->bound->id != a->counter) {
		pr_err("Error: QP %" PRIu32 " of %s is bound to counter %" PRIu32 ", not to counter %"
			PRIu32 ".\n", a->qpn, a->dev, c->bound->id, a->counter);
		return EXIT_FAILED;
	}
	c->a.counter = c->bound->id;
	return EXIT_OK;
}

static int qpc_unbind_cmd(struct rocectl *rc)
{
	struct qpc_target t;
	struct nl_error e;
	struct qpc_cmd c;
	int err = cmd_begin(rc, "unbind", &c);

	if (!err)
		err = unbind_checks(&c);
	if (!err) {
		t = (struct qpc_target){
			.dev_index = c.dev->index, .port = c.a.port, .qpn = c.a.qpn,
			.has_counter = true, .counter = c.a.counter,
		};
		if (qpc_unbind(&c.rdma, &t, &e) < 0)
			err = refused(&c.rdma, QPC_UNBIND, &e, &c.a, c.dev);
	}
	cmd_end(&c);
	return err;
}

static int qpc_help(struct rocectl *rc)
{
	(void)rc;
	/* The usage lines are indented to follow "Usage: ", 7 characters. */
	printf("Usage:%s"
	       "Hardware per-QP counters of drivers that bind QPs to counters (mlx5),\n"
	       "as \"rdma statistic qp\" manages them; port defaults to 1. bind without\n"
	       "counter gets a new counter and prints its id; unbind without counter\n"
	       "finds the QP's. bind and unbind need CAP_NET_ADMIN. Counters of port\n"
	       "scope that a driver also lists for a counter (mlx5: rp_cnp_ignored,\n"
	       "rp_cnp_handled, np_ecn_marked_roce_packets, np_cnp_sent,\n"
	       "rx_icrc_encapsulated) are left out: rocectl dev stats shows them.\n"
	       "follow gives every QP the policy matches a counter of its own once it\n"
	       "reaches RTR, until interrupted; follow file runs the \"qp counters\n"
	       "follow\" lines of a policy file. optional shows a port's optional\n"
	       "counters, set and unset enable and disable them (not on 5.10); they\n"
	       "count per port: rocectl dev stats shows their values.\n",
	       qpc_usage + 6);
	return EXIT_OK;
}

static const struct cmd qpc_cmds[] = {
	{ "show", qpc_show },
	{ "list", qpc_show },
	{ "bind", qpc_bind_cmd },
	{ "unbind", qpc_unbind_cmd },
	{ "follow", qpc_follow },
	{ "optional", qpc_optional },
	{ "help", qpc_help },
	{ NULL, NULL },
};

int qp_counters(struct rocectl *rc)
{
	return dispatch(rc, "qp counters", qpc_cmds);
}

/* --- qp stats ------------------------------------------------------------- */

/*
 * The module lists every device; the RDMA core's netlink, in exclusive
 * mode, only those of the caller's network namespace, as sysfs does.
 */
static bool in_this_netns(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", name);
	return access(path, F_OK) == 0 || errno != ENOENT;
}

void qpc_collect(const struct qpc_dev *devs, size_t n, struct qpc_list *l)
{
	struct nl_error e;
	struct nl rdma;
	size_t i;

	if (!n)
		return;
	if (nl_open_rdma(&rdma) != EXIT_OK) {
		pr_err("Warning: no hardware counters: the RDMA netlink socket did not open.\n");
		return;
	}
	for (i = 0; i < n; i++) {
		if (qpc_dump(&rdma, devs[i].index, 0, l, &e) >= 0)
			continue;
		if (!in_this_netns(devs[i].name))
			pr_err("Warning: the hardware counters of %s could not be read: it is in another network namespace (the RDMA core's exclusive mode), where they can be.\n",
			       devs[i].name);
		else
			pr_err("Warning: the hardware counters of %s could not be read: %s.\n",
			       devs[i].name, e.msg[0] ? e.msg : strerror(e.err));
	}
	follow_mark(l, NULL);
	follow_fold(l, NULL);
	nl_close(&rdma);
}
