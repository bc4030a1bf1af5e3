// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: DevX-shaped firmware commands, for rocectl_mlx5's DevX hook
 * (loaded with devx_cmd_fn=simrdma_devx_cmd). The debugfs file "devx"
 * builds QP and DCT commands with mlx5_ifc.h's own layouts (MLX5_SET) and
 * passes them, as mlx5_ib passes a DevX context's, to a function of
 * mlx5_cmd_do()'s signature: simrdma_devx_cmd(), the simulated firmware.
 * Its mlx5_core_dev is a zeroed one whose device is the simrdma device's
 * parent, as a ConnectX function's PCI device is mlx5_ib's. With
 * "verbs 1", simrdma's own QP verbs issue the same commands with a uid, as
 * mlx5_ib's verbs do for a user context: none of those is a DevX QP's.
 */
#include <linux/delay.h>
#include <linux/mlx5/driver.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/qp.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "simrdma.h"

int simrdma_devx_cmd(struct mlx5_core_dev *dev, void *in, int in_size,
		     void *out, int out_size);

/* The device a command names: its parent is the simrdma device's. */
static struct simrdma_dev *simrdma_devx_sdev(struct mlx5_core_dev *dev)
{
	return dev_get_drvdata(dev->device);
}

/*
 * The simulated firmware: QPN (or DCTN) allocation and the outbox's
 * status; a command after "fail" is refused with a bad status. Moves and
 * destroys of QPs it does not know are accepted: the verbs' own QPs.
 * After "slow MS" every command takes MS, sleeping outside the lock:
 * commands overlap in the firmware, as a loaded ConnectX's queue behind
 * its command interface.
 */
noinline int simrdma_devx_cmd(struct mlx5_core_dev *dev, void *in, int in_size,
			      void *out, int out_size)
{
	struct simrdma_dev *sd = simrdma_devx_sdev(dev);
	u16 opcode = MLX5_GET(qp_2err_in, in, opcode);
	unsigned int slow;
	bool fail;
	int qpn;

	memset(out, 0, out_size);
	mutex_lock(&sd->devx_lock);
	fail = sd->devx_fail;
	sd->devx_fail = false;
	if (fail) {
		mutex_unlock(&sd->devx_lock);
		MLX5_SET(qp_2err_out, out, status, MLX5_CMD_STAT_BAD_PARAM_ERR);
		return -EREMOTEIO;
	}
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_QP:
	case MLX5_CMD_OP_CREATE_DCT:
		qpn = ida_alloc_range(&sd->qpn_ida, SIMRDMA_QPN_FIRST,
				      SIMRDMA_QPN_LAST, GFP_KERNEL);
		if (qpn < 0)
			break;
		xa_store(&sd->devx_qps, qpn, xa_mk_value(opcode), GFP_KERNEL);
		if (opcode == MLX5_CMD_OP_CREATE_QP)
			MLX5_SET(create_qp_out, out, qpn, qpn);
		else
			MLX5_SET(create_dct_out, out, dctn, qpn);
		sd->devx_last = qpn;
		break;
	case MLX5_CMD_OP_DESTROY_QP:
	case MLX5_CMD_OP_DESTROY_DCT:
		qpn = opcode == MLX5_CMD_OP_DESTROY_QP ?
		      MLX5_GET(destroy_qp_in, in, qpn) :
		      MLX5_GET(destroy_dct_in, in, dctn);
		if (xa_erase(&sd->devx_qps, qpn))
			ida_free(&sd->qpn_ida, qpn);
		break;
	default:
		qpn = 0;
		break;
	}
	slow = sd->devx_slow_ms;
	mutex_unlock(&sd->devx_lock);
	if (slow)
		msleep(slow);
	if (qpn < 0) {
		MLX5_SET(qp_2err_out, out, status, MLX5_CMD_STAT_LIM_ERR);
		return -EREMOTEIO;
	}
	return 0;
}

/* One command to the simulated firmware, as DevX or a verb issues it. */
static int simrdma_devx_exec(struct simrdma_dev *sd, void *in, int in_size)
{
	u32 out[MLX5_ST_SZ_DW(create_qp_out)] = {};

	BUILD_BUG_ON(sizeof(out) < MLX5_ST_SZ_BYTES(create_dct_out));
	return simrdma_devx_cmd(sd->devx_mdev, in, in_size, out, sizeof(out));
}

