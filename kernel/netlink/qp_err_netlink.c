// SPDX-License-Identifier: GPL-2.0
/*
 * QP_ERROR_GET (a record, or the ring oldest first), QP_ERROR_NTF and
 * QP_ERROR_COUNT_GET (the counts per device, command name and cause).
 * Records and counts outlive their QPs and may outlive their device:
 * they carry the device's index and its name when they were written.
 */
#include <net/genetlink.h>
#include <linux/slab.h>
#include "devices/devices.h"
#include "qp/qp_errors.h"
#include "attrs.h"
#include "family.h"
#include "qp_err_netlink.h"
#include "qp_netlink.h"
#include "netlink_gen.h"

/*
 * One record: for a reply, its owner as the reader may see it; a
 * notification (reader NULL) names no user owner.
 */
static int rocectl_nl_fill_qp_err(struct sk_buff *skb,
				  const struct rocectl_qp_err_rec *r, u8 cmd,
				  const struct rocectl_reader *reader,
				  u32 portid, u32 seq, int flags)
{
	enum rocectl_owner_view view = ROCECTL_OWNER_NONE;
	struct rocectl_qp_info in = r->info;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	in.pid = 0;
	if (reader && !in.kernel)
		view = rocectl_owner_view(reader, r->owner, &in.pid);
	if (rocectl_nl_put_qp(skb, r->dev_index, r->dev, &in, view,
			      r->has_stats ? r->stats : NULL, cmd, -1, 0) ||
	    nla_put_u16(skb, ROCECTL_A_QP_HISTORY, in.history) ||
	    nla_put_u8(skb, ROCECTL_A_QP_ERROR_CAUSE, r->cause) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_ERROR_TIME, r->time,
			      ROCECTL_A_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_ERROR_SEQ, r->seq,
			      ROCECTL_A_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_ERROR_OVERWRITTEN,
			      rocectl_qp_errors_overwritten(), ROCECTL_A_PAD) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_ID, r->id, ROCECTL_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* From the ring's work: process context. */
static void rocectl_nl_notify_qp_error(const struct rocectl_qp_err_rec *rec)
{
	struct sk_buff *skb;

	if (!rocectl_nl_has_listeners())
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (rocectl_nl_fill_qp_err(skb, rec, ROCECTL_CMD_QP_ERROR_NTF, NULL,
				   0, 0, 0)) {
		nlmsg_free(skb);
		return;
	}
	rocectl_nl_multicast(skb);
}

/* The failure ring's records, multicast to the family's listeners. */
const struct rocectl_qp_err_listener rocectl_qp_err_nl_listener = {
	.record = rocectl_nl_notify_qp_error,
};

int rocectl_nl_qp_error_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocectl_qp_err_rec *rec;
	struct rocectl_reader reader;
	struct sk_buff *msg;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_ERROR_SEQ))
		return -EINVAL;
	if (info->attrs[ROCECTL_A_DEV_INDEX] || info->attrs[ROCECTL_A_DEV_NAME]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a record is named by its number alone: dump to select a device");
		return -EINVAL;
	}
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!rec || !msg) {
		err = -ENOMEM;
		goto out;
	}
	if (!rocectl_qp_errors_get(nla_get_u64(info->attrs[ROCECTL_A_QP_ERROR_SEQ]),
				   rec)) {
		ROCECTL_ERR_ATTR(info->extack, info->attrs[ROCECTL_A_QP_ERROR_SEQ],
				 "no QP failure record has this number (not yet, or overwritten)");
		err = -ENOENT;
		goto out;
	}
	rocectl_nl_reader(skb, &reader);
	err = rocectl_nl_fill_qp_err(msg, rec, ROCECTL_CMD_QP_ERROR_GET,
				     &reader, info->snd_portid, info->snd_seq,
				     0);
	put_pid(rec->owner);
out:
	kfree(rec);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* The device a dump selects: 0 none, else its index; an error if unknown. */
static int rocectl_nl_err_dev(struct netlink_callback *cb, u32 *index)
{
	struct nlattr **attrs = rocectl_dump_attrs(cb);
	struct rocectl_dev *rdev;

	*index = U32_MAX;
	if (!attrs[ROCECTL_A_DEV_INDEX] && !attrs[ROCECTL_A_DEV_NAME])
		return 0;
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(attrs, cb->extack);
	if (!IS_ERR(rdev))
		*index = rdev->index;
	mutex_unlock(&rocectl_devs_lock);
	return PTR_ERR_OR_ZERO(rdev);
}

