/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each QP's UDP source port from its best source: the hardware's own QP
 * context where the driver hands it out (mlx5's raw resource dump,
 * RDMA_NLDEV_CMD_RES_QP_GET_RAW, mlx5_raw.h), else the wire's (soft-RoCE,
 * seen by the module's packet hooks), else the kernel's rule's
 * (rdma_get_udp_sport, computed by the module at the modify to RTR). Shared
 * by qp show and check's ecmp.
 */
#ifndef ROCECTL_QP_SPORT_H
#define ROCECTL_QP_SPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#include "lib/nl.h"

/* One QP's port in its hardware context. */
struct qp_sport_hw_qp {
	uint32_t dev_index;	/* ib_core's */
	uint32_t qpn;
	uint16_t sport;		/* 0: the context has none */
};

/* The hardware ports of every QP of the devices whose context rocectl reads. */
struct qp_sport_hw {
	struct qp_sport_hw_qp *q;	/* sorted by device, QPN */
	size_t n;
	/* Devices whose raw contexts were refused: RES_QP_GET_RAW needs CAP_NET_ADMIN. */
	uint32_t *denied;
	size_t ndenied;
};

/*
 * Reads the raw QP contexts of the devices the module reports as mlx5's
 * (driver id RDMA_DRIVER_MLX5), one RDMA netlink dump per device, through
 * genl (the module's socket, idle). Best effort, silent: a device whose
 * contexts cannot be read has none here (and is in denied where the
 * reason is permission).
 */
void qp_sport_hw_read(struct nl *genl, struct qp_sport_hw *h);
void qp_sport_hw_free(struct qp_sport_hw *h);

enum qp_sport_source {
	QP_SPORT_NONE,
	QP_SPORT_RULE,
	QP_SPORT_RULE_NO_PERMISSION,	/* the hardware's refused: rule */
	QP_SPORT_WIRE,
	QP_SPORT_HW,
};

struct qp_sport {
	uint16_t port;			/* from source; 0 with QP_SPORT_NONE */
	enum qp_sport_source source;
	uint16_t rule, wire, hw;	/* each source's, 0: none */
};

/* The port of the QP whose module attributes are tb; h may be NULL. */
void qp_sport_best(const struct nlattr **tb, const struct qp_sport_hw *h,
		   struct qp_sport *s);
/* "hardware", "wire", "rule", ... as JSON's sport_source says it. */
const char *qp_sport_source_name(enum qp_sport_source s);

/*
 * One raw QP context reply (RDMA_NLDEV_CMD_RES_QP_GET_RAW, dump or doit)
 * of device dev_index into h->q: its entries' QPNs and ports. Exposed for
 * the unit tests.
 */
int qp_sport_hw_parse(const struct nlmsghdr *nlh, uint32_t dev_index,
		      struct qp_sport_hw *h);

#endif /* ROCECTL_QP_SPORT_H */
