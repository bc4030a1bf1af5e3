// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp counters: the hardware per-QP counters of drivers that bind
 * QPs to counters (mlx5: a Q counter set per counter), managed over the
 * RDMA core's netlink as "rdma statistic qp" manages them -- show, bind,
 * unbind -- and put beside the module's own counters in "rocectl qp stats".
 *
 * The kernel side is drivers/infiniband/core/nldev.c (nldev_stat_set_doit,
 * nldev_stat_del_doit, nldev_stat_get_dumpit) and counters.c. Binding and
 * unbinding need CAP_NET_ADMIN (RDMA_NL_ADMIN_PERM): the kernel decides.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "attrs.h"
#include "errors.h"
#include "output.h"
#include "qp_counters.h"
#include "qp_fields.h"
#include "qp_follow.h"
#include "qp_optional.h"
#include "rocectl.h"
#include "utils.h"

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

/* --- requests ------------------------------------------------------------ */

static void put_target(struct nlmsghdr *nlh, const struct qpc_target *t)
{
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, t->dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, t->port);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, t->qpn);
}

struct nlmsghdr *qpc_bind_request(struct nl *nl, const struct qpc_target *t)
{
	struct nlmsghdr *nlh = nl_request_rdma(nl, RDMA_NLDEV_CMD_STAT_SET, 0);

	put_target(nlh, t);
	if (t->has_counter)	/* else the kernel allocates a counter */
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, t->counter);
	return nlh;
}

struct nlmsghdr *qpc_unbind_request(struct nl *nl, const struct qpc_target *t)
{
	struct nlmsghdr *nlh = nl_request_rdma(nl, RDMA_NLDEV_CMD_STAT_DEL, 0);

	/* STAT_DEL needs the counter: the caller found it if it was not given. */
	put_target(nlh, t);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, t->counter);
	return nlh;
}

struct nlmsghdr *qpc_dump_request(struct nl *nl, uint32_t dev_index, uint32_t port)
{
	struct nlmsghdr *nlh = nl_request_rdma(nl, RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	if (port)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	return nlh;
}

/* --- parsing RDMA_NLDEV_CMD_STAT_GET ------------------------------------- */

static void counter_free(struct qpc_counter *c)
{
	size_t i;

	for (i = 0; i < c->nhw; i++)
		free(c->hw[i].name);
	free(c->hw);
	free(c->qpns);
	memset(c, 0, sizeof(*c));
}

void qpc_list_reset(void *data)
{
	struct qpc_list *l = data;
	size_t i;

	for (i = 0; i < l->n; i++)
		counter_free(&l->c[i]);
	l->n = 0;
}

void qpc_list_free(struct qpc_list *l)
{
	qpc_list_reset(l);
	free(l->c);
	memset(l, 0, sizeof(*l));
}

/* The attribute if it has the type, else NULL. */
static const struct nlattr *typed(const struct nlattr *a, enum mnl_attr_data_type t)
{
	return mnl_attr_validate(a, t) < 0 ? NULL : a;
}

/* RDMA_NLDEV_ATTR_RES_QP: entries of RDMA_NLDEV_ATTR_RES_LQPN. */
static int parse_qpns(const struct nlattr *table, struct qpc_counter *c)
{
	const struct nlattr *e, *f;
	size_t n = 0;

	mnl_attr_for_each_nested(e, table)
		n++;
	if (!n)
		return 0;
	c->qpns = calloc(n, sizeof(*c->qpns));
	if (!c->qpns)
		return -ENOMEM;
	mnl_attr_for_each_nested(e, table) {
		if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY ||
		    !typed(e, MNL_TYPE_NESTED))
			continue;
		mnl_attr_for_each_nested(f, e) {
			if (mnl_attr_get_type(f) == RDMA_NLDEV_ATTR_RES_LQPN &&
			    typed(f, MNL_TYPE_U32)) {
				c->qpns[c->nqpns++] = mnl_attr_get_u32(f);
				break;
			}
		}
	}
	return 0;
}