struct simrdma_devx_args {
	u32 uid, st, cntset, rqpn, dscp, ecn, prio, sport, opt;
};

/* "key=value" words after the command; unknown keys are an error. */
static int simrdma_devx_parse(char *s, struct simrdma_devx_args *a)
{
	static const char * const keys[] = {
		"uid", "st", "cntset", "rqpn", "dscp", "ecn", "prio", "sport", "opt",
	};
	u32 *vals = (u32 *)a;
	char *w, *v;
	int i;

	BUILD_BUG_ON(sizeof(*a) != ARRAY_SIZE(keys) * sizeof(u32));
	while ((w = strsep(&s, " ")) != NULL) {
		if (!*w)
			continue;
		v = strchr(w, '=');
		if (!v)
			return -EINVAL;
		*v++ = '\0';
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(w, keys[i]))
				break;
		if (i == ARRAY_SIZE(keys) || kstrtou32(v, 0, &vals[i]))
			return -EINVAL;
	}
	return 0;
}

/* A move's context and path, from the arguments. */
static void simrdma_devx_qpc(void *qpc, const struct simrdma_devx_args *a,
			     bool path)
{
	void *ads = MLX5_ADDR_OF(qpc, qpc, primary_address_path);

	MLX5_SET(qpc, qpc, counter_set_id, a->cntset);
	MLX5_SET(qpc, qpc, remote_qpn, a->rqpn);
	if (!path)
		return;
	MLX5_SET(ads, ads, dscp, a->dscp);
	MLX5_SET(ads, ads, ecn, a->ecn);
	MLX5_SET(ads, ads, eth_prio, a->prio);
	MLX5_SET(ads, ads, udp_sport, a->sport);
}

/* The command's inbox: the largest of those built here. */
#define SIMRDMA_DEVX_IN_MAX MLX5_ST_SZ_BYTES(create_qp_in)

