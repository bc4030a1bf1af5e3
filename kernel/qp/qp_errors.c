// SPDX-License-Identifier: GPL-2.0
/*
 * QP failures: every way the kernel tells that a QP failed (a modify to
 * ERR, an asynchronous QP event, soft-RoCE's own move to ERR; qps.c keeps
 * it to one record per failure) ends here. Each failure is traced
 * (rocectl:qp_error), written to a ring of fixed size that outlives the
 * QP (the oldest record overwritten, and counted, when it is full),
 * counted per device, owner's command name and cause (each count keeping
 * where its owners live, qp_owner.c), and announced on
 * the event group from a work (the hooks may not send).
 *
 * Writers run in the QP hooks' contexts (preemption off, softirq
 * possible): one lock, taken with interrupts off, no allocation.
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "devices/devices.h"
#include "qp_errors.h"
#include "trace.h"

static unsigned int error_records = 256;
module_param(error_records, uint, 0444);
MODULE_PARM_DESC(error_records,
		 "QP failure records kept, destroyed QPs' included (1-65536); past them the oldest is overwritten and counted");

static unsigned int error_groups = 1024;
module_param(error_groups, uint, 0444);
MODULE_PARM_DESC(error_groups,
		 "QP failure counts kept per (device, command name, cause) (1-65536); past them one \"other\" count per cause");

#define ROCECTL_QP_ERR_NCAUSE (ROCECTL_QP_ERROR_CAUSE_DRIVER + 1)

static DEFINE_SPINLOCK(rocectl_qp_err_lock);	/* all below */
static struct rocectl_qp_err_rec *rocectl_qp_err_ring;
static unsigned int rocectl_qp_err_size;
static u64 rocectl_qp_err_written;	/* records ever written: the last seq */
static struct rocectl_qp_err_group *rocectl_qp_err_groups;
static unsigned int rocectl_qp_err_ngroups, rocectl_qp_err_maxgroups;
static struct rocectl_qp_err_group rocectl_qp_err_other[ROCECTL_QP_ERR_NCAUSE];

/* Records announced so far; only the work touches it. */
static u64 rocectl_qp_err_sent;
static const struct rocectl_qp_err_listener *rocectl_qp_err_listener;

static void rocectl_qp_err_notify_work(struct work_struct *work);
static DECLARE_WORK(rocectl_qp_err_wk, rocectl_qp_err_notify_work);

int rocectl_qp_errors_init(const struct rocectl_qp_err_listener *l)
{
	int i;

	rocectl_qp_err_listener = l;
	rocectl_qp_err_size = clamp(error_records, 1U, 65536U);
	rocectl_qp_err_maxgroups = clamp(error_groups, 1U, 65536U);
	rocectl_qp_err_ring = kvcalloc(rocectl_qp_err_size,
				       sizeof(*rocectl_qp_err_ring), GFP_KERNEL);
	rocectl_qp_err_groups = kvcalloc(rocectl_qp_err_maxgroups,
					 sizeof(*rocectl_qp_err_groups),
					 GFP_KERNEL);
	if (!rocectl_qp_err_ring || !rocectl_qp_err_groups) {
		kvfree(rocectl_qp_err_ring);
		kvfree(rocectl_qp_err_groups);
		return -ENOMEM;
	}
	for (i = 0; i < ROCECTL_QP_ERR_NCAUSE; i++) {
		rocectl_qp_err_other[i].other = true;
		rocectl_qp_err_other[i].cause = i;
	}
	return 0;
}

/* After the hooks: nothing adds any more. */
void rocectl_qp_errors_exit(void)
{
	unsigned int i;

	cancel_work_sync(&rocectl_qp_err_wk);
	for (i = 0; i < rocectl_qp_err_size; i++)
		put_pid(rocectl_qp_err_ring[i].owner);
	for (i = 0; i < rocectl_qp_err_ngroups; i++)
		rocectl_owner_ns_put(&rocectl_qp_err_groups[i].owners);
	for (i = 0; i < ROCECTL_QP_ERR_NCAUSE; i++)
		rocectl_owner_ns_put(&rocectl_qp_err_other[i].owners);
	kvfree(rocectl_qp_err_ring);
	kvfree(rocectl_qp_err_groups);
}

/* The count of (device, comm, cause); the lock is held. */
static struct rocectl_qp_err_group *
rocectl_qp_err_group_of(u32 dev_index, const char *dev, const char *comm,
			u8 cause)
{
	struct rocectl_qp_err_group *g;
	unsigned int i;

	/* Failures are rare: a scan, no index to keep. */
	for (i = 0; i < rocectl_qp_err_ngroups; i++) {
		g = &rocectl_qp_err_groups[i];
		if (g->dev_index == dev_index && g->cause == cause &&
		    !strncmp(g->comm, comm, TASK_COMM_LEN))
			return g;
	}
	if (rocectl_qp_err_ngroups == rocectl_qp_err_maxgroups)
		return &rocectl_qp_err_other[cause];
	g = &rocectl_qp_err_groups[rocectl_qp_err_ngroups++];
	g->dev_index = dev_index;
	strscpy(g->dev, dev, sizeof(g->dev));
	strscpy(g->comm, comm, sizeof(g->comm));
	g->cause = cause;
	return g;
}

