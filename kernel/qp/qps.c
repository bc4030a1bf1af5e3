// SPDX-License-Identifier: GPL-2.0
/*
 * The QP table: one entry per QP of every device, from create to destroy,
 * keyed by (device, QPN). Writers are the QP hooks (process context,
 * preemption off) and device removal; readers are netlink (RCU and the
 * entry's lock) and the packet path (RCU only).
 */
#include <linux/cgroup.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <rdma/ib_cache.h>
#include <rdma/restrack.h>
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "pool.h"
#include "qp_departed.h"
#include "qp_errors.h"
#include "qp_prio.h"
#include "qp_retired.h"
#include "qp_stats.h"
#include "qp_type.h"
#include "qps.h"
#include "trace.h"

/* Bumped on every insert and removal so that dumps can flag NLM_F_DUMP_INTR. */
atomic_t rocectl_qps_gen = ATOMIC_INIT(0);
static atomic64_t rocectl_qp_ids = ATOMIC64_INIT(0);
/* Who hears of QPs, given at init: the table knows no netlink. */
static const struct rocectl_qp_listener *rocectl_qp_listener;

/*
 * QP entries: thousands on a host, one size, from a cache of their own
 * ("rocectl_qp" in /proc/slabinfo; fault injection can aim at it alone).
 */
static struct kmem_cache *rocectl_qp_cache;

/*
 * What the QP hooks take rather than allocate (pool.c): entries for the
 * create hooks, per-CPU counters for the modify hook's entry handler.
 */
static struct rocectl_pool rocectl_qp_pool;
static struct rocectl_pool rocectl_stats_pool;

static void *rocectl_qp_new(gfp_t gfp)
{
	return kmem_cache_zalloc(rocectl_qp_cache, gfp);
}

static void rocectl_qp_del(void *e)
{
	kmem_cache_free(rocectl_qp_cache, e);
}

static struct rocectl_qp_pcpu __percpu *rocectl_stats_new_pcpu(gfp_t gfp)
{
	struct rocectl_qp_pcpu __percpu *pc;
	int cpu;

	pc = alloc_percpu_gfp(struct rocectl_qp_pcpu, gfp);
	if (pc)
		for_each_possible_cpu(cpu)
			u64_stats_init(&per_cpu_ptr(pc, cpu)->syncp);
	return pc;
}

/* The pool holds per-CPU pointers as plain ones. */
static void *rocectl_stats_new(gfp_t gfp)
{
	return rocectl_pcpu_to_plain(rocectl_stats_new_pcpu(gfp));
}

static void rocectl_stats_del(void *pc)
{
	free_percpu(rocectl_plain_to_pcpu(struct rocectl_qp_pcpu, pc));
}

static void rocectl_qp_sum(const struct rocectl_qp *e, u64 *stats);

/* Its last record, for the walks that sum QPs over time (wd_blast.c). */
static void rocectl_qp_departed(const struct rocectl_qp *e, const u64 *stats)
{
	struct rocectl_qp_departed r = {
		.id = e->id,
		.tx_bytes = stats[ROCECTL_A_QP_STAT_TX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS],
		.rx_bytes = stats[ROCECTL_A_QP_STAT_RX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS],
		.pid = e->owner ? pid_nr(e->owner) : 0,
		.cgroup = e->info.cgroup,
		.has_path = e->info.has_path,
		.tclass = e->info.tclass,
		.sl = e->info.sl,
		.blast_walk = READ_ONCE(e->blast_walk),
	};

	strscpy(r.comm, e->info.comm, sizeof(r.comm));
	rocectl_departed_add(&e->rdev->departed, &r);
}

/* No packet-path reader can hold it now: its counts are final. */
static void rocectl_qp_free_rcu(struct rcu_head *rcu)
{
	struct rocectl_qp *e = container_of(rcu, struct rocectl_qp, rcu);
	u64 stats[ROCECTL_QP_NSTATS];

	if (e->counts && e->stats) {
		rocectl_qp_sum(e, stats);
		rocectl_dev_qp_gone(e->rdev, stats);
		rocectl_retired_add(&e->rdev->retired, e->info.port,
				    e->info.comm, e->info.cgroup, e->owner,
				    stats);
		rocectl_qp_departed(e, stats);
	}
	free_percpu(e->stats);
	put_pid(e->owner);
	kmem_cache_free(rocectl_qp_cache, e);
}

void rocectl_qp_free(struct rocectl_qp *e)
{
	call_rcu(&e->rcu, rocectl_qp_free_rcu);
}

/*
 * A new entry. The create hooks allocate it atomically, which their
 * context allows (a return handler runs from the rethook trampoline in the
 * task's context, preemption off, never in NMI context); the pool is their
 * reserve when that fails. Taking from the pool first cost more: every
 * take is a refill later, by a work item.
 */
struct rocectl_qp *rocectl_qp_alloc(struct rocectl_dev *rdev, bool from_hook)
{
	struct rocectl_qp *e;

	e = kmem_cache_zalloc(rocectl_qp_cache, from_hook ?
			      GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL);
	if (!e && from_hook)
		e = rocectl_pool_take(&rocectl_qp_pool);
	if (!e)
		return NULL;
	spin_lock_init(&e->lock);
	e->id = atomic64_inc_return(&rocectl_qp_ids);
	e->cong_next = jiffies;
	e->counts = rdev->counts;
	e->rdev = rdev;
	return e;
}

