// SPDX-License-Identifier: GPL-2.0
/*
 * The QP control path of every RDMA device: kretprobes on the exported
 * ib_core verbs every driver's QPs go through (user QPs via uverbs, kernel
 * QPs via ib_create_qp() and friends). The kernel has no QP tracepoints.
 * Before 5.15 no exported function creates user QPs: they are first seen
 * at their first modify (compat.h).
 * Entry handlers run where the probe fires: from ftrace when the probe is
 * on a function's ftrace call site (x86-64's +0 with KPROBES_ON_FTRACE),
 * else from a breakpoint, in NMI context: no allocation, no lock (qps.c
 * takes from pools). Return handlers run from the rethook trampoline in
 * the task's context with preemption disabled: no sleeping, GFP_ATOMIC.
 */
#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "devices/devices.h"
#include "probe_floor.h"
#include "qp_hooks.h"
#include "qps.h"

/*
 * Each call of a hooked verb in progress holds one of its probe's
 * instances until it returns, and mlx5's modify and destroy sleep in
 * firmware commands: a call beyond them is missed (counted by the
 * kernel, reported by rocectl_qp_hooks_check()). At least the kernel's
 * own default for this host, 2 per possible CPU, and never below 128.
 */
#define ROCECTL_MAXACTIVE_MIN 128
static unsigned int qp_hook_instances;
module_param(qp_hook_instances, uint, 0444);
MODULE_PARM_DESC(qp_hook_instances,
		 "QP verb calls in progress at once that each QP hook follows (0: max(128, 2 per CPU)); one beyond them is missed, counted and its QPs marked incomplete");

/*
 * The tasks inside a hooked QP verb now, one slot per probe instance so
 * that one is always free: a firmware command such a task issues is that
 * verb's (qp_devx.c). Taken and given back lock-free: entry handlers may
 * run in NMI context.
 *
 * A task takes a slot in the window of ROCECTL_VERB_WINDOW slots its
 * address hashes to, so that looking for it costs the same on any number
 * of CPUs: one cache line, not the table. Only when its whole window is
 * taken does it go elsewhere, and the lookup looks at every slot while
 * such a task is inside (rocectl_verbs_outside).
 */
#define ROCECTL_VERB_WINDOW (L1_CACHE_BYTES / sizeof(struct task_struct *))
static struct task_struct **rocectl_verb_tasks;
static unsigned int rocectl_verb_nslots;
static atomic_t rocectl_verbs_running = ATOMIC_INIT(0);
static atomic_t rocectl_verbs_outside = ATOMIC_INIT(0);

/* The first slot of current's window. */
static unsigned int rocectl_verb_window(void)
{
	return reciprocal_scale(hash_ptr(current, 32), rocectl_verb_nslots);
}

/* Whether slot j is in current's window (the table wraps around). */
static bool rocectl_verb_in_window(unsigned int j)
{
	unsigned int n = rocectl_verb_nslots;

	return (j + n - rocectl_verb_window()) % n < ROCECTL_VERB_WINDOW;
}

/* The slot taken, or -1 if none is free (the probe is then missed too). */
static int rocectl_verb_enter(void)
{
	unsigned int i, j = rocectl_verb_window();

	for (i = 0; i < rocectl_verb_nslots; i++, j = (j + 1) % rocectl_verb_nslots) {
		/* Looked at first: no atomic write to a slot another holds. */
		if (READ_ONCE(rocectl_verb_tasks[j]) ||
		    cmpxchg(&rocectl_verb_tasks[j], NULL, current))
			continue;
		if (i >= ROCECTL_VERB_WINDOW)
			atomic_inc(&rocectl_verbs_outside);
		atomic_inc(&rocectl_verbs_running);
		return j;
	}
	return -1;
}

/* From the same task as its enter: current's window is the same. */
static void rocectl_verb_leave(int slot)
{
	if (slot < 0)
		return;
	atomic_dec(&rocectl_verbs_running);
	if (!rocectl_verb_in_window(slot))
		atomic_dec(&rocectl_verbs_outside);
	WRITE_ONCE(rocectl_verb_tasks[slot], NULL);
}

/*
 * Whether current is inside a hooked QP verb: nothing to look at when no
 * verb runs, else current's window, and every slot only while a task sits
 * outside its own. Called for QP firmware commands only.
 */
bool rocectl_qp_verb_running(void)
{
	unsigned int i, j;

	if (!atomic_read(&rocectl_verbs_running))
		return false;
	j = rocectl_verb_window();
	for (i = 0; i < min_t(unsigned int, ROCECTL_VERB_WINDOW, rocectl_verb_nslots); i++)
		if (READ_ONCE(rocectl_verb_tasks[(j + i) % rocectl_verb_nslots]) == current)
			return true;
	if (!atomic_read(&rocectl_verbs_outside))
		return false;
	for (i = 0; i < rocectl_verb_nslots; i++)
		if (READ_ONCE(rocectl_verb_tasks[i]) == current)
			return true;
	return false;
}

