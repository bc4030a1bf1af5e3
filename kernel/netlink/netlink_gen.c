// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT)
/* Do not edit directly, auto-generated from: */
/*	include/netlink/specs/rocectl.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink_gen.h"

#include <uapi/linux/rocectl.h>

/* Integer value ranges */
static struct netlink_range_validation rocectl_a_qp_num_range __ro_after_init = {
	.max	= 16777215ULL,
};

static struct netlink_range_validation rocectl_a_wd_restore_ms_range __ro_after_init = {
	.min	= 20ULL,
	.max	= 60000ULL,
};

/* Common nested types */
const struct nla_policy rocectl_cong_nl_policy[ROCECTL_A_CONG_PAD + 1] = {
	[ROCECTL_A_CONG_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[ROCECTL_A_CONG_VALUE] = { .type = NLA_U64, },
};

/* ROCECTL_CMD_DEV_GET - do */
const struct nla_policy rocectl_dev_get_nl_policy[ROCECTL_A_DEV_NAME + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
};

/* ROCECTL_CMD_QP_GET - do */
const struct nla_policy rocectl_qp_get_nl_policy[ROCECTL_A_QP_PID + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_QP_NUM] = NLA_POLICY_FULL_RANGE(NLA_U32, &rocectl_a_qp_num_range),
	[ROCECTL_A_QP_TYPE] = { .type = NLA_U8, },
	[ROCECTL_A_QP_STATE] = NLA_POLICY_MAX(NLA_U8, 6),
	[ROCECTL_A_QP_PORT] = { .type = NLA_U32, },
	[ROCECTL_A_QP_PID] = { .type = NLA_U32, },
};

