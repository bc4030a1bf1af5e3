/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by the parts of rocectl.ko. */
#ifndef _ROCECTL_H
#define _ROCECTL_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/if.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <linux/rocectl.h>

struct genl_family;
struct genl_info;

#define ROCECTL_QP_NSTATS (ROCECTL_A_QP_STAT_MAX - ROCECTL_A_QP_STAT_TX_PACKETS + 1)
#define ROCECTL_STAT(attr) ((attr) - ROCECTL_A_QP_STAT_TX_PACKETS)

/* A device's name: replaced whole on rename, freed after a grace period. */
struct rocectl_dev_name {
	struct rcu_head rcu;
	char s[IB_DEVICE_NAME_MAX];
};

/*
 * One RDMA device, from ib_client add() to remove(). Found under RCU by
 * the QP hooks and the packet path, freed after a grace period.
 */
struct rocectl_dev {
	struct ib_device *ibdev;
	u32 index;
	/*
	 * Our copy, replaced in rename(): dev_name() may be freed under us,
	 * and readers under RCU (hooks, tracepoints) never see half of one.
	 * Read it with rocectl_dev_name().
	 */
	struct rocectl_dev_name __rcu *name;
	/* QPN -> struct rocectl_qp; its lock also guards dead and by_drv. */
	struct xarray qps;
	/*
	 * Counting devices: the same entries by their driver QP's address
	 * (rocectl_qp_drv_key()), for the packet path to find a packet's
	 * sender by identity (pkt_account.c).
	 */
	DECLARE_HASHTABLE(by_drv, 8);
	bool dead;
	/* The module computes per-QP packet counters on this device. */
	bool counts;
	int netdev_ifindex;	/* soft-RoCE: the netdev its packets use */
	/* Its driver: tells the driver's own sent packets (pkt_account.c). */
	struct module *owner;
	/*
	 * What no live QP's counters hold (dev_counters.c): destroyed QPs'
	 * final counts, packets no counting QP took. Rarely written.
	 */
	atomic64_t gone[ROCECTL_QP_NSTATS];
	atomic64_t unattributed[ROCECTL_QP_NSTATS];
};

/* Per-CPU counters of one QP: the packet path never shares a cache line. */
struct rocectl_qp_pcpu {
	u64_stats_t c[ROCECTL_QP_NSTATS];
	struct u64_stats_sync syncp;
};

/* Congestion kinds, for the rate-limited qp_congestion tracepoint. */
enum rocectl_cong {
	ROCECTL_CONG_CE,
	ROCECTL_CONG_CNP,
	ROCECTL_CONG_BECN,
	ROCECTL_CONG_NAK,
	ROCECTL_CONG_RNR,
	ROCECTL_CONG_RETRANS,
	ROCECTL_CONG_OOS,
	ROCECTL_CONG_NR,
};

/* What a QP is; copied out under rocectl_qp.lock. */
struct rocectl_qp_info {
	u32 qpn;
	u8 type;
	u8 state;
	u8 kernel;
	u8 has_path;		/* the fields from RTR on are valid */
	u8 tclass;
	u8 sl;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 incomplete;		/* a QP verb was missed while it lived */
	u32 port;
	u32 dest_qpn;
	u32 path_mtu;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u64 create_time;
	u64 state_time;
	u8 sgid[16];
	u8 dgid[16];
};

/* One tracked QP, keyed by (device, QPN). */
struct rocectl_qp {
	spinlock_t lock;		/* info */
	struct rocectl_qp_info info;
	/* Identity only, never dereferenced: tells QPs that reuse a QPN apart. */
	const struct ib_qp *ibqp;
	/* In rdev->by_drv while in the table, on counting devices. */
	struct hlist_node drv_node;
	/* Its device, which outlives it: remove() waits for entries' RCU frees. */
	struct rocectl_dev *rdev;
	/* User QPs: the creating thread group, numbered per pid namespace on reads. */
	struct pid *owner;
	u64 id;
	/* Set at the move to RTR: idle QPs cost no per-CPU memory. */
	struct rocectl_qp_pcpu __percpu *stats;
	/* Bit 0: a modify hook took it on itself to set stats. */
	unsigned long stats_claim;
	bool counts;			/* the module counts this QP's packets */
	/* info.dest_qpn, for the packet path: finds a loopback packet's sender. */
	u32 peer_qpn;
	/* Packet path PSN state (each direction is serialized by the driver). */
	u32 tx_next_psn;
	u32 rx_next_psn;
	bool tx_psn_valid;
	bool rx_psn_valid;
	/* qp_congestion tracepoint: events since the last one, and when. */
	atomic_t cong[ROCECTL_CONG_NR];
	unsigned long cong_next;
	struct rcu_head rcu;
};