/* RDMA_NLDEV_ATTR_STAT_HWCOUNTERS: entries of a name and a value. */
static int parse_hw(const struct nlattr *table, struct qpc_counter *c)
{
	const struct nlattr *e;
	size_t n = 0;

	mnl_attr_for_each_nested(e, table)
		n++;
	if (!n)
		return 0;
	c->hw = calloc(n, sizeof(*c->hw));
	if (!c->hw)
		return -ENOMEM;
	mnl_attr_for_each_nested(e, table) {
		const char *name;
		uint64_t value;

		if (!nl_rdma_hwcounter(e, &name, &value))
			continue;
		c->hw[c->nhw].name = strdup(name);
		if (!c->hw[c->nhw].name)
			return -ENOMEM;
		c->hw[c->nhw++].value = value;
	}
	return 0;
}

/* One RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY; entries without an id or port are skipped. */
static int parse_entry(const struct nlattr *entry, uint32_t dev_index,
		       const char *ifname, struct qpc_list *l)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { NULL };
	static const enum mnl_attr_data_type types[RDMA_NLDEV_ATTR_MAX] = {
		[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
		[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = MNL_TYPE_U32,
		[RDMA_NLDEV_ATTR_STAT_MODE] = MNL_TYPE_U32,
		[RDMA_NLDEV_ATTR_RES_TYPE] = MNL_TYPE_U8,
		[RDMA_NLDEV_ATTR_RES_PID] = MNL_TYPE_U32,
		[RDMA_NLDEV_ATTR_RES_KERN_NAME] = MNL_TYPE_NUL_STRING,
		[RDMA_NLDEV_ATTR_RES_QP] = MNL_TYPE_NESTED,
		[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = MNL_TYPE_NESTED,
	};
	const struct nlattr *a;
	struct qpc_counter *c;
	int err = 0;

	mnl_attr_for_each_nested(a, entry) {
		unsigned int type = mnl_attr_get_type(a);

		if (type < RDMA_NLDEV_ATTR_MAX && types[type] != MNL_TYPE_UNSPEC &&
		    !tb[type] && typed(a, types[type]))
			tb[type] = a;
	}
	if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return 0;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct qpc_counter *grown = realloc(l->c, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->c = grown;
		l->cap = cap;
	}
	c = &l->c[l->n];
	memset(c, 0, sizeof(*c));
	c->dev_index = dev_index;
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	c->port = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	c->id = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID]);
	if (tb[RDMA_NLDEV_ATTR_STAT_MODE])
		c->mode = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_STAT_MODE]);
	if (tb[RDMA_NLDEV_ATTR_RES_TYPE]) {
		c->has_type = true;
		c->type = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_RES_TYPE]);
	}
	if (tb[RDMA_NLDEV_ATTR_RES_PID]) {
		c->has_pid = true;
		c->pid = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_PID]);
	}
	if (tb[RDMA_NLDEV_ATTR_RES_KERN_NAME])
		snprintf(c->kern_name, sizeof(c->kern_name), "%s",
			 mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]));
	if (tb[RDMA_NLDEV_ATTR_RES_QP])
		err = parse_qpns(tb[RDMA_NLDEV_ATTR_RES_QP], c);
	if (!err && tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		err = parse_hw(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], c);
	if (err) {
		counter_free(c);
		return err;
	}
	l->n++;
	return 0;
}

int qpc_parse(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *index = NULL, *name = NULL, *table = NULL, *e;
	struct qpc_list *l = data;

	mnl_attr_for_each(a, nlh, 0) {
		switch (mnl_attr_get_type(a)) {
		case RDMA_NLDEV_ATTR_DEV_INDEX:
			if (!index)
				index = typed(a, MNL_TYPE_U32);
			break;
		case RDMA_NLDEV_ATTR_DEV_NAME:
			if (!name)
				name = typed(a, MNL_TYPE_NUL_STRING);
			break;
		case RDMA_NLDEV_ATTR_STAT_COUNTER:
			if (!table)
				table = typed(a, MNL_TYPE_NESTED);
			break;
		}
	}
	if (!index || !table)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(e, table) {
		if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY ||
		    !typed(e, MNL_TYPE_NESTED))
			continue;
		if (parse_entry(e, mnl_attr_get_u32(index),
				name ? mnl_attr_get_str(name) : "", l) < 0) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_OK;
}

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

