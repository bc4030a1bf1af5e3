// SPDX-License-Identifier: GPL-2.0
/*
 * QP_GET (doit and filtered dump) and the QP notifications. Dumps walk
 * devices under rocectl_devs_lock and each device's QPs under RCU, and
 * resume from (device index, QPN).
 */
#include <net/genetlink.h>
#include "devices/devices.h"
#include "attrs.h"
#include "family.h"
#include "qp_netlink.h"
#include "qp/qp_prio.h"
#include "qp/qp_stats.h"
#include "qp/qps.h"
#include "netlink_gen.h"

struct rocectl_qp_filter {
	u32 port, pid;
	u8 type, state;
	bool has_port, has_pid, has_type, has_state;
};

static int rocectl_nl_put_path(struct sk_buff *skb,
			       const struct rocectl_qp_info *in)
{
	if (in->dest_qpn && nla_put_u32(skb, ROCECTL_A_QP_DEST_QPN, in->dest_qpn))
		return -EMSGSIZE;
	if (in->path_mtu && nla_put_u32(skb, ROCECTL_A_QP_PATH_MTU, in->path_mtu))
		return -EMSGSIZE;
	if (!in->has_path)
		return 0;
	/* A DevX QP's commands give its DSCP, ECN and priority, no GIDs. */
	if (in->devx)
		return nla_put_u8(skb, ROCECTL_A_QP_TCLASS, in->tclass) ||
		       nla_put_u8(skb, ROCECTL_A_QP_SL, in->sl) ? -EMSGSIZE : 0;
	if (nla_put(skb, ROCECTL_A_QP_SGID, 16, in->sgid) ||
	    nla_put(skb, ROCECTL_A_QP_DGID, 16, in->dgid) ||
	    nla_put_u8(skb, ROCECTL_A_QP_TCLASS, in->tclass) ||
	    nla_put_u8(skb, ROCECTL_A_QP_SL, in->sl) ||
	    nla_put_u8(skb, ROCECTL_A_QP_TIMEOUT, in->timeout) ||
	    nla_put_u8(skb, ROCECTL_A_QP_RETRY_CNT, in->retry_cnt) ||
	    nla_put_u8(skb, ROCECTL_A_QP_RNR_RETRY, in->rnr_retry))
		return -EMSGSIZE;
	return 0;
}

/*
 * What a message tells of the QP's owner. Kernel QPs: their kernel user's
 * name, to everyone. User QPs: what view allows (qp_owner.c), in->pid the
 * owner's pid as the reader numbers it. A notification goes to every
 * listener at once, whatever its pid namespace, and before 6.8 a genl
 * multicast cannot be filtered per listener
 * (genlmsg_multicast_netns_filtered()): it carries no user owner at all
 * (view NONE), which a listener looks up with QP_GET as itself.
 */
