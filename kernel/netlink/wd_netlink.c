// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog's netlink side: WD_SET, WD_DEL, WD_GET, WD_BRS_SET and the
 * WD_EVENT notifications. Handlers take rtnl_lock, like the polls.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include "devices/devices.h"
#include "qp/qp_owner.h"
#include "attrs.h"
#include "family.h"
#include "watchdog/watchdog.h"
#include "watchdog/wd_counters.h"
#include "watchdog/wd_judge.h"
#include "wd_netlink.h"
#include "netlink_gen.h"

/*
 * A process of the storm: its place in the table, its counts, and its
 * owner as the reader may see it (qp_owner.c); an event (reader NULL)
 * names only kernel users, a listener reads the rest with WD_GET by the
 * place.
 */
static int rocectl_wd_put_proc(struct sk_buff *skb,
			       const struct rocectl_wd_blast *b,
			       const struct rocectl_wd_blast_proc *pp,
			       const struct rocectl_reader *reader)
{
	enum rocectl_owner_view view = ROCECTL_OWNER_FULL;
	pid_t nr = 0;

	if (pp->pid)
		view = reader ? rocectl_owner_view_nr(reader, pp->pid, &nr) :
				ROCECTL_OWNER_NONE;
	if (nla_put_u32(skb, ROCECTL_A_WDB_SLOT, pp - b->p) ||
	    (view == ROCECTL_OWNER_FULL &&
	     nla_put_u32(skb, ROCECTL_A_WDB_PID, nr)) ||
	    (view != ROCECTL_OWNER_NONE &&
	     nla_put_string(skb, ROCECTL_A_WDB_COMM, pp->comm)) ||
	    nla_put_u32(skb, ROCECTL_A_WDB_QPS, pp->qps) ||
	    (view != ROCECTL_OWNER_NONE && pp->cgroup &&
	     nla_put_u64_64bit(skb, ROCECTL_A_WDB_CGROUP, pp->cgroup,
			       ROCECTL_A_WDB_PAD)) ||
	    (b->counted &&
	     nla_put_u64_64bit(skb, ROCECTL_A_WDB_BYTES,
			       rocectl_wd_blast_moved(pp), ROCECTL_A_WDB_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* The storm's blast radius: counts, then the processes most affected. */
static int rocectl_wd_put_blast(struct sk_buff *skb,
				const struct rocectl_wd_blast *b,
				const struct rocectl_reader *reader)
{
	const struct rocectl_wd_blast_proc *top[ROCECTL_WD_BLAST_SHOWN];
	struct nlattr *nest;
	int i, n;

	if (!b)
		return 0;
	if (nla_put_u32(skb, ROCECTL_A_WDP_BLAST_QPS, b->qps) ||
	    nla_put_u32(skb, ROCECTL_A_WDP_BLAST_PROCS, b->procs) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_BLAST_LOST, b->lost,
			      ROCECTL_A_WDP_PAD))
		return -EMSGSIZE;
	rocectl_wd_blast_top(b, top, &n);
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, ROCECTL_A_WDP_BLAST_PROC);
		if (!nest || rocectl_wd_put_proc(skb, b, top[i], reader))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int rocectl_wd_put_prio(struct sk_buff *skb, const struct rocectl_wd *w,
			       int d, int p, const struct rocectl_reader *reader)
{
	const struct rocectl_wd_prio *ps = &w->p[d][p];
	struct nlattr *nest;

	nest = nla_nest_start(skb, ROCECTL_A_WD_PRIO);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, ROCECTL_A_WDP_PRIO, p) ||
	    nla_put_u8(skb, ROCECTL_A_WDP_DIRECTION, d) ||
	    nla_put_u8(skb, ROCECTL_A_WDP_STATE, ps->state) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_STORMS, ps->storms, ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_RESTORES, ps->restores, ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_LAST_DETECT, ps->last_detect_real,
			      ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_LAST_RESTORE, ps->last_restore_real,
			      ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_STORM_MS, ps->storm_ms, ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_LAST_STORM_MS, ps->last_storm_ms,
			      ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_LAST_STORM_FRAMES,
			      ps->state == ROCECTL_WD_STORM ? ps->storm_frames :
			      ps->last_storm_frames, ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_ACTIONS, ps->actions, ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_ACTIONS_FAILED, ps->actions_failed,
			      ROCECTL_A_WDP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_WDP_CONFLICTS, ps->conflicts, ROCECTL_A_WDP_PAD) ||
	    nla_put_u8(skb, ROCECTL_A_WDP_BACKOFF, ps->backoff) ||
	    nla_put_u8(skb, ROCECTL_A_WDP_PFC_CLEARED, ps->cleared) ||
	    rocectl_wd_put_blast(skb, w->blast[d][p], reader)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * A watch for a reader, or (event >= 0, reader NULL) one event of one of
 * its priorities.
 */
static int rocectl_wd_fill(struct sk_buff *skb, const struct rocectl_wd *w,
			   const struct rocectl_reader *reader,
			   u8 cmd, u32 portid, u32 seq, int flags,
			   int event, int dir, int prio,
			   u64 window_us, u64 pause_us, u64 frames)
{
	void *hdr;
	u16 stall;
	int d, p;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, ROCECTL_A_NETDEV_INDEX, w->ifindex) ||
	    nla_put_string(skb, ROCECTL_A_NETDEV_NAME, w->name))
		goto cancel;
	if (event >= 0) {
		if (nla_put_u8(skb, ROCECTL_A_WD_EVENT, event) ||
		    (window_us && nla_put_u64_64bit(skb, ROCECTL_A_WD_EV_WINDOW_US,
						    window_us, ROCECTL_A_PAD)) ||
		    (pause_us && nla_put_u64_64bit(skb, ROCECTL_A_WD_EV_PAUSE_US,
						   pause_us, ROCECTL_A_PAD)) ||
		    ((window_us || frames) &&
		     nla_put_u64_64bit(skb, ROCECTL_A_WD_EV_FRAMES, frames, ROCECTL_A_PAD)) ||
		    (prio >= 0 && rocectl_wd_put_prio(skb, w, dir, prio, NULL)))
			goto cancel;
		goto done;
	}
	if (nla_put_u32(skb, ROCECTL_A_WD_DETECT_MS, w->detect_ms) ||
	    nla_put_u32(skb, ROCECTL_A_WD_RESTORE_MS, w->restore_ms) ||
	    nla_put_u32(skb, ROCECTL_A_WD_INTERVAL_MS, w->interval_ms) ||
	    nla_put_u8(skb, ROCECTL_A_WD_ACTION, w->action) ||
	    nla_put_u8(skb, ROCECTL_A_WD_DIRECTION,
		       w->dirs == 3 ? ROCECTL_WD_DIR_BOTH : __ffs(w->dirs)) ||
	    nla_put_u8(skb, ROCECTL_A_WD_COUNTERS, w->layout.duration ?
		       ROCECTL_WD_COUNTERS_DURATION : ROCECTL_WD_COUNTERS_FRAMES) ||
	    nla_put_u8(skb, ROCECTL_A_WD_BRS, rocectl_wd_brs) ||
	    (w->be && nla_put_string(skb, ROCECTL_A_BACKEND, w->be->name)) ||
	    (!w->ndev && nla_put_u8(skb, ROCECTL_A_WD_NETDEV_GONE, 1)) ||
	    (w->ndev && !rocectl_wd_get_stall(w->ndev, &stall) &&
	     nla_put_u16(skb, ROCECTL_A_WD_STALL_MS, stall)) ||
	    (w->layout.stall_known && w->have_prev &&
	     (nla_put_u64_64bit(skb, ROCECTL_A_WD_STALL_WARNINGS, w->prev.stall[0],
				ROCECTL_A_PAD) ||
	      nla_put_u64_64bit(skb, ROCECTL_A_WD_STALL_ERRORS, w->prev.stall[1],
				ROCECTL_A_PAD))))
		goto cancel;
	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			if (rocectl_wd_active(w, d, p) &&
			    rocectl_wd_put_prio(skb, w, d, p, reader))
				goto cancel;
done:
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void rocectl_wd_nl_event(struct rocectl_wd *w, int dir, int prio,
				u8 event, u64 window_us, u64 pause_us, u64 frames)
{
	struct sk_buff *skb;

	if (!rocectl_nl_has_listeners())
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (rocectl_wd_fill(skb, w, NULL, ROCECTL_CMD_WD_EVENT_NTF, 0, 0, 0,
			    event, dir, prio, window_us, pause_us, frames)) {
		nlmsg_free(skb);
		return;
	}
	rocectl_nl_multicast(skb);
}

/* The watchdog's events, multicast to the family's listeners. */
const struct rocectl_wd_listener rocectl_wd_nl_listener = {
	.event = rocectl_wd_nl_event,
};

/*
 * The ifindex behind an RDMA port a request names, or 0 when it names a
 * netdev itself. Called before rtnl_lock: port queries take rtnl (the
 * RoCE speed comes from ethtool), and rocectl_devs_lock is never taken
 * under rtnl.
 */
static int rocectl_wd_port_ifindex(struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct rocectl_port_info pi;
	struct rocectl_dev *rdev;
	u32 port;
	int err;

	if (a[ROCECTL_A_NETDEV_NAME] || a[ROCECTL_A_NETDEV_INDEX])
		return 0;
	if (!a[ROCECTL_A_DEV_NAME] && !a[ROCECTL_A_DEV_INDEX]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a netdev or an RDMA device is required");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, ROCECTL_A_NETDEV_NAME);
		return -EINVAL;
	}
	port = a[ROCECTL_A_WD_PORT] ? nla_get_u32(a[ROCECTL_A_WD_PORT]) : 1;
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(a, info->extack);
	if (IS_ERR(rdev)) {
		err = PTR_ERR(rdev);
	} else if (!rdma_is_port_valid(rdev->ibdev, port)) {
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_WD_PORT],
				 "the RDMA device has no such port");
		err = -EINVAL;
	} else {
		err = rocectl_port_query(rdev->ibdev, port, &pi);
		if (!err && !pi.netdev_ifindex)
			err = -ENODEV;
		if (err)
			NL_SET_ERR_MSG_MOD(info->extack, "the RDMA port has no netdev");
	}
	mutex_unlock(&rocectl_devs_lock);
	return err ?: pi.netdev_ifindex;
}

