/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/* Do not edit directly, auto-generated from: */
/*	include/netlink/specs/rocectl.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_ROCECTL_GEN_H
#define _LINUX_ROCECTL_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/rocectl.h>

/* Common nested types */
extern const struct nla_policy rocectl_cong_nl_policy[ROCECTL_A_CONG_PAD + 1];

extern const struct nla_policy rocectl_dev_get_nl_policy[ROCECTL_A_DEV_NAME + 1];

extern const struct nla_policy rocectl_qp_get_nl_policy[ROCECTL_A_QP_PID + 1];

extern const struct nla_policy rocectl_wd_set_nl_policy[ROCECTL_A_WD_STALL_MS + 1];

extern const struct nla_policy rocectl_wd_del_nl_policy[ROCECTL_A_WD_PRIOS + 1];

extern const struct nla_policy rocectl_wd_get_nl_policy[ROCECTL_A_WD_PORT + 1];

extern const struct nla_policy rocectl_wd_brs_set_nl_policy[ROCECTL_A_WD_BRS + 1];

extern const struct nla_policy rocectl_cong_get_nl_policy[ROCECTL_A_CONG_PORT + 1];

extern const struct nla_policy rocectl_cong_set_nl_policy[ROCECTL_A_CONG_PORT + 1];

extern const struct nla_policy rocectl_qp_retired_get_nl_policy[ROCECTL_A_QP_CGROUP + 1];

extern const struct nla_policy rocectl_qp_error_get_nl_policy[ROCECTL_A_QP_ERROR_SEQ + 1];

extern const struct nla_policy rocectl_qp_error_count_get_nl_policy[ROCECTL_A_QP_ERROR_CAUSE + 1];

/* Ops table for rocectl */
extern const struct genl_ops rocectl_nl_ops[11];

int rocectl_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocectl_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocectl_nl_wd_set_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_wd_del_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_wd_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_wd_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocectl_nl_wd_brs_set_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_cong_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_cong_set_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_qp_retired_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_qp_retired_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb);
int rocectl_nl_qp_error_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocectl_nl_qp_error_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb);
int rocectl_nl_qp_error_count_get_doit(struct sk_buff *skb,
				       struct genl_info *info);
int rocectl_nl_qp_error_count_get_dumpit(struct sk_buff *skb,
					 struct netlink_callback *cb);

enum {
	ROCECTL_NLGRP_EVENTS,
};

extern const struct genl_multicast_group rocectl_nl_mcgrps[1];

#endif /* _LINUX_ROCECTL_GEN_H */