static int simrdma_devx_do(struct simrdma_dev *sd, const char *cmd, u32 qpn,
			   const struct simrdma_devx_args *a)
{
	static const struct {
		const char *name;
		u16 opcode;
		bool ctx, path;
	} moves[] = {
		{ "rst2init", MLX5_CMD_OP_RST2INIT_QP, true, false },
		{ "init2rtr", MLX5_CMD_OP_INIT2RTR_QP, true, true },
		{ "rtr2rts", MLX5_CMD_OP_RTR2RTS_QP, true, true },
		{ "rts2rts", MLX5_CMD_OP_RTS2RTS_QP, true, true },
		{ "sqd2rts", MLX5_CMD_OP_SQD_RTS_QP, true, true },
		{ "init2init", MLX5_CMD_OP_INIT2INIT_QP, true, true },
		{ "2err", MLX5_CMD_OP_2ERR_QP, false, false },
		{ "2rst", MLX5_CMD_OP_2RST_QP, false, false },
		{ "destroy_qp", MLX5_CMD_OP_DESTROY_QP, false, false },
		/* No QP command: the hook lets it go at its entry. */
		{ "nop", MLX5_CMD_OP_NOP, false, false },
	};
	void *in, *qpc;
	int i, err, size;

	BUILD_BUG_ON(MLX5_ST_SZ_BYTES(init2rtr_qp_in) > SIMRDMA_DEVX_IN_MAX ||
		     MLX5_ST_SZ_BYTES(create_dct_in) > SIMRDMA_DEVX_IN_MAX);
	in = kzalloc(SIMRDMA_DEVX_IN_MAX, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	err = -EINVAL;
	if (!strcmp(cmd, "create_qp")) {
		MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
		MLX5_SET(create_qp_in, in, uid, a->uid);
		qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
		MLX5_SET(qpc, qpc, st, a->st);
		MLX5_SET(qpc, qpc, counter_set_id, a->cntset);
		err = simrdma_devx_exec(sd, in, MLX5_ST_SZ_BYTES(create_qp_in));
	} else if (!strcmp(cmd, "create_dct")) {
		MLX5_SET(create_dct_in, in, opcode, MLX5_CMD_OP_CREATE_DCT);
		MLX5_SET(create_dct_in, in, uid, a->uid);
		qpc = MLX5_ADDR_OF(create_dct_in, in, dct_context_entry);
		MLX5_SET(dctc, qpc, counter_set_id, a->cntset);
		MLX5_SET(dctc, qpc, dscp, a->dscp);
		MLX5_SET(dctc, qpc, ecn, a->ecn);
		MLX5_SET(dctc, qpc, eth_prio, a->prio);
		err = simrdma_devx_exec(sd, in, MLX5_ST_SZ_BYTES(create_dct_in));
	} else if (!strcmp(cmd, "destroy_dct")) {
		MLX5_SET(destroy_dct_in, in, opcode, MLX5_CMD_OP_DESTROY_DCT);
		MLX5_SET(destroy_dct_in, in, uid, a->uid);
		MLX5_SET(destroy_dct_in, in, dctn, qpn);
		err = simrdma_devx_exec(sd, in, MLX5_ST_SZ_BYTES(destroy_dct_in));
	}
	for (i = 0; i < ARRAY_SIZE(moves) && err == -EINVAL; i++) {
		if (strcmp(cmd, moves[i].name))
			continue;
		/* Every move's inbox starts as 2ERR_QP's: opcode, uid, qpn (NOP's too). */
		MLX5_SET(qp_2err_in, in, opcode, moves[i].opcode);
		MLX5_SET(qp_2err_in, in, uid, a->uid);
		MLX5_SET(qp_2err_in, in, qpn, qpn);
		size = MLX5_ST_SZ_BYTES(qp_2err_in);
		if (moves[i].ctx) {
			/* Every move with a context: INIT2RTR's layout (qp_cmd.c checks it). */
			MLX5_SET(init2rtr_qp_in, in, opt_param_mask, a->opt);
			qpc = MLX5_ADDR_OF(init2rtr_qp_in, in, qpc);
			simrdma_devx_qpc(qpc, a, moves[i].path);
			size = MLX5_ST_SZ_BYTES(init2rtr_qp_in);
		} else if (moves[i].opcode == MLX5_CMD_OP_DESTROY_QP) {
			size = MLX5_ST_SZ_BYTES(destroy_qp_in);
		}
		err = simrdma_devx_exec(sd, in, size);
	}
	kfree(in);
	return err;
}

/* From simrdma's QP verbs: the command mlx5_ib's would issue, with a uid. */
void simrdma_devx_verb(struct simrdma_dev *sd, const char *cmd, u32 qpn)
{
	struct simrdma_devx_args a = { .uid = 1 };
	u32 last;

	if (!READ_ONCE(sd->devx_verbs) || !sd->devx_mdev)
		return;
	if (simrdma_devx_do(sd, cmd, qpn, &a) || strcmp(cmd, "create_qp"))
		return;
	/* The verb's QPN is simrdma's own: the firmware's goes again. */
	mutex_lock(&sd->devx_lock);
	last = sd->devx_last;
	mutex_unlock(&sd->devx_lock);
	simrdma_devx_do(sd, "destroy_qp", last, &a);
}

/*
 * "bench N CMD QPN [key=value ...]": the command N times, the time they
 * took kept for "devx"'s read (bench_ns): what a hook on the command
 * function adds per command, against the same loop without it.
 */
static int simrdma_devx_bench(struct simrdma_dev *sd, char *rest)
{
	struct simrdma_devx_args a = { .uid = 1 };
	char *w, *cmd;
	u32 n, i, qpn;
	u64 t0;
	int err = 0;

	w = strsep(&rest, " ");
	cmd = strsep(&rest, " ");
	if (!w || kstrtou32(w, 0, &n) || !n || n > 10000000 || !cmd ||
	    !strncmp(cmd, "create_", 7) || !strncmp(cmd, "destroy_", 8))
		return -EINVAL;
	w = strsep(&rest, " ");
	if (!w || kstrtou32(w, 0, &qpn))
		return -EINVAL;
	if (rest && simrdma_devx_parse(rest, &a))
		return -EINVAL;
	t0 = ktime_get_ns();
	for (i = 0; i < n && !err; i++) {
		err = simrdma_devx_do(sd, cmd, qpn, &a);
		cond_resched();
	}
	sd->devx_bench_ns = ktime_get_ns() - t0;
	return err;
}

/* "CMD [QPN] [key=value ...]", "verbs 0|1", "fail" (the next command), "slow MS". */
ssize_t simrdma_devx_write(struct simrdma_dev *sd, char *buf, size_t len)
{
	struct simrdma_devx_args a = { .uid = 1 };
	char *cmd, *rest = buf;
	u32 qpn = 0;
	bool on;
	int err;

	cmd = strsep(&rest, " ");
	if (!strcmp(cmd, "fail")) {
		if (rest)
			return -EINVAL;
		mutex_lock(&sd->devx_lock);
		sd->devx_fail = true;
		mutex_unlock(&sd->devx_lock);
		return len;
	}
	if (!strcmp(cmd, "slow")) {
		unsigned int ms;

		if (!rest || kstrtouint(rest, 0, &ms) || ms > 60000)
			return -EINVAL;
		mutex_lock(&sd->devx_lock);
		sd->devx_slow_ms = ms;
		mutex_unlock(&sd->devx_lock);
		return len;
	}
	if (!strcmp(cmd, "verbs")) {
		if (!rest || kstrtobool(rest, &on))
			return -EINVAL;
		WRITE_ONCE(sd->devx_verbs, on);
		return len;
	}
	if (!strcmp(cmd, "bench"))
		return simrdma_devx_bench(sd, rest) ?: len;
	if (strncmp(cmd, "create_", 7)) {
		char *w = strsep(&rest, " ");

		if (!w || kstrtou32(w, 0, &qpn))
			return -EINVAL;
	}
	if (rest && simrdma_devx_parse(rest, &a))
		return -EINVAL;
	err = simrdma_devx_do(sd, cmd, qpn, &a);
	return err ?: len;
}

/* The QPs and DCTs the simulated firmware holds; the last created first. */
int simrdma_devx_show(struct seq_file *m, struct simrdma_dev *sd)
{
	unsigned long qpn;
	void *v;

	mutex_lock(&sd->devx_lock);
	seq_printf(m, "last %u\n", sd->devx_last);
	seq_printf(m, "bench_ns %llu\n", sd->devx_bench_ns);
	xa_for_each(&sd->devx_qps, qpn, v)
		seq_printf(m, "%lu %s\n", qpn,
			   xa_to_value(v) == MLX5_CMD_OP_CREATE_DCT ? "dct" : "qp");
	mutex_unlock(&sd->devx_lock);
	return 0;
}

int simrdma_devx_init(struct simrdma_dev *sd, const char *name)
{
	char *pname;

	mutex_init(&sd->devx_lock);
	xa_init(&sd->devx_qps);
	pname = kasprintf(GFP_KERNEL, "simrdma-%s", name);
	if (!pname)
		return -ENOMEM;
	sd->devx_parent = root_device_register(pname);
	kfree(pname);
	if (IS_ERR(sd->devx_parent)) {
		sd->devx_parent = NULL;
		return -ENOMEM;
	}
	dev_set_drvdata(sd->devx_parent, sd);
	sd->devx_mdev = kvzalloc(sizeof(*sd->devx_mdev), GFP_KERNEL);
	if (!sd->devx_mdev)
		return -ENOMEM;
	sd->devx_mdev->device = sd->devx_parent;
	sd->ibdev.dev.parent = sd->devx_parent;
	return 0;
}

void simrdma_devx_exit(struct simrdma_dev *sd)
{
	unsigned long qpn;
	void *v;

	xa_for_each(&sd->devx_qps, qpn, v)
		ida_free(&sd->qpn_ida, qpn);
	xa_destroy(&sd->devx_qps);
	kvfree(sd->devx_mdev);
	sd->devx_mdev = NULL;
	if (sd->devx_parent)
		root_device_unregister(sd->devx_parent);
	sd->devx_parent = NULL;
	mutex_destroy(&sd->devx_lock);
}
