// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA core's statistic netlink, as "rdma statistic" uses it: the
 * devices by name, a port's counters, QP counters (dump, bind, unbind,
 * mode) and a port's optional counters. Binding, unbinding and setting
 * optional counters need CAP_NET_ADMIN (RDMA_NL_ADMIN_PERM): the kernel
 * decides.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "errors.h"
#include "rdma_stat.h"

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

void qpc_values_free(struct qpc_value *hw, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(hw[i].name);
	free(hw);
}

static void counter_free(struct qpc_counter *c)
{
	qpc_values_free(c->hw, c->nhw);
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

/* RDMA_NLDEV_ATTR_STAT_HWCOUNTERS: entries of a name and a value, into *hw. */
static int parse_hw(const struct nlattr *table, struct qpc_value **hw, size_t *nhw)
{
	const struct nlattr *e;
	size_t n = 0;

	mnl_attr_for_each_nested(e, table)
		n++;
	if (!n)
		return 0;
	*hw = calloc(n, sizeof(**hw));
	if (!*hw)
		return -ENOMEM;
	mnl_attr_for_each_nested(e, table) {
		const char *name;
		uint64_t value;

		if (!nl_rdma_hwcounter(e, &name, &value))
			continue;
		(*hw)[*nhw].name = strdup(name);
		if (!(*hw)[*nhw].name)
			return -ENOMEM;
		(*hw)[(*nhw)++].value = value;
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

	c = qpc_list_slot(l);
	if (!c)
		return -ENOMEM;
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
		err = parse_hw(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], &c->hw, &c->nhw);
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

struct qpc_counter *qpc_list_slot(struct qpc_list *l)
{
	struct qpc_counter *grown, *c;
	size_t cap;

	if (l->n == l->cap) {
		cap = l->cap ? 2 * l->cap : 8;
		grown = realloc(l->c, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		l->c = grown;
		l->cap = cap;
	}
	c = &l->c[l->n];
	memset(c, 0, sizeof(*c));
	return c;
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

/* --- bind, unbind, mode ------------------------------------------------------ */

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

int qpc_bind(struct nl *rdma, const struct qpc_target *t, uint32_t *counter,
	     struct nl_error *e)
{
	struct bind_reply r = { .has_counter = false };
	int err = nl_run_quiet(rdma, qpc_bind_request(rdma, t), bind_cb, &r, NULL, e);

	if (!err)	/* an older kernel's reply does not say */
		*counter = r.has_counter ? r.counter : t->has_counter ? t->counter : 0;
	return err;
}

int qpc_unbind(struct nl *rdma, const struct qpc_target *t, struct nl_error *e)
{
	return nl_run_quiet(rdma, qpc_unbind_request(rdma, t), NULL, NULL, NULL, e);
}

static int mode_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, 0)
		if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_MODE && typed(a, MNL_TYPE_U32))
			*(uint32_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

uint32_t qpc_mode(struct nl *rdma, uint32_t dev_index, uint32_t port)
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

/* --- a port's counters ------------------------------------------------------ */

void rdma_port_stats_free(struct rdma_port_stats *s)
{
	qpc_values_free(s->hw, s->nhw);
	memset(s, 0, sizeof(*s));
}

/* The reply's port and its hwcounters table (the last of each, as sent once). */
static int port_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *table = NULL;
	struct rdma_port_stats *s = data;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_STAT_HWCOUNTERS &&
		    typed(a, MNL_TYPE_NESTED))
			table = a;
		else if (mnl_attr_get_type(a) == RDMA_NLDEV_ATTR_PORT_INDEX &&
			 typed(a, MNL_TYPE_U32))
			s->port = mnl_attr_get_u32(a);
	}
	if (table && parse_hw(table, &s->hw, &s->nhw) < 0) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

int rdma_port_stats(struct nl *rdma, uint32_t dev_index, uint32_t port,
		    struct rdma_port_stats *s, struct nl_error *e)
{
	struct nlmsghdr *nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET, 0);
	int err;

	memset(s, 0, sizeof(*s));
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	err = nl_run_quiet(rdma, nlh, port_stats_cb, s, NULL, e);
	if (err)
		rdma_port_stats_free(s);
	return err;
}

/* --- optional counters -------------------------------------------------------- */

static int opt_status_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *e, *f;
	struct rdma_opt_port *p = data;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_STAT_HWCOUNTERS ||
		    !typed(a, MNL_TYPE_NESTED))
			continue;
		mnl_attr_for_each_nested(e, a) {
			const char *name = NULL;
			bool has_index = false, dynamic = false, enabled = false;
			uint32_t index = 0;

			if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY ||
			    !typed(e, MNL_TYPE_NESTED))
				continue;
			mnl_attr_for_each_nested(f, e) {
				switch (mnl_attr_get_type(f)) {
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME:
					if (typed(f, MNL_TYPE_NUL_STRING))
						name = mnl_attr_get_str(f);
					break;
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX:
					if (typed(f, MNL_TYPE_U32)) {
						index = mnl_attr_get_u32(f);
						has_index = true;
					}
					break;
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC:
					/* Present for the optional ones only: enabled or not. */
					if (typed(f, MNL_TYPE_U8)) {
						dynamic = true;
						enabled = mnl_attr_get_u8(f);
					}
					break;
				}
			}
			if (!name || !*name || !has_index)
				continue;
			p->total++;
			if (!dynamic || p->n == RDMA_OPT_MAX)
				continue;
			snprintf(p->c[p->n].name, sizeof(p->c[p->n].name), "%s", name);
			p->c[p->n].index = index;
			p->c[p->n].enabled = enabled;
			p->n++;
		}
	}
	return MNL_CB_OK;
}

static void opt_status_restart(void *data)
{
	memset(data, 0, sizeof(struct rdma_opt_port));
}

/*
 * The kernel answers EINVAL both where the RDMA core has no
 * STAT_GET_STATUS (5.10) and for a port without hardware counters: the
 * port's counters (STAT_GET) tell which.
 */
int rdma_opt_get(struct nl *rdma, uint32_t dev_index, uint32_t port,
		 struct rdma_opt_port *p, struct nl_error *e)
{
	struct nlmsghdr *nlh;
	int err;

	memset(p, 0, sizeof(*p));
	nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET_STATUS, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	err = nl_run_quiet(rdma, nlh, opt_status_cb, p, opt_status_restart, e);
	if (!err || (e->err != EINVAL && e->err != EOPNOTSUPP))
		return err;
	nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (nl_run_quiet(rdma, nlh, NULL, NULL, NULL, e)) {
		memset(p, 0, sizeof(*p));	/* no hardware counters: none optional */
		return 0;
	}
	return -EOPNOTSUPP;
}

int rdma_opt_set(struct nl *rdma, uint32_t dev_index, uint32_t port,
		 const uint32_t *index, size_t n, struct nl_error *e)
{
	struct nlmsghdr *nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_SET, 0);
	struct nlattr *nest;
	size_t i;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (i = 0; i < n; i++)
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, index[i]);
	mnl_attr_nest_end(nlh, nest);
	return nl_run_quiet(rdma, nlh, NULL, NULL, NULL, e);
}
