// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: the host side of a lossless RoCE network, one finding
 * per check and RDMA port: PASS, WARN, FAIL or SKIP, the evidence (the
 * values read and where from) and, for WARN and FAIL, a command that
 * fixes it. The intent (lossless priority, RoCE DSCP, MTU) comes from the
 * command line, rocectl.conf (check_intent.c) or is inferred, and the
 * evidence says which.
 *
 * Here: the ports, which of them the command line names, and the checks
 * run on each; the checks are in check_<family>.c, their findings and
 * report in check_finding.c.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "check.h"
#include "lib/attrs.h"
#include "lib/conf.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/utils.h"

/* --- the ports ---------------------------------------------------------------- */

static int add_port(struct check_ctx *c, const struct check_port *p)
{
	void *n = realloc(c->ports, (c->n + 1) * sizeof(*c->ports));

	if (!n)
		return -1;
	c->ports = n;
	c->ports[c->n++] = *p;
	return 0;
}

/* One device of the module's DEV_GET dump: its ports, as rocectl dev show reads them. */
static int ports_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct check_ctx *c = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *pt[ROCECTL_A_PORT_MAX + 1];
		struct check_port p = { .state = -1 };

		if (mnl_attr_get_type(a) != ROCECTL_A_DEV_PORT ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0 ||
		    attrs_parse_port(a, pt) < 0 || !pt[ROCECTL_A_PORT_INDEX])
			continue;
		snprintf(p.dev, sizeof(p.dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		p.port = mnl_attr_get_u32(pt[ROCECTL_A_PORT_INDEX]);
		if (pt[ROCECTL_A_PORT_STATE])
			p.state = mnl_attr_get_u8(pt[ROCECTL_A_PORT_STATE]);
		if (pt[ROCECTL_A_PORT_ACTIVE_MTU])
			p.active_mtu = mnl_attr_get_u32(pt[ROCECTL_A_PORT_ACTIVE_MTU]);
		if (pt[ROCECTL_A_PORT_MAX_MTU])
			p.max_mtu = mnl_attr_get_u32(pt[ROCECTL_A_PORT_MAX_MTU]);
		if (pt[ROCECTL_A_PORT_NETDEV_NAME])
			snprintf(p.netdev, sizeof(p.netdev), "%s",
				 mnl_attr_get_str(pt[ROCECTL_A_PORT_NETDEV_NAME]));
		if (add_port(c, &p))
			return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static void ports_restart(void *data)
{
	((struct check_ctx *)data)->n = 0;
}

/*
 * Without the module: sysfs, class/infiniband/DEV/ports/N (state "4:
 * ACTIVE", the netdev of GID 0 in gid_attrs/ndevs). sysfs has no active
 * MTU: the mtu check then checks the netdevs only.
 */
static int ports_from_sysfs(struct check_ctx *c)
{
	char path[512], buf[64];
	struct dirent *d, *e;
	DIR *dir, *pdir;

	snprintf(path, sizeof(path), "%.255s/class/infiniband", c->sysfs);
	dir = opendir(path);
	if (!dir)
		return 0;	/* no RDMA device at all */
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) > ROCECTL_DEV_NAME_MAX)
			continue;
		snprintf(path, sizeof(path), "%.255s/class/infiniband/%.64s/ports", c->sysfs, d->d_name);
		pdir = opendir(path);
		if (!pdir)
			continue;
		while ((e = readdir(pdir))) {
			struct check_port p = { .state = -1 };

			if (e->d_name[0] == '.' || parse_u32(e->d_name, &p.port))
				continue;
			snprintf(p.dev, sizeof(p.dev), "%.*s", ROCECTL_DEV_NAME_MAX, d->d_name);
			if (check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/state",
					     p.dev, p.port))
				p.state = atoi(buf);
			if (check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/ndevs/0",
					     p.dev, p.port))
				snprintf(p.netdev, sizeof(p.netdev), "%.*s", IFNAMSIZ - 1, buf);
			if (add_port(c, &p)) {
				closedir(pdir);
				closedir(dir);
				return -1;
			}
		}
		closedir(pdir);
	}
	closedir(dir);
	return 0;
}

static int port_cmp(const void *a, const void *b)
{
	const struct check_port *x = a, *y = b;
	int r = strcmp(x->dev, y->dev);

	return r ? r : (x->port > y->port) - (x->port < y->port);
}

static int read_ports(struct check_ctx *c)
{
	struct nlmsghdr *nlh;
	int err;

	if (c->module) {
		c->ports_from = "rocectl module";
		nlh = nl_request(&c->rc->nl, ROCECTL_CMD_DEV_GET, NLM_F_DUMP);
		err = nl_run_restart(&c->rc->nl, nlh, ports_cb, c, ports_restart);
		if (err)
			return err;
	} else {
		c->ports_from = "sysfs";
		if (ports_from_sysfs(c)) {
			pr_err("Error: out of memory.\n");
			return EXIT_FAILED;
		}
	}
	if (c->n)
		qsort(c->ports, c->n, sizeof(*c->ports), port_cmp);
	return EXIT_OK;
}

