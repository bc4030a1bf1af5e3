// SPDX-License-Identifier: GPL-2.0
/*
 * CONG_GET and CONG_SET: an RDMA port's congestion control (DCQCN), read
 * and set through the hardware backend that knows the device.
 */
#include <linux/slab.h>
#include <net/genetlink.h>
#include "backend/backend.h"
#include "backend/be_registry.h"
#include "devices/devices.h"
#include "attrs.h"
#include "family.h"
#include "netlink_gen.h"

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

/*
 * The device and port a request names, held past rocectl_devs_lock:
 * firmware commands (mlx5's time out after 60 s) run without it, so that
 * no other request and no device add or remove waits for them. The
 * reference keeps the ib_device from being torn down meanwhile.
 */
struct rocectl_cong_target {
	struct ib_device *ibdev;
	u32 index;
	u32 port;
	char name[IB_DEVICE_NAME_MAX];
};

static int rocectl_cong_target_get(struct genl_info *info,
				   struct rocectl_cong_target *t)
{
	struct nlattr **a = info->attrs;
	struct rocectl_dev *rdev;
	int err = 0;

	t->port = a[ROCECTL_A_CONG_PORT] ? nla_get_u32(a[ROCECTL_A_CONG_PORT]) : 1;
	mutex_lock(&rocectl_devs_lock);
	rdev = rocectl_nl_find_dev(a, info->extack);
	if (IS_ERR(rdev)) {
		err = PTR_ERR(rdev);
	} else if (!rdma_is_port_valid(rdev->ibdev, t->port)) {
		ROCECTL_ERR_ATTR(info->extack, a[ROCECTL_A_CONG_PORT],
				 "the RDMA device has no such port");
		err = -EINVAL;
	} else if (!ib_device_try_get(rdev->ibdev)) {
		NL_SET_ERR_MSG_MOD(info->extack, "the RDMA device is going away");
		err = -ENODEV;
	} else {
		t->ibdev = rdev->ibdev;
		t->index = rdev->index;
		strscpy(t->name, rocectl_dev_name(rdev), sizeof(t->name));
	}
	mutex_unlock(&rocectl_devs_lock);
	return err;
}

static int rocectl_cong_fill(struct sk_buff *msg, struct genl_info *info,
			     const struct rocectl_cong_target *t,
			     const char *backend, const struct rocectl_cong_info *c)
{
	void *hdr = genlmsg_put_reply(msg, info, &rocectl_genl_family, 0,
				      ROCECTL_CMD_CONG_GET);

	if (!hdr ||
	    nla_put_u32(msg, ROCECTL_A_DEV_INDEX, t->index) ||
	    nla_put_string(msg, ROCECTL_A_DEV_NAME, t->name) ||
	    nla_put_u32(msg, ROCECTL_A_CONG_PORT, t->port) ||
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

int rocectl_nl_cong_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	char backend[ROCECTL_BACKEND_NAME_MAX];
	struct rocectl_cong_target t;
	struct rocectl_cong_info *c;
	struct sk_buff *msg;
	int err;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!c || !msg) {
		err = -ENOMEM;
		goto free;
	}
	err = rocectl_cong_target_get(info, &t);
	if (err)
		goto free;
	err = rocectl_cong_get(t.ibdev, t.port, c, backend, sizeof(backend));
	ib_device_put(t.ibdev);
	if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no congestion control view: needs rocectl_mlx5 and firmware queries");
	else if (err)
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the NIC's firmware did not answer the congestion control queries");
	if (!err)
		err = rocectl_cong_fill(msg, info, &t, backend, c);
	if (err)
		goto free;
	kfree(c);
	return genlmsg_reply(msg, info);
free:
	nlmsg_free(msg);
	kfree(c);
	return err;
}

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
	struct rocectl_cong_target t;
	const struct nlattr *nla;
	int n = 0, rem, bad, why, err;

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
		/*
		 * Every nest was validated with the op's policy
		 * (NLA_POLICY_NESTED) before this handler ran: read here
		 * without naming the generated table, which names us.
		 */
		err = nla_parse_nested(tb, ROCECTL_A_CONG_MAX, nla, NULL,
				       info->extack);
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
	err = rocectl_cong_target_get(info, &t);
	if (err)
		goto out;
	err = rocectl_cong_set(t.ibdev, t.port, v, n, &bad, &why);
	ib_device_put(t.ibdev);
	if (err) {
		rocectl_cong_why(info->extack, err, why);
		if (bad >= 0)
			NL_SET_BAD_ATTR(info->extack, nests[bad]);
	}
out:
	kfree(v);
	return err;
}