/*
 * Any context a hook runs in: the task's css_set is read under RCU, and
 * cgroup_id() is the cgroup directory's kernfs id (its inode number on
 * 64-bit), which tells the tool the directory. The root cgroup is 0, as
 * for a kernel QP: a host's own processes name no workload.
 */
u64 rocectl_task_cgroup(struct task_struct *task)
{
	u64 id = 0;
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp;

	rcu_read_lock();
	cgrp = task_dfl_cgroup(task);
	if (cgroup_parent(cgrp))
		id = cgroup_id(cgrp);
	rcu_read_unlock();
#endif
	return id;
}

u64 rocectl_qp_id_last(void)
{
	return atomic64_read(&rocectl_qp_ids);
}

/*
 * An entry never inserted: nobody else can hold it, and it leaves no
 * record (destroyed QPs' groups and ring): its QP is not gone.
 */
void rocectl_qp_discard(struct rocectl_qp *e)
{
	free_percpu(e->stats);
	put_pid(e->owner);
	kmem_cache_free(rocectl_qp_cache, e);
}

/*
 * A QP's per-CPU counters, allocated when it is about to carry packets
 * (modified to RTR or a later sending state, or found so at load), never
 * in the packet path: a breakpoint kprobe's handler runs in NMI-like
 * context, where nothing may be allocated. Two callers racing keep one
 * allocation. Idle QPs (RESET, INIT) cost no per-CPU memory. Process
 * context, or a hook's return handler (see rocectl_qp_alloc()).
 */
void rocectl_qp_stats_alloc(struct rocectl_qp *e, gfp_t gfp)
{
	struct rocectl_qp_pcpu __percpu *pc;

	if (!e->counts || READ_ONCE(e->stats))
		return;
	pc = rocectl_stats_new_pcpu(gfp);
	if (!pc) {
		pr_warn_ratelimited("QP %u: no memory for counters\n", e->info.qpn);
		return;
	}
	if (cmpxchg(&e->stats, NULL, pc))
		free_percpu(pc);
}

/* The entry of a QP ib_core holds, by its device and QPN: under RCU. */
static struct rocectl_qp *rocectl_qp_of_rcu(const struct ib_qp *qp)
{
	struct rocectl_dev *rdev = rocectl_dev_lookup_rcu(qp->device->index);

	return rdev ? rocectl_qp_find_rcu(rdev, qp->qp_num) : NULL;
}

/*
 * From the modify hook's entry handler, before the driver moves the QP,
 * so that counting starts at RTR: counters from the pool for a QP about to
 * carry packets. This handler may run in NMI context (a breakpoint probe):
 * no allocation, no lock. One caller claims the QP's counters; if the pool
 * ran dry it owes them, and returns the entry's id for its return handler
 * to allocate (rocectl_qp_stats_owed()). Else 0.
 */
u64 rocectl_qp_modifying(struct ib_qp *qp, const struct ib_qp_attr *attr,
			 int mask)
{
	struct rocectl_qp_pcpu __percpu *pc;
	struct rocectl_qp *e;
	u64 owed = 0;

	if (!(mask & IB_QP_STATE) || attr->qp_state < IB_QPS_RTR)
		return 0;
	qp = qp->real_qp;
	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	if (!e || e->ibqp != qp)
		goto out;
	/* The driver's own move to ERR inside this modify is the modify's. */
	if (attr->qp_state == IB_QPS_ERR)
		set_bit(ROCECTL_QP_MODIFYING_ERR, &e->stats_claim);
	if (attr->qp_state <= IB_QPS_SQE && e->counts && !READ_ONCE(e->stats) &&
	    !test_and_set_bit(0, &e->stats_claim)) {
		pc = rocectl_plain_to_pcpu(struct rocectl_qp_pcpu,
					   rocectl_pool_take(&rocectl_stats_pool));
		/* The take's xchg orders the refill's stores before this one. */
		if (pc)
			WRITE_ONCE(e->stats, pc);
		else
			owed = e->id;
	}
out:
	rcu_read_unlock();
	return owed;
}

/* Clear a bit of qp's entry's stats_claim, if qp has an entry. Any context. */
static void rocectl_qp_clear_claim(const struct ib_qp *qp, int bit)
{
	struct rocectl_qp *e;

	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	if (e && e->ibqp == qp)
		clear_bit(bit, &e->stats_claim);
	rcu_read_unlock();
}

/* From the modify hook's return handler, after a modify to ERR. */
void rocectl_qp_modify_done(struct ib_qp *qp)
{
	rocectl_qp_clear_claim(qp->real_qp, ROCECTL_QP_MODIFYING_ERR);
}

/*
 * From the modify hook's return handler, whatever the modify returned:
 * the counters its entry handler claimed and the pool could not give.
 */
void rocectl_qp_stats_owed(struct ib_qp *qp, u64 id)
{
	struct rocectl_qp *e;

	qp = qp->real_qp;
	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	if (e && e->id == id)
		rocectl_qp_stats_alloc(e, GFP_ATOMIC);
	rcu_read_unlock();
}

struct rocectl_qp *rocectl_qp_find_rcu(struct rocectl_dev *rdev, u32 qpn)
{
	return xa_load(&rdev->qps, qpn);
}

