// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl dev stats: counters whose scope is a port or a device, each
 * labelled with its scope and its source -- the driver's port counters
 * (read over the RDMA core's netlink, as rdma statistic show does) and the
 * sum of the module's per-QP counters, with what no live QP holds
 * (destroyed QPs, packets no QP took) and their total, which closes
 * against the packets the device saw. Never shown under a QP.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "dcqcn.h"
#include "dev.h"
#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp/qp_fields.h"

#define STAT_FIRST ROCECTL_A_QP_STAT_TX_PACKETS
#define NSTATS QP_NSTATS

struct stats_dev {
	uint32_t index, ports;
	char name[ROCECTL_DEV_NAME_MAX + 1];
	char driver[64];
	/* Where the module counts packets: what no live QP's counters hold. */
	bool counts;
	uint64_t gone[NSTATS], unattributed[NSTATS];
	/* Module-wide: packets taken but not read, loopback probe hits skipped. */
	uint64_t unseen, probe_missed;
	/* Module-wide: QP verb calls the hooks missed. */
	uint64_t qp_hook_missed;
	/* Hardware devices: DevX QP commands the backend missed. */
	bool has_devx_missed;
	uint64_t devx_missed;
};

struct stats_devs {
	struct stats_dev *dev;
	size_t n, cap;
	const char *only;
};

static int devs_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct stats_devs *devs = data;
	struct stats_dev *d;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	if (devs->n == devs->cap) {
		size_t cap = devs->cap ? 2 * devs->cap : 8;
		struct stats_dev *grown = realloc(devs->dev, cap * sizeof(*grown));

		if (!grown)
			return MNL_CB_ERROR;
		devs->dev = grown;
		devs->cap = cap;
	}
	d = &devs->dev[devs->n++];
	memset(d, 0, sizeof(*d));
	d->index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	snprintf(d->name, sizeof(d->name), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_DEV_DRIVER_NAME])
		snprintf(d->driver, sizeof(d->driver), "%s",
			 mnl_attr_get_str(tb[ROCECTL_A_DEV_DRIVER_NAME]));
	if (tb[ROCECTL_A_DEV_NUM_PORTS])
		d->ports = mnl_attr_get_u32(tb[ROCECTL_A_DEV_NUM_PORTS]);
	if (tb[ROCECTL_A_DEV_QP_HOOK_MISSED])
		d->qp_hook_missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_QP_HOOK_MISSED]);
	if (tb[ROCECTL_A_DEV_DEVX_MISSED]) {
		d->has_devx_missed = true;
		d->devx_missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_DEVX_MISSED]);
	}
	if (tb[ROCECTL_A_DEV_QPS_GONE] && tb[ROCECTL_A_DEV_UNATTRIBUTED]) {
		d->counts = true;
		qp_stat_values(tb[ROCECTL_A_DEV_QPS_GONE], d->gone);
		qp_stat_values(tb[ROCECTL_A_DEV_UNATTRIBUTED], d->unattributed);
		if (tb[ROCECTL_A_DEV_PKT_UNSEEN])
			d->unseen = mnl_attr_get_u64(tb[ROCECTL_A_DEV_PKT_UNSEEN]);
		if (tb[ROCECTL_A_DEV_PROBE_MISSED])
			d->probe_missed = mnl_attr_get_u64(tb[ROCECTL_A_DEV_PROBE_MISSED]);
	}
	return MNL_CB_OK;
}

static void devs_restart(void *data)
{
	((struct stats_devs *)data)->n = 0;
}

/* One port's driver counters, as the RDMA core's STAT_GET gives them. */
static void print_port(const struct stats_dev *d, const struct rdma_port_stats *ps)
{
	size_t i;

	out_open_object(NULL);
	out_str("ifname", "%s", d->name);
	out_uint("port", "/%" PRIu64 ": ", ps->port);
	out_str("scope", "scope %s ", "port");
	out_str("source", "source driver ", "driver");
	out_str("driver", "(%s)", d->driver);
	out_open_object("counters");
	out_text("\n    ");
	for (i = 0; i < ps->nhw; i++) {
		out_uint(ps->hw[i].name, NULL, ps->hw[i].value);
		out_text("%s %" PRIu64 " ", ps->hw[i].name, ps->hw[i].value);
	}
	out_close_object();
	out_close_object();
	out_nl();
}

struct qp_sum {
	uint64_t v[NSTATS];
	unsigned int qps, counted;
};

static int sum_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_sum *sum = data;
	uint64_t v[NSTATS];
	int i;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	sum->qps++;
	if (!qp_stat_values(tb[ROCECTL_A_QP_STATS], v))
		return MNL_CB_OK;
	sum->counted++;
	for (i = 0; i < NSTATS; i++)
		sum->v[i] += v[i];
	return MNL_CB_OK;
}

