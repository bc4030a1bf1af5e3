// SPDX-License-Identifier: GPL-2.0
/*
 * rxe_stall.ko, for the guest tests only: soft-RoCE made as slow as a
 * loaded host. rdma_rxe posts an error completion, then moves the QP to
 * ERR (rxe_completer(), rxe_responder()); on a busy host the application
 * can see the completion and move the QP itself in between. This module
 * holds the driver there, stall_ms after each error completion (not a
 * flush) is posted, or until 50 ms after a modify came, so that a test
 * opens that window at will.
 *   insmod rxe_stall.ko [stall_ms=N]
 * /sys/module/rxe_stall/parameters/stalled counts the stalls, answered
 * the QP modifies (ib_modify_qp_with_udata(), the path of every user
 * modify) that came while the driver was held: the window was used.
 */
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include "../../kernel/packet/rxe_cqe.h"

static unsigned int stall_ms = 300;
module_param(stall_ms, uint, 0644);
MODULE_PARM_DESC(stall_ms, "how long soft-RoCE is held after an error completion, ms (1000 at most)");

static unsigned int stalled;
module_param(stalled, uint, 0444);
MODULE_PARM_DESC(stalled, "error completions held so far");

static unsigned int answered;
module_param(answered, uint, 0444);
MODULE_PARM_DESC(answered, "QP modifies made while soft-RoCE was held");

static bool holding;
static unsigned int answered_before;	/* answered when this hold began */

/* rxe_cq_post(struct rxe_cq *cq, struct rxe_cqe *cqe, int solicited) */
static int rxe_stall_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const union rocectl_rxe_cqe *cqe = (void *)regs_get_kernel_argument(regs, 1);

	/* 0: hold it at the return, once the completion is out. */
	return !rocectl_rxe_cqe_failed(cqe);
}

/* Once a modify came: this much longer, for it to reach its driver. */
#define RXE_STALL_AFTER_MS 50

static int rxe_stall_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int ms = min(READ_ONCE(stall_ms), 1000U), seen = 0, t;

	WRITE_ONCE(holding, true);
	for (t = 0; t < ms; t++) {
		mdelay(1);
		if (!seen && READ_ONCE(answered) != READ_ONCE(answered_before))
			seen = t;
		if (seen && t >= seen + RXE_STALL_AFTER_MS)
			break;
	}
	WRITE_ONCE(holding, false);
	WRITE_ONCE(answered_before, READ_ONCE(answered));
	WRITE_ONCE(stalled, stalled + 1);
	return 0;
}

static int rxe_stall_modify(struct kprobe *kp, struct pt_regs *regs)
{
	if (READ_ONCE(holding))
		WRITE_ONCE(answered, answered + 1);
	return 0;
}

static struct kprobe rxe_stall_modify_kp = {
	.symbol_name = "ib_modify_qp_with_udata",
	.pre_handler = rxe_stall_modify,
};

static struct kretprobe rxe_stall_rp = {
	.kp.symbol_name = "rxe_cq_post",
	.entry_handler = rxe_stall_entry,
	.handler = rxe_stall_ret,
	.maxactive = 16,
};

static int __init rxe_stall_init(void)
{
	int err = register_kprobe(&rxe_stall_modify_kp);

	if (err) {
		pr_err("cannot hook ib_modify_qp_with_udata (%d)\n", err);
		return err;
	}
	err = register_kretprobe(&rxe_stall_rp);
	if (err) {
		pr_err("cannot hook rxe_cq_post (%d): is rdma_rxe loaded?\n", err);
		unregister_kprobe(&rxe_stall_modify_kp);
	}
	return err;
}

static void __exit rxe_stall_exit(void)
{
	unregister_kretprobe(&rxe_stall_rp);
	unregister_kprobe(&rxe_stall_modify_kp);
}

module_init(rxe_stall_init);
module_exit(rxe_stall_exit);
MODULE_DESCRIPTION("Test only: holds soft-RoCE between an error completion and its move of the QP to ERR");
MODULE_LICENSE("GPL");