/* The entry whose driver QP is at key (rocectl_qp_drv_key()), if any. */
struct rocectl_qp *rocectl_qp_by_drv_rcu(struct rocectl_dev *rdev,
					 unsigned long key)
{
	struct rocectl_qp *e;

	hash_for_each_possible_rcu(rdev->by_drv, e, drv_node, key)
		if (rocectl_qp_drv_key(e->ibqp) == key)
			return e;
	return NULL;
}

/*
 * Counting takes this CPU's counters and keeps them for the update: the
 * wire path's transmit hook runs in rdma_rxe's process context, which
 * full preemption may move to another CPU between the two (losing an
 * update to that CPU's own). With preemption off, a softirq receive that
 * interrupts the update on this CPU is safe: on 64-bit each add is one
 * local64 operation, on 32-bit the seqcount section disables interrupts.
 */
void rocectl_qp_count(struct rocectl_qp *e, int stat, u64 n)
{
	struct rocectl_qp_pcpu *pc;
	unsigned long flags;

	preempt_disable();
	pc = this_cpu_ptr(e->stats);
	flags = u64_stats_update_begin_irqsave(&pc->syncp);
	u64_stats_add(&pc->c[stat], n);
	u64_stats_update_end_irqrestore(&pc->syncp, flags);
	preempt_enable();
}

/* The QP's counters summed over the CPUs; zero before it has any. */
static void rocectl_qp_sum(const struct rocectl_qp *e, u64 *stats)
{
	struct rocectl_qp_pcpu __percpu *stats_pcpu = READ_ONCE(e->stats);
	const struct rocectl_qp_pcpu *pc;
	u64 c[ROCECTL_QP_NSTATS];
	unsigned int start;
	int cpu, i;

	memset(stats, 0, sizeof(u64) * ROCECTL_QP_NSTATS);
	if (!stats_pcpu)
		return;
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(stats_pcpu, cpu);
		do {
			start = u64_stats_fetch_begin(&pc->syncp);
			for (i = 0; i < ROCECTL_QP_NSTATS; i++)
				c[i] = u64_stats_read(&pc->c[i]);
		} while (u64_stats_fetch_retry(&pc->syncp, start));
		for (i = 0; i < ROCECTL_QP_NSTATS; i++)
			stats[i] += c[i];
	}
}

void rocectl_qp_snapshot(struct rocectl_qp *e, struct rocectl_qp_info *info,
			 u64 *stats)
{
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	*info = e->info;
	spin_unlock_irqrestore(&e->lock, flags);
	info->sport_wire = READ_ONCE(e->tx_sport);

	if (stats)
		rocectl_qp_sum(e, stats);
}

/*
 * At most one qp_congestion event per QP every 100 ms, carrying the QP's
 * totals: a storm of CE marks cannot flood the trace buffer, and the
 * packet path keeps no shared count of its own for it (the per-CPU
 * counters hold them).
 */
void rocectl_qp_congestion(struct rocectl_dev *rdev, struct rocectl_qp *e)
{
	unsigned long next = READ_ONCE(e->cong_next);
	u64 stats[ROCECTL_QP_NSTATS];

	if (!trace_qp_congestion_enabled() || time_before(jiffies, next))
		return;
	if (cmpxchg(&e->cong_next, next, jiffies + HZ / 10) != next)
		return;
	rocectl_qp_sum(e, stats);
	trace_qp_congestion(rocectl_dev_name(rdev), e->info.qpn, stats);
}

static void rocectl_gid_copy(u8 *dst, const struct ib_gid_attr *ga)
{
	if (ga)
		memcpy(dst, ga->gid.raw, 16);
}

/*
 * rdma_rxe's own choice of a QP's UDP source port at creation, from its
 * QPN alone: what its UD and special QPs keep, and every QP before 5.18
 * (compat.h).
 */
static u16 rocectl_rxe_qpn_sport(u32 qpn)
{
	return IB_ROCE_UDP_ENCAP_VALID_PORT_MIN | hash_32(qpn, 14);
}

static bool rocectl_qp_connected(enum ib_qp_type type)
{
	return type == IB_QPT_RC || type == IB_QPT_UC ||
	       type == IB_QPT_XRC_INI || type == IB_QPT_XRC_TGT;
}

/*
 * The UDP source port the kernel's rule gives a connected RoCEv2 QP whose
 * path a modify sets (mlx5's and rdma_rxe's modify, compat.h): the flow
 * label, else the two QPNs folded -- rdma_get_udp_sport(), spelled with
 * its two halves, which every kernel from 5.10 has (it came in 5.18). 0
 * where it gives none: UD QPs take theirs from each address handle,
 * RoCEv1 and InfiniBand paths have no UDP header.
 */
