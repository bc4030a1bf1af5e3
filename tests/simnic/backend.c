// SPDX-License-Identifier: GPL-2.0
/*
 * simnic_backend: a rocectl hardware backend for simnic ports, for tests
 * only. It lets the tests take the watchdog through a backend's arrival
 * and departure -- with a driver that refuses (fail_setpfc) -- on a
 * simulated NIC, as rocectl_mlx5 does on ConnectX. It reads simnic's
 * live counters and sets its PFC mask; simnic has one mask for both
 * directions, so a priority is enabled when every direction the change
 * names enables it.
 *
 * Its debugfs knobs (simnic_backend/) make it a slow firmware: delay_ms
 * stalls every counter read and congestion control call, and cong_dev
 * names the RDMA device (any driver's) whose congestion control it
 * claims, so that the tests can show that rocectl holds no lock another
 * request or a device add/remove needs while a backend call blocks.
 * cong_sets_max (read-only) is the most congestion control sets seen in
 * the backend at once, which rocectl serializes per device.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include "../../kernel/backend/backend.h"
#include "simnic.h"

static struct dentry *simbe_ddir;
static u32 simbe_delay_ms;
static char simbe_cong_dev[IB_DEVICE_NAME_MAX];
static DEFINE_SPINLOCK(simbe_cong_lock);
static u32 simbe_cong_sets;	/* in the backend now, under simbe_cong_lock */
static u32 simbe_cong_sets_max;

/* A firmware command that takes its time. */
static void simbe_stall(void)
{
	u32 ms = READ_ONCE(simbe_delay_ms);

	if (ms)
		msleep(ms);
}

static void *simbe_attach(struct net_device *ndev)
{
	return simnic_port_of(ndev);
}

static void simbe_detach(void *priv)
{
}

static int simbe_read(void *priv, struct rocectl_be_sample *s)
{
	struct simnic_counters c;
	int d, p;

	simbe_stall();
	simnic_read_counters(priv, &c);
	for (d = 0; d < 2; d++) {
		for (p = 0; p < ROCECTL_BE_NPRIO; p++) {
			s->frames[d][p] = c.pause[d][p];
			s->pause_us[d][p] = c.pause_us[d][p];
			s->pkts[d][p] = c.packets[d][p];
		}
		s->pfc_en[d] = c.pfc_en;
		s->stall_events[d] = c.stall[d];
	}
	s->stall_known = true;
	return 0;
}

static int simbe_get_pfc(void *priv, u8 en[2])
{
	struct simnic_counters c;

	simnic_read_counters(priv, &c);
	en[0] = c.pfc_en;
	en[1] = c.pfc_en;
	return 0;
}

static int simbe_set_pfc(void *priv, const u8 en[2], const u8 mask[2])
{
	u8 cur[2], on;

	simbe_get_pfc(priv, cur);
	on = (~mask[0] | en[0]) & (~mask[1] | en[1]);
	return simnic_set_pfc_en(priv, (cur[0] & ~(mask[0] | mask[1])) |
				 (on & (mask[0] | mask[1])));
}

static bool simbe_ib_claims(struct ib_device *ibdev)
{
	return simbe_cong_dev[0] && !strcmp(dev_name(&ibdev->dev), simbe_cong_dev);
}

/* One parameter, the delay itself: the call's answer is not the subject. */
static int simbe_cong_get(struct ib_device *ibdev, u32 port,
			  struct rocectl_cong_info *c)
{
	simbe_stall();
	c->params[0].name = "sim_delay_ms";
	c->params[0].value = READ_ONCE(simbe_delay_ms);
	c->nparams = 1;
	return 0;
}

static int simbe_cong_set(struct ib_device *ibdev, u32 port,
			  const struct rocectl_cong_value *v, int n,
			  int *bad, int *why)
{
	/* Only the same device's sets meet here: cong_dev claims one. */
	spin_lock(&simbe_cong_lock);
	simbe_cong_sets_max = max(simbe_cong_sets_max, ++simbe_cong_sets);
	spin_unlock(&simbe_cong_lock);
	simbe_stall();
	spin_lock(&simbe_cong_lock);
	simbe_cong_sets--;
	spin_unlock(&simbe_cong_lock);
	*bad = 0;
	*why = ROCECTL_CONG_WHY_NOT_ALLOWED;
	return -EPERM;
}

static struct rocectl_backend simbe = {
	.name = "simnic",
	.owner = THIS_MODULE,
	.attach = simbe_attach,
	.detach = simbe_detach,
	.read = simbe_read,
	.get_pfc = simbe_get_pfc,
	.set_pfc = simbe_set_pfc,
	.ib_claims = simbe_ib_claims,
	.cong_get = simbe_cong_get,
	.cong_set = simbe_cong_set,
};

/* cong_dev: a device name, written whole; a trailing newline is dropped. */
static ssize_t simbe_cong_dev_write(struct file *f, const char __user *buf,
				    size_t len, loff_t *ppos)
{
	char name[IB_DEVICE_NAME_MAX];

	if (len >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, buf, len))
		return -EFAULT;
	name[len] = 0;
	strim(name);
	strscpy(simbe_cong_dev, name, sizeof(simbe_cong_dev));
	return len;
}

static const struct file_operations simbe_cong_dev_fops = {
	.owner = THIS_MODULE,
	.write = simbe_cong_dev_write,
};

static int __init simbe_init(void)
{
	int err;

	simbe_ddir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_u32("delay_ms", 0600, simbe_ddir, &simbe_delay_ms);
	debugfs_create_file("cong_dev", 0200, simbe_ddir, NULL,
			    &simbe_cong_dev_fops);
	debugfs_create_u32("cong_sets_max", 0400, simbe_ddir,
			   &simbe_cong_sets_max);
	err = rocectl_backend_register(&simbe);
	if (err)
		debugfs_remove(simbe_ddir);
	return err;
}

static void __exit simbe_exit(void)
{
	rocectl_backend_unregister(&simbe);
	debugfs_remove(simbe_ddir);
}

module_init(simbe_init);
module_exit(simbe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocectl backend for simnic ports, for tests");
