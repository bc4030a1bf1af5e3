// SPDX-License-Identifier: GPL-2.0
/* rocectl dev: the RDMA devices and ports the module sees. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "dcqcn.h"
#include "dev.h"
#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"

static const char *const port_states[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

static const char *const port_phys_states[] = {
	"NOP", "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION_TRAINING",
	"LINK_UP", "LINK_ERROR_RECOVERY", "PHY_TEST",
};

static const char *const link_layers[] = {
	"unspecified", "infiniband", "ethernet",
};

static const char *const backends[] = {
	[ROCECTL_DRIVER_OTHER] = "generic",
	[ROCECTL_DRIVER_RXE] = "rxe",
	[ROCECTL_DRIVER_MLX5] = "mlx5",
};

const char *dev_port_state_name(unsigned int state)
{
	return name_of(port_states, ARRAY_SIZE(port_states), state);
}

const char *dev_port_phys_state_name(unsigned int state)
{
	return name_of(port_phys_states, ARRAY_SIZE(port_phys_states), state);
}

int dev_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	return attrs_parse(nlh, tb);
}

static void print_flags(const char *key, const char *label, uint32_t flags,
			const char *const *names, unsigned int n)
{
	unsigned int i;
	bool any = false;

	out_open_array(key);
	for (i = 0; i < n; i++) {
		if (!(flags & (1U << i)))
			continue;
		out_text("%s%s", any ? "," : label, names[i]);
		out_str(NULL, NULL, names[i]);
		any = true;
	}
	out_close_array();
	if (!any)
		out_text("%snone", label);
	out_text(" ");
}

static void print_port(const struct nlattr *nest, bool details)
{
	static const char *const roce[] = { "v1", "v2" };
	static const char *const gid_types[] = { "IB", "RoCEv1", "RoCEv2" };
	const struct nlattr *tb[ROCECTL_A_PORT_MAX + 1];

	if (attrs_parse_port(nest, tb) < 0 ||
	    !tb[ROCECTL_A_PORT_INDEX])
		return;

	out_open_object(NULL);
	out_text("\n    ");
	out_uint("port", "port %" PRIu64 " ",
		 mnl_attr_get_u32(tb[ROCECTL_A_PORT_INDEX]));
	if (tb[ROCECTL_A_PORT_STATE])
		out_str("state", "state %s ",
			dev_port_state_name(mnl_attr_get_u8(tb[ROCECTL_A_PORT_STATE])));
	if (tb[ROCECTL_A_PORT_PHYS_STATE])
		out_str("physical_state", "physical_state %s ",
			dev_port_phys_state_name(mnl_attr_get_u8(tb[ROCECTL_A_PORT_PHYS_STATE])));
	if (tb[ROCECTL_A_PORT_LINK_LAYER])
		out_str("link_layer", "link_layer %s ",
			name_of(link_layers, ARRAY_SIZE(link_layers),
				mnl_attr_get_u8(tb[ROCECTL_A_PORT_LINK_LAYER])));
	if (tb[ROCECTL_A_PORT_ROCE])
		print_flags("roce", "roce ", mnl_attr_get_u32(tb[ROCECTL_A_PORT_ROCE]),
			    roce, ARRAY_SIZE(roce));
	if (tb[ROCECTL_A_PORT_ACTIVE_MTU])
		out_uint("mtu", "mtu %" PRIu64 " ",
			 mnl_attr_get_u32(tb[ROCECTL_A_PORT_ACTIVE_MTU]));
	if (tb[ROCECTL_A_PORT_NETDEV_NAME])
		out_str("netdev", "netdev %s ",
			mnl_attr_get_str(tb[ROCECTL_A_PORT_NETDEV_NAME]));
	if (details) {
		if (tb[ROCECTL_A_PORT_NETDEV_INDEX])
			out_uint("netdev_index", "netdev_index %" PRIu64 " ",
				 mnl_attr_get_u32(tb[ROCECTL_A_PORT_NETDEV_INDEX]));
		if (tb[ROCECTL_A_PORT_MAX_MTU])
			out_uint("max_mtu", "max_mtu %" PRIu64 " ",
				 mnl_attr_get_u32(tb[ROCECTL_A_PORT_MAX_MTU]));
		if (tb[ROCECTL_A_PORT_GID_TYPES])
			print_flags("gid_types", "gid_types ",
				    mnl_attr_get_u32(tb[ROCECTL_A_PORT_GID_TYPES]),
				    gid_types, ARRAY_SIZE(gid_types));
	}
	out_close_object();
}

void dev_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		      bool details)
{
	const struct nlattr *a;
	char guid[24];
	uint64_t g;

	if (tb[ROCECTL_A_DEV_INDEX])
		out_uint("ifindex", "%" PRIu64 ": ",
			 mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]));
	if (tb[ROCECTL_A_DEV_NAME])
		out_str("ifname", "%s: ", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_DEV_PREV_NAME])
		out_str("prev_ifname", "was %s ",
			mnl_attr_get_str(tb[ROCECTL_A_DEV_PREV_NAME]));
	if (tb[ROCECTL_A_DEV_DRIVER_NAME])
		out_str("driver", "driver %s ",
			mnl_attr_get_str(tb[ROCECTL_A_DEV_DRIVER_NAME]));
	if (tb[ROCECTL_A_DEV_NODE_GUID]) {
		g = mnl_attr_get_u64(tb[ROCECTL_A_DEV_NODE_GUID]);
		snprintf(guid, sizeof(guid), "%04x:%04x:%04x:%04x",
			 (unsigned int)(g >> 48) & 0xffff,
			 (unsigned int)(g >> 32) & 0xffff,
			 (unsigned int)(g >> 16) & 0xffff,
			 (unsigned int)g & 0xffff);
		out_str("node_guid", "node_guid %s ", guid);
	}
	if (details && tb[ROCECTL_A_DEV_DRIVER])
		out_str("backend", "backend %s ",
			name_of(backends, ARRAY_SIZE(backends),
				mnl_attr_get_u32(tb[ROCECTL_A_DEV_DRIVER])));
	if (!tb[ROCECTL_A_DEV_NUM_PORTS])
		return;

	out_uint("num_ports", "ports %" PRIu64 " ",
		 mnl_attr_get_u32(tb[ROCECTL_A_DEV_NUM_PORTS]));
	out_open_array("ports");
	/* Ports are a repeated attribute: walk the whole message for them. */
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == ROCECTL_A_DEV_PORT &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0)
			print_port(a, details);
	}
	out_close_array();
}