const struct qpc_counter *qpc_find(const struct qpc_list *l, uint32_t dev_index,
				   uint32_t port, uint32_t qpn)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		const struct qpc_counter *c = &l->c[i];

		if (c->dev_index != dev_index || (port && c->port != port))
			continue;
		for (j = 0; j < c->nqpns; j++)
			if (c->qpns[j] == qpn)
				return c;
	}
	return NULL;
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

	if (!c)
		return;
	out_open_object("hw_counters");
	out_uint("counter", "\n    hw counter %" PRIu64 " ", c->id);
	out_str("mode", NULL, mode_name(c->mode));
	out_str("source", "(%s", QPC_SOURCE);
	if (c->followed)
		out_bool("followed", ", followed", true);
	out_text("): ");
	print_values(c);
	out_close_object();
}

/* --- the RDMA devices, by name ------------------------------------------- */

static int devs_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *index = NULL, *name = NULL, *ports = NULL;
	struct rdma_devs *devs = data;
	struct rdma_dev *d;

	mnl_attr_for_each(a, nlh, 0) {
		switch (mnl_attr_get_type(a)) {
		case RDMA_NLDEV_ATTR_DEV_INDEX:
			index = index ? index : typed(a, MNL_TYPE_U32);
			break;
		case RDMA_NLDEV_ATTR_DEV_NAME:
			name = name ? name : typed(a, MNL_TYPE_NUL_STRING);
			break;
		case RDMA_NLDEV_ATTR_PORT_INDEX:	/* the last port */
			ports = ports ? ports : typed(a, MNL_TYPE_U32);
			break;
		}
	}
	if (!index || !name)
		return MNL_CB_OK;
	if (devs->n == devs->cap) {
		size_t cap = devs->cap ? 2 * devs->cap : 8;
		struct rdma_dev *grown = realloc(devs->d, cap * sizeof(*grown));

		if (!grown) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		devs->d = grown;
		devs->cap = cap;
	}
	d = &devs->d[devs->n++];
	d->index = mnl_attr_get_u32(index);
	d->ports = ports ? mnl_attr_get_u32(ports) : 1;
	snprintf(d->name, sizeof(d->name), "%s", mnl_attr_get_str(name));
	return MNL_CB_OK;
}

static void devs_restart(void *data)
{
	((struct rdma_devs *)data)->n = 0;
}

/* Every RDMA device: the RDMA core's own list (RDMA_NLDEV_CMD_GET). */
int rdma_devices(struct nl *rdma, struct rdma_devs *devs)
{
	return nl_run_restart(rdma, nl_request_rdma(rdma, RDMA_NLDEV_CMD_GET, NLM_F_DUMP),
			      devs_cb, devs, devs_restart);
}