static void sum_restart(void *data)
{
	memset(data, 0, sizeof(struct qp_sum));
}

/* The counters block of a record: a JSON object, an indented line of text. */
static void print_counters(const uint64_t *v)
{
	int i;

	out_open_object("counters");
	out_text("\n    ");
	for (i = 0; i < NSTATS; i++) {
		out_uint(qp_stat_name(i), NULL, v[i]);
		out_text("%s %" PRIu64 " ", qp_stat_name(i), v[i]);
	}
	out_close_object();
}

/* One labelled set of the module's counters of a device. */
static void print_module_counters(const struct stats_dev *d, const char *scope,
				  const char *what, const uint64_t *v,
				  bool module_wide)
{
	out_open_object(NULL);
	out_str("ifname", "%s: ", d->name);
	out_str("scope", "scope %s ", scope);
	out_str("source", "source module ", "module");
	out_text("(%s)", what);
	if (module_wide) {
		out_uint("module_unseen", " (module-wide, packets not read: %" PRIu64,
			 d->unseen);
		out_uint("module_probe_missed", ", loopback probe hits skipped: %" PRIu64 ")",
			 d->probe_missed);
	}
	print_counters(v);
	out_close_object();
	out_nl();
}

/*
 * The live QPs' sum, then where the module counts packets, what no live
 * QP holds and the total of the three: every packet it saw on the device.
 */
static int print_qp_sum(struct rocectl *rc, const struct stats_dev *d)
{
	struct nlmsghdr *nlh;
	struct qp_sum sum = { .qps = 0 };
	uint64_t total[NSTATS];
	int err, i;

	nlh = nl_request(&rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, d->index);
	err = nl_run_restart(&rc->nl, nlh, sum_cb, &sum, sum_restart);
	if (err)
		return err;
	out_open_object(NULL);
	out_str("ifname", "%s: ", d->name);
	out_str("scope", "scope %s ", "qps");
	out_str("source", "source module ", "module");
	/* Where the module counts nothing, its QPs are still only as whole as its hooks. */
	if (d->counts)
		out_uint("qps", "(sum over %" PRIu64 " QPs", sum.counted);
	else
		out_uint("qps", "(%" PRIu64 " QPs tracked, no packet counters on this device", sum.qps);
	out_uint("module_qp_hook_missed", "; module-wide, QP verb calls missed: %" PRIu64,
		 d->qp_hook_missed);
	if (d->has_devx_missed)
		out_uint("devx_missed", "; DevX QP commands missed: %" PRIu64, d->devx_missed);
	out_text(")");
	if (d->counts)
		print_counters(sum.v);
	out_close_object();
	out_nl();
	if (!d->counts)
		return EXIT_OK;
	print_module_counters(d, "destroyed-qps", "final counts of the QPs destroyed",
			      d->gone, false);
	print_module_counters(d, "unattributed", "packets no counting QP took",
			      d->unattributed, false);
	for (i = 0; i < NSTATS; i++)
		total[i] = sum.v[i] + d->gone[i] + d->unattributed[i];
	print_module_counters(d, "device", "every packet seen: the three above",
			      total, true);
	return EXIT_OK;
}

int dev_stats(struct rocectl *rc)
{
	struct stats_devs devs = { .only = NULL };
	struct rdma_port_stats ps;
	struct nlmsghdr *nlh;
	struct nl_error e;
	struct nl rdma;
	int err;
	size_t i;
	uint32_t port;

	err = arg_dev_connect(rc, &devs.only);
	if (err)
		return err;
	/* The devices (one by name: the module's error if it has none). */
	nlh = nl_request(&rc->nl, ROCECTL_CMD_DEV_GET, devs.only ? 0 : NLM_F_DUMP);
	if (devs.only)
		mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, devs.only);
	err = nl_run_restart(&rc->nl, nlh, devs_cb, &devs, devs_restart);
	if (!err)
		err = nl_open_rdma(&rdma);
	if (err) {
		free(devs.dev);
		return err;
	}
	out_begin_list();
	for (i = 0; !err && i < devs.n; i++) {
		for (port = 1; !err && port <= devs.dev[i].ports; port++) {
			if (rdma_port_stats(&rdma, devs.dev[i].index, port, &ps, &e) < 0) {
				err = nl_report(&rdma, &e);
				break;
			}
			print_port(&devs.dev[i], &ps);
			rdma_port_stats_free(&ps);
		}
		/* The congestion counters of a hardware backend, per port. */
		for (port = 1; !err && port <= devs.dev[i].ports; port++)
			err = cong_print_stats(rc, devs.dev[i].name, port);
		if (!err)
			err = print_qp_sum(rc, &devs.dev[i]);
	}
	out_end_list();
	nl_close(&rdma);
	free(devs.dev);
	return err;
}
