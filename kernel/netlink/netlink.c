// SPDX-License-Identifier: GPL-2.0
/*
 * The "rocectl" generic netlink family: device queries, the family and
 * the "events" multicast group. The per-command policies, the ops table
 * and the group table are generated from include/netlink/specs/rocectl.yaml
 * (netlink_gen.c); the family itself is kept here (genetlink-legacy).
 */
#include <net/genetlink.h>
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "netlink.h"
#include "qp/qp_hooks.h"
#include "qp/qp_stats.h"
#include "packet/rxe_hooks.h"
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

/* Called with rocectl_devs_lock held, from the ib_client callbacks. */
void rocectl_nl_notify_dev(const struct rocectl_dev *rdev, u8 cmd,
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

/* The device a request names by index, name or both; extack says why not. */
struct rocectl_dev *rocectl_nl_find_dev(struct nlattr **attrs,
					struct netlink_ext_ack *extack)
{
	struct nlattr *ia = attrs[ROCECTL_A_DEV_INDEX];
	struct nlattr *na = attrs[ROCECTL_A_DEV_NAME];
	struct rocectl_dev *rdev = NULL, *named;

	if (!ia && !na) {
		NL_SET_ERR_MSG_MOD(extack,
				   "an RDMA device is required: give its index or name");
		NL_SET_ERR_ATTR_MISS(extack, NULL, ROCECTL_A_DEV_NAME);
		return ERR_PTR(-EINVAL);
	}
	if (ia) {
		rdev = rocectl_dev_by_index(nla_get_u32(ia));
		if (!rdev) {
			ROCECTL_ERR_ATTR(extack, ia, "no RDMA device has this index");
			return ERR_PTR(-ENODEV);
		}
	}
	if (na) {
		named = rocectl_dev_by_name(nla_data(na));
		if (!named) {
			ROCECTL_ERR_ATTR(extack, na, "no RDMA device has this name");
			return ERR_PTR(-ENODEV);
		}
		if (rdev && rdev != named) {
			ROCECTL_ERR_ATTR(extack, na,
					 "device index and name refer to different devices");
			return ERR_PTR(-EINVAL);
		}
		rdev = named;
	}
	return rdev;
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

#if ROCECTL_GENL_CHECK_HEADER
/* What generic netlink checks itself from 6.0 on (genl_header_check()). */
static int rocectl_nl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			       struct genl_info *info)
{
	if (info->genlhdr->reserved ||
	    (info->nlhdr->nlmsg_flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO))) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "reserved header bytes or unknown flags set");
		return -EINVAL;
	}
	return 0;
}
#endif

struct genl_family rocectl_genl_family __ro_after_init = {
	.name = ROCECTL_GENL_NAME,
	.version = ROCECTL_GENL_VERSION,
	.maxattr = ROCECTL_A_MAX,
	.module = THIS_MODULE,
	.ops = rocectl_nl_ops,
	.n_ops = ARRAY_SIZE(rocectl_nl_ops),
	.mcgrps = rocectl_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(rocectl_nl_mcgrps),
	/*
	 * Not under generic netlink's one global mutex: every handler takes
	 * the locks it needs itself (rocectl_devs_lock, rtnl_lock), and a
	 * firmware command a handler waits for (mlx5's time out after 60 s)
	 * must hold up neither rocectl's other requests nor every other
	 * family's (ethtool, devlink, nl80211) on the host.
	 */
	.parallel_ops = true,
	/* resv_start_op 0: every command is new, so strict validation for all. */
#if ROCECTL_GENL_CHECK_HEADER
	.pre_doit = rocectl_nl_pre_doit,
#endif
};

/*
 * Set while the family is registered, and only read under RCU together
 * with the multicast it allows. Notifications come from hooks that outlive
 * the family at unload (and precede it at load): past unregistration its
 * multicast group number may already be another family's.
 */
static bool rocectl_nl_registered;

/*
 * Whether a notification would reach anyone; say nothing when it would
 * not. A hint only, to spare building messages: rocectl_nl_multicast()
 * decides.
 */
bool rocectl_nl_has_listeners(void)
{
	return READ_ONCE(rocectl_nl_registered) &&
	       genl_has_listeners(&rocectl_genl_family, &init_net,
				  ROCECTL_NLGRP_EVENTS);
}

/*
 * Send (and consume) an event to the "events" group: every notification
 * goes through here. The flag is read and the message sent inside one RCU
 * read-side section, which rocectl_nl_exit() waits for before the family
 * goes. Atomic allocation for the listeners' copies: callers may be hooks,
 * and this section may not sleep.
 */
void rocectl_nl_multicast(struct sk_buff *skb)
{
	rcu_read_lock();
	if (READ_ONCE(rocectl_nl_registered))
		genlmsg_multicast(&rocectl_genl_family, skb, 0,
				  ROCECTL_NLGRP_EVENTS, GFP_ATOMIC);
	else
		nlmsg_free(skb);
	rcu_read_unlock();
}

int __init rocectl_nl_init(void)
{
	int err = genl_register_family(&rocectl_genl_family);

	if (!err)
		WRITE_ONCE(rocectl_nl_registered, true);
	return err;
}

void rocectl_nl_exit(void)
{
	WRITE_ONCE(rocectl_nl_registered, false);
	/* Every multicast that saw the flag set has been sent. */
	synchronize_rcu();
	genl_unregister_family(&rocectl_genl_family);
}
