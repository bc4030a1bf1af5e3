// SPDX-License-Identifier: GPL-2.0
/*
 * Each QP's priority on its netdev. RoCEv2 carries DSCP = tclass >> 2:
 * where the netdev's DCB APP table has DSCP entries the NIC trusts DSCP,
 * and the entry of the QP's DSCP gives its priority (the highest of them
 * when several are given; 0 when its DSCP has none). Otherwise the PCP
 * decides: a VLAN netdev's egress map of the QP's service level, or 0 on
 * an untagged netdev. Only exported interfaces: the APP table through
 * dcb_ieee_getapp_dscp_prio_mask_map(), the egress map through
 * vlan_dev_get_egress_qos_mask().
 */
#include <linux/if_vlan.h>
#include <linux/rcupdate.h>
#include <net/dcbnl.h>
#include "devices/devices.h"
#include "qp_prio.h"

void rocectl_prio_map_read(struct net_device *ndev, struct rocectl_prio_map *m)
{
	struct net_device *real = ndev;
	struct dcb_ieee_app_dscp_map map;
	int i;

	memset(m, 0, sizeof(*m));
	if (is_vlan_dev(ndev)) {
		real = vlan_dev_real_dev(ndev);
		m->vlan = true;
		for (i = 0; i < ARRAY_SIZE(m->pcp); i++)
			m->pcp[i] = (vlan_dev_get_egress_qos_mask(ndev, i) &
				     VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
	}
	/* The APP table lives in dcbnl for any netdev: no driver op called. */
	memset(&map, 0, sizeof(map));
	dcb_ieee_getapp_dscp_prio_mask_map(real, &map);
	for (i = 0; i < ARRAY_SIZE(m->dscp); i++) {
		m->dscp[i] = map.map[i];
		if (map.map[i])
			m->dscp_trust = true;
	}
}

u8 rocectl_prio_of(const struct rocectl_prio_map *m, u8 tclass, u8 sl, u8 *src)
{
	u8 mask;

	if (m->dscp_trust) {
		*src = ROCECTL_QP_PRIO_SOURCE_DSCP;
		mask = m->dscp[tclass >> 2];
		return mask ? fls(mask) - 1 : 0;
	}
	if (m->vlan) {
		*src = ROCECTL_QP_PRIO_SOURCE_PCP;
		return m->pcp[sl & 15];
	}
	*src = ROCECTL_QP_PRIO_SOURCE_DEFAULT;
	return 0;
}

/*
 * The QP's priority now, false where unknown: no path yet, or no netdev
 * the module knows for its port (port 1's, kept in devices.c). The APP
 * table's lock is a BH one: not with interrupts off.
 */
bool rocectl_qp_prio(const struct rocectl_dev *rdev,
		     const struct rocectl_qp_info *in, u8 *prio, u8 *src)
{
	struct rocectl_prio_map m;
	struct net_device *ndev;
	int ifindex = READ_ONCE(rdev->port_ifindex);

	if (!in->has_path || !ifindex || in->port > 1 || irqs_disabled())
		return false;
	rcu_read_lock();
	ndev = dev_get_by_index_rcu(&init_net, ifindex);
	/* Moved out of the namespace: its ifindex here may be another's. */
	if (ndev != rdev->port_ndev)
		ndev = NULL;
	if (ndev)
		rocectl_prio_map_read(ndev, &m);
	rcu_read_unlock();
	if (!ndev)
		return false;
	*prio = rocectl_prio_of(&m, in->tclass, in->sl, src);
	return true;
}

const char *rocectl_prio_src_name(u8 src)
{
	switch (src) {
	case ROCECTL_QP_PRIO_SOURCE_DSCP:
		return "dscp";
	case ROCECTL_QP_PRIO_SOURCE_PCP:
		return "pcp";
	default:
		return "default";
	}
}