/* The netdev a request names; under rtnl_lock, valid while it is held. */
static struct net_device *rocectl_wd_netdev(struct genl_info *info, int port_ifindex)
{
	struct nlattr **a = info->attrs;
	struct net_device *ndev;

	if (port_ifindex)
		ndev = __dev_get_by_index(&init_net, port_ifindex);
	else if (a[ROCECTL_A_NETDEV_NAME])
		ndev = __dev_get_by_name(&init_net, nla_data(a[ROCECTL_A_NETDEV_NAME]));
	else
		ndev = __dev_get_by_index(&init_net, nla_get_u32(a[ROCECTL_A_NETDEV_INDEX]));
	if (ndev)
		return ndev;
	if (port_ifindex)
		NL_SET_ERR_MSG_MOD(info->extack, "the RDMA port's netdev went away");
	else if (a[ROCECTL_A_NETDEV_NAME])
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_NETDEV_NAME],
				 "no netdev has this name");
	else
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_NETDEV_INDEX],
				 "no netdev has this index");
	return ERR_PTR(-ENODEV);
}

static u32 rocectl_attr_u32(struct nlattr **a, int type, u32 def)
{
	return a[type] ? nla_get_u32(a[type]) : def;
}

/* 0 (off), 0xffff (auto) or 80..8000 ms, on a NIC that has it. */
static int rocectl_wd_stall_check(struct net_device *ndev, const struct nlattr *attr,
				  struct netlink_ext_ack *extack)
{
	u16 ms = nla_get_u16(attr), cur;

