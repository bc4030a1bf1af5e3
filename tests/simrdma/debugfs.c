// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: the debugfs knobs (see README). Writes answer EINVAL for
 * malformed input and change nothing then.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include "simrdma.h"

static struct dentry *simrdma_ddir;

#define SIMRDMA_CMD_MAX 128

/* The user's line, NUL-terminated, without its newline. */
static int simrdma_read_cmd(const char __user *ubuf, size_t len,
			    char *buf)
{
	if (!len || len >= SIMRDMA_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	return 0;
}

static ssize_t simrdma_new_device_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	char buf[SIMRDMA_CMD_MAX], name[IB_DEVICE_NAME_MAX], ifname[IFNAMSIZ];
	char extra;
	int err;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	/* "NAME NETDEV" */
	if (sscanf(buf, "%63s %15s %c", name, ifname, &extra) != 2)
		return -EINVAL;
	err = simrdma_dev_new(name, ifname);
	return err ?: len;
}

static ssize_t simrdma_del_device_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	char buf[SIMRDMA_CMD_MAX];
	int err;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	err = simrdma_dev_del(buf);
	return err ?: len;
}

static const struct file_operations simrdma_new_device_fops = {
	.open = simple_open,
	.write = simrdma_new_device_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

static const struct file_operations simrdma_del_device_fops = {
	.open = simple_open,
	.write = simrdma_del_device_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

/* --- per device ---------------------------------------------------------- */

static const char * const simrdma_state_names[] = {
	[IB_QPS_RESET] = "reset", [IB_QPS_INIT] = "init", [IB_QPS_RTR] = "rtr",
	[IB_QPS_RTS] = "rts", [IB_QPS_SQD] = "sqd", [IB_QPS_SQE] = "sqe",
	[IB_QPS_ERR] = "err",
};

static int simrdma_state_show(struct seq_file *m, void *v)
{
	struct simrdma_dev *sd = m->private;
	int i;

	mutex_lock(&sd->lock);
	seq_printf(m, "counters_max %u\ncounters_used %u\nbind_refused %u\n",
		   sd->counters_max, sd->counters_used, sd->bind_refused);
	seq_puts(m, "optional_enabled");
	for (i = SIMRDMA_NUM_Q; i < SIMRDMA_NUM_STATS; i++)
		if (test_bit(i - SIMRDMA_NUM_Q, &sd->opt_enabled))
			seq_printf(m, " %s", simrdma_stat_names[i]);
	seq_putc(m, '\n');
	mutex_unlock(&sd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simrdma_state);

static ssize_t simrdma_counters_max_write(struct file *file,
					  const char __user *ubuf, size_t len,
					  loff_t *ppos)
{
	struct simrdma_dev *sd = file->private_data;
	char buf[SIMRDMA_CMD_MAX];
	u32 max;
	int err;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	if (kstrtou32(buf, 10, &max) || max > SIMRDMA_COUNTERS_LIMIT)
		return -EINVAL;
	mutex_lock(&sd->lock);
	sd->counters_max = max;
	mutex_unlock(&sd->lock);
	return len;
}

static const struct file_operations simrdma_counters_max_fops = {
	.open = simple_open,
	.write = simrdma_counters_max_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

/* Every QP of the device: "QPN STATE COUNTER" (counter 0: none). */
static int simrdma_qps_show(struct seq_file *m, void *v)
{
	struct simrdma_dev *sd = m->private;
	struct simrdma_qp *sq;
	unsigned long i;

	mutex_lock(&sd->lock);
	xa_for_each(&sd->qps, i, sq)
		seq_printf(m, "%lu %s %u\n", i, simrdma_state_names[sq->state],
			   sq->hwc);
	mutex_unlock(&sd->lock);
	return 0;
}

static int simrdma_qps_open(struct inode *inode, struct file *file)
{
	return single_open(file, simrdma_qps_show, inode->i_private);
}

static int simrdma_parse_state(const char *s, enum ib_qp_state *state)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(simrdma_state_names); i++)
		if (simrdma_state_names[i] && !strcmp(s, simrdma_state_names[i]) &&
		    i != IB_QPS_SQD && i != IB_QPS_SQE) {
			*state = i;
			return 0;
		}
	return -EINVAL;
}

/*
 * "create N [uc]", "modify QPN|all STATE [TCLASS]" (STATE: reset, init, rtr,
 * rts, err), "destroy QPN|all", "sport QPN PORT" (the raw context's UDP
 * source port, changed behind the kernel's back).
 */
static ssize_t simrdma_qps_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	struct simrdma_dev *sd = ((struct seq_file *)file->private_data)->private;
	char buf[SIMRDMA_CMD_MAX], cmd[16], which[16], st[16];
	enum ib_qp_state state;
	unsigned int n, tclass = 0;
	u16 sport;
	bool all;
	u32 qpn = 0;
	int err, f;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	f = sscanf(buf, "%15s %15s %15s %u", cmd, which, st, &tclass);
	if (f < 2)
		return -EINVAL;
	if (!strcmp(cmd, "create")) {
		if (f > 3 || kstrtouint(which, 10, &n) || !n ||
		    n > SIMRDMA_MAX_QP || (f == 3 && strcmp(st, "uc")))
			return -EINVAL;
		err = simrdma_test_qps_create(sd, n,
					      f == 3 ? IB_QPT_UC : IB_QPT_RC);
		return err ?: len;
	}
	all = !strcmp(which, "all");
	if (!all && kstrtou32(which, 10, &qpn))
		return -EINVAL;
	if (!strcmp(cmd, "modify")) {
		if (f < 3 || simrdma_parse_state(st, &state) || tclass > 255)
			return -EINVAL;
		err = simrdma_test_qps_modify(sd, qpn, all, state, tclass);
	} else if (!strcmp(cmd, "destroy")) {
		if (f != 2)
			return -EINVAL;
		err = simrdma_test_qps_destroy(sd, qpn, all);
	} else if (!strcmp(cmd, "sport")) {
		if (all || f != 3 || kstrtou16(st, 10, &sport))
			return -EINVAL;
		err = simrdma_raw_set_sport(sd, qpn, sport);
	} else {
		return -EINVAL;
	}
	return err ?: len;
}

static const struct file_operations simrdma_qps_fops = {
	.open = simrdma_qps_open,
	.read = seq_read,
	.write = simrdma_qps_write,
	.llseek = seq_lseek,
	.release = single_release,
	.owner = THIS_MODULE,
};

/* "QPN COUNTER N": N events of the named counter on QP QPN. */
static ssize_t simrdma_inject_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	struct simrdma_dev *sd = file->private_data;
	char buf[SIMRDMA_CMD_MAX], name[32], extra;
	u32 qpn;
	u64 n;
	int err, stat;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	if (sscanf(buf, "%u %31s %llu %c", &qpn, name, &n, &extra) != 3)
		return -EINVAL;
	stat = simrdma_stat_index(name);
	if (stat < 0)
		return stat;
	err = simrdma_inject(sd, qpn, stat, n);
	return err ?: len;
}