static u16 rocectl_qp_sport_rule(const struct ib_qp *qp,
				 const struct rocectl_qp_info *in,
				 const struct rdma_ah_attr *ah)
{
	const struct ib_gid_attr *sgid = qp->av_sgid_attr;
	u32 fl;

	if (!rocectl_qp_connected(qp->qp_type) ||
	    !(rdma_ah_get_ah_flags(ah) & IB_AH_GRH) || !sgid ||
	    sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return 0;
	fl = rdma_ah_read_grh(ah)->flow_label;
	return rdma_flow_label_to_udp_sport(fl ?: rdma_calc_flow_label(in->qpn,
								     in->dest_qpn));
}

/* Fill what a QP's creation tells: who, what, when. */
static void rocectl_qp_fill_created(struct rocectl_qp *e, struct ib_qp *qp,
				    const char *kern_name)
{
	struct rocectl_qp_info *in = &e->info;

	/* The ABI numbers the generic types as the RDMA core does. */
	BUILD_BUG_ON(IB_QPT_GSI != (int)ROCECTL_QPT_GSI ||
		     IB_QPT_UD != (int)ROCECTL_QPT_UD ||
		     IB_QPT_RAW_PACKET != (int)ROCECTL_QPT_RAW_PACKET ||
		     IB_QPT_XRC_TGT != (int)ROCECTL_QPT_XRC_TGT ||
		     IB_QPT_DRIVER != (int)ROCECTL_QPT_DRIVER);
	e->ibqp = qp;
	in->qpn = qp->qp_num;
	in->type = rocectl_qp_type(qp->qp_type);
	in->state = IB_QPS_RESET;
	in->history = 0xfff0 | IB_QPS_RESET;
	in->port = qp->port;
	in->create_time = ktime_get_real_ns();
	in->state_time = in->create_time;
	if (qp->device->ops.driver_id == RDMA_DRIVER_RXE)
		in->sport_rule = rocectl_rxe_qpn_sport(qp->qp_num);
	if (kern_name) {
		in->kernel = 1;
		strscpy(in->comm, kern_name, sizeof(in->comm));
	} else {
		in->pid = task_tgid_nr(current);
		in->cgroup = rocectl_task_cgroup(current);
		e->owner = get_task_pid(current, PIDTYPE_TGID);
		/* Without the task's lock, as the scheduler's tracepoints read it. */
		strscpy(in->comm, current->comm, sizeof(in->comm));
	}
}

/* Out of the table: the caller holds the table's lock. */
static void rocectl_qp_unlink(struct rocectl_qp *e)
{
	if (e->counts)
		hash_del_rcu(&e->drv_node);
}

/* Insert e; a stale entry under the same QPN (destroyed, not yet seen) goes. */
bool rocectl_qp_insert(struct rocectl_dev *rdev, struct rocectl_qp *e,
		       bool replace)
{
	struct rocectl_qp *old = NULL;
	int err = 0;
	unsigned long flags;

	xa_lock_irqsave(&rdev->qps, flags);
	if (rdev->dead) {
		err = -ENODEV;
	} else if (replace) {
		old = __xa_store(&rdev->qps, e->info.qpn, e, GFP_ATOMIC);
		if (xa_is_err(old)) {
			err = xa_err(old);
			old = NULL;
		}
	} else {
		err = __xa_insert(&rdev->qps, e->info.qpn, e, GFP_ATOMIC);
	}
	if (old)
		rocectl_qp_unlink(old);
	if (!err && e->counts)
		hash_add_rcu(rdev->by_drv, &e->drv_node,
			     rocectl_qp_drv_key(e->ibqp));
	xa_unlock_irqrestore(&rdev->qps, flags);

	if (old)
		rocectl_qp_free(old);
	if (err)
		return false;
	atomic_inc(&rocectl_qps_gen);
	return true;
}

void rocectl_qp_created(struct ib_qp *qp, const char *kern_name, bool scan)
{
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;

	if (qp->real_qp != qp)		/* an XRC handle to a shared QP */
		return;

	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(qp->device->index);
	if (!rdev)
		goto out;
	e = rocectl_qp_alloc(rdev, true);
	if (!e) {
		pr_warn_ratelimited("%s: QP %u not tracked: out of memory\n",
				    rocectl_dev_name(rdev), qp->qp_num);
		goto out;
	}
	rocectl_qp_fill_created(e, qp, kern_name);
	if (!rocectl_qp_insert(rdev, e, !scan)) {
		rocectl_qp_discard(e);
		goto out;
	}
	if (!scan) {
		trace_qp_create(rocectl_dev_name(rdev), &e->info);
		rocectl_qp_notify(rdev, &e->info, NULL,
				  ROCECTL_CMD_QP_CREATE_NTF, -1, 0);
	}
out:
	rcu_read_unlock();
}

/*
 * Before 5.15 (compat.h), from the modify hook's return handler: a user QP
 * moved out of RESET that rocectl has no entry for was created by uverbs
 * in this task, unseen; tracked from here on, with its create event.
 */
void rocectl_qp_first_modify(struct ib_qp *qp, const struct ib_qp_attr *attr,
			     int mask)
{
	struct rocectl_qp *e;
	bool known;

	if (!qp->uobject || qp->real_qp != qp || !(mask & IB_QP_STATE) ||
	    attr->qp_state != IB_QPS_INIT)
		return;
	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	known = e && e->ibqp == qp;
	rcu_read_unlock();
	if (!known)
		rocectl_qp_created(qp, NULL, false);
}

/* Copy what a successful modify set; the caller holds e->lock. */
static void rocectl_qp_apply(struct rocectl_qp *e, struct ib_qp *qp,
			     const struct ib_qp_attr *attr, int mask)
{
	struct rocectl_qp_info *in = &e->info;
	const struct ib_global_route *grh;

	if (mask & IB_QP_STATE) {
		if (attr->qp_state != in->state)
			in->history = in->history << 4 | (attr->qp_state & 0xf);
		/* A QP reset is a new life: its next failure is recorded. */
		if (attr->qp_state == IB_QPS_RESET) {
			in->failed = 0;
			clear_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim);
		}
		in->state = attr->qp_state;
		in->state_time = ktime_get_real_ns();
	}
	if (mask & IB_QP_PORT)
		in->port = attr->port_num;
	if (mask & IB_QP_DEST_QPN) {
		in->dest_qpn = attr->dest_qp_num;
		WRITE_ONCE(e->peer_qpn, attr->dest_qp_num);
	}
	if (mask & IB_QP_PATH_MTU)
		in->path_mtu = ib_mtu_enum_to_int(attr->path_mtu) > 0 ?
			       ib_mtu_enum_to_int(attr->path_mtu) : 0;
	if (mask & IB_QP_TIMEOUT)
		in->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		in->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		in->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_AV) {
		in->has_path = 1;
		in->sl = rdma_ah_get_sl(&attr->ah_attr);
		if (rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH) {
			grh = rdma_ah_read_grh(&attr->ah_attr);
			memcpy(in->dgid, grh->dgid.raw, 16);
			in->tclass = grh->traffic_class;
		}
		/* The core keeps the resolved source GID in av_sgid_attr. */
		rocectl_gid_copy(in->sgid, qp->av_sgid_attr);
		/* rdma_rxe before 5.18 keeps the port of its creation. */
		if (!ROCECTL_RXE_SPORT_BY_QPN ||
		    qp->device->ops.driver_id != RDMA_DRIVER_RXE)
			in->sport_rule = rocectl_qp_sport_rule(qp, in,
							       &attr->ah_attr) ?:
					 in->sport_rule;
	}
	/* The PSNs the packet path starts from. */
	if (mask & IB_QP_RQ_PSN) {
		WRITE_ONCE(e->rx_next_psn, attr->rq_psn & 0xffffff);
		WRITE_ONCE(e->rx_psn_valid, true);
	}
	if (mask & IB_QP_SQ_PSN) {
		WRITE_ONCE(e->tx_next_psn, attr->sq_psn & 0xffffff);
		WRITE_ONCE(e->tx_psn_valid, true);
	}
}

