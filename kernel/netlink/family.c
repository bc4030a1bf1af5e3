// SPDX-License-Identifier: GPL-2.0
/*
 * The "rocectl" generic netlink family and its "events" multicast group:
 * registration, and the one path every notification takes. The
 * per-command policies, the ops table and the group table are generated
 * from include/netlink/specs/rocectl.yaml (netlink_gen.c); the family
 * itself is kept here (genetlink-legacy).
 */
#include <net/genetlink.h>
#include <linux/rocectl.h>
#include "family.h"
#include "netlink_gen.h"

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

/*
 * The ops and groups are generated (netlink_gen.c) and given here by the
 * module's init: the handlers they name use this family, which names none
 * of them, so calls run one way.
 */
int __init rocectl_nl_init(const struct genl_ops *ops, int n_ops,
			   const struct genl_multicast_group *mcgrps,
			   int n_mcgrps)
{
	int err;

	rocectl_genl_family.ops = ops;
	rocectl_genl_family.n_ops = n_ops;
	rocectl_genl_family.mcgrps = mcgrps;
	rocectl_genl_family.n_mcgrps = n_mcgrps;
	err = genl_register_family(&rocectl_genl_family);

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
