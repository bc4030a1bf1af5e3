// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp counters optional: the optional hardware counters of a port
 * (mlx5: cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts, rdma_tx/rx_*),
 * which count only once enabled -- shown, enabled and disabled as "rdma
 * statistic mode supported | set | unset" do, over the RDMA core's netlink
 * (RDMA_NLDEV_CMD_STAT_GET_STATUS and STAT_SET with STAT_HWCOUNTERS, Linux
 * 6.1 has them, 5.10 does not). They count per port: their values are with the port's
 * counters (rocectl dev stats, rdma statistic show), never under a QP.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "errors.h"
#include "output.h"
#include "qp_counters.h"
#include "qp_optional.h"
#include "rocectl.h"
#include "utils.h"

#define OPT_MAX 64	/* optional counters of a port, at most */

struct opt_counter {
	char name[64];
	uint32_t index;
	bool enabled;
};

/* A port's optional counters, and whether it has hardware counters at all. */
struct opt_port {
	struct opt_counter c[OPT_MAX];
	size_t n;
	size_t total;	/* every counter of the port, optional or not */
};

static int status_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *e, *f;
	struct opt_port *p = data;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_STAT_HWCOUNTERS ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			continue;
		mnl_attr_for_each_nested(e, a) {
			const char *name = NULL;
			bool has_index = false, dynamic = false, enabled = false;
			uint32_t index = 0;

			if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY ||
			    mnl_attr_validate(e, MNL_TYPE_NESTED) < 0)
				continue;
			mnl_attr_for_each_nested(f, e) {
				switch (mnl_attr_get_type(f)) {
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME:
					if (mnl_attr_validate(f, MNL_TYPE_NUL_STRING) >= 0)
						name = mnl_attr_get_str(f);
					break;
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX:
					if (mnl_attr_validate(f, MNL_TYPE_U32) >= 0) {
						index = mnl_attr_get_u32(f);
						has_index = true;
					}
					break;
				case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC:
					/* Present for the optional ones only: enabled or not. */
					if (mnl_attr_validate(f, MNL_TYPE_U8) >= 0) {
						dynamic = true;
						enabled = mnl_attr_get_u8(f);
					}
					break;
				}
			}
			if (!name || !*name || !has_index)
				continue;
			p->total++;
			if (!dynamic || p->n == OPT_MAX)
				continue;
			snprintf(p->c[p->n].name, sizeof(p->c[p->n].name), "%s", name);
			p->c[p->n].index = index;
			p->c[p->n].enabled = enabled;
			p->n++;
		}
	}
	return MNL_CB_OK;
}

static void status_restart(void *data)
{
	memset(data, 0, sizeof(struct opt_port));
}

/*
 * The port's optional counters. The kernel answers EINVAL both where the
 * RDMA core has no STAT_GET_STATUS (5.10) and for a port without hardware counters: the
 * port's counters (STAT_GET) tell which.
 */
static int port_status(struct nl *rdma, const struct rdma_dev *d, uint32_t port,
		       struct opt_port *p)
{
	struct nlmsghdr *nlh;
	struct nl_error e;

