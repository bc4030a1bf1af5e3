/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The QPs a counting device destroyed last, each with its final bytes
 * (qp_departed.c): for a reader that sums a group of QPs over time (a
 * storm's blast radius), the QPs that left between two of its walks.
 */
#ifndef _ROCECTL_QP_DEPARTED_H
#define _ROCECTL_QP_DEPARTED_H

#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct rocectl_qp_departed {
	u64 id;			/* the entry's: made after another, greater */
	u64 tx_bytes, rx_bytes;
	u64 cgroup;		/* its creator's cgroup (v2) id */
	pid_t pid;		/* initial pid namespace; 0: a kernel user */
	bool has_path;
	u8 tclass, sl;
	u64 blast_walk;		/* the entry's: the storm walk that met it */
	char comm[TASK_COMM_LEN];
};

/* A ring: the last ROCECTL_QP_DEPARTED_KEPT records, numbered from 0. */
#define ROCECTL_QP_DEPARTED_KEPT 256

struct rocectl_departed {
	spinlock_t lock;	/* head and the ring */
	u64 head;		/* records ever added */
	struct rocectl_qp_departed *ring;
};

int rocectl_departed_init(struct rocectl_departed *d);
void rocectl_departed_free(struct rocectl_departed *d);
void rocectl_departed_add(struct rocectl_departed *d,
			  const struct rocectl_qp_departed *r);
u64 rocectl_departed_head(struct rocectl_departed *d);
unsigned int rocectl_departed_read(struct rocectl_departed *d, u64 *from,
				   struct rocectl_qp_departed *out,
				   unsigned int n, u64 *lost);

#endif /* _ROCECTL_QP_DEPARTED_H */
