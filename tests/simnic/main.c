// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: a simulated DCB-capable Ethernet NIC, for tests only.
 *
 * This file: the module, the pairs of netdevs and their data path.
 * A frame sent on one port of a pair is received on the other, unless
 * the pause model (pfc.c) holds it.
 */

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include "simnic.h"

/* The pairs; creation and deletion serialised. */
static LIST_HEAD(simnic_pairs);
static DEFINE_MUTEX(simnic_mutex);

static const struct net_device_ops simnic_netdev_ops;

/*
 * While set, a port's PFC mask outlives its netdev: kept by name when a
 * pair is deleted, given to the next port of that name (as NICs whose
 * PFC lives in firmware keep it across a netdev's re-creation). The
 * slots are under simnic_mutex.
 */
bool simnic_pfc_in_firmware;

#define SIMNIC_FW_SLOTS	8

static struct {
	char name[IFNAMSIZ];
	u8 pfc_en;
} simnic_fw[SIMNIC_FW_SLOTS];

static void simnic_fw_save(struct simnic_port *port)
{
	unsigned int i, free = SIMNIC_FW_SLOTS;

	if (!simnic_pfc_in_firmware)
		return;
	for (i = 0; i < SIMNIC_FW_SLOTS; i++) {
		if (!strcmp(simnic_fw[i].name, port->netdev->name) ||
		    (!simnic_fw[i].name[0] && free == SIMNIC_FW_SLOTS))
			free = i;
	}
	if (free == SIMNIC_FW_SLOTS)
		return;
	strscpy(simnic_fw[free].name, port->netdev->name, IFNAMSIZ);
	simnic_fw[free].pfc_en = port->pfc_en;
}

static void simnic_fw_load(struct simnic_port *port, const char *name)
{
	unsigned int i;

	for (i = 0; i < SIMNIC_FW_SLOTS; i++) {
		if (!simnic_pfc_in_firmware || strcmp(simnic_fw[i].name, name))
			continue;
		port->pfc_en = simnic_fw[i].pfc_en;
		simnic_fw[i].name[0] = '\0';
	}
}

/* The port behind a netdev, if it is one of ours (the test backend). */
struct simnic_port *simnic_port_of(struct net_device *dev)
{
	return dev->netdev_ops == &simnic_netdev_ops ? netdev_priv(dev) : NULL;
}
EXPORT_SYMBOL_GPL(simnic_port_of);

static bool simnic_link_up(struct simnic_pair *pair)
{
	bool down;

	spin_lock_bh(&pair->lock);
	down = pair->flap_down;
	spin_unlock_bh(&pair->lock);
	return !down && netif_running(pair->port[0]->netdev) &&
	       netif_running(pair->port[1]->netdev);
}

static void simnic_carrier(struct simnic_pair *pair, bool on)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (on)
			netif_carrier_on(pair->port[i]->netdev);
		else
			netif_carrier_off(pair->port[i]->netdev);
	}
}

static int simnic_open(struct net_device *dev)
{
	struct simnic_port *port = netdev_priv(dev);

	netif_tx_start_all_queues(dev);
	if (simnic_link_up(port->pair))
		simnic_carrier(port->pair, true);
	return 0;
}

static int simnic_stop(struct net_device *dev)
{
	struct simnic_port *port = netdev_priv(dev);

	simnic_carrier(port->pair, false);
	netif_tx_stop_all_queues(dev);
	/* A NIC going down flushes its queues. */
	simnic_pfc_purge(port);
	return 0;
}

static netdev_tx_t simnic_xmit(struct sk_buff *skb, struct net_device *dev)
{
	return simnic_pfc_xmit(netdev_priv(dev), skb);
}

static void simnic_get_stats64(struct net_device *dev,
			       struct rtnl_link_stats64 *stats)
{
	struct simnic_port *port = netdev_priv(dev);

	spin_lock_bh(&port->pair->lock);
	stats->tx_packets = port->tx_packets;
	stats->tx_bytes = port->tx_bytes;
	stats->tx_dropped = port->tx_dropped;
	stats->rx_packets = port->rx_packets;
	stats->rx_bytes = port->rx_bytes;
	stats->rx_dropped = port->rx_dropped;
	spin_unlock_bh(&port->pair->lock);
}

static const struct net_device_ops simnic_netdev_ops = {
	.ndo_open		= simnic_open,
	.ndo_stop		= simnic_stop,
	.ndo_start_xmit		= simnic_xmit,
	.ndo_get_stats64	= simnic_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

static void simnic_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &simnic_netdev_ops;
	dev->ethtool_ops = &simnic_ethtool_ops;
	dev->dcbnl_ops = &simnic_dcbnl_ops;
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = 9000;
	eth_hw_addr_random(dev);
}

/* Carrier off and on again, flaps_left times, both ends of the link. */
static void simnic_flap_work(struct work_struct *work)
{
	struct simnic_pair *pair = container_of(to_delayed_work(work),
						struct simnic_pair, flap_work);
	bool down, more;

	spin_lock_bh(&pair->lock);
	if (!pair->flaps_left) {
		spin_unlock_bh(&pair->lock);
		return;
	}
	down = !pair->flap_down;
	pair->flap_down = down;
	if (!down)
		pair->flaps_left--;
	more = down || pair->flaps_left;
	spin_unlock_bh(&pair->lock);

	if (down)
		simnic_carrier(pair, false);
	else if (simnic_link_up(pair))
		simnic_carrier(pair, true);
	if (more)
		schedule_delayed_work(&pair->flap_work,
				      msecs_to_jiffies(SIMNIC_FLAP_GAP_MS));
}

