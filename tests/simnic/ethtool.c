// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: ethtool statistics, named like mlx5e's per-priority ones,
 * mlx5e's stall prevention tunable (pfc-prevention-tout), and 802.3x
 * pause parameters that are stored, not acted on.
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

/* The port's stall prevention events, after the per-priority ones. */
static const char * const simnic_port_stats[] = {
	"tx_pause_storm_warning_events",
	"tx_pause_storm_error_events",
};

#define SIMNIC_NSTATS	(SIMNIC_PRIOS * ARRAY_SIZE(simnic_prio_stats) + \
			 ARRAY_SIZE(simnic_port_stats))

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

/* ethtool_sprintf(), which arrived in 5.13: the tests boot 5.10 too. */
static __printf(2, 3) void simnic_string(u8 **data, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(*data, ETH_GSTRING_LEN, fmt, args);
	va_end(args);
	*data += ETH_GSTRING_LEN;
}

static void simnic_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	unsigned int p, i;

	if (sset != ETH_SS_STATS)
		return;
	for (p = 0; p < SIMNIC_PRIOS; p++)
		for (i = 0; i < ARRAY_SIZE(simnic_prio_stats); i++)
			simnic_string(&data, simnic_prio_stats[i], p);
	for (i = 0; i < ARRAY_SIZE(simnic_port_stats); i++)
		simnic_string(&data, "%s", simnic_port_stats[i]);
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
	*data++ = port->stall_warnings;
	*data++ = port->stall_errors;
	spin_unlock_bh(&pair->lock);
}

void simnic_read_counters(struct simnic_port *port, struct simnic_counters *c)
{
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	unsigned int p;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	for (p = 0; p < SIMNIC_PRIOS; p++) {
		sp = &port->prio[p];
		c->pause[0][p] = sp->rx_pause;
		c->pause[1][p] = sp->tx_pause;
		c->pause_us[0][p] = sp->rx_pause_us;
		c->pause_us[1][p] = sp->tx_pause_us;
		c->packets[0][p] = sp->rx_packets;
		c->packets[1][p] = sp->tx_packets;
	}
	c->stall[0] = port->stall_warnings;
	c->stall[1] = port->stall_errors;
	c->pfc_en = port->pfc_en;
	spin_unlock_bh(&pair->lock);
}
EXPORT_SYMBOL_GPL(simnic_read_counters);

/*
 * ETHTOOL_PFC_PREVENTION_TOUT as mlx5e has it: the critical timeout in
 * ms, 0 when off; -EOPNOTSUPP without the capability, -EINVAL for any
 * other tunable. The ethtool core has checked type and length.
 */
static int simnic_get_tunable(struct net_device *dev,
			      const struct ethtool_tunable *tuna, void *data)
{
	struct simnic_port *port = netdev_priv(dev);
	int err = 0;

	if (tuna->id != ETHTOOL_PFC_PREVENTION_TOUT)
		return -EINVAL;
	spin_lock_bh(&port->pair->lock);
	if (port->no_tunable)
		err = -EOPNOTSUPP;
	else
		*(u16 *)data = port->stall_ms;
	spin_unlock_bh(&port->pair->lock);
	return err;
}

/*
 * PFC_STORM_PREVENTION_AUTO is 100 ms, PFC_STORM_PREVENTION_DISABLE (0)
 * turns it off, anything else outside 80..8000 ms is -EINVAL. Injected
 * failures (-EIO) stand for the firmware command: only valid requests
 * reach it, and change nothing.
 */
static int simnic_set_tunable(struct net_device *dev,
			      const struct ethtool_tunable *tuna,
			      const void *data)
{
	struct simnic_port *port = netdev_priv(dev);
	struct simnic_pair *pair = port->pair;
	u16 critical = *(const u16 *)data;
	int err = 0;

	if (tuna->id != ETHTOOL_PFC_PREVENTION_TOUT)
		return -EINVAL;
	if (critical == PFC_STORM_PREVENTION_AUTO)
		critical = SIMNIC_STALL_AUTO_MS;

	spin_lock_bh(&pair->lock);
	if (port->no_tunable) {
		err = -EOPNOTSUPP;
	} else if (critical != PFC_STORM_PREVENTION_DISABLE &&
		   (critical > SIMNIC_STALL_MAX_MS ||
		    critical < SIMNIC_STALL_MIN_MS)) {
		err = -EINVAL;
	} else if (port->fail_tunable) {
		if (port->fail_tunable > 0)
			port->fail_tunable--;
		err = -EIO;
	} else {
		/* Count what happened under the old setting first. */
		simnic_pfc_sync(pair);
		simnic_stall_set(port, critical);
	}
	spin_unlock_bh(&pair->lock);

	if (err == -EINVAL)
		netdev_info(dev, "%s: pfc prevention tout not in range (%d-%d)\n",
			    __func__, SIMNIC_STALL_MIN_MS, SIMNIC_STALL_MAX_MS);
	else if (err == -EIO)
		netdev_dbg(dev, "set_tunable: injected failure\n");
	else if (!err)
		/* The peer may no longer be paused, or only until T. */
		simnic_kick(pair);
	return err;
}

/*
 * 802.3x global pause (ethtool -a/-A): stored so that tests can show a
 * port with both global pause and PFC on; the pause model ignores it.
 * Called under RTNL.
 */
static void simnic_get_pauseparam(struct net_device *dev,
				  struct ethtool_pauseparam *pause)
{
	struct simnic_port *port = netdev_priv(dev);

	pause->autoneg = port->pause_autoneg;
	pause->rx_pause = port->pause_rx;
	pause->tx_pause = port->pause_tx;
}

static int simnic_set_pauseparam(struct net_device *dev,
				 struct ethtool_pauseparam *pause)
{
	struct simnic_port *port = netdev_priv(dev);

	port->pause_autoneg = !!pause->autoneg;
	port->pause_rx = !!pause->rx_pause;
	port->pause_tx = !!pause->tx_pause;
	return 0;
}

const struct ethtool_ops simnic_ethtool_ops = {
	.get_drvinfo		= simnic_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= simnic_get_sset_count,
	.get_strings		= simnic_get_strings,
	.get_ethtool_stats	= simnic_get_ethtool_stats,
	.get_tunable		= simnic_get_tunable,
	.set_tunable		= simnic_set_tunable,
	.get_pauseparam		= simnic_get_pauseparam,
	.set_pauseparam		= simnic_set_pauseparam,
};
