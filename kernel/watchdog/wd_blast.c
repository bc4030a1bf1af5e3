// SPDX-License-Identifier: GPL-2.0
/*
 * A storm's blast radius. The watchdog polls from a work item under
 * rtnl_lock (process context). At the detection, once the action is
 * taken, the QP table of the RDMA device whose port is the stormed netdev
 * is walked: the QPs whose priority (qp_prio.c, the netdev's mapping read
 * once) is the stormed one are grouped by process into the priority's
 * fixed table, allocated once at its first storm, and their bytes in the
 * paused direction noted. While the storm lasts the table is walked again
 * at most once a ROCECTL_WD_BLAST_WALK_MS, and at the restore: bytes
 * during the storm are now minus then, per process. Readers (WD_GET) get
 * the last walk's result and never walk.
 *
 * Walks go a chunk of QPs at a time under RCU and reschedule between
 * chunks: a host's thousands of QPs hold no CPU for long.
 *
 * The detection's walk stamps the QPs it groups (blast_walk). A QP it
 * did not stamp counts as one created during the storm, from its first
 * byte: one created since (an id past the detection's), or one that had
 * no path then (INIT, no priority, no bytes) and connected since. QPs
 * destroyed during the storm count too: on a counting device each
 * destroyed QP leaves a record with its final bytes and its stamp
 * (qp_departed.c), read at each poll while the storm lasts. Records are
 * read only between walks: a QP a walk saw alive and whose record is
 * read later is not seen by the next walk, so no QP counts twice.
 */
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "devices/devices.h"
#include "qp/qp_departed.h"
#include "qp/qp_prio.h"
#include "qp/qps.h"
#include "watchdog.h"
#include "wd_blast.h"

#define TX_BYTES (ROCECTL_A_QP_STAT_TX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS)
#define RX_BYTES (ROCECTL_A_QP_STAT_RX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS)

/* QPs walked between two reschedules. */
#define ROCECTL_WD_BLAST_CHUNK	256

/*
 * The detections' walks, under rtnl_lock, from 1: a stamp 0 is an entry
 * never walked. 64 bits never wrap, so a stamp below a detection's walk
 * is one from before it, however many storms there were.
 */
static u64 rocectl_wd_blast_walks;

/*
 * Test-only: N written counts N more detections' walks, as if that many
 * storms had been detected, so that a test reaches counts a host takes
 * years of storms to reach.
 */
static int rocectl_wd_blast_skip_set(const char *val,
				     const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	rtnl_lock();
	rocectl_wd_blast_walks += n;
	rtnl_unlock();
	return 0;
}

static const struct kernel_param_ops rocectl_wd_blast_skip_ops = {
	.set = rocectl_wd_blast_skip_set,
};

module_param_cb(blast_walks_skip, &rocectl_wd_blast_skip_ops, NULL, 0200);
MODULE_PARM_DESC(blast_walks_skip,
		 "test-only: N written counts N more storm detections' walks without storms");

/*
 * Bytes in the paused direction: a received-pause storm freezes what we
 * send; in a sent-pause storm we are the slow receiver, and the QPs
 * receiving most are the likely cause.
 */
static u64 rocectl_wd_blast_bytes(u64 tx_bytes, u64 rx_bytes, int dir)
{
	return dir == ROCECTL_WD_DIR_TX ? rx_bytes : tx_bytes;
}

static struct rocectl_wd_blast_proc *
rocectl_wd_blast_find(struct rocectl_wd_blast *b, pid_t pid, const char *comm)
{
	u32 i;

	for (i = 0; i < b->n; i++)
		if (b->p[i].pid == pid &&
		    (pid || !strncmp(b->p[i].comm, comm, TASK_COMM_LEN)))
			return &b->p[i];
	return NULL;
}

/* A process met for the first time, or NULL past the table. */
static struct rocectl_wd_blast_proc *
rocectl_wd_blast_add(struct rocectl_wd_blast *b, pid_t pid, const char *comm,
		     u64 cgroup)
{
	struct rocectl_wd_blast_proc *pp;

	if (b->n >= ROCECTL_WD_BLAST_TRACK)
		return NULL;
	pp = &b->p[b->n++];
	memset(pp, 0, sizeof(*pp));
	pp->pid = pid;
	pp->cgroup = cgroup;
	strscpy(pp->comm, comm, sizeof(pp->comm));
	return pp;
}