void simnic_link_flap(struct simnic_port *port, unsigned int n)
{
	struct simnic_pair *pair = port->pair;

	if (!n)
		return;
	spin_lock_bh(&pair->lock);
	pair->flaps_left = min_t(unsigned int, pair->flaps_left + n,
				 SIMNIC_FLAP_MAX);
	spin_unlock_bh(&pair->lock);
	schedule_delayed_work(&pair->flap_work, 0);
}

static bool simnic_name_ok(const char *name)
{
	return dev_valid_name(name) && !strchr(name, '%') &&
	       strcmp(name, "new_pair") && strcmp(name, "del_pair");
}

int simnic_new_pair(const char *name0, const char *name1)
{
	const char *names[2] = { name0, name1 };
	struct simnic_pair *pair;
	struct net_device *dev;
	struct simnic_port *port;
	unsigned int i;
	int err;

	if (!simnic_name_ok(name0) || !simnic_name_ok(name1) ||
	    !strcmp(name0, name1))
		return -EINVAL;

	pair = kzalloc(sizeof(*pair), GFP_KERNEL);
	if (!pair)
		return -ENOMEM;
	spin_lock_init(&pair->lock);
	INIT_DELAYED_WORK(&pair->flap_work, simnic_flap_work);
	for (i = 0; i < 2; i++) {
		dev = alloc_netdev(sizeof(*port), names[i], NET_NAME_USER,
				   simnic_setup);
		if (!dev) {
			err = -ENOMEM;
			goto err_free;
		}
		port = netdev_priv(dev);
		port->netdev = dev;
		port->pair = pair;
		pair->port[i] = port;
		simnic_pfc_init(port);
		simnic_dcb_init(port);
	}
	pair->port[0]->peer = pair->port[1];
	pair->port[1]->peer = pair->port[0];
	pair->last = ktime_get_ns();

	mutex_lock(&simnic_mutex);
	for (i = 0; i < 2; i++)
		simnic_fw_load(pair->port[i], names[i]);
	rtnl_lock();
	err = register_netdevice(pair->port[0]->netdev);
	if (err)
		goto err_unlock;
	err = register_netdevice(pair->port[1]->netdev);
	if (err) {
		unregister_netdevice(pair->port[0]->netdev);
		goto err_unlock;
	}
	for (i = 0; i < 2; i++) {
		netif_carrier_off(pair->port[i]->netdev);
		simnic_debugfs_port_add(pair->port[i]);
	}
	list_add_tail(&pair->list, &simnic_pairs);
	rtnl_unlock();
	mutex_unlock(&simnic_mutex);
	return 0;

err_unlock:
	rtnl_unlock();
	mutex_unlock(&simnic_mutex);
err_free:
	for (i = 0; i < 2; i++)
		if (pair->port[i])
			free_netdev(pair->port[i]->netdev);
	kfree(pair);
	return err;
}

/* Under RTNL: take the pair out of sight and queue its netdevs. */
static void simnic_pair_unregister(struct simnic_pair *pair,
				   struct list_head *kill)
{
	unsigned int i;

	list_del(&pair->list);
	for (i = 0; i < 2; i++)
		simnic_debugfs_port_del(pair->port[i]);
	cancel_delayed_work_sync(&pair->flap_work);
	for (i = 0; i < 2; i++)
		unregister_netdevice_queue(pair->port[i]->netdev, kill);
}

/* After RTNL: the netdevs are gone, free what is left. */
static void simnic_pair_free(struct simnic_pair *pair)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		simnic_pfc_stop(pair->port[i]);
		simnic_fw_save(pair->port[i]);
	}
	for (i = 0; i < 2; i++)
		free_netdev(pair->port[i]->netdev);
	kfree(pair);
}

int simnic_del_pair(const char *name)
{
	struct simnic_pair *pair, *found = NULL;
	LIST_HEAD(kill);
	unsigned int i;

	mutex_lock(&simnic_mutex);
	rtnl_lock();
	list_for_each_entry(pair, &simnic_pairs, list)
		for (i = 0; i < 2; i++)
			if (!strcmp(pair->port[i]->netdev->name, name))
				found = pair;
	if (found) {
		simnic_pair_unregister(found, &kill);
		unregister_netdevice_many(&kill);
	}
	rtnl_unlock();
	if (found)
		simnic_pair_free(found);
	mutex_unlock(&simnic_mutex);
	return found ? 0 : -ENODEV;
}

static int simnic_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_CHANGENAME && dev->netdev_ops == &simnic_netdev_ops)
		simnic_debugfs_port_rename(netdev_priv(dev));
	return NOTIFY_DONE;
}

static struct notifier_block simnic_notifier = {
	.notifier_call = simnic_netdev_event,
};

static int __init simnic_init(void)
{
	int err;

	simnic_debugfs_init();
	err = register_netdevice_notifier(&simnic_notifier);
	if (err)
		simnic_debugfs_exit();
	return err;
}

static void __exit simnic_exit(void)
{
	struct simnic_pair *pair, *tmp;
	LIST_HEAD(pairs);
	LIST_HEAD(kill);

	mutex_lock(&simnic_mutex);
	rtnl_lock();
	list_splice_init(&simnic_pairs, &pairs);
	list_for_each_entry_safe(pair, tmp, &pairs, list) {
		simnic_pair_unregister(pair, &kill);
		list_add_tail(&pair->list, &simnic_pairs);
	}
	unregister_netdevice_many(&kill);
	rtnl_unlock();
	list_for_each_entry_safe(pair, tmp, &simnic_pairs, list) {
		list_del(&pair->list);
		simnic_pair_free(pair);
	}
	mutex_unlock(&simnic_mutex);

	unregister_netdevice_notifier(&simnic_notifier);
	simnic_debugfs_exit();
}

module_init(simnic_init);
module_exit(simnic_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Simulated DCB-capable NIC pairs for rocectl tests");
