// SPDX-License-Identifier: GPL-2.0
/*
 * The final counts of a device's destroyed QPs, summed per port, owner's
 * command name and cgroup (0 for the root cgroup and kernel QPs): with
 * the live QPs' counts, a reader's sums per group never go back and never
 * depend on catching a destroy event.
 *
 * Each group keeps where its owners live (qp_owner.c), so that a reader
 * outside their pid namespace gets its counts without its name and
 * cgroup. A QP is added from its entry's RCU free (dev_counters.c's moment: its
 * counts are final), in softirq context: a new group is allocated
 * atomically, and a failed allocation or a device past its bound adds
 * the QP to the device's "other" group, allocated with the table, so
 * that no count is ever dropped.
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/hash.h>
#include <linux/stringhash.h>
#include "qp_retired.h"

static unsigned int retired_groups = 1024;
module_param(retired_groups, uint, 0444);
MODULE_PARM_DESC(retired_groups,
		 "groups (port, command name, cgroup) of destroyed QPs' counts kept per device (1-65536); past them one \"other\" group");

static unsigned int rocectl_retired_max(void)
{
	return clamp(retired_groups, 1U, 65536U);
}

int rocectl_retired_init(struct rocectl_retired *r)
{
	spin_lock_init(&r->lock);
	hash_init(r->by_key);
	r->n = 0;
	r->at = kvcalloc(rocectl_retired_max(), sizeof(*r->at), GFP_KERNEL);
	r->other = kzalloc(sizeof(*r->other), GFP_KERNEL);
	if (!r->at || !r->other) {
		kvfree(r->at);
		kfree(r->other);
		r->at = NULL;
		r->other = NULL;
		return -ENOMEM;
	}
	r->other->other = true;
	return 0;
}

/* After every entry's RCU free has run (rcu_barrier()). */
void rocectl_retired_free(struct rocectl_retired *r)
{
	unsigned int i;

	if (!r->at)
		return;
	for (i = 0; i < r->n; i++) {
		rocectl_owner_ns_put(&r->at[i]->owners);
		kfree(r->at[i]);
	}
	kvfree(r->at);
	rocectl_owner_ns_put(&r->other->owners);
	kfree(r->other);
	r->at = NULL;
	r->other = NULL;
}

static u32 rocectl_retired_hash(u32 port, const char *comm, u64 cgroup)
{
	return full_name_hash(NULL, comm, strnlen(comm, TASK_COMM_LEN)) ^ port ^
	       hash_64(cgroup, 32);
}

static struct rocectl_retired_group *
rocectl_retired_lookup(struct rocectl_retired *r, u32 port, const char *comm,
		       u64 cgroup, u32 hash)
{
	struct rocectl_retired_group *g;

	hash_for_each_possible(r->by_key, g, hnode, hash)
		if (g->port == port && g->cgroup == cgroup &&
		    !strncmp(g->comm, comm, TASK_COMM_LEN))
			return g;
	return NULL;
}

void rocectl_retired_add(struct rocectl_retired *r, u32 port,
			 const char *comm, u64 cgroup, struct pid *owner,
			 const u64 *stats)
{
	u32 hash = rocectl_retired_hash(port, comm, cgroup);
	struct rocectl_retired_group *g;
	unsigned long flags;
	int i;

	if (!r->at)
		return;
	spin_lock_irqsave(&r->lock, flags);
	g = rocectl_retired_lookup(r, port, comm, cgroup, hash);
	if (!g && r->n < rocectl_retired_max()) {
		g = kzalloc(sizeof(*g), GFP_ATOMIC);
		if (g) {
			g->port = port;
			g->cgroup = cgroup;
			strscpy(g->comm, comm, sizeof(g->comm));
			hash_add(r->by_key, &g->hnode, hash);
			r->at[r->n++] = g;
		}
	}
	if (!g)
		g = r->other;
	rocectl_owner_ns_add(&g->owners, owner);
	g->qps++;
	for (i = 0; i < ROCECTL_QP_NSTATS; i++)
		g->stats[i] += stats[i];
	spin_unlock_irqrestore(&r->lock, flags);
}

/*
 * The group at *pos or the first after it. The "other" group sits past
 * every position a group can take, so that a dump resumed after it never
 * shows it twice; groups added meanwhile are shown by the next dump.
 */
bool rocectl_retired_next(struct rocectl_retired *r, unsigned long *pos,
			  struct rocectl_retired_group *copy)
{
	unsigned long flags, max = rocectl_retired_max();
	bool found = false;

	if (!r->at || *pos > max)
		return false;
	spin_lock_irqsave(&r->lock, flags);
	if (*pos < r->n) {
		*copy = *r->at[*pos];
		found = true;
	} else if (r->other->qps) {
		*copy = *r->other;
		*pos = max;
		found = true;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	return found;
}

bool rocectl_retired_find(struct rocectl_retired *r, u32 port,
			  const char *comm, u64 cgroup,
			  struct rocectl_retired_group *copy)
{
	struct rocectl_retired_group *g;
	unsigned long flags;

	if (!r->at)
		return false;
	spin_lock_irqsave(&r->lock, flags);
	g = rocectl_retired_lookup(r, port, comm, cgroup,
				   rocectl_retired_hash(port, comm, cgroup));
	if (g)
		*copy = *g;
	spin_unlock_irqrestore(&r->lock, flags);
	return g;
}
