// SPDX-License-Identifier: GPL-2.0
/*
 * A storm's blast radius. The watchdog polls from a work item under
 * rtnl_lock (process context): at the detection the QP table of the
 * RDMA device whose port is the stormed netdev is walked under RCU, the QPs
 * whose priority (qp_prio.c, the netdev's mapping read once) is the
 * stormed one are grouped by process into the priority's fixed table,
 * allocated once at its first storm, and their bytes in the paused
 * direction noted. A report while the storm lasts, and the restore, walk
 * again: bytes during the storm are now minus then, per process. A QP
 * destroyed during the storm takes its bytes with it (never below 0); one
 * created during it counts from 0.
 */
#include <linux/pid.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "devices.h"
#include "qp_prio.h"
#include "qps.h"
#include "watchdog.h"
#include "wd_blast.h"

/*
 * Bytes in the paused direction: a received-pause storm freezes what we
 * send; in a sent-pause storm we are the slow receiver, and the QPs
 * receiving most are the likely cause.
 */
static u64 rocectl_wd_blast_bytes(const u64 *stats, int dir)
{
	return dir == ROCECTL_WD_DIR_TX ?
		stats[ROCECTL_A_QP_STAT_RX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS] :
		stats[ROCECTL_A_QP_STAT_TX_BYTES - ROCECTL_A_QP_STAT_TX_PACKETS];
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

/*
 * The QPs of the device over the watch's netdev whose traffic maps to
 * prio: grouped at the detection, their bytes summed again after.
 */
static void rocectl_wd_blast_walk(struct rocectl_wd *w, int dir, int prio,
				  struct rocectl_wd_blast *b, bool detect)
{
	u64 stats[ROCECTL_QP_NSTATS];
	struct rocectl_wd_blast_proc *pp;
	struct rocectl_qp_info info;
	struct rocectl_prio_map m;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	unsigned long qpn;
	pid_t pid;
	u64 bytes;
	u8 src;
	u32 i;

	ASSERT_RTNL();
	if (!detect)
		for (i = 0; i < b->n; i++)
			b->p[i].now = 0;
	if (!w->ndev)
		return;
	rocectl_prio_map_read(w->ndev, &m);
	rcu_read_lock();
	rdev = rocectl_dev_by_port_netdev_rcu(w->ifindex);
	if (!rdev)
		goto out;
	/* Hardware devices' QPs are named, their bytes are the NIC's own. */
	if (detect)
		b->counted = rdev->counts;
	xa_for_each(&rdev->qps, qpn, e) {
		rocectl_qp_snapshot(e, &info, stats);
		if (!info.has_path ||
		    rocectl_prio_of(&m, info.tclass, info.sl, &src) != prio)
			continue;
		pid = e->owner ? pid_nr(e->owner) : 0;
		bytes = rocectl_wd_blast_bytes(stats, dir);
		pp = rocectl_wd_blast_find(b, pid, info.comm);
		if (!detect) {
			if (pp)
				pp->now += bytes;
			continue;
		}
		b->qps++;
		if (!pp && b->n < ROCECTL_WD_BLAST_TRACK) {
			pp = &b->p[b->n++];
			pp->pid = pid;
			strscpy(pp->comm, info.comm, sizeof(pp->comm));
			b->procs++;
		} else if (!pp) {
			b->procs++;	/* an upper bound past the table */
			continue;
		}
		pp->qps++;
		pp->base += bytes;
		pp->now += bytes;
	}
out:
	rcu_read_unlock();
}

/* A storm is declared: who it concerns, and their bytes so far. */
void rocectl_wd_blast_detect(struct rocectl_wd *w, int dir, int prio)
{
	struct rocectl_wd_blast *b = w->blast[dir][prio];

	if (!b) {
		b = kmalloc(sizeof(*b), GFP_KERNEL);
		if (!b)
			return;		/* the storm is handled, unnamed */
		w->blast[dir][prio] = b;
	}
	memset(b, 0, sizeof(*b));
	b->live = true;
	rocectl_wd_blast_walk(w, dir, prio, b, true);
}

/* Bytes up to now, while the storm lasts; end: the storm is over. */
void rocectl_wd_blast_refresh(struct rocectl_wd *w, int dir, int prio,
			      bool end)
{
	struct rocectl_wd_blast *b = w->blast[dir][prio];

	if (!b || !b->live)
		return;
	rocectl_wd_blast_walk(w, dir, prio, b, false);
	if (end)
		b->live = false;
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

/* Before a report: the bytes of every storm in progress, up to now. */
void rocectl_wd_blast_refresh_all(struct rocectl_wd *w)
{
	int d, p;

	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			rocectl_wd_blast_refresh(w, d, p, false);
}