/* A failure's record: the QP as it is now, with its counters. */
static void rocectl_qp_record_failure(struct rocectl_dev *rdev,
				      struct rocectl_qp *e,
				      const struct rocectl_qp_info *info,
				      u8 cause)
{
	u64 stats[ROCECTL_QP_NSTATS];

	if (e->counts)
		rocectl_qp_sum(e, stats);
	rocectl_qp_errors_add(rdev, e->owner, e->id, info,
			      e->counts ? stats : NULL, cause);
}

/*
 * A hook saw qp's driver report a failure: claimed at once, in the hook's
 * own context (any: RCU, an atomic bit), so that the application's modify
 * to ERR, reacting to the error completion or event, is not taken for the
 * failure while the record is on its way (rocectl_qp_failed(), maybe from
 * a work). A driver's own move to ERR inside a modify to ERR (driver_move)
 * is the modify's: not claimed. False: nothing to record.
 */
bool rocectl_qp_fail_claim(const struct ib_qp *qp, bool driver_move)
{
	struct rocectl_qp *e;
	bool ret = false;

	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	/*
	 * A move the driver's error completion announced
	 * (rocectl_qp_fail_claim_cqe()) is the driver's, even inside the
	 * modify to ERR the application made on seeing that completion.
	 */
	if (e && e->ibqp == qp &&
	    (!driver_move ||
	     !test_bit(ROCECTL_QP_MODIFYING_ERR, &e->stats_claim) ||
	     test_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim))) {
		set_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim);
		ret = true;
	}
	rcu_read_unlock();
	return ret;
}

/*
 * The driver is posting an error completion, not a flush, for the QP
 * (dev_index, qpn). An RC QP goes to ERR on it (IBA's completion error
 * rule; soft-RoCE posts it, then moves the QP: rxe_hooks.c), so it is
 * claimed for the driver before the application can see the completion
 * and react with a modify to ERR of its own, which then is not taken for
 * the failure. The driver's move records it. Any context, NMI included
 * (a breakpoint probe): an RCU lookup and an atomic bit, nothing else.
 * Other types are left to their move: an error completion of a UD or UC
 * QP may leave it working.
 */
void rocectl_qp_fail_claim_cqe(u32 dev_index, u32 qpn)
{
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;

	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(dev_index);
	e = rdev ? rocectl_qp_find_rcu(rdev, qpn) : NULL;
	if (e && e->ibqp && READ_ONCE(e->info.type) == IB_QPT_RC)
		set_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim);
	rcu_read_unlock();
}

/* A claim whose record cannot be made (rocectl_qp_fail_claim()). */
void rocectl_qp_fail_unclaim(const struct ib_qp *qp)
{
	rocectl_qp_clear_claim(qp, ROCECTL_QP_FAIL_CLAIMED);
}

/* The qp_modify tracepoint, with the QP's priority read only when traced. */
void rocectl_qp_trace_modify(struct rocectl_dev *rdev,
			     const struct rocectl_qp_info *info, u8 prev)
{
	u8 prio, src;
	bool known;

	if (!trace_qp_modify_enabled())
		return;
	known = rocectl_qp_prio(rdev, info, &prio, &src);
	trace_qp_modify(rocectl_dev_name(rdev), info, prev, known ? prio : -1,
			known ? rocectl_prio_src_name(src) : "none");
}

