// SPDX-License-Identifier: GPL-2.0
/* Parsing the module's messages: every attribute checked against its type. */
#include <string.h>
#include <linux/genetlink.h>

#include "attrs.h"
#include "nl_spec.h"	/* the attribute tables, from the netlink spec */

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
	struct attr_table t = { tb, rocectl_attr_types, ROCECTL_A_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_MAX + 1));
	return mnl_attr_parse(nlh, GENL_HDRLEN, attr_table_cb, &t);
}

int attrs_parse_port(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, rocectl_port_attr_types, ROCECTL_A_PORT_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_PORT_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

int attrs_parse_wd_prio(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, rocectl_wd_prio_attr_types, ROCECTL_A_WDP_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_WDP_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

int attrs_parse_wd_blast(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, rocectl_wd_blast_attr_types, ROCECTL_A_WDB_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_WDB_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

int attrs_parse_qp_stats(const struct nlattr *nest, const struct nlattr **tb)
{
	struct attr_table t = { tb, rocectl_qp_stat_types, ROCECTL_A_QP_STAT_MAX };

	memset(tb, 0, sizeof(*tb) * (ROCECTL_A_QP_STAT_MAX + 1));
	return mnl_attr_parse_nested(nest, attr_table_cb, &t);
}

const char *name_of(const char *const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "UNKNOWN";
}