int rocectl_nl_qp_error_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct rocectl_qp_err_rec *rec;
	struct rocectl_reader reader;
	u64 seq = cb->args[0];
	u32 only;
	int err;

	if (rocectl_dump_attrs(cb)[ROCECTL_A_QP_ERROR_SEQ]) {
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "a dump of QP failures takes no record number: use a plain get");
		return -EINVAL;
	}
	err = rocectl_nl_err_dev(cb, &only);
	if (err)
		return err;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	rocectl_nl_reader(cb->skb, &reader);
	seq = max(seq, rocectl_qp_errors_first());
	for (; rocectl_qp_errors_get(seq, rec); seq++) {
		if (only == U32_MAX || rec->dev_index == only)
			err = rocectl_nl_fill_qp_err(skb, rec,
						     ROCECTL_CMD_QP_ERROR_GET,
						     &reader,
						     NETLINK_CB(cb->skb).portid,
						     cb->nlh->nlmsg_seq,
						     NLM_F_MULTI);
		put_pid(rec->owner);
		if (err)
			break;
	}
	kfree(rec);
	cb->args[0] = seq;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static int rocectl_nl_fill_qp_err_count(struct sk_buff *skb,
					const struct rocectl_qp_err_group *g,
					const struct rocectl_reader *reader,
					u32 portid, u32 seq, int flags)
{
	bool owner = rocectl_owner_ns_view(reader, &g->owners) !=
		     ROCECTL_OWNER_NONE;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &rocectl_genl_family, flags,
			  ROCECTL_CMD_QP_ERROR_COUNT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if ((g->other && nla_put_flag(skb, ROCECTL_A_QP_ERROR_OTHER)) ||
	    (!g->other && (nla_put_u32(skb, ROCECTL_A_DEV_INDEX, g->dev_index) ||
			   nla_put_string(skb, ROCECTL_A_DEV_NAME, g->dev) ||
			   (owner &&
			    nla_put_string(skb, ROCECTL_A_QP_COMM, g->comm)))) ||
	    nla_put_u8(skb, ROCECTL_A_QP_ERROR_CAUSE, g->cause) ||
	    nla_put_u64_64bit(skb, ROCECTL_A_QP_ERROR_COUNT, g->count,
			      ROCECTL_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int rocectl_nl_qp_error_count_get_doit(struct sk_buff *skb,
				       struct genl_info *info)
{
	struct rocectl_qp_err_group g;
	struct rocectl_reader reader;
	struct rocectl_dev *rdev;
	unsigned long pos = 0;
	struct sk_buff *msg;
	bool found = false;
	u32 index;
	u8 cause;

	if (GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_COMM) ||
	    GENL_REQ_ATTR_CHECK(info, ROCECTL_A_QP_ERROR_CAUSE))
		return -EINVAL;
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(info->attrs, info->extack);
	index = IS_ERR(rdev) ? 0 : rdev->index;
	mutex_unlock(&rocectl_devs_lock);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	cause = nla_get_u8(info->attrs[ROCECTL_A_QP_ERROR_CAUSE]);
	rocectl_nl_reader(skb, &reader);
	/* A name the reader may not see is one it cannot look up. */
	for (; rocectl_qp_errors_group(&pos, &g); pos++) {
		if (!g.other && g.dev_index == index && g.cause == cause &&
		    !strcmp(g.comm, nla_data(info->attrs[ROCECTL_A_QP_COMM])) &&
		    rocectl_owner_ns_view(&reader, &g.owners) !=
		    ROCECTL_OWNER_NONE) {
			found = true;
			break;
		}
	}
	if (!found) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no QP failure of the device has this command name and cause");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	if (rocectl_nl_fill_qp_err_count(msg, &g, &reader, info->snd_portid,
					 info->snd_seq, 0)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return genlmsg_reply(msg, info);
}

int rocectl_nl_qp_error_count_get_dumpit(struct sk_buff *skb,
					 struct netlink_callback *cb)
{
	struct nlattr **attrs = rocectl_dump_attrs(cb);
	unsigned long pos = cb->args[0];
	struct rocectl_qp_err_group g;
	struct rocectl_reader reader;
	u32 only;
	int err;

	if (attrs[ROCECTL_A_QP_COMM] || attrs[ROCECTL_A_QP_ERROR_CAUSE]) {
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "a dump of QP failure counts selects by device only: use a plain get for one count");
		return -EINVAL;
	}
	err = rocectl_nl_err_dev(cb, &only);
	if (err)
		return err;
	rocectl_nl_reader(cb->skb, &reader);
	for (; rocectl_qp_errors_group(&pos, &g); pos++) {
		/* A device's selection leaves out the counts of no device. */
		if (only != U32_MAX && (g.other || g.dev_index != only))
			continue;
		err = rocectl_nl_fill_qp_err_count(skb, &g, &reader,
						   NETLINK_CB(cb->skb).portid,
						   cb->nlh->nlmsg_seq,
						   NLM_F_MULTI);
		if (err)
			break;
	}
	cb->args[0] = pos;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}
