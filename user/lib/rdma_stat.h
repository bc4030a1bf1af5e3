/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RDMA core's statistic netlink (NETLINK_RDMA, RDMA_NLDEV_CMD_STAT_*),
 * as "rdma statistic" uses it: the devices by name, a port's counters,
 * QP counters (dump, bind, unbind, the port's mode) and the optional
 * counters of a port. Requests, replies and what the kernel's refusals
 * mean; only the device lookups print (their errors end a command). The
 * requests and the parsing are separate from the sockets so that the unit
 * tests can drive them.
 *
 * The kernel side is drivers/infiniband/core/nldev.c (nldev_stat_set_doit,
 * nldev_stat_del_doit, nldev_stat_get_dumpit, nldev_stat_get_counter_status_doit)
 * and counters.c.
 */
#ifndef ROCECTL_RDMA_STAT_H
#define ROCECTL_RDMA_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#include "nl.h"

/* --- the RDMA devices, by name ---------------------------------------------- */

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

/* --- a port's counters ------------------------------------------------------- */

/* One hardware counter: the driver's name and value. */
struct qpc_value {
	char *name;
	uint64_t value;
};

/* A port's counters (RDMA_NLDEV_CMD_STAT_GET of a port, as rdma statistic show reads them). */
struct rdma_port_stats {
	uint32_t port;			/* as the reply names it; 0 if it does not */
	struct qpc_value *hw;		/* in the driver's order */
	size_t nhw;
};

/* 0, or -errno with what the kernel said in *e; free s with rdma_port_stats_free. */
int rdma_port_stats(struct nl *rdma, uint32_t dev_index, uint32_t port,
		    struct rdma_port_stats *s, struct nl_error *e);
void rdma_port_stats_free(struct rdma_port_stats *s);

/* --- QP counters ---------------------------------------------------------------- */

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
	/* What a running follow says (follow_fold): id 0 is no set. */
	bool history;			/* hw holds counts of sets the QP gave up */
	enum { QPC_WAIT_NONE, QPC_WAIT_FULL, QPC_WAIT_MAX } waiting;
};

struct qpc_list {
	struct qpc_counter *c;
	size_t n, cap;
};

/* A list's next entry, zeroed and not yet counted (l->n++ takes it); NULL: no memory. */
struct qpc_counter *qpc_list_slot(struct qpc_list *l);
/* Counter values and their names, freed. */
void qpc_values_free(struct qpc_value *v, size_t n);

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
 * Bind t's QP (to t's counter, or to a new one): 0 with the counter's id
 * in *counter -- the kernel's answer; where an older kernel does not say,
 * t's counter, or 0 for a new one -- or -errno with what the kernel said
 * in *e.
 */
int qpc_bind(struct nl *rdma, const struct qpc_target *t, uint32_t *counter,
	     struct nl_error *e);
/* Unbind t's QP from t's counter: 0, or -errno with what the kernel said in *e. */
int qpc_unbind(struct nl *rdma, const struct qpc_target *t, struct nl_error *e);
/*
 * The port's counter mode (RDMA_COUNTER_MODE_*), as "rdma statistic qp
 * mode" asks for it; RDMA_COUNTER_MODE_NONE when the kernel does not say.
 */
uint32_t qpc_mode(struct nl *rdma, uint32_t dev_index, uint32_t port);

/*
 * An mnl callback: the counters of one STAT_GET message appended to the
 * struct qpc_list data; malformed entries are skipped. MNL_CB_ERROR only
 * when memory runs out.
 */
int qpc_parse(const struct nlmsghdr *nlh, void *data);
/* Empties the list (a restart callback); qpc_list_free also frees it. */
void qpc_list_reset(void *data);
void qpc_list_free(struct qpc_list *l);

/* The counter the QP is bound to; port 0 matches any port. */
const struct qpc_counter *qpc_find(const struct qpc_list *l, uint32_t dev_index,
				   uint32_t port, uint32_t qpn);

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

/* --- optional counters ----------------------------------------------------------- */

#define RDMA_OPT_MAX 64	/* optional counters of a port, at most */

/* A port's optional counters, and whether it has hardware counters at all. */
struct rdma_opt_port {
	struct {
		char name[64];
		uint32_t index;
		bool enabled;
	} c[RDMA_OPT_MAX];
	size_t n;
	size_t total;	/* every counter of the port, optional or not */
};

/*
 * The port's optional counters (RDMA_NLDEV_CMD_STAT_GET_STATUS, Linux 6.1
 * has it, 5.10 does not): 0, with none for a port without hardware
 * counters; -EOPNOTSUPP where the RDMA core has no STAT_GET_STATUS; or -errno
 * with what the kernel said in *e.
 */
int rdma_opt_get(struct nl *rdma, uint32_t dev_index, uint32_t port,
		 struct rdma_opt_port *p, struct nl_error *e);
/*
 * Enable exactly the n optional counters of index[] on the port (the
 * kernel takes the whole set): 0, or -errno with what it said in *e.
 */
int rdma_opt_set(struct nl *rdma, uint32_t dev_index, uint32_t port,
		 const uint32_t *index, size_t n, struct nl_error *e);

#endif
