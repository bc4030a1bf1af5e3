/* SPDX-License-Identifier: GPL-2.0 */
/* The QP table of each device (qps.c): tracked QPs, their counters. */
#ifndef _ROCECTL_QPS_H
#define _ROCECTL_QPS_H

#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <rdma/ib_verbs.h>
#include "qp_stats.h"

struct rocectl_dev;

/* Per-CPU counters of one QP: the packet path never shares a cache line. */
struct rocectl_qp_pcpu {
	u64_stats_t c[ROCECTL_QP_NSTATS];
	struct u64_stats_sync syncp;
};

/* What a QP is; copied out under rocectl_qp.lock. */
struct rocectl_qp_info {
	u32 qpn;
	u8 type;
	u8 state;
	/* Flags in bits: the entry stays within its 224 bytes. */
	u8 kernel:1;
	u8 has_path:1;		/* the fields from RTR on are valid */
	u8 incomplete:1;	/* a QP verb was missed while it lived */
	u8 failed:1;		/* recorded as failed (qp_errors.c) until RESET */
	u8 devx:1;		/* made by DevX commands (qp_devx.c): no ib_qp */
	u8 tclass;
	u8 sl;
	u8 timeout;
	u8 retry_cnt:4;		/* 3 bits in IBA */
	u8 rnr_retry:4;
	u8 counter_set;		/* DevX: the context's counter_set_id */
	/* UDP source port: the kernel's rule for it, the last one sent; 0 unknown */
	u16 sport_rule;
	u16 sport_wire;
	u32 port;
	u32 dest_qpn;
	u16 path_mtu;		/* bytes, 4096 at most: a u16 keeps the entry small */
	/* The last four states, 4 bits each, the newest low (0xf: none). */
	u16 history;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u64 create_time;
	u64 state_time;
	/* The creating task's cgroup (v2) id: kept, as pid and comm are; 0 none. */
	u64 cgroup;
	u8 sgid[16];
	u8 dgid[16];
};

/* One tracked QP, keyed by (device, QPN). */
struct rocectl_qp {
	spinlock_t lock;		/* info */
	/* info.dest_qpn, for the packet path: finds a loopback packet's sender. */
	u32 peer_qpn;
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
	/*
	 * Bit 0: a modify hook took it on itself to set stats. Bit 1
	 * (ROCECTL_QP_MODIFYING_ERR): a modify to ERR is in the driver.
	 * Bit 2 (ROCECTL_QP_FAIL_CLAIMED): a hook saw the driver report a
	 * failure, whose record (rocectl_qp_failed()) is on its way.
	 */
	unsigned long stats_claim;
	/* Packet path PSN state (each direction is serialized by the driver). */
	u32 tx_next_psn;
	u32 rx_next_psn;
	/* The UDP source port of its last packet sent (host order; 0: none). */
	u16 tx_sport;
	bool counts;			/* the module counts this QP's packets */
	bool tx_psn_valid;
	bool rx_psn_valid;
	/* The last storm detection's walk that met it (wd_blast.c); 0 none. */
	u64 blast_walk;
	/* When the next qp_congestion event may fire. */
	unsigned long cong_next;
	struct rcu_head rcu;
};

#define ROCECTL_QP_MODIFYING_ERR 1
#define ROCECTL_QP_FAIL_CLAIMED 2

/*
 * The address of the driver's own QP object around qp, rdma_rxe's struct
 * rxe_qp (compat.h): a key compared with what rdma_rxe hands the packet
 * path, never dereferenced.
 */
static inline unsigned long rocectl_qp_drv_key(const struct ib_qp *qp)
{
	return (unsigned long)qp - ROCECTL_RXE_IBQP_OFFSET;
}

extern atomic_t rocectl_qps_gen;
struct rocectl_qp *rocectl_qp_alloc(struct rocectl_dev *rdev, bool from_hook);
/* A task's cgroup (v2) id, as cgroupfs numbers its directory; 0 none. */
u64 rocectl_task_cgroup(struct task_struct *task);
/* The id of the entry made last: those made after have a greater one. */
u64 rocectl_qp_id_last(void);
void rocectl_qp_discard(struct rocectl_qp *e);
bool rocectl_qp_insert(struct rocectl_dev *rdev, struct rocectl_qp *e,
		       bool replace);
void rocectl_qp_free(struct rocectl_qp *e);
void rocectl_qp_trace_modify(struct rocectl_dev *rdev,
			     const struct rocectl_qp_info *info, u8 prev);
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
/*
 * Who hears of QPs created, moved and destroyed (cmd: the event's
 * ROCECTL_CMD_QP_*_NTF), given at init: netlink's QP events
 * (qp_netlink.c). wanted() says whether anyone would hear, to spare a
 * destroyed QP's snapshot. Any context the QP hooks run in.
 */
struct rocectl_qp_listener {
	void (*event)(const struct rocectl_dev *rdev,
		      const struct rocectl_qp_info *info, const u64 *stats,
		      u8 cmd, int prev_state, u64 lifetime);
	bool (*wanted)(void);
};

int rocectl_qps_init(const struct rocectl_qp_listener *l);
void rocectl_qps_exit(void);
void rocectl_qp_notify(const struct rocectl_dev *rdev,
		       const struct rocectl_qp_info *info, const u64 *stats,
		       u8 cmd, int prev_state, u64 lifetime);
void rocectl_qps_mark_incomplete(void);
void rocectl_qps_mark_dev_incomplete(struct rocectl_dev *rdev, bool devx);
void rocectl_qp_snapshot(struct rocectl_qp *e, struct rocectl_qp_info *info,
			 u64 *stats);
void rocectl_qp_stats_alloc(struct rocectl_qp *e, gfp_t gfp);
u64 rocectl_qp_modifying(struct ib_qp *qp, const struct ib_qp_attr *attr,
			 int mask);
void rocectl_qp_stats_owed(struct ib_qp *qp, u64 id);
void rocectl_qp_modify_done(struct ib_qp *qp);
bool rocectl_qp_fail_claim(const struct ib_qp *qp, bool driver_move);
void rocectl_qp_fail_claim_cqe(u32 dev_index, u32 qpn);
void rocectl_qp_fail_unclaim(const struct ib_qp *qp);
void rocectl_qp_failed(u32 dev_index, u32 qpn, const struct ib_qp *qp,
		       u8 cause);

/* The packet path counts a QP once its counters exist. */
static inline bool rocectl_qp_stats_ready(const struct rocectl_qp *e)
{
	return READ_ONCE(e->stats);
}

void rocectl_qp_count(struct rocectl_qp *e, int stat, u64 n);

/*
 * A packet and its bytes in one update: the common case of the packet
 * path, inline there (once or twice a packet). Preemption as in
 * rocectl_qp_count().
 */
static inline void rocectl_qp_count_pkt(struct rocectl_qp *e, int pkts,
					int bytes, u64 len)
{
	struct rocectl_qp_pcpu *pc;
	unsigned long flags;

	preempt_disable();
	pc = this_cpu_ptr(e->stats);
	flags = u64_stats_update_begin_irqsave(&pc->syncp);
	u64_stats_inc(&pc->c[pkts]);
	u64_stats_add(&pc->c[bytes], len);
	u64_stats_update_end_irqrestore(&pc->syncp, flags);
	preempt_enable();
}

void rocectl_qp_congestion(struct rocectl_dev *rdev, struct rocectl_qp *e);

#endif /* _ROCECTL_QPS_H */
