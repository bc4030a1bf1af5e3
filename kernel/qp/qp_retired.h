/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Destroyed QPs' final counts per port, owner's command name and cgroup,
 * one table per counting device (qp_retired.c).
 */
#ifndef _ROCECTL_QP_RETIRED_H
#define _ROCECTL_QP_RETIRED_H

#include <linux/hashtable.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include "qp_owner.h"
#include "qp_stats.h"

struct rocectl_retired_group {
	struct hlist_node hnode;
	u32 port;
	bool other;		/* past the bound: any port, name and cgroup */
	char comm[TASK_COMM_LEN];
	u64 cgroup;		/* the QPs' creators' cgroup (v2) id; 0 the root */
	struct rocectl_owner_ns owners;	/* who may see port, name, cgroup */
	u64 qps;
	u64 stats[ROCECTL_QP_NSTATS];
};

/*
 * Groups are only ever added, in at[] by creation order (so that a dump
 * resumes by position); the lock is taken from the entries' RCU frees.
 */
struct rocectl_retired {
	spinlock_t lock;	/* the groups and their counts */
	DECLARE_HASHTABLE(by_key, 6);
	struct rocectl_retired_group **at;
	unsigned int n;
	struct rocectl_retired_group *other;
};

int rocectl_retired_init(struct rocectl_retired *r);
void rocectl_retired_free(struct rocectl_retired *r);
void rocectl_retired_add(struct rocectl_retired *r, u32 port,
			 const char *comm, u64 cgroup, struct pid *owner,
			 const u64 *stats);
bool rocectl_retired_next(struct rocectl_retired *r, unsigned long *pos,
			  struct rocectl_retired_group *copy);
bool rocectl_retired_find(struct rocectl_retired *r, u32 port,
			  const char *comm, u64 cgroup,
			  struct rocectl_retired_group *copy);

#endif
