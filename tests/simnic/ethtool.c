// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: ethtool statistics, named like mlx5e's per-priority ones.
 */

#include <linux/ethtool.h>
#include "simnic.h"

static const char * const simnic_prio_stats[] = {
	"rx_prio%u_pause",
	"tx_prio%u_pause",
	"rx_prio%u_pause_duration",
	"tx_prio%u_pause_duration",
	"tx_prio%u_packets",
	"tx_prio%u_bytes",
	"rx_prio%u_packets",
	"rx_prio%u_bytes",
	"tx_prio%u_held_dropped",
};

#define SIMNIC_NSTATS	(SIMNIC_PRIOS * ARRAY_SIZE(simnic_prio_stats))

static void simnic_get_drvinfo(struct net_device *dev,
			       struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->bus_info, "simnic", sizeof(info->bus_info));
}

static int simnic_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? SIMNIC_NSTATS : -EOPNOTSUPP;
}

static void simnic_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	unsigned int p, i;

	if (sset != ETH_SS_STATS)
		return;
	for (p = 0; p < SIMNIC_PRIOS; p++)
		for (i = 0; i < ARRAY_SIZE(simnic_prio_stats); i++)
			ethtool_sprintf(&data, simnic_prio_stats[i], p);
}

static void simnic_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	struct simnic_port *port = netdev_priv(dev);
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	unsigned int p;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	for (p = 0; p < SIMNIC_PRIOS; p++) {
		sp = &port->prio[p];
		*data++ = sp->rx_pause;
		*data++ = sp->tx_pause;
		*data++ = sp->rx_pause_us;
		*data++ = sp->tx_pause_us;
		*data++ = sp->tx_packets;
		*data++ = sp->tx_bytes;
		*data++ = sp->rx_packets;
		*data++ = sp->rx_bytes;
		*data++ = sp->held_dropped;
	}
	spin_unlock_bh(&pair->lock);
}

const struct ethtool_ops simnic_ethtool_ops = {
	.get_drvinfo		= simnic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= simnic_get_sset_count,
	.get_strings		= simnic_get_strings,
	.get_ethtool_stats	= simnic_get_ethtool_stats,
};