/*
 * The address of the driver's own QP object around qp, rdma_rxe's struct
 * rxe_qp (compat.h): a key compared with what rdma_rxe hands the packet
 * path, never dereferenced.
 */
static inline unsigned long rocectl_qp_drv_key(const struct ib_qp *qp)
{
	return (unsigned long)qp - ROCECTL_RXE_IBQP_OFFSET;
}

/* What a port is, read on demand from ib_core. */
struct rocectl_port_info {
	u8 state;
	u8 phys_state;
	u8 link_layer;
	u32 roce;
	u32 gid_types;
	u32 active_mtu;
	u32 max_mtu;
	int netdev_ifindex;
	char netdev_name[IFNAMSIZ];
	/* Its netdev is in another network namespace than the initial one. */
	bool netdev_other_ns;
};

/*
 * pool.c: objects the QP hooks take instead of allocating. Large enough
 * for a burst of QP creates or moves to RTR between two refills.
 */
#define ROCECTL_POOL_SIZE 64

struct rocectl_pool {
	void *slot[ROCECTL_POOL_SIZE];	/* NULL: taken */
	void *(*alloc)(gfp_t gfp);
	void (*free)(void *obj);
	struct irq_work kick;
	struct work_struct refill;
};

int rocectl_pool_init(struct rocectl_pool *p, void *(*alloc)(gfp_t gfp),
		      void (*free)(void *obj));
void rocectl_pool_exit(struct rocectl_pool *p);
void *rocectl_pool_take(struct rocectl_pool *p);

/* devices.c: the registry. Lookups and iteration need rocectl_devs_lock. */
extern struct mutex rocectl_devs_lock;

/* The device's name, under rcu_read_lock() or rocectl_devs_lock. */
#define rocectl_dev_name(rdev)						\
	(rcu_dereference_check((rdev)->name,				\
			       lockdep_is_held(&rocectl_devs_lock))->s)

extern unsigned int rocectl_devs_gen;
int rocectl_devices_init(void);
void rocectl_devices_exit(void);
struct rocectl_dev *rocectl_dev_by_index(u32 index);
struct rocectl_dev *rocectl_dev_by_name(const char *name);
struct rocectl_dev *rocectl_dev_next(unsigned long *index);
u32 rocectl_dev_driver(const struct rocectl_dev *rdev);
const char *rocectl_dev_driver_name(const struct rocectl_dev *rdev);
int rocectl_port_query(struct ib_device *ibdev, u32 port,
		       struct rocectl_port_info *pi);
struct rocectl_dev *rocectl_dev_lookup_rcu(u32 index);
struct rocectl_dev *rocectl_dev_by_netdev_rcu(int ifindex);

/* qps.c: the QP table of each device. */
extern atomic_t rocectl_qps_gen;
void rocectl_qp_created(struct ib_qp *qp, const char *kern_name, bool scan);
void rocectl_qp_modified(struct ib_qp *qp, const struct ib_qp_attr *attr,
			 int mask);
void rocectl_qp_first_modify(struct ib_qp *qp, const struct ib_qp_attr *attr,
			     int mask);
struct rocectl_qp *rocectl_qp_find_rcu(struct rocectl_dev *rdev, u32 qpn);
struct rocectl_qp *rocectl_qp_by_drv_rcu(struct rocectl_dev *rdev,
					 unsigned long key);
void rocectl_qp_destroyed(u32 dev_index, u32 qpn, const struct ib_qp *qp,
			  u64 id);
void rocectl_qps_scan(struct rocectl_dev *rdev);
int rocectl_qps_init(void);
void rocectl_qps_exit(void);
void rocectl_qps_drain(struct rocectl_dev *rdev);
void rocectl_qps_mark_incomplete(void);
void rocectl_qp_snapshot(struct rocectl_qp *e, struct rocectl_qp_info *info,
			 u64 *stats);
pid_t rocectl_qp_reader_pid(const struct rocectl_qp *e);
void rocectl_qp_stats_alloc(struct rocectl_qp *e, gfp_t gfp);
u64 rocectl_qp_modifying(struct ib_qp *qp, const struct ib_qp_attr *attr,
			 int mask);
void rocectl_qp_stats_owed(struct ib_qp *qp, u64 id);

/* The packet path counts a QP once its counters exist. */
static inline bool rocectl_qp_stats_ready(const struct rocectl_qp *e)
{
	return READ_ONCE(e->stats);
}