	memset(p, 0, sizeof(*p));
	nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET_STATUS, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (!nl_run_quiet(rdma, nlh, status_cb, p, status_restart, &e))
		return EXIT_OK;
	if (e.err != EINVAL && e.err != EOPNOTSUPP)
		return nl_report(rdma, &e);
	nlh = nl_request_rdma(rdma, RDMA_NLDEV_CMD_STAT_GET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	if (nl_run_quiet(rdma, nlh, NULL, NULL, NULL, &e)) {
		memset(p, 0, sizeof(*p));	/* no hardware counters: none optional */
		return EXIT_OK;
	}
	pr_err("Error: this kernel's RDMA core has no optional counters (no RDMA_NLDEV_CMD_STAT_GET_STATUS).\n");
	return EXIT_FAILED;
}

static void print_port(const struct rdma_dev *d, uint32_t port, const struct opt_port *p)
{
	size_t i;

	out_open_object(NULL);
	out_uint("ifindex", NULL, d->index);
	out_str("ifname", "link %s", d->name);
	out_uint("port", "/%" PRIu64 " ", port);
	/* Counted per port on the kernels rocectl binds for (see the README). */
	out_str("scope", "scope %s ", "port");
	if (!p->n)
		out_text("optional none");
	else
		out_text("optional");
	out_open_object("optional");
	for (i = 0; i < p->n; i++) {
		if (out_is_json())
			out_bool(p->c[i].name, NULL, p->c[i].enabled);
		else
			out_text(" %s %s", p->c[i].name, p->c[i].enabled ? "on" : "off");
	}
	out_close_object();
	out_close_object();
	out_nl();
}

struct opt_args {
	const char *dev;
	uint32_t port;
	bool has_port;
	const char *names;	/* set, unset: NAME[,NAME...] */
};

static int parse_args(struct rocectl *rc, const char *cmd, bool names, struct opt_args *a)
{
	const char *w;
	uint32_t v;

	memset(a, 0, sizeof(*a));
	a->port = 1;
	while ((w = arg_next(rc))) {
		if (!strcmp(w, "dev")) {
			a->dev = arg_next(rc);
			if (check_dev_name(a->dev, "an RDMA device"))
				return EXIT_USAGE;
		} else if (!strcmp(w, "port")) {
			w = arg_next(rc);
			if (!w || parse_u32(w, &v) || v < 1 || v > 255) {
				pr_err("Error: port \"%s\" is not a number from 1 to 255.\n", w ? w : "");
				return EXIT_USAGE;
			}
			a->port = v;
			a->has_port = true;
		} else if (names && !a->names) {
			a->names = w;
		} else {
			pr_err("Error: unknown qp counters optional %s argument \"%s\": try \"rocectl qp counters help\".\n",
			       cmd, w);
			return EXIT_USAGE;
		}
	}
	if (a->has_port && !a->dev) {
		pr_err("Error: port N needs dev DEV, the RDMA device it belongs to.\n");
		return EXIT_USAGE;
	}
	if (names && !a->dev) {
		pr_err("Error: qp counters optional %s needs dev DEV.\n", cmd);
		return EXIT_USAGE;
	}
	if (names && (!a->names || !*a->names)) {
		pr_err("Error: qp counters optional %s needs the counters' names, NAME[,NAME...].\n", cmd);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int opt_show(struct rocectl *rc)
{
	struct rdma_devs devs = { 0 };
	const struct rdma_dev *one = NULL;
	struct opt_port p;
	struct opt_args a;
	struct nl rdma;
	uint32_t port;
	size_t i;
	int err = parse_args(rc, "show", false, &a);

	if (err)
		return err;
	err = nl_open_rdma(&rdma);
	if (err)
		return err;
	err = a.dev ? rdma_dev_resolve(&rdma, &devs, a.dev, a.port, &one) : rdma_devices(&rdma, &devs);
	if (!err)
		out_begin_list();
	for (i = 0; !err && i < devs.n; i++) {
		if (one && &devs.d[i] != one)
			continue;
		for (port = 1; !err && port <= devs.d[i].ports; port++) {
			if (a.has_port && port != a.port)
				continue;
			err = port_status(&rdma, &devs.d[i], port, &p);
			if (!err)
				print_port(&devs.d[i], port, &p);
		}
	}
	if (!err || out_is_json())
		out_end_list();
	free(devs.d);
	nl_close(&rdma);
	return err;
}

/* Set or unset the named counters; the others stay as they are. */
static int opt_change(struct rocectl *rc, bool enable)
{
	const char *cmd = enable ? "set" : "unset";
	struct rdma_devs devs = { 0 };
	const struct rdma_dev *d = NULL;
	bool target[OPT_MAX];
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct opt_port p;
	struct opt_args a;
	struct nl_error e;
	struct nl rdma;
	char *names = NULL, *name, *save;
	size_t i;
	int err = parse_args(rc, cmd, true, &a);

	if (err)
		return err;
	err = nl_open_rdma(&rdma);
	if (!err)
		err = rdma_dev_resolve(&rdma, &devs, a.dev, a.port, &d);
	if (!err)
		err = port_status(&rdma, d, a.port, &p);
	if (err)
		goto out;
	if (!p.n) {
		pr_err("Error: %s port %" PRIu32 " has no optional counters.\n", d->name, a.port);
		err = EXIT_FAILED;
		goto out;
	}
	for (i = 0; i < p.n; i++)
		target[i] = p.c[i].enabled;
	names = strdup(a.names);
	for (name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < p.n && strcmp(p.c[i].name, name); i++)
			;
		if (i == p.n) {
			pr_err("Error: \"%s\" is not an optional counter of %s port %" PRIu32 ": it has",
			       name, d->name, a.port);
			for (i = 0; i < p.n; i++)
				pr_err("%s %s", i ? "," : "", p.c[i].name);
			pr_err(".\n");
			err = EXIT_USAGE;
			goto out;
		}
		target[i] = enable;
	}

	/* The kernel takes the whole set of enabled counters. */
	nlh = nl_request_rdma(&rdma, RDMA_NLDEV_CMD_STAT_SET, 0);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, a.port);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (i = 0; i < p.n; i++)
		if (target[i])
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, p.c[i].index);
	mnl_attr_nest_end(nlh, nest);
	if (nl_run_quiet(&rdma, nlh, NULL, NULL, NULL, &e)) {
		err = nl_report(&rdma, &e);
		goto out;
	}
	/* What the port has now, as the kernel reads it back. */
	err = port_status(&rdma, d, a.port, &p);
	if (!err) {
		out_begin_list();
		print_port(d, a.port, &p);
		out_end_list();
	}
out:
	free(names);
	free(devs.d);
	nl_close(&rdma);
	return err;
}

static int opt_set(struct rocectl *rc)
{
	return opt_change(rc, true);
}

static int opt_unset(struct rocectl *rc)
{
	return opt_change(rc, false);
}

static const struct cmd opt_cmds[] = {
	{ "show", opt_show },
	{ "list", opt_show },
	{ "set", opt_set },
	{ "unset", opt_unset },
	{ NULL, NULL },
};

int qpc_optional(struct rocectl *rc)
{
	return dispatch(rc, "qp counters optional", opt_cmds);
}
