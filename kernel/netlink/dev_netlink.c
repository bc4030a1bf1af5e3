// SPDX-License-Identifier: GPL-2.0
/*
 * DEV_GET (doit and dump) and the device notifications, from the
 * registry's events.
 */
#include <net/genetlink.h>
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "packet/rxe_hooks.h"
#include "qp/qp_hooks.h"
#include "qp/qp_stats.h"
#include "attrs.h"
#include "dev_netlink.h"
#include "family.h"
#include "netlink_gen.h"

static int rocectl_nl_put_port(struct sk_buff *skb, struct ib_device *ibdev,
			       u32 port)
{
	struct rocectl_port_info pi;
	struct nlattr *nest;

	nest = nla_nest_start(skb, ROCECTL_A_DEV_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, ROCECTL_A_PORT_INDEX, port))
		goto cancel;

	/* A port that cannot be queried is still listed, by number only. */
	if (!rocectl_port_query(ibdev, port, &pi)) {
		if (nla_put_u8(skb, ROCECTL_A_PORT_STATE, pi.state) ||
		    nla_put_u8(skb, ROCECTL_A_PORT_PHYS_STATE, pi.phys_state) ||
		    nla_put_u8(skb, ROCECTL_A_PORT_LINK_LAYER, pi.link_layer) ||
		    nla_put_u32(skb, ROCECTL_A_PORT_ROCE, pi.roce) ||
		    nla_put_u32(skb, ROCECTL_A_PORT_GID_TYPES, pi.gid_types) ||
		    nla_put_u32(skb, ROCECTL_A_PORT_ACTIVE_MTU, pi.active_mtu) ||
		    nla_put_u32(skb, ROCECTL_A_PORT_MAX_MTU, pi.max_mtu))
			goto cancel;
		if (pi.netdev_ifindex &&
		    (nla_put_u32(skb, ROCECTL_A_PORT_NETDEV_INDEX,
				 pi.netdev_ifindex) ||
		     nla_put_string(skb, ROCECTL_A_PORT_NETDEV_NAME,
				    pi.netdev_name)))
			goto cancel;
	}
	nla_nest_end(skb, nest);
	return 0;

cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* What no live QP's counters hold: the device's counters then close. */
static int rocectl_nl_put_dev_counters(struct sk_buff *skb,
				       const struct rocectl_dev *rdev)
{
	u64 gone[ROCECTL_QP_NSTATS], unattributed[ROCECTL_QP_NSTATS];

	rocectl_dev_counters_read(rdev, gone, unattributed);
	if (rocectl_nl_put_stats(skb, ROCECTL_A_DEV_QPS_GONE, gone) ||
	    rocectl_nl_put_stats(skb, ROCECTL_A_DEV_UNATTRIBUTED, unattributed) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_DEV_PKT_UNSEEN,
			      rocectl_pkt_unseen_read(), ROCECTL_A_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_DEV_PROBE_MISSED,
			      rocectl_rxe_missed(), ROCECTL_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* One device message; DEL and RENAME notifications carry the identity only. */
static int rocectl_nl_fill_dev(struct sk_buff *skb,
			       const struct rocectl_dev *rdev, u8 cmd,
			       u32 portid, u32 seq, int flags,
			       struct netlink_callback *cb,
			       const char *prev_name)
{
	struct ib_device *ibdev = rdev->ibdev;
	void *hdr;
	u32 port;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_u32(skb, ROCECTL_A_DEV_INDEX, rdev->index) ||
	    nla_put_string(skb, ROCECTL_A_DEV_NAME, rocectl_dev_name(rdev)))
		goto cancel;
	if (prev_name && nla_put_string(skb, ROCECTL_A_DEV_PREV_NAME, prev_name))
		goto cancel;
	if (cmd == ROCECTL_CMD_DEV_DEL_NTF || cmd == ROCECTL_CMD_DEV_RENAME_NTF)
		goto done;

	if (nla_put_u32(skb, ROCECTL_A_DEV_DRIVER, rocectl_dev_driver(rdev)) ||
	    nla_put_string(skb, ROCECTL_A_DEV_DRIVER_NAME,
			   rocectl_dev_driver_name(rdev)) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_DEV_NODE_GUID,
			      be64_to_cpu(ibdev->node_guid), ROCECTL_A_PAD) ||
	    nla_put_u32(skb, ROCECTL_A_DEV_NUM_PORTS,
			rdma_end_port(ibdev) - rdma_start_port(ibdev) + 1))
		goto cancel;
	rdma_for_each_port(ibdev, port)
		if (rocectl_nl_put_port(skb, ibdev, port))
			goto cancel;
	if (rdev->counts && rocectl_nl_put_dev_counters(skb, rdev))
		goto cancel;
	/* Hardware devices: their DevX QPs are only as complete as the backend's hook. */
	if (!rdev->counts &&
	    nla_put_u64_64bit(skb, ROCECTL_A_DEV_DEVX_MISSED,
			      atomic64_read(&rdev->devx_missed), ROCECTL_A_PAD))
		goto cancel;
	/* Module-wide, on every device: its QPs are only as complete as the hooks. */
	rocectl_qp_hooks_check();
	if (nla_put_u64_64bit(skb, ROCECTL_A_DEV_QP_HOOK_MISSED,
			      rocectl_qp_hooks_missed(), ROCECTL_A_PAD))
		goto cancel;
done:
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Under rocectl_devs_lock, from the registry's events. */
static void rocectl_nl_notify_dev(const struct rocectl_dev *rdev, u8 cmd,
				  const char *prev_name)
{
	struct sk_buff *skb;

	if (!rocectl_nl_has_listeners())
		return;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (rocectl_nl_fill_dev(skb, rdev, cmd, 0, 0, 0, NULL, prev_name)) {
		nlmsg_free(skb);
		return;
	}
	rocectl_nl_multicast(skb);
}

static int rocectl_nl_dev_event(struct notifier_block *nb,
				unsigned long event, void *data)
{
	const struct rocectl_dev_change *c = data;

	switch (event) {
	case ROCECTL_DEV_ADDED:
		rocectl_nl_notify_dev(c->rdev, ROCECTL_CMD_DEV_ADD_NTF, NULL);
		break;
	case ROCECTL_DEV_REMOVING:
		rocectl_nl_notify_dev(c->rdev, ROCECTL_CMD_DEV_DEL_NTF, NULL);
		break;
	case ROCECTL_DEV_RENAMED:
		rocectl_nl_notify_dev(c->rdev, ROCECTL_CMD_DEV_RENAME_NTF,
				      c->prev_name);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block rocectl_nl_dev_nb = {
	.notifier_call = rocectl_nl_dev_event,
};

int rocectl_dev_nl_init(void)
{
	return rocectl_dev_subscribe(&rocectl_nl_dev_nb);
}

void rocectl_dev_nl_exit(void)
{
	rocectl_dev_unsubscribe(&rocectl_nl_dev_nb);
}

int rocectl_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocectl_dev *rdev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(info->attrs, info->extack);
	if (IS_ERR(rdev))
		err = PTR_ERR(rdev);
	else
		err = rocectl_nl_fill_dev(msg, rdev, ROCECTL_CMD_DEV_GET,
					  info->snd_portid, info->snd_seq, 0,
					  NULL, NULL);
	mutex_unlock(&rocectl_devs_lock);

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int rocectl_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = rocectl_dump_attrs(cb);
	unsigned long index = cb->args[0];
	struct rocectl_dev *rdev;
	int err = 0;

	if (attrs[ROCECTL_A_DEV_INDEX] || attrs[ROCECTL_A_DEV_NAME]) {
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "a device dump takes no device: use a plain get");
		return -EINVAL;
	}

	mutex_lock(&rocectl_devs_lock);
	cb->seq = rocectl_devs_gen;
	while ((rdev = rocectl_dev_next(&index))) {
		err = rocectl_nl_fill_dev(skb, rdev, ROCECTL_CMD_DEV_GET,
					  NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, NLM_F_MULTI, cb,
					  NULL);
		if (err)
			break;
		index++;
	}
	mutex_unlock(&rocectl_devs_lock);
	cb->args[0] = index;

	/* A full skb is not an error as long as it holds something. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}
