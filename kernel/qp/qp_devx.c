// SPDX-License-Identifier: GPL-2.0
/*
 * DevX QPs: QPs and DC targets a user context makes with the driver's
 * firmware commands (mlx5's DevX: GPU-initiated networking, UCX), which
 * never pass through the RDMA core's QP verbs. A backend decodes the
 * commands (mlx5/devx.c) and reports each here; they become entries of
 * the QP table with no ib_qp, flagged devx, known only by what the
 * commands said.
 *
 * A command issued inside a QP verb rocectl hooks is that verb's, not a
 * DevX one (qp_hooks.c marks the tasks inside one): the driver carries
 * out verbs with the same commands and the same user context's uid.
 * Before 5.15 no exported function creates user QPs, so the verbs create
 * is unmarked: a QP created outside a marked verb is then held back until
 * its first move, and dropped as a verbs QP's if that move comes from a
 * marked verb (the modify hooks see every verbs QP's first move).
 */
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "devices/devices.h"
#include "qp_devx.h"
#include "qp_hooks.h"
#include "qps.h"
#include "trace.h"

/* Who made a DevX QP and when: the create's task, taken at the create. */
struct rocectl_devx_creator {
	pid_t pid;
	u64 cgroup;
	struct pid *owner;	/* held; handed on to the entry */
	char comm[TASK_COMM_LEN];
	u64 time;
};

static void rocectl_devx_creator_now(struct rocectl_devx_creator *w)
{
	w->pid = task_tgid_nr(current);
	w->cgroup = rocectl_task_cgroup(current);
	w->owner = get_task_pid(current, PIDTYPE_TGID);
	/* Without the task's lock, as the scheduler's tracepoints read it. */
	strscpy(w->comm, current->comm, sizeof(w->comm));
	w->time = ktime_get_real_ns();
}

/* Before 5.15 (compat.h): a create by a command outside a marked verb. */
struct rocectl_devx_held {
	struct hlist_node node;
	u32 dev_index;
	struct rocectl_devx_cmd create;
	struct rocectl_devx_creator who;
};

/* Bounded: an unseen verbs destroy cannot make it grow without end. */
#define ROCECTL_DEVX_HELD_MAX 65536
static DEFINE_HASHTABLE(rocectl_devx_held, 8);
static DEFINE_SPINLOCK(rocectl_devx_held_lock);
static unsigned int rocectl_devx_nheld;

static u32 rocectl_devx_key(u32 dev_index, u32 qpn)
{
	return dev_index ^ qpn;
}

static void rocectl_devx_held_free(struct rocectl_devx_held *h)
{
	if (h) {
		put_pid(h->who.owner);
		kfree(h);
	}
}

/* The held create of (dev_index, qpn), taken out of the table; or NULL. */
static struct rocectl_devx_held *rocectl_devx_unhold(u32 dev_index, u32 qpn)
{
	struct rocectl_devx_held *h;
	unsigned long flags;

	if (ROCECTL_HOOK_USER_CREATE || !READ_ONCE(rocectl_devx_nheld))
		return NULL;
	spin_lock_irqsave(&rocectl_devx_held_lock, flags);
	hash_for_each_possible(rocectl_devx_held, h, node,
			       rocectl_devx_key(dev_index, qpn)) {
		if (h->dev_index == dev_index && h->create.qpn == qpn) {
			hash_del(&h->node);
			rocectl_devx_nheld--;
			spin_unlock_irqrestore(&rocectl_devx_held_lock, flags);
			return h;
		}
	}
	spin_unlock_irqrestore(&rocectl_devx_held_lock, flags);
	return NULL;
}

static void rocectl_devx_hold(struct rocectl_dev *rdev,
			      const struct rocectl_devx_cmd *c)
{
	struct rocectl_devx_held *h;
	unsigned long flags;

	rocectl_devx_held_free(rocectl_devx_unhold(rdev->index, c->qpn));
	h = kzalloc(sizeof(*h), GFP_ATOMIC | __GFP_NOWARN);
	if (!h)
		return;
	h->dev_index = rdev->index;
	h->create = *c;
	rocectl_devx_creator_now(&h->who);
	spin_lock_irqsave(&rocectl_devx_held_lock, flags);
	if (rocectl_devx_nheld < ROCECTL_DEVX_HELD_MAX) {
		hash_add(rocectl_devx_held, &h->node,
			 rocectl_devx_key(h->dev_index, c->qpn));
		rocectl_devx_nheld++;
		h = NULL;
	}
	spin_unlock_irqrestore(&rocectl_devx_held_lock, flags);
	if (h) {
		pr_warn_ratelimited("%s: DevX QP %u not tracked: %d creates held\n",
				    rocectl_dev_name(rdev), c->qpn,
				    ROCECTL_DEVX_HELD_MAX);
		rocectl_devx_held_free(h);
	}
}