static int dev_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	const struct rocectl *rc = data;

	if (dev_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX])
		return MNL_CB_OK;
	out_open_object(NULL);
	dev_print_fields(nlh, tb, rc->details);
	out_close_object();
	out_nl();
	return MNL_CB_OK;
}

/* -d: a device's fields, then the DCQCN of the ports a backend serves. */
static int dev_detail_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	uint32_t *ports = data;

	if (dev_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX])
		return MNL_CB_ERROR;
	*ports = tb[ROCECTL_A_DEV_NUM_PORTS] ? mnl_attr_get_u32(tb[ROCECTL_A_DEV_NUM_PORTS]) : 0;
	out_open_object(NULL);
	dev_print_fields(nlh, tb, true);
	return MNL_CB_OK;
}

static int dev_show_details(struct rocectl *rc, const char *name)
{
	struct dev_list l = { .n = 0 };
	uint32_t port, ports;
	struct nlmsghdr *nlh;
	size_t i;
	int err;

	if (name) {
		l.names = calloc(1, sizeof(*l.names));
		l.ports = calloc(1, sizeof(*l.ports));
		if (!l.names || !l.ports) {
			dev_list_free(&l);
			pr_err("Error: out of memory.\n");
			return EXIT_FAILED;
		}
		snprintf(l.names[0], sizeof(l.names[0]), "%s", name);
		l.n = 1;
	} else {
		err = dev_list_get(rc, &l);
		if (err) {
			dev_list_free(&l);
			return err;
		}
	}
	out_begin_list();
	for (i = 0, err = EXIT_OK; !err && i < l.n; i++) {
		nlh = nl_request(&rc->nl, ROCECTL_CMD_DEV_GET, 0);
		mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, l.names[i]);
		err = nl_run(&rc->nl, nlh, dev_detail_cb, &ports);
		if (err)
			break;
		out_open_array("dcqcn");
		for (port = 1; !err && port <= ports; port++)
			err = cong_print_params(rc, l.names[i], port);
		out_close_array();
		out_close_object();
		out_nl();
	}
	out_end_list();
	dev_list_free(&l);
	return err;
}

static int dev_show(struct rocectl *rc)
{
	const char *name;
	struct nlmsghdr *nlh;
	int err = arg_dev_connect(rc, &name);

	if (err)
		return err;
	if (rc->details)
		return dev_show_details(rc, name);

	nlh = nl_request(&rc->nl, ROCECTL_CMD_DEV_GET, name ? 0 : NLM_F_DUMP);
	if (name)
		mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, name);
	out_begin_list();
	err = nl_run(&rc->nl, nlh, dev_show_cb, rc);
	out_end_list();
	return err;
}

static int dev_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl dev show [ DEV ]\n"
	       "       rocectl dev stats [ DEV ]\n"
	       "       rocectl dev help\n"
	       "Lists the RDMA devices and, per port, state, link layer, RoCE\n"
	       "versions, MTU and the netdev behind it. -d adds details.\n"
	       "stats: port counters from the driver and the sum of the module's\n"
	       "per-QP counters, each labelled with its scope and source.\n");
	return EXIT_OK;
}

static const struct cmd dev_cmds[] = {
	{ "show", dev_show },
	{ "list", dev_show },
	{ "stats", dev_stats },
	{ "help", dev_help },
	{ NULL, NULL },
};

int cmd_dev(struct rocectl *rc)
{
	return dispatch(rc, "dev", dev_cmds);
}