/* Under RCU (the device's name); stats NULL where nothing is counted. */
void rocectl_qp_errors_add(struct rocectl_dev *rdev, struct pid *owner,
			   u64 id, const struct rocectl_qp_info *info,
			   const u64 *stats, u8 cause)
{
	const char *dev = rocectl_dev_name(rdev);
	u64 zero[ROCECTL_QP_NSTATS] = {};
	struct rocectl_qp_err_group *g;
	struct rocectl_qp_err_rec *r;
	struct pid *old;
	unsigned long flags;

	if (WARN_ON_ONCE(cause >= ROCECTL_QP_ERR_NCAUSE))
		return;
	trace_qp_error(dev, info, cause, stats ?: zero);

	spin_lock_irqsave(&rocectl_qp_err_lock, flags);
	r = &rocectl_qp_err_ring[rocectl_qp_err_written % rocectl_qp_err_size];
	old = r->owner;
	r->seq = ++rocectl_qp_err_written;
	r->time = ktime_get_real_ns();
	r->id = id;
	r->owner = get_pid(owner);
	r->dev_index = rdev->index;
	strscpy(r->dev, dev, sizeof(r->dev));
	r->cause = cause;
	r->info = *info;
	r->has_stats = stats;
	memcpy(r->stats, stats ?: zero, sizeof(r->stats));
	g = rocectl_qp_err_group_of(rdev->index, dev, info->comm, cause);
	rocectl_owner_ns_add(&g->owners, owner);
	g->count++;
	spin_unlock_irqrestore(&rocectl_qp_err_lock, flags);

	put_pid(old);
	schedule_work(&rocectl_qp_err_wk);
}

/* The oldest record the ring holds (its seq), or the next to come. */
u64 rocectl_qp_errors_first(void)
{
	unsigned long flags;
	u64 first;

	spin_lock_irqsave(&rocectl_qp_err_lock, flags);
	first = rocectl_qp_err_written > rocectl_qp_err_size ?
		rocectl_qp_err_written - rocectl_qp_err_size + 1 : 1;
	spin_unlock_irqrestore(&rocectl_qp_err_lock, flags);
	return first;
}

u64 rocectl_qp_errors_overwritten(void)
{
	return rocectl_qp_errors_first() - 1;
}

/*
 * A copy of record seq, false once overwritten or not written yet. The
 * copy holds a reference to the owner: the caller puts it.
 */
bool rocectl_qp_errors_get(u64 seq, struct rocectl_qp_err_rec *rec)
{
	struct rocectl_qp_err_rec *r;
	unsigned long flags;
	bool found = false;

	if (!seq)
		return false;
	spin_lock_irqsave(&rocectl_qp_err_lock, flags);
	r = &rocectl_qp_err_ring[(seq - 1) % rocectl_qp_err_size];
	if (r->seq == seq) {
		*rec = *r;
		get_pid(rec->owner);
		found = true;
	}
	spin_unlock_irqrestore(&rocectl_qp_err_lock, flags);
	return found;
}

/*
 * The count at *pos or the first after it: the named ones in creation
 * order, then the "other" ones (past every position a named one takes,
 * so that a resumed dump never shows one twice).
 */
bool rocectl_qp_errors_group(unsigned long *pos,
			     struct rocectl_qp_err_group *g)
{
	unsigned long flags, max = rocectl_qp_err_maxgroups;
	bool found = false;

	spin_lock_irqsave(&rocectl_qp_err_lock, flags);
	if (*pos < rocectl_qp_err_ngroups) {
		*g = rocectl_qp_err_groups[*pos];
		found = true;
	} else {
		if (*pos < max)
			*pos = max;
		for (; *pos < max + ROCECTL_QP_ERR_NCAUSE; (*pos)++) {
			if (rocectl_qp_err_other[*pos - max].count) {
				*g = rocectl_qp_err_other[*pos - max];
				found = true;
				break;
			}
		}
	}
	spin_unlock_irqrestore(&rocectl_qp_err_lock, flags);
	return found;
}

/* Each record once on the event group, those the ring still holds. */
static void rocectl_qp_err_notify_work(struct work_struct *work)
{
	struct rocectl_qp_err_rec *rec;
	u64 seq;

	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	seq = max(rocectl_qp_err_sent + 1, rocectl_qp_errors_first());
	for (; rocectl_qp_errors_get(seq, rec); seq++) {
		rocectl_qp_err_listener->record(rec);
		put_pid(rec->owner);
	}
	rocectl_qp_err_sent = seq - 1;
	kfree(rec);
}
