// SPDX-License-Identifier: GPL-2.0
/*
 * DevX QPs: the QP and DCT commands of DevX user contexts, seen at
 * mlx5_core's exported command entry and reported to rocectl.ko's QP
 * table (qp_devx.c). mlx5_ib passes a DevX context's commands through
 * unread: the entry is where every one of them passes, on every kernel
 * (mlx5_cmd_do from 5.18, which mlx5_cmd_exec calls; mlx5_cmd_exec
 * before), and mlx5_ib's own handlers are static. A kretprobe: the entry
 * handler keeps the buffers of QP commands that carry a user context's
 * uid and lets every other command go at once; the return handler decodes
 * the command and its outbox (qp_cmd.c) once the firmware accepted it.
 *
 * A command the kretprobe cannot follow (its instances all held by
 * commands still in the firmware) never reaches the entry handler: a
 * plain kprobe on the same entry tells it. Probes on one address run in
 * one hit, on one CPU with preemption off, the one registered last first
 * (the kprobes core adds each at the head of the address's list, 5.10 to
 * 7.2): the plain kprobe is registered before the kretprobe, so the entry
 * handler, which runs only when it has an instance, marks the hit seen in
 * a per-CPU flag before the plain kprobe's handler reads it. A hit without
 * the mark reached no entry handler: the plain kprobe decodes it then
 * (and only then) and counts a wanted command as missed, on its device
 * (rocectl_devx_missed()). Not a post handler:
 * one joining a probe already armed through ftrace is disarmed through
 * the wrong ftrace ops at unregistration (6.1, 6.12), which leaves the
 * probe behind.
 */
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/mlx5/driver.h>
#include <linux/mlx5/qp.h>
#include <linux/rocectl.h>
#include "probe_floor.h"
#include "qp/qp_devx.h"
#include "devx.h"
#include "qp_cmd.h"

static char *devx_cmd_fn = ROCECTL_MLX5_CMD_FN;
module_param(devx_cmd_fn, charp, 0444);
MODULE_PARM_DESC(devx_cmd_fn,
		 "the function whose QP and DCT commands are watched for DevX QPs: mlx5_core's command entry (the default), a test module's, or empty for none");

/*
 * QP commands of user contexts in the firmware at once that the hook
 * follows: each holds an instance until the firmware answers (queued
 * behind the command interface, up to its 60 s timeout); one beyond them
 * is missed. The verbs' own commands hold none (rm5_devx_entry()).
 */
#define RM5_DEVX_INSTANCES_MIN 256
static unsigned int devx_instances;
module_param(devx_instances, uint, 0444);
MODULE_PARM_DESC(devx_instances,
		 "DevX QP commands in the firmware at once that are followed (0: max(256, 2 per CPU)); one beyond them is missed");

struct rm5_devx_args {
	struct mlx5_core_dev *dev;
	const void *in;
	const void *out;
	int in_size;
	int out_size;
};

/* This CPU's hit of the entry reached rm5_devx_entry(), which decided it. */
static DEFINE_PER_CPU(bool, rm5_devx_seen);

/* Whether the command at the entry is one the hook follows: a user context's QP command. */
static bool rm5_devx_wanted(struct pt_regs *regs)
{
	const void *in = (const void *)regs_get_kernel_argument(regs, 1);
	int in_size = (int)regs_get_kernel_argument(regs, 2);

	return in && in_size >= MLX5_ST_SZ_BYTES(qp_2err_in) &&
	       MLX5_GET(qp_2err_in, in, uid) &&
	       rm5_qp_cmd_opcode(MLX5_GET(qp_2err_in, in, opcode)) &&
	       rocectl_devx_cmd_wanted();
}

/* A user context's QP or DCT command: followed to its return. */
static int rm5_devx_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rm5_devx_args *a = (void *)ri->data;

	this_cpu_write(rm5_devx_seen, true);
	if (!rm5_devx_wanted(regs))
		return 1;
	a->dev = (struct mlx5_core_dev *)regs_get_kernel_argument(regs, 0);
	a->in = (const void *)regs_get_kernel_argument(regs, 1);
	a->in_size = (int)regs_get_kernel_argument(regs, 2);
	a->out = (const void *)regs_get_kernel_argument(regs, 3);
	a->out_size = (int)regs_get_kernel_argument(regs, 4);
	return 0;
}

/* Both probes are in place: a wanted hit without the mark is a miss. */
static bool rm5_devx_counting;

/*
 * After the kretprobe's handler in the same hit: a command its entry
 * handler never saw (no instance free) is counted on its device if the
 * hook wanted it.
 */
static int rm5_devx_after(struct kprobe *p, struct pt_regs *regs)
{
	struct mlx5_core_dev *dev;

	if (this_cpu_read(rm5_devx_seen)) {
		this_cpu_write(rm5_devx_seen, false);
		return 0;
	}
	if (!READ_ONCE(rm5_devx_counting) || !rm5_devx_wanted(regs))
		return 0;
	dev = (struct mlx5_core_dev *)regs_get_kernel_argument(regs, 0);
	if (dev)
		rocectl_devx_missed(dev->device);
	return 0;
}