/* The device goes (or the module): its held creates go with it. */
static void rocectl_devx_forget(u32 dev_index, bool all)
{
	struct rocectl_devx_held *h;
	struct hlist_node *tmp;
	int bkt;
	unsigned long flags;

	spin_lock_irqsave(&rocectl_devx_held_lock, flags);
	hash_for_each_safe(rocectl_devx_held, bkt, tmp, h, node) {
		if (all || h->dev_index == dev_index) {
			hash_del(&h->node);
			rocectl_devx_nheld--;
			rocectl_devx_held_free(h);
		}
	}
	spin_unlock_irqrestore(&rocectl_devx_held_lock, flags);
}

/* A new entry, as its create's command said; who's owner goes to it. */
static void rocectl_devx_insert(struct rocectl_dev *rdev,
				const struct rocectl_devx_cmd *c,
				struct rocectl_devx_creator *who)
{
	struct rocectl_qp_info *in;
	struct rocectl_qp *e;

	e = rocectl_qp_alloc(rdev, true);
	if (!e) {
		pr_warn_ratelimited("%s: DevX QP %u not tracked: out of memory\n",
				    rocectl_dev_name(rdev), c->qpn);
		return;
	}
	e->counts = false;	/* its packets never reach the kernel */
	e->owner = who->owner;
	who->owner = NULL;
	in = &e->info;
	in->qpn = c->qpn;
	in->devx = 1;
	in->port = 1;		/* each port of a ConnectX is a function */
	in->type = c->type;
	in->pid = who->pid;
	in->cgroup = who->cgroup;
	memcpy(in->comm, who->comm, sizeof(in->comm));
	in->create_time = who->time;
	in->state_time = who->time;
	in->state = c->state;
	in->history = 0xfff0 | c->state;
	in->counter_set = c->counter_set;
	/* A DC target's create carries its path. */
	if (c->has_path) {
		in->has_path = 1;
		in->tclass = c->tclass;
		in->sl = c->sl;
	}
	if (!rocectl_qp_insert(rdev, e, true)) {
		rocectl_qp_discard(e);
		return;
	}
	trace_qp_create(rocectl_dev_name(rdev), in);
	rocectl_qp_notify(rdev, in, NULL, ROCECTL_CMD_QP_CREATE_NTF, -1, 0);
}

/* A create seen now: its entry (its owner's reference with it, or dropped). */
static void rocectl_devx_insert_now(struct rocectl_dev *rdev,
				    const struct rocectl_devx_cmd *c)
{
	struct rocectl_devx_creator who;

	rocectl_devx_creator_now(&who);
	rocectl_devx_insert(rdev, c, &who);
	put_pid(who.owner);
}

/* What a move's command said, applied; the caller holds e->lock. */
static void rocectl_devx_apply(struct rocectl_qp_info *in,
			       const struct rocectl_devx_cmd *c)
{
	/* The clock only for a new state: RTS2RTS and SQD2RTS are frequent. */
	if (c->state != in->state) {
		in->history = in->history << 4 | (c->state & 0xf);
		in->state = c->state;
		in->state_time = ktime_get_real_ns();
	}
	if (c->has_counter_set)
		in->counter_set = c->counter_set;
	if (c->dest_qpn)
		in->dest_qpn = c->dest_qpn;
	if (c->has_path) {
		in->has_path = 1;
		in->tclass = c->tclass;
		in->sl = c->sl;
		in->sport_rule = c->sport;
	}
}

static void rocectl_devx_move(struct rocectl_dev *rdev,
			      const struct rocectl_devx_cmd *c)
{
	struct rocectl_qp_info info;
	struct rocectl_qp *e;
	u8 prev;
	unsigned long flags;

	e = rocectl_qp_find_rcu(rdev, c->qpn);
	if (!e || !e->info.devx)
		return;
	spin_lock_irqsave(&e->lock, flags);
	prev = e->info.state;
	rocectl_devx_apply(&e->info, c);
	info = e->info;
	spin_unlock_irqrestore(&e->lock, flags);
	if (info.state == prev)
		return;
	rocectl_qp_trace_modify(rdev, &info, prev);
	rocectl_qp_notify(rdev, &info, NULL, ROCECTL_CMD_QP_MODIFY_NTF, prev, 0);
}

static void rocectl_devx_destroy(struct rocectl_dev *rdev, u32 qpn)
{
	struct rocectl_qp *e = rocectl_qp_find_rcu(rdev, qpn);

	if (e && e->info.devx)
		rocectl_qp_destroyed(rdev->index, qpn, NULL, e->id);
}

/*
 * Whether a QP command current issues now may be a DevX QP's, asked at the
 * command's start so that a verb's own commands hold no probe instance
 * through the firmware's time. From 5.15 a command from inside a hooked
 * QP verb is that verb's, and nothing at its return would use it; before,
 * its return drops a held create of its QPN (rocectl_devx_cmd()). Any
 * context: a kretprobe's entry handler.
 */
