// SPDX-License-Identifier: GPL-2.0
/*
 * simnic_backend: a rocectl hardware backend for simnic ports, for tests
 * only. It lets the tests take the watchdog through a backend's arrival
 * and departure -- with a driver that refuses (fail_setpfc) -- on a
 * simulated NIC, as rocectl_mlx5 does on ConnectX. It reads simnic's
 * live counters and sets its PFC mask; simnic has one mask for both
 * directions, so a priority is enabled when every direction the change
 * names enables it.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include "../../kernel/backend.h"
#include "simnic.h"

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

static struct rocectl_backend simbe = {
	.name = "simnic",
	.owner = THIS_MODULE,
	.attach = simbe_attach,
	.detach = simbe_detach,
	.read = simbe_read,
	.get_pfc = simbe_get_pfc,
	.set_pfc = simbe_set_pfc,
};

static int __init simbe_init(void)
{
	return rocectl_backend_register(&simbe);
}

static void __exit simbe_exit(void)
{
	rocectl_backend_unregister(&simbe);
}

module_init(simbe_init);
module_exit(simbe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocectl backend for simnic ports, for tests");