/*
 * The kernel learnt that the QP (dev_index, qpn), qp by identity, failed
 * other than by a modify: an asynchronous event (the QP is in ERR by the
 * specification) or the driver's own move to ERR, claimed by the hook
 * (rocectl_qp_fail_claim()). One record per failure: none for a QP
 * recorded since its last RESET, nor for one in ERR unless the claim came
 * first (the application's modify to ERR, after the error completion or
 * the event, may reach here before the record). Process context
 * (qp_events.c defers the hooks' calls).
 */
void rocectl_qp_failed(u32 dev_index, u32 qpn, const struct ib_qp *qp,
		       u8 cause)
{
	struct rocectl_qp_info info;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	bool failed = false, claimed;
	u8 prev;
	unsigned long flags;

	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(dev_index);
	e = rdev ? rocectl_qp_find_rcu(rdev, qpn) : NULL;
	if (!e || e->ibqp != qp)
		goto out;
	spin_lock_irqsave(&e->lock, flags);
	prev = e->info.state;
	claimed = test_and_clear_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim);
	if (!e->info.failed && (claimed || prev != IB_QPS_ERR)) {
		failed = true;
		/* Reset since (a new life): recorded, the new life untouched. */
		if (prev != IB_QPS_RESET)
			e->info.failed = 1;
		if (prev != IB_QPS_ERR && prev != IB_QPS_RESET) {
			e->info.history = e->info.history << 4 | IB_QPS_ERR;
			e->info.state = IB_QPS_ERR;
			e->info.state_time = ktime_get_real_ns();
		}
	}
	info = e->info;
	spin_unlock_irqrestore(&e->lock, flags);
	if (!failed)
		goto out;
	info.sport_wire = READ_ONCE(e->tx_sport);
	if (info.state != prev)
		rocectl_qp_trace_modify(rdev, &info, prev);
	rocectl_qp_record_failure(rdev, e, &info, cause);
out:
	rcu_read_unlock();
}

void rocectl_qp_modified(struct ib_qp *qp, const struct ib_qp_attr *attr,
			 int mask)
{
	struct rocectl_qp_info info;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	bool failed = false;
	u8 prev;
	unsigned long flags;

	qp = qp->real_qp;
	rcu_read_lock();
	e = rocectl_qp_of_rcu(qp);
	if (!e || e->ibqp != qp)
		goto out;
	rdev = e->rdev;

	spin_lock_irqsave(&e->lock, flags);
	prev = e->info.state;
	rocectl_qp_apply(e, qp, attr, mask);
	/*
	 * One record per failure: not for a QP in ERR or recorded already,
	 * nor for one whose driver's failure is on its way to its record.
	 */
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_ERR &&
	    prev != IB_QPS_ERR && !e->info.failed &&
	    !test_bit(ROCECTL_QP_FAIL_CLAIMED, &e->stats_claim)) {
		e->info.failed = 1;
		failed = true;
	}
	info = e->info;
	spin_unlock_irqrestore(&e->lock, flags);
	info.sport_wire = READ_ONCE(e->tx_sport);

	if ((mask & IB_QP_STATE) && info.state != prev) {
		rocectl_qp_trace_modify(rdev, &info, prev);
		rocectl_qp_notify(rdev, &info, NULL,
				  ROCECTL_CMD_QP_MODIFY_NTF, prev, 0);
	}
	if (failed)
		rocectl_qp_record_failure(rdev, e, &info,
					  ROCECTL_QP_ERROR_CAUSE_MODIFY);
out:
	rcu_read_unlock();
}

/*
 * The QP is gone (and freed: only its numbers are left). id is the entry
 * seen before the destroy (0: none was); a QPN already reused by a new QP
 * must not lose its new entry.
 */
void rocectl_qp_destroyed(u32 dev_index, u32 qpn, const struct ib_qp *qp,
			  u64 id)
{
	u64 stats[ROCECTL_QP_NSTATS];
	struct rocectl_qp_info info;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	u64 lifetime;
	unsigned long flags;

	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(dev_index);
	if (!rdev)
		goto out;
	xa_lock_irqsave(&rdev->qps, flags);
	e = xa_load(&rdev->qps, qpn);
	if (e && (id ? e->id == id : e->ibqp == qp)) {
		__xa_erase(&rdev->qps, qpn);
		rocectl_qp_unlink(e);
	} else {
		e = NULL;
	}
	xa_unlock_irqrestore(&rdev->qps, flags);
	if (!e)
		goto out;
	atomic_inc(&rocectl_qps_gen);

	/* The snapshot, its counters summed, only for someone who reads it. */
	if (trace_qp_destroy_enabled() || rocectl_qp_listener->wanted()) {
		rocectl_qp_snapshot(e, &info, stats);
		lifetime = ktime_get_real_ns() - info.create_time;
		trace_qp_destroy(rocectl_dev_name(rdev), &info, stats, lifetime);
		rocectl_qp_notify(rdev, &info, e->counts ? stats : NULL,
				  ROCECTL_CMD_QP_DESTROY_NTF, -1, lifetime);
	}
	rocectl_qp_free(e);
out:
	rcu_read_unlock();
}