static int rocectl_nl_put_owner(struct sk_buff *skb,
				const struct rocectl_qp_info *in,
				enum rocectl_owner_view view)
{
	if (!in->kernel && view == ROCECTL_OWNER_NONE)
		return 0;
	if ((in->kernel || view == ROCECTL_OWNER_FULL) &&
	    nla_put_u32(skb, ROCECTL_A_QP_PID, in->kernel ? 0 : in->pid))
		return -EMSGSIZE;
	if (nla_put_string(skb, ROCECTL_A_QP_COMM, in->comm) ||
	    (in->cgroup &&
	     nla_put_u64_64bit(skb, ROCECTL_A_QP_CGROUP, in->cgroup,
			       ROCECTL_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

/*
 * A QP's attributes in the message being built: a QP message's, or a
 * failure record's (qp_err_netlink.c). stats NULL where the module
 * counts nothing.
 */
int rocectl_nl_put_qp(struct sk_buff *skb, u32 dev_index, const char *dev,
		      const struct rocectl_qp_info *in,
		      enum rocectl_owner_view view, const u64 *stats,
		      u8 cmd, int prev_state, u64 lifetime)
{
	if (nla_put_u32(skb, ROCECTL_A_DEV_INDEX, dev_index) ||
	    nla_put_string(skb, ROCECTL_A_DEV_NAME, dev) ||
	    nla_put_u32(skb, ROCECTL_A_QP_NUM, in->qpn) ||
	    nla_put_u8(skb, ROCECTL_A_QP_TYPE, in->type) ||
	    nla_put_u8(skb, ROCECTL_A_QP_STATE, in->state) ||
	    nla_put_u32(skb, ROCECTL_A_QP_PORT, in->port) ||
	    rocectl_nl_put_owner(skb, in, view) ||
	    nla_put_u8(skb, ROCECTL_A_QP_KERNEL, in->kernel) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_CREATE_TIME, in->create_time,
			      ROCECTL_A_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_STATE_TIME, in->state_time,
			      ROCECTL_A_PAD) ||
	    rocectl_nl_put_path(skb, in))
		return -EMSGSIZE;
	if (prev_state >= 0 &&
	    nla_put_u8(skb, ROCECTL_A_QP_PREV_STATE, prev_state))
		return -EMSGSIZE;
	if (in->incomplete && nla_put_flag(skb, ROCECTL_A_QP_INCOMPLETE))
		return -EMSGSIZE;
	if (in->devx &&
	    (nla_put_flag(skb, ROCECTL_A_QP_DEVX) ||
	     nla_put_u32(skb, ROCECTL_A_QP_COUNTER_SET, in->counter_set)))
		return -EMSGSIZE;
	if ((in->sport_rule &&
	     nla_put_u16(skb, ROCECTL_A_QP_SPORT_RULE, in->sport_rule)) ||
	    (in->sport_wire &&
	     nla_put_u16(skb, ROCECTL_A_QP_SPORT_WIRE, in->sport_wire)))
		return -EMSGSIZE;
	if (cmd == ROCECTL_CMD_QP_DESTROY_NTF &&
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_LIFETIME, lifetime, ROCECTL_A_PAD))
		return -EMSGSIZE;
	if (stats && rocectl_nl_put_stats(skb, ROCECTL_A_QP_STATS, stats))
		return -EMSGSIZE;
	return 0;
}

/* One QP message; stats NULL where the module counts nothing. */
static int rocectl_nl_fill_qp(struct sk_buff *skb,
			      const struct rocectl_dev *rdev,
			      const struct rocectl_qp_info *in,
			      enum rocectl_owner_view view,
			      const u64 *stats, u8 cmd, u32 portid, u32 seq,
			      int flags, struct netlink_callback *cb,
			      int prev_state, u64 lifetime)
{
	u8 prio, prio_src;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (rocectl_nl_put_qp(skb, rdev->index, rocectl_dev_name(rdev), in,
			      view, stats, cmd, prev_state, lifetime)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	if (rocectl_qp_prio(rdev, in, &prio, &prio_src) &&
	    (nla_put_u8(skb, ROCECTL_A_QP_PRIO, prio) ||
	     nla_put_u8(skb, ROCECTL_A_QP_PRIO_SOURCE, prio_src))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* From the QP hooks: atomic context. */
static void rocectl_nl_notify_qp(const struct rocectl_dev *rdev,
				 const struct rocectl_qp_info *info,
				 const u64 *stats, u8 cmd, int prev_state,
				 u64 lifetime)
{
	struct sk_buff *skb;

	if (!rocectl_nl_has_listeners())
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!skb)
		return;
	if (rocectl_nl_fill_qp(skb, rdev, info, ROCECTL_OWNER_NONE, stats, cmd,
			       0, 0, 0, NULL, prev_state, lifetime)) {
		nlmsg_free(skb);
		return;
	}
	rocectl_nl_multicast(skb);
}

/* The QP table's events, multicast to the family's listeners. */
const struct rocectl_qp_listener rocectl_qp_nl_listener = {
	.event = rocectl_nl_notify_qp,
	.wanted = rocectl_nl_has_listeners,
};

int rocectl_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	enum rocectl_owner_view view = ROCECTL_OWNER_NONE;
	u64 stats[ROCECTL_QP_NSTATS];
	struct rocectl_reader reader;
	struct rocectl_qp_info in;
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	struct sk_buff *msg;
	bool counts = false;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_NUM))
		return -EINVAL;
	rocectl_nl_reader(skb, &reader);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(info->attrs, info->extack);
	if (IS_ERR(rdev)) {
		err = PTR_ERR(rdev);
		goto out;
	}
	rcu_read_lock();
	e = rocectl_qp_find_rcu(rdev, nla_get_u32(info->attrs[ROCECTL_A_QP_NUM]));
	if (e) {
		rocectl_qp_snapshot(e, &in, stats);
		view = rocectl_owner_view(&reader, e->owner, &in.pid);
		counts = e->counts;
	}
	rcu_read_unlock();
	if (!e) {
		ROCECTL_ERR_ATTR(info->extack, info->attrs[ROCECTL_A_QP_NUM],
				 "the device has no QP with this number");
		err = -ENOENT;
		goto out;
	}
	err = rocectl_nl_fill_qp(msg, rdev, &in, view, counts ? stats : NULL,
				 ROCECTL_CMD_QP_GET, info->snd_portid,
				 info->snd_seq, 0, NULL, -1, 0);
out:
	mutex_unlock(&rocectl_devs_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static bool rocectl_qp_match(const struct rocectl_qp_filter *f,
			     const struct rocectl_qp_info *in)
{
	return (!f->has_port || in->port == f->port) &&
	       (!f->has_pid || in->pid == f->pid) &&
	       (!f->has_type || in->type == f->type) &&
	       (!f->has_state || in->state == f->state);
}

static void rocectl_qp_filter_parse(struct nlattr **attrs,
				    struct rocectl_qp_filter *f)
{
	memset(f, 0, sizeof(*f));
	if (attrs[ROCECTL_A_QP_PORT]) {
		f->has_port = true;
		f->port = nla_get_u32(attrs[ROCECTL_A_QP_PORT]);
	}
	if (attrs[ROCECTL_A_QP_PID]) {
		f->has_pid = true;
		f->pid = nla_get_u32(attrs[ROCECTL_A_QP_PID]);
	}
	if (attrs[ROCECTL_A_QP_TYPE]) {
		f->has_type = true;
		f->type = nla_get_u8(attrs[ROCECTL_A_QP_TYPE]);
	}
	if (attrs[ROCECTL_A_QP_STATE]) {
		f->has_state = true;
		f->state = nla_get_u8(attrs[ROCECTL_A_QP_STATE]);
	}
}

/* The QPs of one device from *qpn on; -EMSGSIZE leaves *qpn where to resume. */
static int rocectl_nl_dump_dev_qps(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct rocectl_dev *rdev,
				   const struct rocectl_qp_filter *f,
				   const struct rocectl_reader *reader,
				   unsigned long *qpn)
{
	enum rocectl_owner_view view;
	u64 stats[ROCECTL_QP_NSTATS];
	struct rocectl_qp_info in;
	struct rocectl_qp *e;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&rdev->qps, *qpn, e, *qpn) {
		rocectl_qp_snapshot(e, &in, e->counts ? stats : NULL);
		view = rocectl_owner_view(reader, e->owner, &in.pid);
		if (!rocectl_qp_match(f, &in))
			continue;
		err = rocectl_nl_fill_qp(skb, rdev, &in, view,
					 e->counts ? stats : NULL,
					 ROCECTL_CMD_QP_GET,
					 NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI, cb,
					 -1, 0);
		if (err)
			break;
	}
	rcu_read_unlock();
	return err;
}

int rocectl_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = rocectl_dump_attrs(cb);
	unsigned long dev_index = cb->args[0], qpn = cb->args[1];
	struct rocectl_dev *rdev, *only = NULL;
	struct rocectl_reader reader;
	struct rocectl_qp_filter f;
	int err = 0;

	if (attrs[ROCECTL_A_QP_NUM]) {
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "a QP dump takes no QP number: use a plain get");
		return -EINVAL;
	}
	rocectl_qp_filter_parse(attrs, &f);
	rocectl_nl_reader(cb->skb, &reader);