/* mlx5's service types, as the RDMA core's QP types (DCI: a driver type). */
static u8 rm5_devx_type(u8 st)
{
	switch (st) {
	case MLX5_QP_ST_RC:
		return ROCECTL_QPT_RC;
	case MLX5_QP_ST_UC:
		return ROCECTL_QPT_UC;
	case MLX5_QP_ST_UD:
		return ROCECTL_QPT_UD;
	default:
		return ROCECTL_QPT_DRIVER;
	}
}

/* A decoded command, as rocectl.ko's QP table takes it. */
static void rm5_devx_translate(const struct rm5_qp_cmd *m, struct rocectl_devx_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->qpn = m->qpn;
	c->has_counter_set = m->has_counter_set;
	c->counter_set = m->counter_set_id;
	c->dest_qpn = m->remote_qpn;
	if (m->has_path) {
		c->has_path = true;
		c->tclass = m->dscp << 2 | m->ecn;
		c->sl = m->eth_prio;
		c->sport = m->udp_sport;
	}
	switch (m->op) {
	case RM5_QP_CREATE:
		c->op = ROCECTL_DEVX_CREATE;
		c->type = rm5_devx_type(m->st);
		c->state = RM5_QPS_RESET;
		break;
	case RM5_DCT_CREATE:
		c->op = ROCECTL_DEVX_CREATE_READY;
		c->type = ROCECTL_QPT_DRIVER;
		c->state = RM5_QPS_RTR;	/* a target: receives only */
		break;
	case RM5_QP_MODIFY:
		c->op = ROCECTL_DEVX_MOVE;
		c->state = m->to;
		break;
	default:
		c->op = ROCECTL_DEVX_DESTROY;
		break;
	}
}

static int rm5_devx_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rm5_devx_args *a = (void *)ri->data;
	struct rocectl_devx_cmd c;
	struct rm5_qp_cmd m;

	if (regs_return_value(regs) || !a->dev || !a->out ||
	    rm5_qp_cmd_in(a->in, a->in_size, &m) ||
	    rm5_qp_cmd_out(a->out, a->out_size, &m))
		return 0;
	rm5_devx_translate(&m, &c);
	/* mlx5_ib gives its ib_device the PCI function's device as parent. */
	rocectl_devx_cmd(a->dev->device, &c);
	return 0;
}

static struct kretprobe rm5_devx_probe = {
	.entry_handler = rm5_devx_entry,
	.handler = rm5_devx_ret,
	.data_size = sizeof(struct rm5_devx_args),
};

static struct kprobe rm5_devx_miss_probe = {
	.pre_handler = rm5_devx_after,
};

static bool rm5_devx_on;

/* The benchmark's probe floor: the probe, handlers that do nothing. */
static int rm5_devx_floor(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

int rm5_devx_init(void)
{
	int err;

	if (!devx_cmd_fn || !*devx_cmd_fn)
		return 0;
	rm5_devx_probe.kp.symbol_name = devx_cmd_fn;
	rm5_devx_probe.maxactive = devx_instances ? devx_instances :
				   max_t(int, RM5_DEVX_INSTANCES_MIN, 2 * num_possible_cpus());
	if (!ROCECTL_HANDLE_PROBES) {
		rm5_devx_probe.entry_handler = rm5_devx_floor;
		rm5_devx_probe.handler = rm5_devx_floor;
	}
	/* First: its handler runs after the kretprobe's (see the top). */
	if (ROCECTL_HANDLE_PROBES) {
		rm5_devx_miss_probe.symbol_name = devx_cmd_fn;
		err = register_kprobe(&rm5_devx_miss_probe);
		if (err) {
			pr_err("cannot hook %s for DevX QP commands missed: %d\n",
			       devx_cmd_fn, err);
			return err;
		}
	}
	err = register_kretprobe(&rm5_devx_probe);
	if (err) {
		pr_err("cannot hook %s for DevX QPs: %d\n", devx_cmd_fn, err);
		if (ROCECTL_HANDLE_PROBES)
			unregister_kprobe(&rm5_devx_miss_probe);
		return err;
	}
	WRITE_ONCE(rm5_devx_counting, true);
	rm5_devx_on = true;
	return 0;
}

void rm5_devx_exit(void)
{
	if (!rm5_devx_on)
		return;
	WRITE_ONCE(rm5_devx_counting, false);
	unregister_kretprobe(&rm5_devx_probe);
	if (ROCECTL_HANDLE_PROBES)
		unregister_kprobe(&rm5_devx_miss_probe);
	if (rm5_devx_probe.nmissed)
		pr_warn("DevX QP commands missed since load: %d, more than devx_instances=%d at once (counted per device in dev stats)\n",
			rm5_devx_probe.nmissed, rm5_devx_probe.maxactive);
}