/* --- the command -------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(struct check_ctx *c);
} checks[] = {
	{ "device", check_device },
	{ "pfc", check_pfc },
	{ "trust", check_trust },
	{ "mtu", check_mtu },
	{ "pause", check_pause },
	{ "watchdog", check_watchdog },
	{ "ecn", check_ecn },
	{ "pcie", check_pcie },
	{ "ecmp", check_ecmp },
};

static void check_port(struct check_ctx *c, const struct check_port *p)
{
	struct finding f = { .any = false };
	size_t i;

	c->p = p;
	if (!*p->netdev) {
		finding_add(&f, CHECK_FAIL, NULL, "no netdev behind the port (%s): not RoCE",
			    c->ports_from);
		check_report(c, "device", &f);
		return;
	}
	c->dcb_err = dcb_read(p->netdev, &c->dcb);
	if (c->dcb_err)
		memset(&c->dcb, 0, sizeof(c->dcb));
	check_resolve_intent(c, &c->args, &c->conf);
	check_infer_intent(c);
	for (i = 0; i < ARRAY_SIZE(checks); i++)
		checks[i].fn(c);
}

/* Mark the ports the command line names: EXIT_OK, or EXIT_USAGE saying why not. */
static int select_ports(struct check_ctx *c, const char *dev, uint32_t port, bool has_port)
{
	bool dev_found = false, any = false;
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct check_port *p = &c->ports[i];
		bool named = dev && (!strcmp(p->dev, dev) || !strcmp(p->netdev, dev));

		dev_found |= named;
		/* Without dev: every port with a netdev. */
		p->selected = dev ? named && (!has_port || p->port == port) : *p->netdev != '\0';
		any |= p->selected;
	}
	if (dev && !dev_found) {
		pr_err("Error: no RDMA device or RoCE netdev is called \"%s\" (%s): see \"rocectl dev show\".\n",
		       dev, c->ports_from);
		return EXIT_USAGE;
	}
	if (dev && !any) {
		pr_err("Error: %s has no port %u.\n", dev, port);
		return EXIT_USAGE;
	}
	if (!any) {
		pr_err("Error: no RDMA port with a netdev to check (%s).\n", c->ports_from);
		return EXIT_CONDITION;
	}
	return EXIT_OK;
}

static int check_run(struct rocectl *rc)
{
	struct check_ctx c = { .rc = rc, .sysfs = "/sys" };
	const char *conf = NULL, *test_sysfs = getenv("ROCECTL_TEST_SYSFS");
	size_t i;
	int err;

	err = check_decl_parse(rc, &c.args, &conf);
	if (!err)
		err = check_conf_read(&c.conf, conf ? conf : POLICY_FILE, conf != NULL);
	if (err)
		goto out;
	/* A test's fake sysfs tree stands for the machine: its ports, not the module's. */
	if (test_sysfs && *test_sysfs)
		c.sysfs = test_sysfs;
	else
		c.module = rc->nl.sock || nl_open(&rc->nl, true) == EXIT_OK;
	err = read_ports(&c);
	if (!err)
		err = select_ports(&c, *c.args.dev ? c.args.dev : NULL, c.args.port,
				   c.args.port != 0);
	if (err)
		goto out;
	out_begin_list();
	for (i = 0; i < c.n; i++)
		if (c.ports[i].selected)
			check_port(&c, &c.ports[i]);
	out_end_list();
	err = c.worst == CHECK_FAIL ? EXIT_CONDITION : EXIT_OK;
out:
	free(c.ports);
	check_conf_free(&c.conf);
	return err;
}

static int check_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl check [ dev DEV [ port N ] ] [ prio P ] [ dscp D ] [ mtu M ]\n"
	       "                     [ conf FILE ]\n"
	       "       rocectl check help\n"
	       "Checks the host side of lossless RoCE on every RDMA port with a netdev,\n"
	       "or on DEV (an RDMA device or its netdev): device, pfc, trust, mtu,\n"
	       "pause, watchdog, ecn, pcie, ecmp. One line per check: PASS, WARN, FAIL or\n"
	       "SKIP, the evidence and, for WARN and FAIL, a command that fixes it.\n"
	       "P: the lossless priority (0..7; default: inferred from PFC), D: the\n"
	       "RoCE DSCP (0..63; default 26), M: the netdev MTU meant (68..65535).\n"
	       "What the command line leaves out is taken from the \"check\" lines of\n"
	       "FILE (default " POLICY_FILE "), then inferred.\n"
	       "Exit status 1 when a check FAILs.\n");
	return EXIT_OK;
}

int cmd_check(struct rocectl *rc)
{
	const char *w = arg_peek(rc);

	if (w && matches(w, "help") && rc->argc == 1)
		return check_help(rc);
	return check_run(rc);
}