struct rocectl_create_args {
	int slot;
};

struct rocectl_modify_args {
	int slot;
	struct ib_qp *qp;
	const struct ib_qp_attr *attr;
	int mask;
	u64 owed;	/* the entry whose counters the pool could not give */
};

struct rocectl_destroy_args {
	int slot;
	const struct ib_qp *qp;
	u32 dev_index;
	u32 qpn;
	u64 id;
	bool skip;
};

static int rocectl_create_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	((struct rocectl_create_args *)ri->data)->slot = rocectl_verb_enter();
	return 0;
}

/* Before 5.15 unused: no exported function creates user QPs (compat.h). */
static int __maybe_unused
rocectl_create_user_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ib_qp *qp = (struct ib_qp *)regs_return_value(regs);

	rocectl_verb_leave(((struct rocectl_create_args *)ri->data)->slot);
	if (!IS_ERR_OR_NULL(qp))
		rocectl_qp_created(qp, NULL, false);
	rocectl_qp_hooks_check();
	return 0;
}

static int rocectl_create_kernel_ret(struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	struct ib_qp *qp = (struct ib_qp *)regs_return_value(regs);

	rocectl_verb_leave(((struct rocectl_create_args *)ri->data)->slot);
	/* create_qp() recorded the kernel user's name for resource tracking. */
	if (!IS_ERR_OR_NULL(qp))
		rocectl_qp_created(qp, qp->res.kern_name ?: "kernel", false);
	rocectl_qp_hooks_check();
	return 0;
}

static int rocectl_modify_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct rocectl_modify_args *a = (void *)ri->data;

	a->slot = rocectl_verb_enter();
	a->qp = (struct ib_qp *)regs_get_kernel_argument(regs, 0);
	a->attr = (const struct ib_qp_attr *)regs_get_kernel_argument(regs, 1);
	a->mask = (int)regs_get_kernel_argument(regs, 2);
	a->owed = rocectl_qp_modifying(a->qp, a->attr, a->mask);
	return 0;
}

/* The caller's attr is still alive: its frame is where we return to. */
static int rocectl_modify_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct rocectl_modify_args *a = (void *)ri->data;

	rocectl_verb_leave(a->slot);
	if (a->owed)
		rocectl_qp_stats_owed(a->qp, a->owed);
	if (!regs_return_value(regs)) {
		if (!ROCECTL_HOOK_USER_CREATE)
			rocectl_qp_first_modify(a->qp, a->attr, a->mask);
		rocectl_qp_modified(a->qp, a->attr, a->mask);
	}
	if ((a->mask & IB_QP_STATE) && a->attr->qp_state == IB_QPS_ERR)
		rocectl_qp_modify_done(a->qp);
	rocectl_qp_hooks_check();
	return 0;
}

static int rocectl_destroy_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct rocectl_destroy_args *a = (void *)ri->data;
	struct ib_qp *qp = (struct ib_qp *)regs_get_kernel_argument(regs, 0);
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;

	a->slot = rocectl_verb_enter();
	/* The QP is freed by the time we return: note what names it now. */
	a->skip = qp->real_qp != qp;
	a->qp = qp;
	a->dev_index = qp->device->index;
	a->qpn = qp->qp_num;
	a->id = 0;
	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(a->dev_index);
	e = rdev ? rocectl_qp_find_rcu(rdev, a->qpn) : NULL;
	if (e && e->ibqp == qp)
		a->id = e->id;
	rcu_read_unlock();
	return 0;
}

static int rocectl_destroy_ret(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct rocectl_destroy_args *a = (void *)ri->data;

	rocectl_verb_leave(a->slot);
	if (!a->skip && !regs_return_value(regs))
		rocectl_qp_destroyed(a->dev_index, a->qpn, a->qp, a->id);
	rocectl_qp_hooks_check();
	return 0;
}

