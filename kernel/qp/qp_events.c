// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous QP events, the failures a driver reports on its own
 * (IB_EVENT_QP_FATAL, IB_EVENT_QP_REQ_ERR, IB_EVENT_QP_ACCESS_ERR: the
 * QP is in ERR by the specification). Drivers call each QP's
 * event_handler directly; the one place every QP's events pass is the
 * RDMA core's own wrapper, __ib_qp_event_handler(), from Linux 6.12 on
 * (the core installs it on every QP it creates, kernel users' and user
 * QPs'). Before it the only common place is uverbs' handler of user QPs,
 * ib_uverbs_qp_event_handler() (in ib_uverbs, hooked while it is
 * loaded): kernel users' QPs' events go straight to their own handlers,
 * outside rocectl's view. Neither is exported: kretprobes by name, the
 * entry handler noting the event (it may run from a breakpoint), the
 * return handler recording it in the driver's context.
 */
#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "qp_events.h"
#include "qps.h"

#define ROCECTL_UVERBS_MODULE "ib_uverbs"

/* A failure seen where a lock may not be taken bottom-half safe. */
struct rocectl_qp_fail_later {
	struct llist_node node;
	const struct ib_qp *qp;	/* identity only */
	u32 dev_index;
	u32 qpn;
	u8 cause;
};

static LLIST_HEAD(rocectl_qp_fail_list);

static void rocectl_qp_fail_work(struct work_struct *work)
{
	struct llist_node *list = llist_reverse_order(llist_del_all(&rocectl_qp_fail_list));
	struct rocectl_qp_fail_later *f, *t;

	llist_for_each_entry_safe(f, t, list, node) {
		rocectl_qp_failed(f->dev_index, f->qpn, f->qp, f->cause);
		kfree(f);
	}
}

static DECLARE_WORK(rocectl_qp_fail_wk, rocectl_qp_fail_work);

/*
 * From a hook's return handler, in the context the driver called from:
 * recorded now where the QP table's locks may be taken (process or
 * softirq context), else from a work (a hard interrupt: the QP may be
 * gone by then, and is then not recorded).
 */
void rocectl_qp_fail_from_hook(struct ib_qp *qp, u8 cause)
{
	struct rocectl_qp_fail_later *f;

	qp = qp->real_qp;
	if (!hardirq_count() && !irqs_disabled()) {
		rocectl_qp_failed(qp->device->index, qp->qp_num, qp, cause);
		return;
	}
	f = kmalloc(sizeof(*f), GFP_ATOMIC);
	if (!f) {
		/* The allocator said so; the next modify to ERR records it. */
		rocectl_qp_fail_unclaim(qp);
		return;
	}
	f->qp = qp;
	f->dev_index = qp->device->index;
	f->qpn = qp->qp_num;
	f->cause = cause;
	llist_add(&f->node, &rocectl_qp_fail_list);
	schedule_work(&rocectl_qp_fail_wk);
}

struct rocectl_qp_event_args {
	struct ib_qp *qp;
	u8 cause;
};

static int rocectl_qp_event_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct rocectl_qp_event_args *a = (void *)ri->data;
	const struct ib_event *ev;

	ev = (const struct ib_event *)regs_get_kernel_argument(regs, 0);
	a->qp = ev->element.qp;
	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
		a->cause = ROCECTL_QP_ERROR_CAUSE_FATAL;
		break;
	case IB_EVENT_QP_REQ_ERR:
		a->cause = ROCECTL_QP_ERROR_CAUSE_REQ_ERR;
		break;
	case IB_EVENT_QP_ACCESS_ERR:
		a->cause = ROCECTL_QP_ERROR_CAUSE_ACCESS_ERR;
		break;
	default:
		return 1;	/* not a failure: no return handler for it */
	}
	/* Claimed before the event is handed on to its handler. */
	return !a->qp || !rocectl_qp_fail_claim(a->qp->real_qp, false);
}

/* The event is the caller's, alive until it returns here. */
static int rocectl_qp_event_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct rocectl_qp_event_args *a = (void *)ri->data;

	rocectl_qp_fail_from_hook(a->qp, a->cause);
	return 0;
}

static struct kretprobe rocectl_qp_event_rp = {
	.entry_handler = rocectl_qp_event_entry,
	.handler = rocectl_qp_event_ret,
	.data_size = sizeof(struct rocectl_qp_event_args),
	.maxactive = 64,
};

static DEFINE_MUTEX(rocectl_qp_events_lock);	/* what is armed */
static const char *rocectl_qp_event_armed;	/* the hooked function */

/* A kretprobe cannot be registered twice: each try starts from a clean struct. */
static int rocectl_qp_event_try(const char *symbol)
{
	memset(&rocectl_qp_event_rp.kp, 0, sizeof(rocectl_qp_event_rp.kp));
	rocectl_qp_event_rp.kp.symbol_name = symbol;
	rocectl_qp_event_rp.nmissed = 0;
	return register_kretprobe(&rocectl_qp_event_rp);
}

static void rocectl_qp_events_arm(void)
{
	static const char * const where[] = {
		"__ib_qp_event_handler", "ib_uverbs_qp_event_handler",
	};
	int i, err = -ENOENT;

	mutex_lock(&rocectl_qp_events_lock);
	for (i = 0; !rocectl_qp_event_armed && i < ARRAY_SIZE(where); i++) {
		err = rocectl_qp_event_try(where[i]);
		if (!err) {
			rocectl_qp_event_armed = where[i];
			pr_info("QP asynchronous events seen at %s%s\n", where[i],
				i ? " (user QPs only)" : "");
		} else if (err != -ENOENT && err != -EINVAL) {
			pr_warn("cannot hook QP asynchronous events at %s (%d)\n",
				where[i], err);
		}
	}
	mutex_unlock(&rocectl_qp_events_lock);
}

static void rocectl_qp_events_disarm(bool uverbs_only)
{
	mutex_lock(&rocectl_qp_events_lock);
	if (rocectl_qp_event_armed &&
	    (!uverbs_only || !strcmp(rocectl_qp_event_armed,
				     "ib_uverbs_qp_event_handler"))) {
		unregister_kretprobe(&rocectl_qp_event_rp);
		rocectl_qp_event_armed = NULL;
	}
	mutex_unlock(&rocectl_qp_events_lock);
}

static int rocectl_qp_events_module(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, ROCECTL_UVERBS_MODULE))
		return NOTIFY_DONE;
	if (action == MODULE_STATE_LIVE)
		rocectl_qp_events_arm();
	else if (action == MODULE_STATE_GOING)
		rocectl_qp_events_disarm(true);
	return NOTIFY_OK;
}

static struct notifier_block rocectl_qp_events_nb = {
	.notifier_call = rocectl_qp_events_module,
};

int rocectl_qp_events_init(void)
{
	int err = register_module_notifier(&rocectl_qp_events_nb);

	if (err)
		return err;
	rocectl_qp_events_arm();
	return 0;
}

void rocectl_qp_events_exit(void)
{
	unregister_module_notifier(&rocectl_qp_events_nb);
	rocectl_qp_events_disarm(false);
	flush_work(&rocectl_qp_fail_wk);
}
