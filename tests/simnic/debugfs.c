// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: debugfs interface.
 *
 * /sys/kernel/debug/simnic/
 *   new_pair            "NAME0 NAME1": create a connected pair
 *   del_pair            "NAME": delete the pair NAME belongs to
 *   pfc_in_firmware     "Y|N": a port's PFC mask outlives its netdev,
 *                       kept by name for the next port of that name
 *   <ifname>/rx_storm       "PRIO RATE": pause frames received, frames/s
 *   <ifname>/tx_storm       "PRIO RATE": pause frames sent, frames/s
 *   <ifname>/rx_storm_duty  "PRIO PERIOD_MS DUTY_PCT": chop rx_storm
 *   <ifname>/xon            "PRIO RATE": XON frames received, frames/s
 *   <ifname>/link_flap      "N": carrier off and on again N times
 *   <ifname>/fail_setpfc    "N": fail the next N setpfc, -1 always
 *   <ifname>/fail_set_tunable "N": fail the next N set_tunable, -1 always
 *   <ifname>/tunable_unsupported "0|1": no stall prevention (-EOPNOTSUPP)
 *   <ifname>/state          one line per priority (read only)
 * Bad input is refused with -EINVAL and changes nothing.
 */

#include <linux/ctype.h>
#include <linux/ethtool.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "simnic.h"

#define SIMNIC_INPUT_MAX	64

struct dentry *simnic_ddir;

/* Copy a short user write into @buf, NUL-terminated. */
static int simnic_copy_input(char *buf, const char __user *ubuf, size_t count)
{
	if (!count || count >= SIMNIC_INPUT_MAX)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

/* Split @buf into exactly @n whitespace-separated words. */
static int simnic_words(char *buf, char **words, unsigned int n)
{
	unsigned int i = 0;
	char *w;

	while ((w = strsep(&buf, " \t\n"))) {
		if (!*w)
			continue;
		if (i == n)
			return -EINVAL;
		words[i++] = w;
	}
	return i == n ? 0 : -EINVAL;
}

/* Parse exactly @n unsigned decimal numbers from a user write. */
static int simnic_parse(const char __user *ubuf, size_t count, u32 *val,
			unsigned int n)
{
	char buf[SIMNIC_INPUT_MAX];
	char *words[3];
	unsigned int i;
	int err;

	err = simnic_copy_input(buf, ubuf, count);
	if (err)
		return err;
	err = simnic_words(buf, words, n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (kstrtou32(words[i], 10, &val[i]))
			return -EINVAL;
	return 0;
}

static struct simnic_port *simnic_file_port(struct file *file)
{
	return file->private_data;
}

enum simnic_rate_knob {
	SIMNIC_RX_STORM,
	SIMNIC_TX_STORM,
	SIMNIC_XON,
};

static ssize_t simnic_rate_write(struct file *file, const char __user *ubuf,
				 size_t count, enum simnic_rate_knob knob)
{
	struct simnic_port *port = simnic_file_port(file);
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	u32 v[2];
	int err;

	err = simnic_parse(ubuf, count, v, 2);
	if (err)
		return err;
	if (v[0] >= SIMNIC_PRIOS || v[1] > SIMNIC_RATE_MAX)
		return -EINVAL;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	sp = &port->prio[v[0]];
	switch (knob) {
	case SIMNIC_RX_STORM:
		sp->rx_rate = v[1];
		break;
	case SIMNIC_TX_STORM:
		simnic_tx_storm_set(port, v[0], v[1]);
		break;
	case SIMNIC_XON:
		sp->xon_rate = v[1];
		break;
	}
	spin_unlock_bh(&pair->lock);
	simnic_kick(pair);
	return count;
}

static ssize_t simnic_rx_storm_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	return simnic_rate_write(file, ubuf, count, SIMNIC_RX_STORM);
}

static ssize_t simnic_tx_storm_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	return simnic_rate_write(file, ubuf, count, SIMNIC_TX_STORM);
}

static ssize_t simnic_xon_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return simnic_rate_write(file, ubuf, count, SIMNIC_XON);
}

static ssize_t simnic_duty_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct simnic_port *port = simnic_file_port(file);
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	u32 v[3];
	int err;

	err = simnic_parse(ubuf, count, v, 3);
	if (err)
		return err;
	if (v[0] >= SIMNIC_PRIOS || !v[1] || v[1] > SIMNIC_PERIOD_MAX ||
	    !v[2] || v[2] > 100)
		return -EINVAL;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	sp = &port->prio[v[0]];
	sp->rx_period_ms = v[1];
	sp->rx_duty = v[2];
	sp->rx_phase = pair->last;
	spin_unlock_bh(&pair->lock);
	simnic_kick(pair);
	return count;
}