	mutex_lock(&rocectl_devs_lock);
	if (attrs[ROCECTL_A_DEV_INDEX] || attrs[ROCECTL_A_DEV_NAME]) {
		only = rocectl_nl_find_dev(attrs, cb->extack);
		if (IS_ERR(only)) {
			err = PTR_ERR(only);
			goto out;
		}
	}
	cb->seq = rocectl_devs_gen + atomic_read(&rocectl_qps_gen);
	while ((rdev = rocectl_dev_next(&dev_index))) {
		if (only && rdev != only) {
			dev_index++;
			qpn = 0;
			continue;
		}
		err = rocectl_nl_dump_dev_qps(skb, cb, rdev, &f, &reader, &qpn);
		if (err)
			break;
		dev_index++;
		qpn = 0;
	}
	cb->args[0] = dev_index;
	cb->args[1] = qpn;
out:
	mutex_unlock(&rocectl_devs_lock);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* One group of a device's destroyed QPs' final counts. */
static int rocectl_nl_fill_retired(struct sk_buff *skb,
				   const struct rocectl_dev *rdev,
				   const struct rocectl_retired_group *g,
				   const struct rocectl_reader *reader,
				   u32 portid, u32 seq, int flags)
{
	bool owner = rocectl_owner_ns_view(reader, &g->owners) !=
		     ROCECTL_OWNER_NONE;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags,
			  ROCECTL_CMD_QP_RETIRED_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, ROCECTL_A_DEV_INDEX, rdev->index) ||
	    nla_put_string(skb, ROCECTL_A_DEV_NAME, rocectl_dev_name(rdev)) ||
	    (g->other && nla_put_flag(skb, ROCECTL_A_QP_RETIRED_OTHER)) ||
	    (!g->other && nla_put_u32(skb, ROCECTL_A_QP_PORT, g->port)) ||
	    (!g->other && owner &&
	     (nla_put_string(skb, ROCECTL_A_QP_COMM, g->comm) ||
	      (g->cgroup &&
	       nla_put_u64_64bit(skb, ROCECTL_A_QP_CGROUP, g->cgroup,
				 ROCECTL_A_PAD)))) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_RETIRED_QPS, g->qps,
			      ROCECTL_A_PAD) ||
	    rocectl_nl_put_stats(skb, ROCECTL_A_QP_STATS, g->stats)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int rocectl_nl_qp_retired_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocectl_retired_group g;
	struct rocectl_reader reader;
	struct rocectl_dev *rdev;
	struct sk_buff *msg;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_PORT) ||
	    GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_COMM))
		return -EINVAL;
	rocectl_nl_reader(skb, &reader);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(info->attrs, info->extack);
	if (IS_ERR(rdev)) {
		err = PTR_ERR(rdev);
	} else if (!rocectl_retired_find(&rdev->retired,
					 nla_get_u32(info->attrs[ROCECTL_A_QP_PORT]),
					 nla_data(info->attrs[ROCECTL_A_QP_COMM]),
					 info->attrs[ROCECTL_A_QP_CGROUP] ?
					 nla_get_u64(info->attrs[ROCECTL_A_QP_CGROUP]) : 0,
					 &g) ||
		   /* A name the reader may not see is one it cannot look up. */
		   rocectl_owner_ns_view(&reader, &g.owners) ==
		   ROCECTL_OWNER_NONE) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no destroyed QP of the device has this port, command name and cgroup");
		err = -ENOENT;
	} else {
		err = rocectl_nl_fill_retired(msg, rdev, &g, &reader,
					      info->snd_portid, info->snd_seq,
					      0);
	}
	mutex_unlock(&rocectl_devs_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int rocectl_nl_qp_retired_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct nlattr **attrs = rocectl_dump_attrs(cb);
	unsigned long dev_index = cb->args[0], pos = cb->args[1];
	struct nlattr *pa = attrs[ROCECTL_A_QP_PORT];
	struct nlattr *ca = attrs[ROCECTL_A_QP_COMM];
	struct nlattr *ga = attrs[ROCECTL_A_QP_CGROUP];
	struct rocectl_dev *rdev, *only = NULL;
	struct rocectl_retired_group g;
	struct rocectl_reader reader;
	bool hidden;
	int err = 0;

	rocectl_nl_reader(cb->skb, &reader);
	mutex_lock(&rocectl_devs_lock);
	if (attrs[ROCECTL_A_DEV_INDEX] || attrs[ROCECTL_A_DEV_NAME]) {
		only = rocectl_nl_find_dev(attrs, cb->extack);
		if (IS_ERR(only)) {
			err = PTR_ERR(only);
			goto out;
		}
	}
	while ((rdev = rocectl_dev_next(&dev_index))) {
		if (only && rdev != only)
			goto next_dev;
		for (; rocectl_retired_next(&rdev->retired, &pos, &g); pos++) {
			hidden = rocectl_owner_ns_view(&reader, &g.owners) ==
				 ROCECTL_OWNER_NONE;
			if ((pa && (g.other || g.port != nla_get_u32(pa))) ||
			    (ca && (g.other || hidden ||
				    strcmp(g.comm, nla_data(ca)))) ||
			    (ga && (g.other || hidden ||
				    g.cgroup != nla_get_u64(ga))))
				continue;
			err = rocectl_nl_fill_retired(skb, rdev, &g, &reader,
						      NETLINK_CB(cb->skb).portid,
						      cb->nlh->nlmsg_seq,
						      NLM_F_MULTI);
			if (err)
				goto save;
		}
next_dev:
		dev_index++;
		pos = 0;
	}
save:
	cb->args[0] = dev_index;
	cb->args[1] = pos;
out:
	mutex_unlock(&rocectl_devs_lock);
	/* A full skb ends this part of the dump; the next resumes at pos. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}
