/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A storm's blast radius (wd_blast.c): the QPs whose traffic maps to the
 * stormed priority on the stormed netdev, grouped by process, with the
 * bytes they moved in the paused direction during the storm.
 */
#ifndef _ROCECTL_WD_BLAST_H
#define _ROCECTL_WD_BLAST_H

#include <linux/sched.h>
#include <linux/types.h>

/* Processes grouped; past it, each QP of another counts as one more. */
#define ROCECTL_WD_BLAST_TRACK	32
/* Processes named in an event or the statistics, most bytes first. */
#define ROCECTL_WD_BLAST_SHOWN	8
/* While a storm lasts, its QPs are walked again at most this often. */
#define ROCECTL_WD_BLAST_WALK_MS 1000

struct rocectl_wd_blast_proc {
	pid_t pid;		/* initial pid namespace; 0: a kernel user */
	u32 qps;		/* at the detection, and created since */
	u64 cgroup;		/* its first QP's creator's cgroup (v2) id */
	u32 qps_base;		/* ... at the detection */
	u32 qps_gone;		/* created since, and destroyed since */
	u64 base;		/* its QPs' bytes at the detection */
	u64 gone;		/* ... destroyed since: their final bytes */
	u64 now;		/* ... at the restore, or the last walk */
	char comm[TASK_COMM_LEN];
};

/* One priority in one direction: its storm in progress, else its last. */
struct rocectl_wd_blast {
	u32 qps, procs;		/* as of the last walk */
	u32 qps_base;		/* at the detection */
	u32 procs_over;		/* past the table: at the detection */
	u32 qps_gone;		/* created since, and destroyed since */
	u32 over_gone;		/* ... of processes past the table */
	u32 n;			/* entries of p[] in use */
	bool live;		/* the storm goes on: walked while it does */
	bool counted;		/* the module counts its device's bytes */
	u64 walk;		/* the detection's walk (rocectl_qp's blast_walk) */
	u64 id_mark;		/* QPs made after the detection: a greater id */
	u64 departed_at;	/* the device's destroyed QPs read up to */
	u64 lost;		/* destroyed QPs' bytes lost: read too late */
	unsigned long walked;	/* jiffies: the last walk */
	struct rocectl_wd_blast_proc p[ROCECTL_WD_BLAST_TRACK];
};

/* Bytes a process's QPs moved during the storm. */
static inline u64 rocectl_wd_blast_moved(const struct rocectl_wd_blast_proc *p)
{
	return p->now > p->base ? p->now - p->base : 0;
}

struct rocectl_wd;
void rocectl_wd_blast_detect(struct rocectl_wd *w, int dir, int prio);
void rocectl_wd_blast_refresh(struct rocectl_wd *w, int dir, int prio,
			      bool end);
void rocectl_wd_blast_poll(struct rocectl_wd *w);
void rocectl_wd_blast_top(const struct rocectl_wd_blast *b,
			  const struct rocectl_wd_blast_proc **top, int *n);

#endif /* _ROCECTL_WD_BLAST_H */
