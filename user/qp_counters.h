/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware per-QP counters: QPs bound to counters of drivers that can bind
 * them (mlx5), over the RDMA core's netlink as "rdma statistic qp" does.
 * The requests, the parsing of RDMA_NLDEV_CMD_STAT_GET and the printing are
 * separate from the sockets so that the unit tests can drive them.
 */
#ifndef ROCECTL_QP_COUNTERS_H
#define ROCECTL_QP_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#include "nl.h"

struct rocectl;

/* One hardware counter of a counter set: the driver's name and value. */
struct qpc_value {
	char *name;
	uint64_t value;
};

/* One counter (set) of RDMA_NLDEV_CMD_STAT_GET with STAT_RES QP. */
struct qpc_counter {
	uint32_t dev_index;
	char ifname[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t port;
	uint32_t id;			/* RDMA_NLDEV_ATTR_STAT_COUNTER_ID */
	uint32_t mode;			/* RDMA_COUNTER_MODE_MANUAL or _AUTO */
	/* Auto mode: what the kernel groups QPs by, where it says. */
	bool has_type, has_pid;
	uint8_t type;
	uint32_t pid;
	char kern_name[64];		/* a kernel owner's name, or "" */
	uint32_t *qpns;			/* the QPs bound to it */
	size_t nqpns;
	struct qpc_value *hw;		/* its counters, in the driver's order */
	size_t nhw;
	bool followed;			/* bound by a running qp counters follow */
};

struct qpc_list {
	struct qpc_counter *c;
	size_t n, cap;
};

/* The RDMA core's devices (RDMA_NLDEV_CMD_GET), with their ports. */
struct rdma_dev {
	uint32_t index, ports;
	char name[ROCECTL_DEV_NAME_MAX + 1];
};

struct rdma_devs {
	struct rdma_dev *d;
	size_t n, cap;
};

/* Every RDMA device into devs (an exit code, the error printed). */
int rdma_devices(struct nl *rdma, struct rdma_devs *devs);
const struct rdma_dev *rdma_dev_named(const struct rdma_devs *devs,
				      const char *name);
/*
 * Every device into devs, and *dev the one named, with port checked
 * against its ports: an exit code, a usage error said as a sentence.
 */
int rdma_dev_resolve(struct nl *rdma, struct rdma_devs *devs, const char *name,
		     uint32_t port, const struct rdma_dev **dev);

/* What bind and unbind name. */
struct qpc_target {
	uint32_t dev_index;
	uint32_t port;
	uint32_t qpn;
	bool has_counter;
	uint32_t counter;
};

/*
 * Requests, built in nl->buf by nl_request_rdma() (no socket needed):
 * RDMA_NLDEV_CMD_STAT_SET binding t's QP in manual mode (to t's counter,
 * or to a new one); RDMA_NLDEV_CMD_STAT_DEL unbinding it from t's counter;
 * the RDMA_NLDEV_CMD_STAT_GET dump of a device's counters (port 0: all).
 */
struct nlmsghdr *qpc_bind_request(struct nl *nl, const struct qpc_target *t);
struct nlmsghdr *qpc_unbind_request(struct nl *nl, const struct qpc_target *t);
struct nlmsghdr *qpc_dump_request(struct nl *nl, uint32_t dev_index,
				  uint32_t port);

/*
 * The counters of one device (port 0: of all its ports) appended to l: 0,
 * or -errno with what the kernel said in *e (l then as it was).
 */
int qpc_dump(struct nl *rdma, uint32_t dev_index, uint32_t port,
	     struct qpc_list *l, struct nl_error *e);
/*
 * Bind t's QP to a new counter (t->has_counter false): 0 with the
 * counter's id in *counter (0 if an older kernel does not say), or -errno
 * with what the kernel said in *e.
 */
int qpc_bind_new(struct nl *rdma, const struct qpc_target *t, uint32_t *counter,
		 struct nl_error *e);

/*
 * An mnl callback: the counters of one STAT_GET message appended to the
 * struct qpc_list data; malformed entries are skipped. MNL_CB_ERROR only
 * when memory runs out.
 */
int qpc_parse(const struct nlmsghdr *nlh, void *data);
/* Empties the list (a restart callback); qpc_list_free also frees it. */
void qpc_list_reset(void *data);
void qpc_list_free(struct qpc_list *l);

/*
 * Whether a counter the driver lists for a counter set is a port's: mlx5
 * lists its congestion counters (rp_cnp_handled, np_cnp_sent, ...) for
 * every counter set but counts them per port only. They are never shown
 * under a QP; rocectl dev stats shows them.
 */
bool qpc_port_scope(const char *name);

/* The counter the QP is bound to; port 0 matches any port. */
const struct qpc_counter *qpc_find(const struct qpc_list *l, uint32_t dev_index,
				   uint32_t port, uint32_t qpn);

/* A record of "qp counters show". */
void qpc_print_counter(const struct qpc_counter *c);
/* In a QP's record of "qp stats": its bound counter, if it has one. */
void qpc_print_for_qp(const struct qpc_list *l, uint32_t dev_index,
		      uint32_t port, uint32_t qpn);

/*
 * qp stats: the counters bound on each of the devices, one dump each.
 * A device whose counters cannot be read gets a warning; nothing fails.
 */
struct qpc_dev {
	uint32_t index;
	const char *name;
};

void qpc_collect(const struct qpc_dev *devs, size_t n, struct qpc_list *l);

/* What is known when the kernel refuses a bind or an unbind. */
enum qpc_op { QPC_BIND, QPC_UNBIND };

struct qpc_why {
	const char *dev;
	uint32_t port, qpn;
	bool has_counter;
	uint32_t counter;
	const char *driver;	/* the driver's module (rocectl knows), or NULL */
	bool mlx5;		/* the driver is mlx5, which binds QPs to counters */
	bool rxe;		/* the driver is soft-RoCE, which cannot */
	bool auto_mode;		/* the port binds QPs itself (auto mode) */
};

/*
 * The refusal explained in a sentence (without "Error: "), in buf; NULL
 * when the kernel's own answer says it all (permission, extack).
 */
const char *qpc_explain(enum qpc_op op, int err, const struct qpc_why *w,
			char *buf, size_t len);

/* rocectl qp counters ...; and its usage lines, shared with qp help. */
int qp_counters(struct rocectl *rc);
extern const char qpc_usage[];

#endif
