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

#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp_optional.h"

/* The port's optional counters: an exit code, the error said. */
static int port_status(struct nl *rdma, const struct rdma_dev *d, uint32_t port,
		       struct rdma_opt_port *p)
{
	struct nl_error e;
	int err = rdma_opt_get(rdma, d->index, port, p, &e);

	if (err == -EOPNOTSUPP) {
		pr_err("Error: this kernel's RDMA core has no optional counters (no RDMA_NLDEV_CMD_STAT_GET_STATUS).\n");
		return EXIT_FAILED;
	}
	return err ? nl_report(rdma, &e) : EXIT_OK;
}

static void print_port(const struct rdma_dev *d, uint32_t port, const struct rdma_opt_port *p)
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
	struct rdma_opt_port p;
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
	uint32_t enabled[RDMA_OPT_MAX];
	bool target[RDMA_OPT_MAX];
	struct rdma_opt_port p;
	struct opt_args a;
	struct nl_error e;
	struct nl rdma;
	char *names = NULL, *name, *save;
	size_t i, n;
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
	for (i = 0, n = 0; i < p.n; i++)
		if (target[i])
			enabled[n++] = p.c[i].index;
	if (rdma_opt_set(&rdma, d->index, a.port, enabled, n, &e)) {
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
