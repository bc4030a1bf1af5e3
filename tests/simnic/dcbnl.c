// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: IEEE 802.1Qaz DCB operations (PFC, ETS, APP, DCBX mode).
 * dcbnl calls these under RTNL.
 */

#include <linux/bitops.h>
#include <linux/ktime.h>
#include "simnic.h"

#define SIMNIC_DCBX_MODE	(DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE)

static struct simnic_port *simnic_port(struct net_device *dev)
{
	return netdev_priv(dev);
}

static int simnic_ieee_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct simnic_port *port = simnic_port(dev);
	struct simnic_pair *pair = port->pair;
	unsigned int p;

	pfc->pfc_cap = SIMNIC_PRIOS;
	pfc->mbc = port->pfc_mbc;
	pfc->delay = port->pfc_delay;

	spin_lock_bh(&pair->lock);
	simnic_pfc_sync(pair);
	pfc->pfc_en = port->pfc_en;
	for (p = 0; p < SIMNIC_PRIOS; p++) {
		pfc->requests[p] = port->prio[p].tx_pause;
		pfc->indications[p] = port->prio[p].rx_pause;
	}
	spin_unlock_bh(&pair->lock);
	return 0;
}

/*
 * The PFC enable mask, through dcbnl or the test backend: the one place
 * fail_setpfc refuses, as a driver or its firmware would.
 */
int simnic_set_pfc_en(struct simnic_port *port, u8 pfc_en)
{
	struct simnic_pair *pair = port->pair;

	spin_lock_bh(&pair->lock);
	if (port->fail_setpfc) {
		if (port->fail_setpfc > 0)
			port->fail_setpfc--;
		spin_unlock_bh(&pair->lock);
		netdev_dbg(port->netdev, "setpfc: injected failure\n");
		return -EIO;
	}
	/* Count what happened under the old setting first. */
	simnic_pfc_sync(pair);
	simnic_pfc_set_en(port, pfc_en);
	spin_unlock_bh(&pair->lock);
	/* Release what PFC no longer pauses, on both ends. */
	simnic_kick(pair);
	return 0;
}
EXPORT_SYMBOL_GPL(simnic_set_pfc_en);

static int simnic_ieee_setpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct simnic_port *port = simnic_port(dev);
	int err;

	err = simnic_set_pfc_en(port, pfc->pfc_en);
	if (err)
		return err;
	port->pfc_mbc = pfc->mbc;
	port->pfc_delay = pfc->delay;
	return 0;
}

static int simnic_ieee_getets(struct net_device *dev, struct ieee_ets *ets)
{
	struct simnic_port *port = simnic_port(dev);

	*ets = port->ets;
	ets->ets_cap = SIMNIC_PRIOS;
	return 0;
}

static int simnic_ieee_setets(struct net_device *dev, struct ieee_ets *ets)
{
	struct simnic_port *port = simnic_port(dev);
	unsigned int i, sum = 0;
	bool have_ets = false;

	for (i = 0; i < SIMNIC_PRIOS; i++) {
		if (ets->prio_tc[i] >= SIMNIC_PRIOS)
			return -EINVAL;
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_STRICT:
		case IEEE_8021QAZ_TSA_VENDOR:
			break;
		case IEEE_8021QAZ_TSA_ETS:
			have_ets = true;
			sum += ets->tc_tx_bw[i];
			break;
		default:
			return -EINVAL;
		}
	}
	if (have_ets && sum != 100)
		return -EINVAL;

	port->ets = *ets;
	port->ets.ets_cap = SIMNIC_PRIOS;
	return 0;
}

/* Cache the DSCP -> priority map the transmit path classifies with. */
static void simnic_dscp_refresh(struct simnic_port *port)
{
	struct dcb_ieee_app_dscp_map map;
	unsigned int i;

	dcb_ieee_getapp_dscp_prio_mask_map(port->netdev, &map);
	spin_lock_bh(&port->pair->lock);
	for (i = 0; i < ARRAY_SIZE(port->dscp_prio); i++)
		port->dscp_prio[i] = map.map[i] ? fls(map.map[i]) - 1 :
						  SIMNIC_NO_PRIO;
	spin_unlock_bh(&port->pair->lock);
}

static int simnic_app_check(const struct dcb_app *app)
{
	if (app->priority >= SIMNIC_PRIOS)
		return -EINVAL;
	if (app->selector == IEEE_8021QAZ_APP_SEL_DSCP && app->protocol >= 64)
		return -EINVAL;
	return 0;
}

static int simnic_ieee_setapp(struct net_device *dev, struct dcb_app *app)
{
	int err = simnic_app_check(app);

	if (err)
		return err;
	err = dcb_ieee_setapp(dev, app);
	if (!err)
		simnic_dscp_refresh(simnic_port(dev));
	return err;
}

static int simnic_ieee_delapp(struct net_device *dev, struct dcb_app *app)
{
	int err = simnic_app_check(app);

	if (err)
		return err;
	err = dcb_ieee_delapp(dev, app);
	if (!err)
		simnic_dscp_refresh(simnic_port(dev));
	return err;
}

static u8 simnic_getdcbx(struct net_device *dev)
{
	return SIMNIC_DCBX_MODE;
}

static u8 simnic_setdcbx(struct net_device *dev, u8 mode)
{
	/* Only host-managed IEEE DCBX: anything else is refused. */
	return mode == SIMNIC_DCBX_MODE ? 0 : 1;
}

const struct dcbnl_rtnl_ops simnic_dcbnl_ops = {
	.ieee_getpfc	= simnic_ieee_getpfc,
	.ieee_setpfc	= simnic_ieee_setpfc,
	.ieee_getets	= simnic_ieee_getets,
	.ieee_setets	= simnic_ieee_setets,
	.ieee_setapp	= simnic_ieee_setapp,
	.ieee_delapp	= simnic_ieee_delapp,
	.getdcbx	= simnic_getdcbx,
	.setdcbx	= simnic_setdcbx,
};

/* Defaults: every priority on TC 0, which has all the bandwidth. */
void simnic_dcb_init(struct simnic_port *port)
{
	unsigned int i;

	memset(&port->ets, 0, sizeof(port->ets));
	port->ets.ets_cap = SIMNIC_PRIOS;
	for (i = 0; i < SIMNIC_PRIOS; i++) {
		port->ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		port->ets.tc_reco_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	}
	port->ets.tc_tx_bw[0] = 100;
	port->ets.tc_rx_bw[0] = 100;
	port->ets.tc_reco_bw[0] = 100;
}