static ssize_t simnic_flap_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	u32 n;
	int err;

	err = simnic_parse(ubuf, count, &n, 1);
	if (err)
		return err;
	if (n > SIMNIC_FLAP_MAX)
		return -EINVAL;
	simnic_link_flap(simnic_file_port(file), n);
	return count;
}

/* A failure counter: >0 fail that many calls, -1 always, 0 never. */
static int *simnic_fail_knob(struct simnic_port *port, bool tunable)
{
	return tunable ? &port->fail_tunable : &port->fail_setpfc;
}

static ssize_t simnic_fail_write(struct file *file, const char __user *ubuf,
				 size_t count, bool tunable)
{
	struct simnic_port *port = simnic_file_port(file);
	char buf[SIMNIC_INPUT_MAX];
	char *words[1];
	int err, n;

	err = simnic_copy_input(buf, ubuf, count);
	if (err)
		return err;
	if (simnic_words(buf, words, 1) || kstrtoint(words[0], 10, &n) ||
	    n < -1)
		return -EINVAL;

	spin_lock_bh(&port->pair->lock);
	*simnic_fail_knob(port, tunable) = n;
	spin_unlock_bh(&port->pair->lock);
	return count;
}

static ssize_t simnic_fail_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos, bool tunable)
{
	struct simnic_port *port = simnic_file_port(file);
	char buf[16];
	int len, n;

	spin_lock_bh(&port->pair->lock);
	n = *simnic_fail_knob(port, tunable);
	spin_unlock_bh(&port->pair->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", n);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t simnic_fail_setpfc_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	return simnic_fail_write(file, ubuf, count, false);
}

static ssize_t simnic_fail_setpfc_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	return simnic_fail_read(file, ubuf, count, ppos, false);
}

static ssize_t simnic_fail_tunable_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	return simnic_fail_write(file, ubuf, count, true);
}

static ssize_t simnic_fail_tunable_read(struct file *file, char __user *ubuf,
					size_t count, loff_t *ppos)
{
	return simnic_fail_read(file, ubuf, count, ppos, true);
}

/*
 * 1: a NIC without stall prevention. The tunable reports -EOPNOTSUPP
 * and prevention is off (timeout 0, as after a reload); 0: it has it.
 */
static ssize_t simnic_no_tunable_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	struct simnic_port *port = simnic_file_port(file);
	struct simnic_pair *pair = port->pair;
	u32 v;
	int err;

	err = simnic_parse(ubuf, count, &v, 1);
	if (err)
		return err;
	if (v > 1)
		return -EINVAL;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	port->no_tunable = v;
	if (v)
		simnic_stall_set(port, PFC_STORM_PREVENTION_DISABLE);
	spin_unlock_bh(&pair->lock);
	simnic_kick(pair);
	return count;
}

static ssize_t simnic_no_tunable_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct simnic_port *port = simnic_file_port(file);
	char buf[4];
	int len;
	bool v;

	spin_lock_bh(&port->pair->lock);
	v = port->no_tunable;
	spin_unlock_bh(&port->pair->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", v);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static int simnic_state_show(struct seq_file *m, void *v)
{
	struct simnic_port *port = m->private;
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	unsigned int p;
	u64 now;

	spin_lock_bh(&pair->lock);
	now = ktime_get_ns();
	simnic_pfc_update(pair, now);
	for (p = 0; p < SIMNIC_PRIOS; p++) {
		sp = &port->prio[p];
		seq_printf(m, "prio %u pfc %u paused %u rx_storm %u rx_period_ms %u rx_duty %u tx_storm %u xon %u held %u held_dropped %llu",
			   p, !!(port->pfc_en & BIT(p)),
			   simnic_tx_paused(port, p, now), sp->rx_rate,
			   sp->rx_period_ms, sp->rx_duty, sp->tx_rate,
			   sp->xon_rate, skb_queue_len(&sp->held),
			   sp->held_dropped);
		seq_printf(m, " rx_pause %llu tx_pause %llu rx_pause_duration %llu tx_pause_duration %llu tx_packets %llu rx_packets %llu tx_stopped %u\n",
			   sp->rx_pause, sp->tx_pause, sp->rx_pause_us,
			   sp->tx_pause_us, sp->tx_packets, sp->rx_packets,
			   sp->tx_stopped);
	}
	seq_printf(m, "port pfc_prevention_tout %u minor_watermark %u tx_pause_storm_warning_events %llu tx_pause_storm_error_events %llu\n",
		   port->stall_ms, port->stall_minor_ms, port->stall_warnings,
		   port->stall_errors);
	spin_unlock_bh(&pair->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(simnic_state);

static const struct file_operations simnic_rx_storm_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_rx_storm_write,
};

static const struct file_operations simnic_tx_storm_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_tx_storm_write,
};

static const struct file_operations simnic_xon_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_xon_write,
};

