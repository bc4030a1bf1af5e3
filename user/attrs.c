// SPDX-License-Identifier: GPL-2.0
/* Parsing the module's messages: every attribute checked against its type. */
#include <string.h>
#include <linux/genetlink.h>

#include "attrs.h"

static const enum mnl_attr_data_type top_types[ROCECTL_A_MAX + 1] = {
	[ROCECTL_A_DEV_INDEX] = MNL_TYPE_U32,
	[ROCECTL_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_DEV_PREV_NAME] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_DEV_DRIVER] = MNL_TYPE_U32,
	[ROCECTL_A_DEV_DRIVER_NAME] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_DEV_NODE_GUID] = MNL_TYPE_U64,
	[ROCECTL_A_DEV_NUM_PORTS] = MNL_TYPE_U32,
	[ROCECTL_A_DEV_PORT] = MNL_TYPE_NESTED,
	[ROCECTL_A_QP_NUM] = MNL_TYPE_U32,
	[ROCECTL_A_QP_TYPE] = MNL_TYPE_U8,
	[ROCECTL_A_QP_STATE] = MNL_TYPE_U8,
	[ROCECTL_A_QP_PREV_STATE] = MNL_TYPE_U8,
	[ROCECTL_A_QP_PORT] = MNL_TYPE_U32,
	[ROCECTL_A_QP_PID] = MNL_TYPE_U32,
	[ROCECTL_A_QP_COMM] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_QP_KERNEL] = MNL_TYPE_U8,
	[ROCECTL_A_QP_CREATE_TIME] = MNL_TYPE_U64,
	[ROCECTL_A_QP_STATE_TIME] = MNL_TYPE_U64,
	[ROCECTL_A_QP_DEST_QPN] = MNL_TYPE_U32,
	[ROCECTL_A_QP_SGID] = MNL_TYPE_BINARY,
	[ROCECTL_A_QP_DGID] = MNL_TYPE_BINARY,
	[ROCECTL_A_QP_TCLASS] = MNL_TYPE_U8,
	[ROCECTL_A_QP_SL] = MNL_TYPE_U8,
	[ROCECTL_A_QP_PATH_MTU] = MNL_TYPE_U32,
	[ROCECTL_A_QP_TIMEOUT] = MNL_TYPE_U8,
	[ROCECTL_A_QP_RETRY_CNT] = MNL_TYPE_U8,
	[ROCECTL_A_QP_RNR_RETRY] = MNL_TYPE_U8,
	[ROCECTL_A_QP_STATS] = MNL_TYPE_NESTED,
	[ROCECTL_A_QP_LIFETIME] = MNL_TYPE_U64,
	[ROCECTL_A_NETDEV_INDEX] = MNL_TYPE_U32,
	[ROCECTL_A_NETDEV_NAME] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_WD_PORT] = MNL_TYPE_U32,
	[ROCECTL_A_WD_PRIOS] = MNL_TYPE_U8,
	[ROCECTL_A_WD_DETECT_MS] = MNL_TYPE_U32,
	[ROCECTL_A_WD_RESTORE_MS] = MNL_TYPE_U32,
	[ROCECTL_A_WD_INTERVAL_MS] = MNL_TYPE_U32,
	[ROCECTL_A_WD_ACTION] = MNL_TYPE_U8,
	[ROCECTL_A_WD_DIRECTION] = MNL_TYPE_U8,
	[ROCECTL_A_WD_COUNTERS] = MNL_TYPE_U8,
	[ROCECTL_A_WD_BRS] = MNL_TYPE_U8,
	[ROCECTL_A_WD_PRIO] = MNL_TYPE_NESTED,
	[ROCECTL_A_WD_EVENT] = MNL_TYPE_U8,
	[ROCECTL_A_WD_EV_WINDOW_US] = MNL_TYPE_U64,
	[ROCECTL_A_WD_EV_PAUSE_US] = MNL_TYPE_U64,
	[ROCECTL_A_WD_EV_FRAMES] = MNL_TYPE_U64,
	[ROCECTL_A_BACKEND] = MNL_TYPE_NUL_STRING,
	[ROCECTL_A_WD_STALL_MS] = MNL_TYPE_U16,
	[ROCECTL_A_WD_STALL_WARNINGS] = MNL_TYPE_U64,
	[ROCECTL_A_WD_STALL_ERRORS] = MNL_TYPE_U64,
	[ROCECTL_A_CONG_PARAM] = MNL_TYPE_NESTED,
	[ROCECTL_A_CONG_STAT] = MNL_TYPE_NESTED,
	[ROCECTL_A_CONG_RP_ENABLED] = MNL_TYPE_U8,
	[ROCECTL_A_CONG_NP_ENABLED] = MNL_TYPE_U8,
	[ROCECTL_A_CONG_PORT] = MNL_TYPE_U32,
	[ROCECTL_A_WD_NETDEV_GONE] = MNL_TYPE_U8,
	[ROCECTL_A_DEV_QPS_GONE] = MNL_TYPE_NESTED,
	[ROCECTL_A_DEV_UNATTRIBUTED] = MNL_TYPE_NESTED,
	[ROCECTL_A_DEV_PKT_UNSEEN] = MNL_TYPE_U64,
	[ROCECTL_A_DEV_PROBE_MISSED] = MNL_TYPE_U64,
	[ROCECTL_A_DEV_QP_HOOK_MISSED] = MNL_TYPE_U64,
	[ROCECTL_A_QP_INCOMPLETE] = MNL_TYPE_FLAG,
};

