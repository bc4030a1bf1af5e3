// SPDX-License-Identifier: GPL-2.0
/*
 * What every object's messages share: the device a request names, a nest
 * of counters, and who reads (the visibility rule's reader, qp_owner.c).
 */
#include <net/genetlink.h>
#include <linux/rocectl.h>
#include "devices/devices.h"
#include "qp/qp_owner.h"
#include "qp/qp_stats.h"
#include "attrs.h"
#include "family.h"

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

/* A nest of ROCECTL_A_QP_STAT_* counters: a QP's, or a device's. */
int rocectl_nl_put_stats(struct sk_buff *skb, int attr, const u64 *stats)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ROCECTL_QP_NSTATS; i++) {
		if (nla_put_u64_64bit(skb, ROCECTL_A_QP_STAT_TX_PACKETS + i,
				      stats[i], ROCECTL_A_QP_STAT_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * CAP_NET_ADMIN in ns, as generic netlink's admin flag asks it
 * (netlink_capable()): both the socket's opener and the task reading
 * have it, so that a socket handed from one to the other grants neither
 * more. Without an audit record: lacking it is the common case here.
 */
static bool rocectl_nl_capable(const struct sk_buff *req,
			       struct user_namespace *ns)
{
	const struct sock *sk = NETLINK_CB(req).sk;

	return sk && sk->sk_socket && sk->sk_socket->file &&
	       file_ns_capable(sk->sk_socket->file, ns, CAP_NET_ADMIN) &&
	       ns_capable_noaudit(ns, CAP_NET_ADMIN);
}

/*
 * The reader of a request (a doit's skb, a dump's cb->skb): its pid
 * namespace and CAP_NET_ADMIN, taken once, outside any lock. A dump runs
 * in the context of the task that reads it (its first part in the
 * request's sendmsg, the rest in recvmsg), which is the reader.
 *
 * The capability counts over the user namespace that owns the reader's
 * network namespace, as generic netlink's GENL_UNS_ADMIN_PERM asks it:
 * one any user can make (unshare -Ur) owns none of the host's namespaces
 * and grants nothing here. The family answers in the initial network
 * namespace alone (it is not netnsok), so that is the initial user
 * namespace's CAP_NET_ADMIN.
 */
void rocectl_nl_reader(const struct sk_buff *req, struct rocectl_reader *r)
{
	const struct sock *sk = NETLINK_CB(req).sk;

	r->ns = task_active_pid_ns(current);
	r->net_admin = sk && rocectl_nl_capable(req, sock_net(sk)->user_ns);
}