const struct rdma_dev *rdma_dev_named(const struct rdma_devs *devs,
				      const char *name)
{
	size_t i;

	for (i = 0; i < devs->n; i++)
		if (!strcmp(devs->d[i].name, name))
			return &devs->d[i];
	return NULL;
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

/* The device named, with the port checked against its ports. */
int rdma_dev_resolve(struct nl *rdma, struct rdma_devs *devs, const char *name,
		     uint32_t port, const struct rdma_dev **dev)
{
	int err = rdma_devices(rdma, devs);

	if (err)
		return err;
	*dev = rdma_dev_named(devs, name);
	if (!*dev) {
		pr_err("Error: no RDMA device named \"%s\" (rdma link show lists them).\n",
			name);
		return EXIT_USAGE;
	}
	if (port > (*dev)->ports) {
		pr_err("Error: %s has no port %" PRIu32 ": its ports are 1 to %" PRIu32 ".\n",
			name, port, (*dev)->ports);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int resolve(struct nl *rdma, struct rdma_devs *devs, const struct qpc_args *a,
		   const struct rdma_dev **dev)
{
	return rdma_dev_resolve(rdma, devs, a->dev, a->port, dev);
}

/* A dump appends to a list that may hold other devices' counters already. */
struct dump_ctx {
	struct qpc_list *l;
	size_t n0;
};

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	return qpc_parse(nlh, ((struct dump_ctx *)data)->l);
}

/* A retried dump starts over from what the list held before it. */
static void dump_restart(void *data)
{
	struct dump_ctx *ctx = data;

	while (ctx->l->n > ctx->n0)
		counter_free(&ctx->l->c[--ctx->l->n]);
}

/* The counters of one device (port 0: of all its ports), appended to l. */
int qpc_dump(struct nl *rdma, uint32_t dev_index, uint32_t port,
	     struct qpc_list *l, struct nl_error *e)
{
	struct dump_ctx ctx = { l, l->n };
	int err;

	err = nl_run_quiet(rdma, qpc_dump_request(rdma, dev_index, port), dump_cb,
			   &ctx, dump_restart, e);
	if (err)
		dump_restart(&ctx);	/* all of a device, or nothing */
	return err;
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

const char *qpc_explain(enum qpc_op op, int err, const struct qpc_why *w,
			char *buf, size_t len)
{
	switch (err) {
	case ENOENT:
		/*
		 * rdma_counter_get_qp() looks the QPN up in resource tracking,
		 * where QP0 and QP1 are filed as QPN | port << 24: not found.
		 */
		if (w->qpn <= 1)
			snprintf(buf, len, "QP %" PRIu32 " of %s is the port's %s QP, which the RDMA core cannot "
				 "bind to counters: it does not find QP0 and QP1 by their number.",
				 w->qpn, w->dev, w->qpn ? "GSI" : "SMI");
		else if (op == QPC_BIND && w->has_counter)
			snprintf(buf, len, "%s has no QP %" PRIu32 ", or no counter %" PRIu32 ".",
				 w->dev, w->qpn, w->counter);
		else
			snprintf(buf, len, "%s has no QP %" PRIu32 ".", w->dev, w->qpn);
		return buf;
	case ENOMEM:
		if (op != QPC_BIND || w->has_counter)
			return NULL;
		/*
		 * rdma_counter_bind_qpn_alloc() answers -ENOMEM whenever
		 * alloc_and_bind() gives no counter, and alloc_and_bind()
		 * gives none at once to a driver without counter_dealloc and
		 * counter_alloc_stats (every driver but mlx5 in 6.1).
		 */
		if (w->driver && w->rxe)
			snprintf(buf, len, "the driver of %s (%s) does not support binding QPs to hardware counters: "
				 "the kernel answers ENOMEM (\"%s\") when a driver has no counter operations.",
				 w->dev, w->driver, strerror(ENOMEM));
		else if (w->driver && w->mlx5)
			snprintf(buf, len, "mlx5 could not give QP %" PRIu32 " of %s a hardware counter on port %" PRIu32
				 " (ENOMEM): the device's Q counters or the kernel's memory ran out.",
				 w->qpn, w->dev, w->port);
		else
			snprintf(buf, len, "the kernel could not give QP %" PRIu32 " of %s a hardware counter on port %" PRIu32
				 " (ENOMEM, \"%s\"): the driver of %s%s%s%s does not support binding QPs to counters "
				 "(in Linux 6.1 only mlx5 does), or its counters or memory ran out.",
				 w->qpn, w->dev, w->port, strerror(ENOMEM), w->dev,
				 w->driver ? " (" : "", w->driver ? w->driver : "", w->driver ? ")" : "");
		return buf;
	case EOPNOTSUPP:
		snprintf(buf, len, "the driver of %s%s%s%s does not support binding QPs to hardware counters "
			 "(the kernel answers EOPNOTSUPP).", w->dev,
			 w->driver ? " (" : "", w->driver ? w->driver : "", w->driver ? ")" : "");
		return buf;
	case EINVAL:
		if (w->auto_mode)
			snprintf(buf, len, "port %" PRIu32 " of %s binds QPs to counters itself (auto mode): "
				 "it refuses manual %s (rdma statistic qp set link %s/%" PRIu32 " auto off ends auto mode).",
				 w->port, w->dev, op == QPC_BIND ? "binding" : "unbinding", w->dev, w->port);
		else if (op == QPC_UNBIND)
			snprintf(buf, len, "the kernel refused to unbind QP %" PRIu32 " of %s from counter %" PRIu32
				 " (EINVAL): the QP is not bound to that counter on port %" PRIu32 ".",
				 w->qpn, w->dev, w->counter, w->port);
		else if (w->has_counter)
			snprintf(buf, len, "the kernel refused to bind QP %" PRIu32 " of %s to counter %" PRIu32
				 " (EINVAL): a QP joins a counter of its own port, already bound to no other, "
				 "and kernel QPs and user QPs do not share counters.",
				 w->qpn, w->dev, w->counter);
		else
			snprintf(buf, len, "the kernel refused to bind QP %" PRIu32 " of %s on port %" PRIu32
				 " (EINVAL): the QP belongs to another port.", w->qpn, w->dev, w->port);
		return buf;
	default:
		return NULL;
	}
}

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

static int mode_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, 0)
		if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_MODE && typed(a, MNL_TYPE_U32))
			*(uint32_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

/* The port's counter mode, as "rdma statistic qp mode" asks for it. */
static uint32_t port_mode(struct nl *rdma, uint32_t dev_index, uint32_t port)
{
	struct nlmsghdr *nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET, 0);
	uint32_t mode = RDMA_COUNTER_MODE_NONE;
	struct nl_error e;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	nl_run_quiet(rdma, nlh, mode_cb, &mode, NULL, &e);
	return mode;
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
		w.auto_mode = port_mode(rdma, dev->index, a->port) == RDMA_COUNTER_MODE_AUTO;
	}
	why = qpc_explain(op, e->err, &w, buf, sizeof(buf));
	if (!why || e->msg[0])
		nl_report(rdma, e);	/* the kernel's own words first */
	if (why)
		pr_err("Error: %s\n", why);
	return EXIT_FAILED;
}