/* A QP found at load: what the driver says of it now. True if inserted. */
static bool rocectl_qp_adopt(struct rocectl_dev *rdev, struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct rocectl_qp *e;
	struct ib_qp_attr *attr;
	int mask = IB_QP_STATE | IB_QP_PORT | IB_QP_DEST_QPN | IB_QP_PATH_MTU |
		   IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
		   IB_QP_RQ_PSN | IB_QP_SQ_PSN;
	struct task_struct *task = qp->res.task;

	if (qp->real_qp != qp)
		return false;
	e = rocectl_qp_alloc(rdev, false);
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	if (!e || !attr)
		goto fail;

	rocectl_qp_fill_created(e, qp, qp->res.kern_name ? qp->res.kern_name : "kernel");
	/* The creator is not current: take it from resource tracking. */
	if (!qp->res.kern_name && task) {
		e->info.kernel = 0;
		e->info.pid = task_tgid_nr(task);
		e->info.cgroup = rocectl_task_cgroup(task);
		e->owner = get_task_pid(task, PIDTYPE_TGID);
		get_task_comm(e->info.comm, task);
	}
	if (!ib_query_qp(qp, attr, mask, &init)) {
		/* Only connected QPs have a path. */
		if (attr->qp_state >= IB_QPS_RTR &&
		    rocectl_qp_connected(qp->qp_type))
			mask |= IB_QP_AV;
		rocectl_qp_apply(e, qp, attr, mask);
		if (attr->qp_state >= IB_QPS_RTR && attr->qp_state <= IB_QPS_SQE)
			rocectl_qp_stats_alloc(e, GFP_KERNEL);
	}
	kfree(attr);
	if (rocectl_qp_insert(rdev, e, false))
		return true;
	rocectl_qp_discard(e);	/* created meanwhile: the hook has it */
	return false;
fail:
	kfree(attr);
	if (e)
		rocectl_qp_discard(e);
	return false;
}

/*
 * Adopt the QP resource tracking has under id. True if there was one that
 * counts against the total taken before the scan: adopted here, or tracked
 * by a hook before the scan began (entry ids up to id0). A QP a hook
 * tracked since may be one created after the total was taken: counting it
 * could end the scan before a QP that existed before it (QPNs are reused,
 * and firmware numbers QPs as it likes). Not counting one that was in the
 * total only makes the scan go on.
 */
static bool rocectl_qp_adopt_id(struct rocectl_dev *rdev, u32 id, u64 id0)
{
	struct rdma_restrack_entry *res;
	struct rocectl_qp *e;
	struct ib_qp *qp;
	bool counts;

	res = rdma_restrack_get_byid(rdev->ibdev, RDMA_RESTRACK_QP, id);
	if (IS_ERR(res))
		return false;
	qp = container_of(res, struct ib_qp, res);
	counts = rocectl_qp_adopt(rdev, qp);
	if (!counts) {
		rcu_read_lock();
		e = rocectl_qp_find_rcu(rdev, qp->qp_num);
		counts = !e || e->ibqp != qp || e->id <= id0;
		rcu_read_unlock();
	}
	rdma_restrack_put(res);
	return counts;
}

/*
 * Test-only: while set, the scan of a device's QPs waits first (60 s at
 * most), the hooks in, until a write clears it, so that a test creates
 * QPs the scan then finds tracked already (the race it loses to the
 * create hook, made to happen).
 */
static bool scan_hold;
module_param(scan_hold, bool, 0644);
MODULE_PARM_DESC(scan_hold,
		 "test-only: each device's QP scan waits until this is cleared (60 s at most)");

/*
 * QPs that existed before we did, from the device's client add callback.
 * Resource tracking indexes QPs by QPN, and the special QPs 0 and 1 of
 * each port by QPN | port << 24 (where the core knows their port at
 * creation: 5.10 does not, and indexes them 0 and 1). Stop once we found
 * as many as it counts (QPNs are 24 bits). Where its reference does not
 * keep a QP in memory (compat.h), only the special QPs: the device cannot
 * be unregistered, so they cannot be destroyed, while a client is added.
 */
static void rocectl_qps_scan(struct rocectl_dev *rdev)
{
	int total, found = 0;
	u32 port, id;
	u64 id0;

	if (READ_ONCE(scan_hold)) {
		unsigned long end = jiffies + 60 * HZ;

		rcu_read_lock();
		pr_info("%s: the QP scan waits for scan_hold\n",
			rocectl_dev_name(rdev));
		rcu_read_unlock();
		while (READ_ONCE(scan_hold) && time_before(jiffies, end))
			msleep(20);
	}
	id0 = atomic64_read(&rocectl_qp_ids);
	total = rocectl_restrack_count(rdev->ibdev, RDMA_RESTRACK_QP);
	rdma_for_each_port(rdev->ibdev, port) {
		found += rocectl_qp_adopt_id(rdev, port << 24, id0);
		found += rocectl_qp_adopt_id(rdev, port << 24 | 1, id0);
	}
	if (!ROCECTL_RESTRACK_HOLDS_QP) {
		if (found < total)
			found += rocectl_qp_adopt_id(rdev, 0, id0);
		if (found < total)
			found += rocectl_qp_adopt_id(rdev, 1, id0);
		if (found < total)
			pr_info_once("QPs that existed before rocectl loaded are not tracked before Linux 5.15, but for QPs 0 and 1: the RDMA core may free them under a reader\n");
		return;
	}
	for (id = 0; found < total && id < (1U << 24); id++) {
		found += rocectl_qp_adopt_id(rdev, id, id0);
		if (!(id % 4096))
			cond_resched();
	}
}