	if (ms != PFC_STORM_PREVENTION_DISABLE && ms != PFC_STORM_PREVENTION_AUTO &&
	    (ms < 80 || ms > 8000)) {
		ROCECTL_ERR_ATTR(extack, attr,
				 "the stall prevention timeout is off (0), auto (65535) or 80..8000 ms");
		return -ERANGE;
	}
	if (rocectl_wd_get_stall(ndev, &cur)) {
		ROCECTL_ERR_ATTR(extack, attr,
				 "the NIC has no stall prevention (ethtool tunable pfc-prevention-tout)");
		return -EOPNOTSUPP;
	}
	return 0;
}

int rocectl_nl_wd_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	u32 detect, restore, interval;
	u16 stall_orig = 0;
	struct net_device *ndev;
	int ifindex;
	struct rocectl_wd *w;
	bool created = false;
	u8 dirs, prios;
	int d, p, err = 0;

	ifindex = rocectl_wd_port_ifindex(info);
	if (ifindex < 0) {
		err = ifindex;
		goto out_unlocked;
	}
	rtnl_lock();
	ndev = rocectl_wd_netdev(info, ifindex);
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		goto out;
	}
	if (!rocectl_wd_dcb_capable(ndev)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the netdev has no IEEE DCB (PFC) support");
		err = -EOPNOTSUPP;
		goto out;
	}
	w = rocectl_wd_find(ndev);
	if (!w && !a[ROCECTL_A_WD_PRIOS]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a new watch needs the priorities to watch");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, ROCECTL_A_WD_PRIOS);
		err = -EINVAL;
		goto out;
	}

	if (a[ROCECTL_A_WD_STALL_MS]) {
		err = rocectl_wd_stall_check(ndev, a[ROCECTL_A_WD_STALL_MS], info->extack);
		if (err)
			goto out;
	}

	/* Check the settings as they will be, before anything changes. */
	detect = rocectl_attr_u32(a, ROCECTL_A_WD_DETECT_MS, w ? w->detect_ms : 200);
	restore = rocectl_attr_u32(a, ROCECTL_A_WD_RESTORE_MS, w ? w->restore_ms : 400);
	interval = rocectl_attr_u32(a, ROCECTL_A_WD_INTERVAL_MS, w ? w->interval_ms : 100);
	if (interval > detect || interval > restore) {
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_WD_INTERVAL_MS] ?:
				 a[ROCECTL_A_WD_DETECT_MS] ?: a[ROCECTL_A_WD_RESTORE_MS],
				 "the poll interval must not exceed the detection or restoration time");
		err = -EINVAL;
		goto out;
	}

	/* The one setting the NIC may refuse: first, while nothing changed. */
	if (a[ROCECTL_A_WD_STALL_MS]) {
		err = rocectl_wd_get_stall(ndev, &stall_orig);
		if (!err)
			err = rocectl_wd_set_stall(ndev, nla_get_u16(a[ROCECTL_A_WD_STALL_MS]));
		if (err) {
			ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_WD_STALL_MS],
					 "the driver refused the stall prevention timeout");
			goto out;
		}
	}
	if (!w) {
		w = rocectl_wd_create(ndev);
		if (!w) {
			if (a[ROCECTL_A_WD_STALL_MS])
				rocectl_wd_set_stall(ndev, stall_orig);
			err = -ENOMEM;
			goto out;
		}
		created = true;
	}
	if (a[ROCECTL_A_WD_STALL_MS] && !w->stall_saved) {
		w->stall_saved = true;
		w->stall_orig = stall_orig;
	}
	w->detect_ms = detect;
	w->restore_ms = restore;
	w->interval_ms = interval;
	if (a[ROCECTL_A_WD_ACTION])
		w->action = nla_get_u8(a[ROCECTL_A_WD_ACTION]);
	if (a[ROCECTL_A_WD_DIRECTION]) {
		d = nla_get_u8(a[ROCECTL_A_WD_DIRECTION]);
		dirs = d == ROCECTL_WD_DIR_BOTH ? 3 : BIT(d);
		w->dirs = dirs;
	}
	prios = a[ROCECTL_A_WD_PRIOS] ? nla_get_u8(a[ROCECTL_A_WD_PRIOS]) : 0;
	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			if (prios & BIT(p))
				w->p[d][p].watched = true;
	rocectl_wd_configure(w);
	pr_info("%s: watchdog %s: priorities %#x, detect %u ms, restore %u ms, interval %u ms\n",
		w->name, created ? "on" : "changed", prios, detect, restore, interval);