/* One QP on the stormed priority, met by a walk. */
static void rocectl_wd_blast_qp(struct rocectl_wd_blast *b, bool detect,
				struct rocectl_qp *e, pid_t pid,
				const struct rocectl_qp_info *info, u64 bytes,
				u32 *over)
{
	const char *comm = info->comm;
	struct rocectl_wd_blast_proc *pp = rocectl_wd_blast_find(b, pid, comm);

	if (detect) {
		WRITE_ONCE(e->blast_walk, b->walk);
		b->qps_base++;
		if (!pp)
			pp = rocectl_wd_blast_add(b, pid, comm, info->cgroup);
		if (!pp) {
			b->procs_over++;	/* an upper bound past the table */
			return;
		}
		pp->qps_base++;
		pp->base += bytes;
		return;
	}
	/* Not in the detection's base: created or connected since. */
	if (e->id > b->id_mark || READ_ONCE(e->blast_walk) < b->walk) {
		if (!pp)
			pp = rocectl_wd_blast_add(b, pid, comm, info->cgroup);
		b->qps++;
		if (!pp) {
			(*over)++;
			return;
		}
		pp->qps++;
	}
	if (pp)
		pp->now += bytes;
}

/*
 * The QPs of the device over the watch's netdev whose traffic maps to
 * prio: grouped at the detection, their bytes summed again after.
 */
static void rocectl_wd_blast_walk(struct rocectl_wd *w, int dir, int prio,
				  struct rocectl_wd_blast *b, bool detect)
{
	u64 stats[ROCECTL_QP_NSTATS];
	struct rocectl_qp_info info;
	struct rocectl_prio_map m;
	unsigned long qpn, next = 0;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	u32 i, seen, over = 0;
	u8 src;

	ASSERT_RTNL();
	for (i = 0; i < b->n; i++) {
		b->p[i].now = b->p[i].gone;
		b->p[i].qps = b->p[i].qps_base + b->p[i].qps_gone;
	}
	b->qps = b->qps_base + b->qps_gone;
	b->walked = jiffies;
	if (!w->ndev)
		goto out;
	rocectl_prio_map_read(w->ndev, &m);
	do {
		seen = 0;
		rcu_read_lock();
		rdev = rocectl_dev_by_port_netdev_rcu(w->ndev);
		if (!rdev) {
			rcu_read_unlock();
			break;
		}
		/* Hardware devices' QPs are named, their bytes are the NIC's own. */
		if (detect && !next)
			b->counted = rdev->counts;
		xa_for_each_start(&rdev->qps, qpn, e, next) {
			if (seen++ == ROCECTL_WD_BLAST_CHUNK)
				break;
			rocectl_qp_snapshot(e, &info, stats);
			if (!info.has_path ||
			    rocectl_prio_of(&m, info.tclass, info.sl, &src) != prio)
				continue;
			rocectl_wd_blast_qp(b, detect, e,
					    e->owner ? pid_nr(e->owner) : 0,
					    &info,
					    rocectl_wd_blast_bytes(stats[TX_BYTES],
								   stats[RX_BYTES], dir),
					    &over);
		}
		rcu_read_unlock();
		next = qpn;	/* where the next chunk starts, if one does */
		cond_resched();
	} while (seen > ROCECTL_WD_BLAST_CHUNK);
out:
	if (detect) {
		for (i = 0; i < b->n; i++) {
			b->p[i].qps = b->p[i].qps_base;
			b->p[i].now = b->p[i].base;
		}
		b->qps = b->qps_base;
	}
	b->procs = b->n + b->procs_over + b->over_gone + over;
}

/* One destroyed QP's record: its final bytes, if it was the storm's. */
static void rocectl_wd_blast_fold(struct rocectl_wd_blast *b, int dir, int prio,
				  const struct rocectl_prio_map *m,
				  const struct rocectl_qp_departed *r)
{
	struct rocectl_wd_blast_proc *pp;
	u64 bytes;
	u8 src;

	if (!r->has_path || rocectl_prio_of(m, r->tclass, r->sl, &src) != prio)
		return;
	bytes = rocectl_wd_blast_bytes(r->tx_bytes, r->rx_bytes, dir);
	pp = rocectl_wd_blast_find(b, r->pid, r->comm);
	if (r->id > b->id_mark || r->blast_walk < b->walk) {
		if (!pp)
			pp = rocectl_wd_blast_add(b, r->pid, r->comm, r->cgroup);
		b->qps_gone++;
		if (!pp) {
			b->over_gone++;
			return;
		}
		pp->qps_gone++;
		pp->gone += bytes;
	} else if (pp) {
		pp->gone += bytes;	/* its bytes then are in the base */
	}
}