/* ROCECTL_CMD_WD_SET - do */
const struct nla_policy rocectl_wd_set_nl_policy[ROCECTL_A_WD_STALL_MS + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_NETDEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_NETDEV_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[ROCECTL_A_WD_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[ROCECTL_A_WD_PRIOS] = NLA_POLICY_MIN(NLA_U8, 1),
	[ROCECTL_A_WD_DETECT_MS] = NLA_POLICY_RANGE(NLA_U32, 20, 10000),
	[ROCECTL_A_WD_RESTORE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &rocectl_a_wd_restore_ms_range),
	[ROCECTL_A_WD_INTERVAL_MS] = NLA_POLICY_RANGE(NLA_U32, 10, 1000),
	[ROCECTL_A_WD_ACTION] = NLA_POLICY_MAX(NLA_U8, 1),
	[ROCECTL_A_WD_DIRECTION] = NLA_POLICY_MAX(NLA_U8, 2),
	[ROCECTL_A_WD_STALL_MS] = { .type = NLA_U16, },
};

/* ROCECTL_CMD_WD_DEL - do */
const struct nla_policy rocectl_wd_del_nl_policy[ROCECTL_A_WD_PRIOS + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_NETDEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_NETDEV_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[ROCECTL_A_WD_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[ROCECTL_A_WD_PRIOS] = NLA_POLICY_MIN(NLA_U8, 1),
};

/* ROCECTL_CMD_WD_GET - do */
const struct nla_policy rocectl_wd_get_nl_policy[ROCECTL_A_WD_PORT + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_NETDEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_NETDEV_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[ROCECTL_A_WD_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

/* ROCECTL_CMD_WD_BRS_SET - do */
const struct nla_policy rocectl_wd_brs_set_nl_policy[ROCECTL_A_WD_BRS + 1] = {
	[ROCECTL_A_WD_BRS] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* ROCECTL_CMD_CONG_GET - do */
const struct nla_policy rocectl_cong_get_nl_policy[ROCECTL_A_CONG_PORT + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_CONG_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

/* ROCECTL_CMD_CONG_SET - do */
const struct nla_policy rocectl_cong_set_nl_policy[ROCECTL_A_CONG_PORT + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_CONG_PARAM] = NLA_POLICY_NESTED(rocectl_cong_nl_policy),
	[ROCECTL_A_CONG_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

/* ROCECTL_CMD_QP_RETIRED_GET - do */
const struct nla_policy rocectl_qp_retired_get_nl_policy[ROCECTL_A_QP_CGROUP + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_QP_PORT] = { .type = NLA_U32, },
	[ROCECTL_A_QP_COMM] = { .type = NLA_NUL_STRING, .len = 15, },
	[ROCECTL_A_QP_CGROUP] = { .type = NLA_U64, },
};

/* ROCECTL_CMD_QP_ERROR_GET - do */
const struct nla_policy rocectl_qp_error_get_nl_policy[ROCECTL_A_QP_ERROR_SEQ + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_QP_ERROR_SEQ] = { .type = NLA_U64, },
};

/* ROCECTL_CMD_QP_ERROR_COUNT_GET - do */
const struct nla_policy rocectl_qp_error_count_get_nl_policy[ROCECTL_A_QP_ERROR_CAUSE + 1] = {
	[ROCECTL_A_DEV_INDEX] = { .type = NLA_U32, },
	[ROCECTL_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ROCECTL_DEV_NAME_MAX, },
	[ROCECTL_A_QP_COMM] = { .type = NLA_NUL_STRING, .len = 15, },
	[ROCECTL_A_QP_ERROR_CAUSE] = NLA_POLICY_MAX(NLA_U8, 4),
};

/* Ops table for rocectl */
const struct genl_ops rocectl_nl_ops[11] = {
	{
		.cmd		= ROCECTL_CMD_DEV_GET,
		.doit		= rocectl_nl_dev_get_doit,
		.dumpit		= rocectl_nl_dev_get_dumpit,
		.policy		= rocectl_dev_get_nl_policy,
		.maxattr	= ROCECTL_A_DEV_NAME,
	},
	{
		.cmd		= ROCECTL_CMD_QP_GET,
		.doit		= rocectl_nl_qp_get_doit,
		.dumpit		= rocectl_nl_qp_get_dumpit,
		.policy		= rocectl_qp_get_nl_policy,
		.maxattr	= ROCECTL_A_QP_PID,
	},
	{
		.cmd		= ROCECTL_CMD_WD_SET,
		.doit		= rocectl_nl_wd_set_doit,
		.policy		= rocectl_wd_set_nl_policy,
		.maxattr	= ROCECTL_A_WD_STALL_MS,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= ROCECTL_CMD_WD_DEL,
		.doit		= rocectl_nl_wd_del_doit,
		.policy		= rocectl_wd_del_nl_policy,
		.maxattr	= ROCECTL_A_WD_PRIOS,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= ROCECTL_CMD_WD_GET,
		.doit		= rocectl_nl_wd_get_doit,
		.dumpit		= rocectl_nl_wd_get_dumpit,
		.policy		= rocectl_wd_get_nl_policy,
		.maxattr	= ROCECTL_A_WD_PORT,
	},
	{
		.cmd		= ROCECTL_CMD_WD_BRS_SET,
		.doit		= rocectl_nl_wd_brs_set_doit,
		.policy		= rocectl_wd_brs_set_nl_policy,
		.maxattr	= ROCECTL_A_WD_BRS,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= ROCECTL_CMD_CONG_GET,
		.doit		= rocectl_nl_cong_get_doit,
		.policy		= rocectl_cong_get_nl_policy,
		.maxattr	= ROCECTL_A_CONG_PORT,
	},
	{
		.cmd		= ROCECTL_CMD_CONG_SET,
		.doit		= rocectl_nl_cong_set_doit,
		.policy		= rocectl_cong_set_nl_policy,
		.maxattr	= ROCECTL_A_CONG_PORT,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= ROCECTL_CMD_QP_RETIRED_GET,
		.doit		= rocectl_nl_qp_retired_get_doit,
		.dumpit		= rocectl_nl_qp_retired_get_dumpit,
		.policy		= rocectl_qp_retired_get_nl_policy,
		.maxattr	= ROCECTL_A_QP_CGROUP,
	},
	{
		.cmd		= ROCECTL_CMD_QP_ERROR_GET,
		.doit		= rocectl_nl_qp_error_get_doit,
		.dumpit		= rocectl_nl_qp_error_get_dumpit,
		.policy		= rocectl_qp_error_get_nl_policy,
		.maxattr	= ROCECTL_A_QP_ERROR_SEQ,
	},
	{
		.cmd		= ROCECTL_CMD_QP_ERROR_COUNT_GET,
		.doit		= rocectl_nl_qp_error_count_get_doit,
		.dumpit		= rocectl_nl_qp_error_count_get_dumpit,
		.policy		= rocectl_qp_error_count_get_nl_policy,
		.maxattr	= ROCECTL_A_QP_ERROR_CAUSE,
	},
};

const struct genl_multicast_group rocectl_nl_mcgrps[] = {
	[ROCECTL_NLGRP_EVENTS] = { "events", },
};