out:
	rtnl_unlock();
out_unlocked:
	return err;
}

/*
 * The watch of the netdev a request names; under rtnl_lock. A watch whose
 * netdev is gone (holding what the driver refused to set back) answers
 * to the name it had.
 */
static struct rocectl_wd *rocectl_wd_lookup(struct genl_info *info,
					    int port_ifindex)
{
	const struct nlattr *name = info->attrs[ROCECTL_A_NETDEV_NAME];
	struct net_device *ndev;
	struct rocectl_wd *w;

	if (name && !port_ifindex && !__dev_get_by_name(&init_net, nla_data(name))) {
		w = rocectl_wd_find_gone(nla_data(name));
		if (w)
			return w;
	}
	ndev = rocectl_wd_netdev(info, port_ifindex);
	if (IS_ERR(ndev))
		return ERR_CAST(ndev);
	w = rocectl_wd_find(ndev);
	if (!w) {
		NL_SET_ERR_MSG_MOD(info->extack, "the netdev is not watched");
		return ERR_PTR(-ENOENT);
	}
	return w;
}

int rocectl_nl_wd_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ifindex = rocectl_wd_port_ifindex(info);
	struct rocectl_wd *w;
	int err = 0;

	if (ifindex < 0)
		return ifindex;
	rtnl_lock();
	w = rocectl_wd_lookup(info, ifindex);
	if (IS_ERR(w)) {
		err = PTR_ERR(w);
	} else {
		err = rocectl_wd_unwatch(w, info->attrs[ROCECTL_A_WD_PRIOS] ?
					 nla_get_u8(info->attrs[ROCECTL_A_WD_PRIOS]) : 0xff,
					 true);
		if (err)
			NL_SET_ERR_MSG_MOD(info->extack,
					   "the driver refused to set PFC back: the watch keeps those priorities and retries");
	}
	rtnl_unlock();
	return err;
}