void rocectl_qp_count(struct rocectl_qp *e, int stat, u64 n);
void rocectl_qp_count_pkt(struct rocectl_qp *e, int pkts, int bytes, u64 len);
void rocectl_qp_congestion(struct rocectl_dev *rdev, struct rocectl_qp *e,
			   enum rocectl_cong kind);

/*
 * The benchmarks also build a floor (ROCECTL_PROBE_FLOOR=y): every probe
 * registered as usual with a handler that does nothing (set where the
 * probes are registered), to tell what the kernel's probe mechanism costs
 * from what rocectl's handlers add. Never for production.
 */
#ifdef ROCECTL_PROBE_FLOOR
#define ROCECTL_HANDLE_PROBES	false
#else
#define ROCECTL_HANDLE_PROBES	true
#endif

/* dev_counters.c: what no live QP's counters hold. */
void rocectl_dev_unattributed(struct rocectl_dev *rdev, bool tx, u64 payload,
			      bool ce);
void rocectl_dev_qp_gone(struct rocectl_dev *rdev, const u64 *stats);
void rocectl_dev_counters_read(const struct rocectl_dev *rdev, u64 *gone,
			       u64 *unattributed);
void rocectl_pkt_unseen_add(u64 n);
u64 rocectl_pkt_unseen_read(void);

static inline void rocectl_pkt_unseen(void)
{
	rocectl_pkt_unseen_add(1);
}

/* pkt_account.c: a parsed packet into its QP's counters, under RCU. */
struct rocectl_bth;
struct sk_buff;
void rocectl_pkt_rx(struct rocectl_dev *rdev, const struct rocectl_bth *b,
		    bool ce);
void rocectl_pkt_tx(struct rocectl_dev *rdev, struct rocectl_qp *sender,
		    const struct rocectl_bth *b);
struct rocectl_qp *rocectl_pkt_sender_rcu(struct rocectl_dev *rdev,
					  const struct sk_buff *skb,
					  const struct rocectl_bth *b);

/*
 * nf_hooks.c: the soft-RoCE wire path, netfilter hooks in the initial
 * network namespace (where rdma_rxe's sockets are). Without netfilter in
 * the kernel, arming says so and wire packets are not counted.
 */
#if IS_ENABLED(CONFIG_NETFILTER)
int rocectl_nf_hooks_arm(void);
void rocectl_nf_hooks_disarm(void);
#else
static inline int rocectl_nf_hooks_arm(void)
{
	return -EOPNOTSUPP;
}

static inline void rocectl_nf_hooks_disarm(void)
{
}
#endif

/* qp_hooks.c: kretprobes on ib_core's QP verbs. */
int rocectl_qp_hooks_init(void);
void rocectl_qp_hooks_exit(void);
u64 rocectl_qp_hooks_missed(void);
void rocectl_qp_hooks_check(void);

/*
 * rxe_hooks.c: the soft-RoCE packet path, while rdma_rxe is loaded: the
 * netfilter hooks and a probe for loopback, which bypasses IP.
 */
int rocectl_rxe_hooks_init(void);
void rocectl_rxe_hooks_exit(void);
u64 rocectl_rxe_missed(void);

/* netlink.c: the generic netlink family. */
int rocectl_nl_init(void);
bool rocectl_nl_has_listeners(void);
void rocectl_nl_multicast(struct sk_buff *skb);
void rocectl_nl_exit(void);
void rocectl_nl_notify_dev(const struct rocectl_dev *rdev, u8 cmd,
			   const char *prev_name);
void rocectl_nl_notify_qp(const struct rocectl_dev *rdev,
			  const struct rocectl_qp_info *info, const u64 *stats,
			  u8 cmd, int prev_state, u64 lifetime);
int rocectl_nl_put_stats(struct sk_buff *skb, int attr, const u64 *stats);
struct rocectl_dev *rocectl_nl_find_dev(struct nlattr **attrs,
					struct netlink_ext_ack *extack);
extern struct genl_family rocectl_genl_family;

/* watchdog.c: the PFC storm watchdog. */
int rocectl_wd_init(void);
void rocectl_wd_exit(void);

/* Set an extack message and point it at the attribute it is about. */
#define ROCECTL_ERR_ATTR(extack, attr, msg) do {		\
	struct netlink_ext_ack *__ext = (extack);		\
								\
	NL_SET_ERR_MSG_MOD(__ext, msg);				\
	NL_SET_BAD_ATTR(__ext, attr);				\
} while (0)

#endif /* _ROCECTL_H */