static const struct file_operations simnic_duty_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_duty_write,
};

static const struct file_operations simnic_flap_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_flap_write,
};

static const struct file_operations simnic_fail_setpfc_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= simnic_fail_setpfc_read,
	.write	= simnic_fail_setpfc_write,
	.llseek	= default_llseek,
};

static const struct file_operations simnic_fail_tunable_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= simnic_fail_tunable_read,
	.write	= simnic_fail_tunable_write,
	.llseek	= default_llseek,
};

static const struct file_operations simnic_no_tunable_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= simnic_no_tunable_read,
	.write	= simnic_no_tunable_write,
	.llseek	= default_llseek,
};

/* Called under RTNL, like the rename that may follow. */
void simnic_debugfs_port_add(struct simnic_port *port)
{
	struct dentry *d;

	d = debugfs_create_dir(port->netdev->name, simnic_ddir);
	port->ddir = d;
	debugfs_create_file("rx_storm", 0200, d, port, &simnic_rx_storm_fops);
	debugfs_create_file("tx_storm", 0200, d, port, &simnic_tx_storm_fops);
	debugfs_create_file("rx_storm_duty", 0200, d, port, &simnic_duty_fops);
	debugfs_create_file("xon", 0200, d, port, &simnic_xon_fops);
	debugfs_create_file("link_flap", 0200, d, port, &simnic_flap_fops);
	debugfs_create_file("fail_setpfc", 0600, d, port,
			    &simnic_fail_setpfc_fops);
	debugfs_create_file("fail_set_tunable", 0600, d, port,
			    &simnic_fail_tunable_fops);
	debugfs_create_file("tunable_unsupported", 0600, d, port,
			    &simnic_no_tunable_fops);
	debugfs_create_file("state", 0400, d, port, &simnic_state_fops);
}

/* Waits for the knobs' writers: none of them takes RTNL. */
void simnic_debugfs_port_del(struct simnic_port *port)
{
	debugfs_remove(port->ddir);
	port->ddir = NULL;
}

/* Under RTNL: the directory follows the interface's name. */
void simnic_debugfs_port_rename(struct simnic_port *port)
{
	int err;

	if (IS_ERR_OR_NULL(port->ddir))
		return;
	err = simnic_debugfs_rename(simnic_ddir, port->ddir, port->netdev->name);
	if (err)
		netdev_warn(port->netdev, "debugfs directory not renamed: %d\n",
			    err);
}

static ssize_t simnic_new_pair_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[SIMNIC_INPUT_MAX];
	char *words[2];
	int err;

	err = simnic_copy_input(buf, ubuf, count);
	if (err)
		return err;
	if (simnic_words(buf, words, 2))
		return -EINVAL;
	err = simnic_new_pair(words[0], words[1]);
	return err ? err : count;
}

static ssize_t simnic_del_pair_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	char buf[SIMNIC_INPUT_MAX];
	char *words[1];
	int err;

	err = simnic_copy_input(buf, ubuf, count);
	if (err)
		return err;
	if (simnic_words(buf, words, 1))
		return -EINVAL;
	err = simnic_del_pair(words[0]);
	return err ? err : count;
}

static const struct file_operations simnic_new_pair_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_new_pair_write,
};

static const struct file_operations simnic_del_pair_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= simnic_del_pair_write,
};

void simnic_debugfs_init(void)
{
	simnic_ddir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("new_pair", 0200, simnic_ddir, NULL,
			    &simnic_new_pair_fops);
	debugfs_create_file("del_pair", 0200, simnic_ddir, NULL,
			    &simnic_del_pair_fops);
	debugfs_create_bool("pfc_in_firmware", 0600, simnic_ddir,
			    &simnic_pfc_in_firmware);
}

void simnic_debugfs_exit(void)
{
	debugfs_remove(simnic_ddir);
}
