// SPDX-License-Identifier: GPL-2.0
/*
 * CONG_GET and CONG_SET: an RDMA port's congestion control (DCQCN), read
 * and set through the hardware backend that knows the device.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include "watchdog.h"

static int rocectl_cong_put(struct sk_buff *skb, int type,
			    const struct rocectl_cong_value *v, int n)
{
	struct nlattr *nest;
	int i;

	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, type);
		if (!nest ||
		    nla_put_string(skb, ROCECTL_A_CONG_NAME, v[i].name) ||
		    nla_put_u64_64bit(skb, ROCECTL_A_CONG_VALUE, v[i].value,
				      ROCECTL_A_CONG_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int rocectl_cong_fill(struct sk_buff *msg, struct genl_info *info,
			     const struct rocectl_dev *rdev, u32 port,
			     const char *backend, const struct rocectl_cong_info *c)
{
	void *hdr = genlmsg_put_reply(msg, info, &rocectl_genl_family, 0,
				      ROCECTL_CMD_CONG_GET);

	if (!hdr ||
	    nla_put_u32(msg, ROCECTL_A_DEV_INDEX, rdev->index) ||
	    nla_put_string(msg, ROCECTL_A_DEV_NAME, rdev->name) ||
	    nla_put_u32(msg, ROCECTL_A_CONG_PORT, port) ||
	    nla_put_string(msg, ROCECTL_A_BACKEND, backend) ||
	    rocectl_cong_put(msg, ROCECTL_A_CONG_PARAM, c->params, c->nparams) ||
	    (c->status_known &&
	     (nla_put_u8(msg, ROCECTL_A_CONG_RP_ENABLED, c->rp_enabled) ||
	      nla_put_u8(msg, ROCECTL_A_CONG_NP_ENABLED, c->np_enabled))) ||
	    rocectl_cong_put(msg, ROCECTL_A_CONG_STAT, c->stats, c->nstats))
		return -EMSGSIZE;
	genlmsg_end(msg, hdr);
	return 0;
}

/* The device and port a request names, under rocectl_devs_lock. */
static struct rocectl_dev *rocectl_cong_target(struct genl_info *info, u32 *port)
{
	struct nlattr **a = info->attrs;
	struct rocectl_dev *rdev;

	*port = a[ROCECTL_A_CONG_PORT] ? nla_get_u32(a[ROCECTL_A_CONG_PORT]) : 1;
	rdev = rocectl_nl_find_dev(a, info->extack);
	if (!IS_ERR(rdev) && !rdma_is_port_valid(rdev->ibdev, *port)) {
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_CONG_PORT],
				 "the RDMA device has no such port");
		return ERR_PTR(-EINVAL);
	}
	return rdev;
}

int rocectl_nl_cong_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocectl_cong_info *c;
	struct rocectl_dev *rdev;
	const char *backend;
	struct sk_buff *msg;
	u32 port;
	int err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!c || !msg) {
		err = -ENOMEM;
		goto free;
	}
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_cong_target(info, &port);
	err = PTR_ERR_OR_ZERO(rdev);
	if (!err)
		err = rocectl_cong_get(rdev->ibdev, port, c, &backend);
	if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no congestion control view: needs rocectl_mlx5 and firmware queries");
	else if (err && !IS_ERR(rdev))
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the NIC's firmware did not answer the congestion control queries");
	if (!err)
		err = rocectl_cong_fill(msg, info, rdev, port, backend, c);
	mutex_unlock(&rocectl_devs_lock);
	if (err)
		goto free;
	kfree(c);
	return genlmsg_reply(msg, info);
free:
	nlmsg_free(msg);
	kfree(c);
	return err;
}

static const struct nla_policy rocectl_cong_value_policy[ROCECTL_A_CONG_MAX + 1] = {
	[ROCECTL_A_CONG_NAME] = { .type = NLA_NUL_STRING, .len = 63 },
	[ROCECTL_A_CONG_VALUE] = { .type = NLA_U64 },
};

