/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simrdma: a simulated RoCE device for tests only (see README).
 */
#ifndef SIMRDMA_H
#define SIMRDMA_H

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "compat.h"

#define SIMRDMA_PORT		1
#define SIMRDMA_GID_TBL_LEN	16
#define SIMRDMA_MAX_QP		4096
#define SIMRDMA_QPN_FIRST	16
#define SIMRDMA_QPN_LAST	0xffffff
/* Hardware counter sets the device can have at most (counters_max <= this). */
#define SIMRDMA_COUNTERS_LIMIT	1024
#define SIMRDMA_COUNTERS_DEFAULT 64

/*
 * The counters, as mlx5 names them: a Q counter set has the first
 * SIMRDMA_NUM_Q; the optional congestion counters follow, counted per
 * port, and from 6.15 also per counter set (see struct simrdma_hwc).
 */
enum simrdma_stat {
	SIMRDMA_RX_WRITE_REQUESTS,
	SIMRDMA_RX_READ_REQUESTS,
	SIMRDMA_OUT_OF_BUFFER,
	SIMRDMA_OUT_OF_SEQUENCE,
	SIMRDMA_DUPLICATE_REQUEST,
	SIMRDMA_RNR_NAK_RETRY_ERR,
	SIMRDMA_PACKET_SEQ_ERR,
	SIMRDMA_IMPLIED_NAK_SEQ_ERR,
	SIMRDMA_LOCAL_ACK_TIMEOUT_ERR,
	SIMRDMA_NUM_Q,
	SIMRDMA_CC_RX_CE_PKTS = SIMRDMA_NUM_Q,
	SIMRDMA_CC_RX_CNP_PKTS,
	SIMRDMA_CC_TX_CNP_PKTS,
	SIMRDMA_NUM_STATS,
};

/* The counters the port and each counter set have: no optional ones before 5.16. */
#ifdef SIMRDMA_OPTIONAL_COUNTERS
#define SIMRDMA_NUM_PORT_STATS SIMRDMA_NUM_STATS
#else
#define SIMRDMA_NUM_PORT_STATS SIMRDMA_NUM_Q
#endif

#define SIMRDMA_NUM_OPT (SIMRDMA_NUM_STATS - SIMRDMA_NUM_Q)

/*
 * One hardware counter set: what the QPs bound to it did while bound.
 * From 6.15 a counter the core binds with its optional counters
 * (rdma_counter.mode.bind_opcnt) also counts those the port had enabled
 * when the QP was bound (opt_bound), as mlx5 adds a per-QP steering rule
 * for each: the port's own optional counters then no longer see that
 * QP's packets (the per-QP rules come first).
 */
struct simrdma_hwc {
	bool used;
	u64 value[SIMRDMA_NUM_Q];
	unsigned long opt_bound;	/* bit i: optional counter NUM_Q + i */
	u64 opt[SIMRDMA_NUM_OPT];
};

struct simrdma_dev {
	struct ib_device ibdev;
	/* The port's netdev, held; NULL once it unregisters. Under lock. */
	struct net_device *netdev;
	/* Serialises the fields below and every simrdma_qp's. */
	struct mutex lock;
	struct xarray qps;		/* simrdma_qp by QPN */
	struct ida qpn_ida;
	u32 counters_max;
	u32 counters_used;
	u32 bind_refused;		/* counter allocations refused */
	struct simrdma_hwc def;		/* the port's: QPs bound to none */
	struct simrdma_hwc *hwc;	/* [SIMRDMA_COUNTERS_LIMIT], id - 1 */
	u64 opt[SIMRDMA_NUM_OPT];
	unsigned long opt_enabled;	/* bit i: optional counter NUM_Q + i */
	/* The test's kernel QPs (test_qps.c), under test_lock. */
	struct mutex test_lock;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct xarray test_qps;		/* ib_qp by QPN */
	bool removing;
	struct dentry *ddir;
	/* The simulated DevX firmware (devx.c), under devx_lock. */
	struct mutex devx_lock;
	struct device *devx_parent;	/* the ib_device's parent */
	struct mlx5_core_dev *devx_mdev;
	struct xarray devx_qps;		/* QPN -> xa_mk_value(create opcode) */
	u32 devx_last;
	u64 devx_bench_ns;		/* the last "bench"'s time */
	bool devx_fail;
	bool devx_verbs;
	/* Each command's time in the firmware, slept outside devx_lock. */
	unsigned int devx_slow_ms;
};

struct simrdma_qp {
	struct ib_qp ibqp;
	u32 hwc;			/* bound counter set's id, 0: none */
	enum ib_qp_state state;
	enum ib_mtu mtu;
	u32 dest_qpn;
	u32 rq_psn;
	u32 sq_psn;
	int access;
	struct ib_qp_cap cap;
	u16 udp_sport;			/* raw context's path UDP source port */
};

struct simrdma_pd {
	struct ib_pd ibpd;
};

struct simrdma_cq {
	struct ib_cq ibcq;
};

static inline struct simrdma_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct simrdma_dev, ibdev);
}

static inline struct simrdma_qp *to_sqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct simrdma_qp, ibqp);
}

/* devx.c */
struct mlx5_core_dev;
struct seq_file;
int simrdma_devx_init(struct simrdma_dev *sd, const char *name);
void simrdma_devx_exit(struct simrdma_dev *sd);
ssize_t simrdma_devx_write(struct simrdma_dev *sd, char *buf, size_t len);
int simrdma_devx_show(struct seq_file *m, struct simrdma_dev *sd);
void simrdma_devx_verb(struct simrdma_dev *sd, const char *cmd, u32 qpn);

/* verbs.c */
extern const struct ib_device_ops simrdma_verbs_ops;
int simrdma_port_state(struct simrdma_dev *sd, enum ib_port_state *state,
		       int *mtu);
int simrdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		      struct ib_udata *udata);

/* raw.c */
extern const struct ib_device_ops simrdma_raw_ops;
extern const struct ib_device_ops simrdma_mlx5_id_ops;
void simrdma_raw_modify(struct simrdma_qp *sq, const struct ib_qp_attr *attr,
			int mask);
int simrdma_raw_set_sport(struct simrdma_dev *sd, u32 qpn, u16 sport);

/* counters.c */
extern const struct ib_device_ops simrdma_counter_ops;
extern const char * const simrdma_stat_names[SIMRDMA_NUM_STATS];
void simrdma_counters_init(void);
int simrdma_stat_index(const char *name);
int simrdma_inject(struct simrdma_dev *sd, u32 qpn, int stat, u64 n);

/* test_qps.c */
int simrdma_test_qps_create(struct simrdma_dev *sd, unsigned int n,
			    enum ib_qp_type type);
int simrdma_test_qps_modify(struct simrdma_dev *sd, u32 qpn, bool all,
			    enum ib_qp_state to, u8 tclass);
int simrdma_test_qps_destroy(struct simrdma_dev *sd, u32 qpn, bool all);
int simrdma_test_qp_event(struct simrdma_dev *sd, u32 qpn,
			  enum ib_event_type type);
void simrdma_test_qps_release(struct simrdma_dev *sd);

/* debugfs.c */
void simrdma_debugfs_init(void);
void simrdma_debugfs_exit(void);
void simrdma_debugfs_dev_add(struct simrdma_dev *sd, const char *name);
void simrdma_debugfs_dev_del(struct simrdma_dev *sd);
int simrdma_dev_new(const char *name, const char *ifname);
int simrdma_dev_del(const char *name);

#endif