static struct kretprobe rocectl_qp_probes[] = {
#if ROCECTL_HOOK_USER_CREATE
	{
		.kp.symbol_name = "ib_create_qp_user",
		.entry_handler = rocectl_create_entry,
		.handler = rocectl_create_user_ret,
		.data_size = sizeof(struct rocectl_create_args),
	},
#endif
	{
		.kp.symbol_name = ROCECTL_CREATE_KERNEL_QP,
		.entry_handler = rocectl_create_entry,
		.handler = rocectl_create_kernel_ret,
		.data_size = sizeof(struct rocectl_create_args),
	},
	{
		.kp.symbol_name = "ib_modify_qp_with_udata",
		.entry_handler = rocectl_modify_entry,
		.handler = rocectl_modify_ret,
		.data_size = sizeof(struct rocectl_modify_args),
	},
	{
		.kp.symbol_name = "ib_modify_qp",
		.entry_handler = rocectl_modify_entry,
		.handler = rocectl_modify_ret,
		.data_size = sizeof(struct rocectl_modify_args),
	},
	{
		.kp.symbol_name = "ib_destroy_qp_user",
		.entry_handler = rocectl_destroy_entry,
		.handler = rocectl_destroy_ret,
		.data_size = sizeof(struct rocectl_destroy_args),
	},
};

static struct kretprobe *rocectl_qp_probe_ptrs[ARRAY_SIZE(rocectl_qp_probes)];

/*
 * Calls the probes missed since load, as the kernel counts them: no
 * instance free, or the probe hit while another ran on the CPU.
 */
u64 rocectl_qp_hooks_missed(void)
{
	u64 n = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(rocectl_qp_probes); i++)
		n += READ_ONCE(rocectl_qp_probes[i].nmissed) +
		     READ_ONCE(rocectl_qp_probes[i].kp.nmissed);
	return n;
}

/* What rocectl_qp_hooks_check() reported last. */
static atomic64_t rocectl_qp_missed_seen = ATOMIC64_INIT(0);

static void rocectl_qp_missed_work(struct work_struct *work)
{
	u64 n = rocectl_qp_hooks_missed();

	pr_warn("QP verb calls missed: %llu since load, more at once than the %d instances each hook holds (qp_hook_instances): live QPs marked incomplete\n",
		n, rocectl_qp_probes[0].maxactive);
	rocectl_qps_mark_incomplete();
}

static DECLARE_WORK(rocectl_qp_missed_wk, rocectl_qp_missed_work);

/*
 * From the hooks' return handlers and the readers of the count: a miss
 * not reported yet is logged and marks the live QPs, from a work (the
 * handlers cannot sleep). A few loads per QP verb call.
 */
void rocectl_qp_hooks_check(void)
{
	u64 seen = atomic64_read(&rocectl_qp_missed_seen);
	u64 n = rocectl_qp_hooks_missed();

	if (n != seen && atomic64_cmpxchg(&rocectl_qp_missed_seen, seen, n) == seen)
		schedule_work(&rocectl_qp_missed_wk);
}

/* The benchmark's probe floor: the same probes, handlers that do nothing. */
static int rocectl_qp_floor_handler(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	return 0;
}

int rocectl_qp_hooks_init(void)
{
	int i, err, maxactive;

	maxactive = qp_hook_instances ? qp_hook_instances :
		    max_t(int, ROCECTL_MAXACTIVE_MIN, 2 * num_possible_cpus());
	for (i = 0; i < ARRAY_SIZE(rocectl_qp_probes); i++) {
		struct kretprobe *rp = &rocectl_qp_probes[i];

		rp->maxactive = maxactive;
		if (!ROCECTL_HANDLE_PROBES) {
			if (rp->entry_handler)
				rp->entry_handler = rocectl_qp_floor_handler;
			rp->handler = rocectl_qp_floor_handler;
		}
		rocectl_qp_probe_ptrs[i] = rp;
	}
	rocectl_verb_nslots = maxactive * ARRAY_SIZE(rocectl_qp_probes);
	rocectl_verb_tasks = kcalloc(rocectl_verb_nslots,
				     sizeof(*rocectl_verb_tasks), GFP_KERNEL);
	if (!rocectl_verb_tasks)
		return -ENOMEM;
	err = register_kretprobes(rocectl_qp_probe_ptrs,
				  ARRAY_SIZE(rocectl_qp_probe_ptrs));
	if (err) {
		pr_err("cannot hook the RDMA core's QP verbs: %d\n", err);
		kfree(rocectl_verb_tasks);
	}
	return err;
}

void rocectl_qp_hooks_exit(void)
{
	int i;

	unregister_kretprobes(rocectl_qp_probe_ptrs,
			      ARRAY_SIZE(rocectl_qp_probe_ptrs));
	cancel_work_sync(&rocectl_qp_missed_wk);
	/* Unregistered: no handler runs, no reader (qp_devx.c's users) is left. */
	kfree(rocectl_verb_tasks);
	for (i = 0; i < ARRAY_SIZE(rocectl_qp_probes); i++)
		if (rocectl_qp_probes[i].nmissed)
			pr_warn("%s: %d calls missed (too many at once)\n",
				rocectl_qp_probes[i].kp.symbol_name,
				rocectl_qp_probes[i].nmissed);
}