/* A device's live QPs marked incomplete, its DevX ones alone if devx. */
void rocectl_qps_mark_dev_incomplete(struct rocectl_dev *rdev, bool devx)
{
	struct rocectl_qp *e;
	unsigned long qpn, flags;

	rcu_read_lock();
	xa_for_each(&rdev->qps, qpn, e) {
		if (devx && !e->info.devx)
			continue;
		spin_lock_irqsave(&e->lock, flags);
		e->info.incomplete = 1;
		spin_unlock_irqrestore(&e->lock, flags);
	}
	rcu_read_unlock();
}

/*
 * A QP verb call went unseen (qp_hooks.c): every QP live now may be the
 * one whose create, modify or destroy it was. Marked, never guessed at.
 * Process context.
 */
void rocectl_qps_mark_incomplete(void)
{
	struct rocectl_dev *rdev;
	unsigned long index = 0;

	mutex_lock(&rocectl_devs_lock);
	while ((rdev = rocectl_dev_next(&index))) {
		rocectl_qps_mark_dev_incomplete(rdev, false);
		index++;
	}
	mutex_unlock(&rocectl_devs_lock);
}

/* The device goes: no new entry after this, every entry freed. */
static void rocectl_qps_drain(struct rocectl_dev *rdev)
{
	struct rocectl_qp *e;
	unsigned long qpn;
	unsigned long flags;

	xa_lock_irqsave(&rdev->qps, flags);
	rdev->dead = true;
	xa_for_each(&rdev->qps, qpn, e) {
		__xa_erase(&rdev->qps, qpn);
		rocectl_qp_unlink(e);
		rocectl_qp_free(e);
	}
	xa_unlock_irqrestore(&rdev->qps, flags);
	atomic_inc(&rocectl_qps_gen);
}

/*
 * The registry's devices: a counting device's stores of destroyed QPs
 * with it, its QPs found once it is published, its entries gone with it.
 */
static int rocectl_qps_dev_event(struct notifier_block *nb,
				 unsigned long event, void *data)
{
	struct rocectl_dev *rdev = ((struct rocectl_dev_change *)data)->rdev;

	switch (event) {
	case ROCECTL_DEV_NEW:
		if (rdev->counts && (rocectl_retired_init(&rdev->retired) ||
				     rocectl_departed_init(&rdev->departed)))
			return notifier_from_errno(-ENOMEM);
		break;
	case ROCECTL_DEV_LIVE:
		rocectl_qps_scan(rdev);
		break;
	case ROCECTL_DEV_REMOVED:
		rocectl_qps_drain(rdev);
		break;
	case ROCECTL_DEV_FREEING:
		rocectl_retired_free(&rdev->retired);
		rocectl_departed_free(&rdev->departed);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block rocectl_qps_dev_nb = {
	.notifier_call = rocectl_qps_dev_event,
};

/* A QP created, moved or destroyed (cmd: its event), to the listener. */
void rocectl_qp_notify(const struct rocectl_dev *rdev,
		       const struct rocectl_qp_info *info, const u64 *stats,
		       u8 cmd, int prev_state, u64 lifetime)
{
	rocectl_qp_listener->event(rdev, info, stats, cmd, prev_state, lifetime);
}

int __init rocectl_qps_init(const struct rocectl_qp_listener *l)
{
	int err;

	/*
	 * The benchmark's bound on kernel memory per tracked QP, on
	 * production kernels: lock debugging makes a spinlock_t far larger.
	 */
	BUILD_BUG_ON(!IS_ENABLED(CONFIG_DEBUG_SPINLOCK) &&
		     !IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC) &&
		     sizeof(struct rocectl_qp) > 256);
	rocectl_qp_cache = KMEM_CACHE(rocectl_qp, 0);
	if (!rocectl_qp_cache)
		return -ENOMEM;
	err = rocectl_pool_init(&rocectl_qp_pool, rocectl_qp_new, rocectl_qp_del);
	if (err)
		goto err_cache;
	err = rocectl_pool_init(&rocectl_stats_pool, rocectl_stats_new,
				rocectl_stats_del);
	if (err)
		goto err_pool;
	rocectl_qp_listener = l;
	/* Before the registry: the devices present at load are scanned too. */
	err = rocectl_dev_subscribe(&rocectl_qps_dev_nb);
	if (err)
		goto err_stats;
	return 0;

err_stats:
	rocectl_pool_exit(&rocectl_stats_pool);
err_pool:
	rocectl_pool_exit(&rocectl_qp_pool);
err_cache:
	kmem_cache_destroy(rocectl_qp_cache);
	return err;
}

/* After the hooks: nothing takes from the pools any more. */
void rocectl_qps_exit(void)
{
	rocectl_dev_unsubscribe(&rocectl_qps_dev_nb);
	rocectl_pool_exit(&rocectl_stats_pool);
	rocectl_pool_exit(&rocectl_qp_pool);
	rcu_barrier();	/* every entry's RCU free has run */
	kmem_cache_destroy(rocectl_qp_cache);
}