static const struct file_operations simrdma_inject_fops = {
	.open = simple_open,
	.write = simrdma_inject_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

/* "QPN fatal|req-err|access-err": that asynchronous event on test QP QPN. */
static ssize_t simrdma_qp_event_write(struct file *file,
				      const char __user *ubuf, size_t len,
				      loff_t *ppos)
{
	static const struct {
		const char *name;
		enum ib_event_type type;
	} events[] = {
		{ "fatal", IB_EVENT_QP_FATAL },
		{ "req-err", IB_EVENT_QP_REQ_ERR },
		{ "access-err", IB_EVENT_QP_ACCESS_ERR },
	};
	struct simrdma_dev *sd = file->private_data;
	char buf[SIMRDMA_CMD_MAX], name[16], extra;
	int err, i;
	u32 qpn;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	if (sscanf(buf, "%u %15s %c", &qpn, name, &extra) != 2)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(name, events[i].name))
			break;
	if (i == ARRAY_SIZE(events))
		return -EINVAL;
	err = simrdma_test_qp_event(sd, qpn, events[i].type);
	return err ?: len;
}

static const struct file_operations simrdma_qp_event_fops = {
	.open = simple_open,
	.write = simrdma_qp_event_write,
	.llseek = noop_llseek,
	.owner = THIS_MODULE,
};

static int simrdma_devx_show_file(struct seq_file *m, void *v)
{
	return simrdma_devx_show(m, m->private);
}

static int simrdma_devx_open(struct inode *inode, struct file *file)
{
	return single_open(file, simrdma_devx_show_file, inode->i_private);
}

/* DevX-shaped firmware commands (devx.c). */
static ssize_t simrdma_devx_file_write(struct file *file,
				       const char __user *ubuf, size_t len,
				       loff_t *ppos)
{
	struct simrdma_dev *sd = ((struct seq_file *)file->private_data)->private;
	char buf[SIMRDMA_CMD_MAX];
	int err;

	err = simrdma_read_cmd(ubuf, len, buf);
	if (err)
		return err;
	return simrdma_devx_write(sd, buf, len);
}

static const struct file_operations simrdma_devx_fops = {
	.open = simrdma_devx_open,
	.read = seq_read,
	.write = simrdma_devx_file_write,
	.llseek = seq_lseek,
	.release = single_release,
	.owner = THIS_MODULE,
};

void simrdma_debugfs_dev_add(struct simrdma_dev *sd, const char *name)
{
	struct dentry *d;

	d = debugfs_create_dir(name, simrdma_ddir);
	debugfs_create_file("state", 0400, d, sd, &simrdma_state_fops);
	debugfs_create_file("counters_max", 0200, d, sd,
			    &simrdma_counters_max_fops);
	debugfs_create_file("qps", 0600, d, sd, &simrdma_qps_fops);
	debugfs_create_file("inject", 0200, d, sd, &simrdma_inject_fops);
	debugfs_create_file("qp_event", 0200, d, sd, &simrdma_qp_event_fops);
	debugfs_create_file("devx", 0600, d, sd, &simrdma_devx_fops);
	sd->ddir = d;
}

void simrdma_debugfs_dev_del(struct simrdma_dev *sd)
{
	debugfs_remove(sd->ddir);
	sd->ddir = NULL;
}

void simrdma_debugfs_init(void)
{
	simrdma_ddir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("new_device", 0200, simrdma_ddir, NULL,
			    &simrdma_new_device_fops);
	debugfs_create_file("del_device", 0200, simrdma_ddir, NULL,
			    &simrdma_del_device_fops);
}

void simrdma_debugfs_exit(void)
{
	debugfs_remove(simrdma_ddir);
}