int rocectl_nl_wd_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ifindex = rocectl_wd_port_ifindex(info);
	struct rocectl_reader reader;
	struct rocectl_wd *w;
	struct sk_buff *msg;
	int err;

	if (ifindex < 0)
		return ifindex;
	rocectl_nl_reader(skb, &reader);
	/* Sixteen priorities, each with its storm's processes. */
	msg = genlmsg_new(4 * NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rtnl_lock();
	w = rocectl_wd_lookup(info, ifindex);
	if (IS_ERR(w)) {
		err = PTR_ERR(w);
	} else {
		err = rocectl_wd_fill(msg, w, &reader, ROCECTL_CMD_WD_GET,
				      info->snd_portid, info->snd_seq, 0, -1, 0,
				      0, 0, 0, 0);
	}
	rtnl_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int rocectl_nl_wd_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rocectl_reader reader;
	struct rocectl_wd *w;
	long i = 0;
	int err = 0;

	rocectl_nl_reader(cb->skb, &reader);
	rtnl_lock();
	list_for_each_entry(w, &rocectl_wds, list) {
		if (i++ < cb->args[0])
			continue;
		err = rocectl_wd_fill(skb, w, &reader, ROCECTL_CMD_WD_GET,
				      NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI, -1, 0, 0,
				      0, 0, 0);
		if (err) {
			i--;
			break;
		}
	}
	rtnl_unlock();
	cb->args[0] = i;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

int rocectl_nl_wd_brs_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	int failed;

	if (GENL_REQ_ATTR_CHECK(info, ROCECTL_A_WD_BRS))
		return -EINVAL;
	rtnl_lock();
	failed = rocectl_wd_set_brs(nla_get_u8(info->attrs[ROCECTL_A_WD_BRS]));
	rtnl_unlock();
	if (!failed)
		return 0;
	NL_SET_ERR_MSG_MOD(info->extack,
			   "the driver refused to change PFC on some priorities: see watchdog stats");
	return -EIO;
}
