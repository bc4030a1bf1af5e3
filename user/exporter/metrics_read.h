/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's reading of one scrape: the module's dumps (devices,
 * watches, QPs), the driver's port counters (the RDMA core) and DCQCN
 * where a backend serves the port, into a snapshot the writer turns into
 * metrics. Never prints.
 */
#ifndef ROCECTL_METRICS_READ_H
#define ROCECTL_METRICS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <linux/rocectl.h>

#include "lib/nl.h"
#include "qp/qp_fields.h"

struct kv {
	char name[64];
	uint64_t v;
};

struct kvs {
	struct kv *v;
	size_t n;
};

/* A port's lists of named values, each written as one family. */
enum { PORT_HW, PORT_DCQCN_PARAMS, PORT_DCQCN_STATS, PORT_NLISTS };

struct port {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char netdev[IFNAMSIZ];
	uint32_t dev_index, port;
	int state;			/* -1: unknown */
	uint32_t active_mtu;
	struct kvs lists[PORT_NLISTS];
};

struct prio {
	char netdev[IFNAMSIZ], prio[4];
	const char *direction;
	int state;
	bool held;
	uint64_t storms, restores, storm_ms, actions, actions_failed, conflicts;
	/* The current or last storm's blast radius, where one was counted. */
	bool has_blast;
	uint32_t blast_qps, blast_procs;
};

struct qp {
	uint32_t dev_index, qpn, port, pid;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	uint64_t cgroup;		/* its owner's cgroup (v2) id; 0 the root */
	int state;
	int prio;			/* its priority on its netdev; -1 unknown */
	const char *prio_source;
	uint16_t sport;			/* its UDP source port, wire else rule; 0 none */
	bool counted;			/* the module counts its packets */
	/* Else (hardware RoCE): which of qp_hw_cong_names its counter set has, in v. */
	unsigned int hw_cong;
	uint64_t v[QP_NSTATS];
};

/* A watched netdev's NIC stall prevention (a backend's: ConnectX, simnic). */
struct stall {
	char netdev[IFNAMSIZ];
	uint64_t warnings, errors;
};

/*
 * A group of a soft-RoCE device's destroyed QPs, their final counts summed
 * by the module (qp-retired-get): per port and command name, or, past the
 * module's bound on groups, the device's "other" group.
 */
struct retired {
	uint32_t dev_index, port;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	uint64_t cgroup;		/* its QPs' owners' cgroup; 0 the root */
	bool other;
	uint64_t v[QP_NSTATS];
};

/*
 * QP failures the module counted (qp-error-count-get): per device, command
 * name and cause, or, past the module's bound on groups, per cause alone.
 */
struct qp_err_count {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	bool other;
	uint8_t cause;
	uint64_t count;
};

/* A soft-RoCE device's packets that no counting QP took (the module's). */
struct dev_acct {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint64_t unattributed[QP_NSTATS];
};

/* A hardware device's DevX QP commands the module's backend could not follow. */
struct devx_miss {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint64_t missed;
};

/* QPs a running qp counters follow waits to give a counter set, per device. */
struct set_wait {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t full, max;
};

struct snapshot {
	struct port *ports;
	size_t nports;
	struct dev_acct *accts;
	size_t naccts;
	bool has_unseen;
	uint64_t unseen, probe_missed;
	bool has_hook_missed;
	uint64_t qp_hook_missed;
	struct prio *prios;
	size_t nprios;
	struct stall *stalls;
	size_t nstalls;
	struct qp *qps;
	size_t nqps;
	struct retired *retired;	/* read before the QPs */
	size_t nretired;
	unsigned int retired_max;	/* named groups the module keeps a device, 0 unknown */
	bool qps_interrupted;		/* QPs came or went during the QP dump */
	struct qp_err_count *errs;
	size_t nerrs;
	unsigned int err_records;	/* the module's failure ring's size, 0 unknown */
	struct set_wait *waits;
	size_t nwaits;
	struct devx_miss *devx;
	size_t ndevx;
};

/*
 * The module's devices (ports, accounting), watches, destroyed QPs' groups
 * and then its QPs into s, the QPs sorted by metrics_qp_cmp: false if a
 * dump failed. The groups first: a QP destroyed between the two dumps is
 * in neither (a sum dips, never doubles), see metrics_sums.h.
 */
bool metrics_read_module(struct nl *nl, struct snapshot *s);
/* The ports' driver counters and DCQCN: false if a request failed. */
bool metrics_read_ports(struct nl *nl, struct snapshot *s);
void metrics_snapshot_free(struct snapshot *s);

/* QPs in (device, QPN) order. */
int metrics_qp_cmp(const void *a, const void *b);

#endif