static void rocectl_cong_why(struct netlink_ext_ack *extack, int err, int why)
{
	switch (why) {
	case ROCECTL_CONG_WHY_NOT_ALLOWED:
		NL_SET_ERR_MSG_MOD(extack,
				   "the firmware does not allow changing congestion control");
		break;
	case ROCECTL_CONG_WHY_UNKNOWN:
		NL_SET_ERR_MSG_MOD(extack,
				   "no congestion control parameter has this name");
		break;
	case ROCECTL_CONG_WHY_RANGE:
		NL_SET_ERR_MSG_MOD(extack, "value out of this parameter's range");
		break;
	case ROCECTL_CONG_WHY_CONFLICT:
		NL_SET_ERR_MSG_MOD(extack,
				   "np_cnp_prio sets np_cnp_prio_mode to 0: give one of them");
		break;
	case ROCECTL_CONG_WHY_FIRMWARE:
		NL_SET_ERR_MSG_MOD(extack, "the NIC's firmware refused the parameters");
		break;
	case ROCECTL_CONG_WHY_PARTIAL:
		NL_SET_ERR_MSG_MOD(extack,
				   "the firmware refused, and setting back what was written failed: read the parameters");
		break;
	case ROCECTL_CONG_WHY_PORT:
		NL_SET_ERR_MSG_MOD(extack,
				   "the hardware backend knows port 1 of this device only");
		break;
	default:
		if (err == -EOPNOTSUPP)
			NL_SET_ERR_MSG_MOD(extack,
					   "no hardware backend (rocectl_mlx5) serves this device");
	}
}

int rocectl_nl_cong_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *nests[ROCECTL_CONG_MAX];
	struct nlattr *tb[ROCECTL_A_CONG_MAX + 1];
	struct rocectl_cong_value *v;
	struct rocectl_dev *rdev;
	const struct nlattr *nla;
	int n = 0, rem, bad, why, err;
	u32 port;

	v = kcalloc(ROCECTL_CONG_MAX, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != ROCECTL_A_CONG_PARAM)
			continue;
		if (n == ROCECTL_CONG_MAX) {
			ROCECTL_ERR_ATTR(info->extack, nla, "too many parameters in one request");
			err = -E2BIG;
			goto out;
		}
		err = nla_parse_nested(tb, ROCECTL_A_CONG_MAX, nla,
				       rocectl_cong_value_policy, info->extack);
		if (err)
			goto out;
		if (!tb[ROCECTL_A_CONG_NAME] || !tb[ROCECTL_A_CONG_VALUE]) {
			NL_SET_ERR_MSG_MOD(info->extack, "a parameter needs a name and a value");
			NL_SET_ERR_ATTR_MISS(info->extack, nla, tb[ROCECTL_A_CONG_NAME] ?
					     ROCECTL_A_CONG_VALUE : ROCECTL_A_CONG_NAME);
			err = -EINVAL;
			goto out;
		}
		nests[n] = nla;
		v[n].name = nla_data(tb[ROCECTL_A_CONG_NAME]);
		v[n++].value = nla_get_u64(tb[ROCECTL_A_CONG_VALUE]);
	}
	if (!n) {
		NL_SET_ERR_MSG_MOD(info->extack, "give at least one parameter to set");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, ROCECTL_A_CONG_PARAM);
		err = -EINVAL;
		goto out;
	}
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_cong_target(info, &port);
	err = PTR_ERR_OR_ZERO(rdev);
	if (!err) {
		err = rocectl_cong_set(rdev->ibdev, port, v, n, &bad, &why);
		if (err) {
			rocectl_cong_why(info->extack, err, why);
			if (bad >= 0)
				NL_SET_BAD_ATTR(info->extack, nests[bad]);
		}
	}
	mutex_unlock(&rocectl_devs_lock);
out:
	kfree(v);
	return err;
}