static const enum mnl_attr_data_type wdp_types[ROCECTL_A_WDP_MAX + 1] = {
	[ROCECTL_A_WDP_PRIO] = MNL_TYPE_U8,
	[ROCECTL_A_WDP_DIRECTION] = MNL_TYPE_U8,
	[ROCECTL_A_WDP_STATE] = MNL_TYPE_U8,
	[ROCECTL_A_WDP_STORMS] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_RESTORES] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_LAST_DETECT] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_LAST_RESTORE] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_STORM_MS] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_LAST_STORM_MS] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_LAST_STORM_FRAMES] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_ACTIONS] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_ACTIONS_FAILED] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_CONFLICTS] = MNL_TYPE_U64,
	[ROCECTL_A_WDP_BACKOFF] = MNL_TYPE_U8,
	[ROCECTL_A_WDP_PFC_CLEARED] = MNL_TYPE_U8,
};

static const enum mnl_attr_data_type port_types[ROCECTL_A_PORT_MAX + 1] = {
	[ROCECTL_A_PORT_INDEX] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_STATE] = MNL_TYPE_U8,
	[ROCECTL_A_PORT_PHYS_STATE] = MNL_TYPE_U8,
	[ROCECTL_A_PORT_LINK_LAYER] = MNL_TYPE_U8,
	[ROCECTL_A_PORT_ROCE] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_GID_TYPES] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_ACTIVE_MTU] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_MAX_MTU] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_NETDEV_INDEX] = MNL_TYPE_U32,
	[ROCECTL_A_PORT_NETDEV_NAME] = MNL_TYPE_NUL_STRING,
};

struct attr_table {
	const struct nlattr **tb;
	const enum mnl_attr_data_type *types;
	unsigned int max;
};

static int attr_table_cb(const struct nlattr *attr, void *data)
{
	struct attr_table *t = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > t->max || t->types[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, t->types[type]) < 0)
		return MNL_CB_OK;
	/* GIDs are exactly 16 bytes. */
	if (t->types[type] == MNL_TYPE_BINARY && mnl_attr_get_payload_len(attr) != 16)
		return MNL_CB_OK;
	if (!t->tb[type])
		t->tb[type] = attr;
	return MNL_CB_OK;
}

int attrs_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	struct attr_table t = { tb, top_types, ROCECTL_A_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_MAX + 1));
	return mnl_attr_parse(nlh, GENL_HDRLEN, attr_table_cb, &t);
}

int attrs_parse_port(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, port_types, ROCECTL_A_PORT_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_PORT_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

int attrs_parse_wd_prio(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, wdp_types, ROCECTL_A_WDP_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_WDP_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

int attrs_parse_qp_stats(const struct nlattr *nest, const struct nlattr **tb)
{
	static enum mnl_attr_data_type stat_types[ROCECTL_A_QP_STAT_MAX + 1];
	struct attr_table t = { tb, stat_types, ROCECTL_A_QP_STAT_MAX };
	unsigned int i;

	for (i = ROCECTL_A_QP_STAT_TX_PACKETS; i <= ROCECTL_A_QP_STAT_MAX; i++)
		stat_types[i] = MNL_TYPE_U64;
	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_QP_STAT_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

const char *name_of(const char *const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "UNKNOWN";
}