/* --- bind and unbind ------------------------------------------------------ */

struct bind_reply {
	bool has_counter;
	uint32_t counter;
};

static int bind_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bind_reply *r = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_COUNTER_ID &&
		    typed(a, MNL_TYPE_U32) && !r->has_counter) {
			r->counter = mnl_attr_get_u32(a);
			r->has_counter = true;
		}
	}
	return MNL_CB_OK;
}

int qpc_bind_new(struct nl *rdma, const struct qpc_target *t, uint32_t *counter,
		 struct nl_error *e)
{
	struct bind_reply r = { .has_counter = false };
	int err = nl_run_quiet(rdma, qpc_bind_request(rdma, t), bind_cb, &r, NULL, e);

	if (!err)
		*counter = r.has_counter ? r.counter : 0;
	return err;
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

static int qpc_bind(struct rocectl *rc)
{
	struct bind_reply r = { .has_counter = false };
	struct qpc_target t;
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
	if (nl_run_quiet(&c.rdma, qpc_bind_request(&c.rdma, &t), bind_cb, &r, NULL, &e) < 0) {
		err = refused(&c.rdma, QPC_BIND, &e, &c.a, c.dev);
	} else {
		if (!r.has_counter)	/* an older kernel's reply */
			r.counter = c.a.counter;
		out_open_object(NULL);
		out_uint("ifindex", NULL, c.dev->index);
		out_str("ifname", "link %s", c.dev->name);
		out_uint("port", "/%" PRIu64 " ", c.a.port);
		out_uint("lqpn", "lqpn %" PRIu64 " ", c.a.qpn);
		out_uint("counter", "counter %" PRIu64, r.counter);
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

static int qpc_unbind(struct rocectl *rc)
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
		if (nl_run_quiet(&c.rdma, qpc_unbind_request(&c.rdma, &t), NULL, NULL, NULL, &e) < 0)
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
	{ "bind", qpc_bind },
	{ "unbind", qpc_unbind },
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
		if (qpc_dump(&rdma, devs[i].index, 0, l, &e) < 0)
			pr_err("Warning: the hardware counters of %s could not be read: %s.\n",
				devs[i].name, e.msg[0] ? e.msg : strerror(e.err));
	}
	follow_mark(l, NULL);
	nl_close(&rdma);
}