bool rocectl_devx_cmd_wanted(void)
{
	return !ROCECTL_HOOK_USER_CREATE || !rocectl_qp_verb_running();
}
EXPORT_SYMBOL_GPL(rocectl_devx_cmd_wanted);

/*
 * A device's DevX commands missed: each of its DevX QPs live now may be
 * the one the command created, moved or destroyed. Marked in process
 * context, never guessed at; a QP whose create was missed is in no table,
 * which the device's count says (dev stats, the exporter). An entry whose
 * destroy was missed stays, marked, until its QPN's next create replaces
 * it (rocectl_qp_insert()) or the device goes.
 */
static void rocectl_devx_missed_work(struct work_struct *work)
{
	struct rocectl_dev *rdev;
	unsigned long index = 0;
	u64 n;

	mutex_lock(&rocectl_devs_lock);
	while ((rdev = rocectl_dev_next(&index))) {
		n = atomic64_read(&rdev->devx_missed);
		if (n != rdev->devx_marked) {
			rdev->devx_marked = n;
			rocectl_qps_mark_dev_incomplete(rdev, true);
		}
		index++;
	}
	mutex_unlock(&rocectl_devs_lock);
}

static DECLARE_WORK(rocectl_devx_missed_wk, rocectl_devx_missed_work);

/* The work queued from irq_work: queue_work() takes the pool's lock. */
static void rocectl_devx_missed_kick(struct irq_work *iw)
{
	schedule_work(&rocectl_devx_missed_wk);
}

static struct irq_work rocectl_devx_missed_iw;

/*
 * From the plain kprobe's handler, which a breakpoint runs in NMI-like
 * context: a lock-free lookup, a count and an NMI-safe kick (as pool.c's).
 */
void rocectl_devx_missed(struct device *parent)
{
	struct rocectl_dev *rdev;

	if (!parent)
		return;
	rcu_read_lock();
	rdev = rocectl_dev_by_parent_rcu(parent);
	if (rdev) {
		atomic64_inc(&rdev->devx_missed);
		irq_work_queue(&rocectl_devx_missed_iw);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(rocectl_devx_missed);

static int rocectl_devx_dev_event(struct notifier_block *nb,
				  unsigned long event, void *data)
{
	if (event == ROCECTL_DEV_REMOVED)
		rocectl_devx_forget(((struct rocectl_dev_change *)data)->rdev->index,
				    false);
	return NOTIFY_DONE;
}

static struct notifier_block rocectl_devx_dev_nb = {
	.notifier_call = rocectl_devx_dev_event,
};

int rocectl_devx_init(void)
{
	init_irq_work(&rocectl_devx_missed_iw, rocectl_devx_missed_kick);
	return rocectl_dev_subscribe(&rocectl_devx_dev_nb);
}

/* After the registry and the hooks: nothing holds a create any more. */
void rocectl_devx_exit(void)
{
	rocectl_dev_unsubscribe(&rocectl_devx_dev_nb);
	rocectl_devx_forget(0, true);
}

/* At unload, after the backends: no marking is left running. */
void rocectl_devx_missed_flush(void)
{
	irq_work_sync(&rocectl_devx_missed_iw);
	cancel_work_sync(&rocectl_devx_missed_wk);
}

void rocectl_devx_cmd(struct device *parent, const struct rocectl_devx_cmd *c)
{
	struct rocectl_devx_held *h;
	struct rocectl_dev *rdev;

	if (!parent)
		return;
	rcu_read_lock();
	rdev = rocectl_dev_by_parent_rcu(parent);
	if (!rdev)
		goto out;
	/* A verb's own command: a held create of its QP was a verbs QP's. */
	if (rocectl_qp_verb_running()) {
		rocectl_devx_held_free(rocectl_devx_unhold(rdev->index, c->qpn));
		goto out;
	}
	switch (c->op) {
	case ROCECTL_DEVX_CREATE:
		if (ROCECTL_HOOK_USER_CREATE)
			rocectl_devx_insert_now(rdev, c);
		else
			rocectl_devx_hold(rdev, c);
		break;
	case ROCECTL_DEVX_CREATE_READY:
		rocectl_devx_insert_now(rdev, c);
		break;
	case ROCECTL_DEVX_MOVE:
		h = rocectl_devx_unhold(rdev->index, c->qpn);
		if (h) {
			rocectl_devx_insert(rdev, &h->create, &h->who);
			rocectl_devx_held_free(h);
		}
		rocectl_devx_move(rdev, c);
		break;
	case ROCECTL_DEVX_DESTROY:
		rocectl_devx_held_free(rocectl_devx_unhold(rdev->index, c->qpn));
		rocectl_devx_destroy(rdev, c->qpn);
		break;
	}
out:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(rocectl_devx_cmd);