/* The device's QPs destroyed since the last read, folded in. */
static void rocectl_wd_blast_departed(struct rocectl_wd *w, int dir, int prio,
				      struct rocectl_wd_blast *b)
{
	struct rocectl_qp_departed r[4];
	struct rocectl_prio_map m;
	struct rocectl_dev *rdev;
	bool mapped = false;
	unsigned int i, n;

	if (!w->ndev || !b->counted)
		return;
	rcu_read_lock();
	rdev = rocectl_dev_by_port_netdev_rcu(w->ndev);
	while (rdev && rdev->counts &&
	       (n = rocectl_departed_read(&rdev->departed, &b->departed_at,
					  r, ARRAY_SIZE(r), &b->lost))) {
		/* Most polls find none: the DCB tables read only for some. */
		if (!mapped)
			rocectl_prio_map_read(w->ndev, &m);
		mapped = true;
		for (i = 0; i < n; i++)
			rocectl_wd_blast_fold(b, dir, prio, &m, &r[i]);
	}
	rcu_read_unlock();
}

/* A storm is declared, its action taken: who it concerns, their bytes. */
void rocectl_wd_blast_detect(struct rocectl_wd *w, int dir, int prio)
{
	struct rocectl_wd_blast *b = w->blast[dir][prio];
	struct rocectl_dev *rdev;

	if (!b) {
		b = kmalloc(sizeof(*b), GFP_KERNEL);
		if (!b)
			return;		/* the storm is handled, unnamed */
		w->blast[dir][prio] = b;
	}
	memset(b, 0, sizeof(*b));
	b->live = true;
	b->walk = ++rocectl_wd_blast_walks;
	/* Before the walk: a QP made during it is one made after it began. */
	b->id_mark = rocectl_qp_id_last();
	rcu_read_lock();
	rdev = w->ndev ? rocectl_dev_by_port_netdev_rcu(w->ndev) : NULL;
	if (rdev && rdev->counts)
		b->departed_at = rocectl_departed_head(&rdev->departed);
	rcu_read_unlock();
	rocectl_wd_blast_walk(w, dir, prio, b, true);
}

/* Bytes up to now, while the storm lasts; end: the storm is over. */
void rocectl_wd_blast_refresh(struct rocectl_wd *w, int dir, int prio,
			      bool end)
{
	struct rocectl_wd_blast *b = w->blast[dir][prio];

	if (!b || !b->live)
		return;
	rocectl_wd_blast_departed(w, dir, prio, b);
	rocectl_wd_blast_walk(w, dir, prio, b, false);
	if (end)
		b->live = false;
}

/*
 * Each poll: the QPs destroyed meanwhile read before their records are
 * overwritten, and a walk when the last is a ROCECTL_WD_BLAST_WALK_MS old.
 */
void rocectl_wd_blast_poll(struct rocectl_wd *w)
{
	struct rocectl_wd_blast *b;
	int d, p;

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			b = w->blast[d][p];
			if (!b || !b->live)
				continue;
			if (time_before(jiffies, b->walked +
					msecs_to_jiffies(ROCECTL_WD_BLAST_WALK_MS)))
				rocectl_wd_blast_departed(w, d, p, b);
			else
				rocectl_wd_blast_refresh(w, d, p, false);
		}
	}
}

/* The ROCECTL_WD_BLAST_SHOWN processes that moved most, in that order. */
void rocectl_wd_blast_top(const struct rocectl_wd_blast *b,
			  const struct rocectl_wd_blast_proc **top, int *n)
{
	bool taken[ROCECTL_WD_BLAST_TRACK] = { };
	u32 i, best;

	for (*n = 0; *n < ROCECTL_WD_BLAST_SHOWN && *n < b->n; (*n)++) {
		best = b->n;
		for (i = 0; i < b->n; i++) {
			if (taken[i])
				continue;
			if (best == b->n ||
			    rocectl_wd_blast_moved(&b->p[i]) >
			    rocectl_wd_blast_moved(&b->p[best]) ||
			    (rocectl_wd_blast_moved(&b->p[i]) ==
			     rocectl_wd_blast_moved(&b->p[best]) &&
			     b->p[i].qps > b->p[best].qps))
				best = i;
		}
		taken[best] = true;
		top[*n] = &b->p[best];
	}
}
