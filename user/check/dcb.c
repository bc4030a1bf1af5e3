// SPDX-License-Identifier: GPL-2.0
/*
 * dcbnl over rtnetlink with libmnl: RTM_GETDCB with DCB_CMD_IEEE_GET,
 * the request dcb(8) sends for "dcb pfc show" and "dcb app show".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

#include "dcb.h"

static void parse_app_table(const struct nlattr *table, struct dcb_state *d)
{
	const struct nlattr *a;
	const struct dcb_app *app;

	mnl_attr_for_each_nested(a, table) {
		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP ||
		    mnl_attr_get_payload_len(a) < sizeof(*app))
			continue;
		app = mnl_attr_get_payload(a);
		if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP ||
		    app->protocol >= 64 || app->priority > 7)
			continue;
		d->dscp_prio[app->protocol] |= 1U << app->priority;
		d->dscp_entries++;
	}
}

static int dcb_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dcb_state *d = data;
	const struct nlattr *a, *b;
	const struct ieee_pfc *pfc;

	if (nlh->nlmsg_type != RTM_GETDCB)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg)) {
		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE)
			continue;
		mnl_attr_for_each_nested(b, a) {
			switch (mnl_attr_get_type(b)) {
			case DCB_ATTR_IEEE_PFC:
				if (mnl_attr_get_payload_len(b) < sizeof(*pfc))
					break;
				pfc = mnl_attr_get_payload(b);
				d->has_pfc = true;
				d->pfc_cap = pfc->pfc_cap;
				d->pfc_en = pfc->pfc_en;
				break;
			case DCB_ATTR_IEEE_APP_TABLE:
				parse_app_table(b, d);
				break;
			}
		}
	}
	return MNL_CB_OK;
}

int dcb_read(const char *ifname, struct dcb_state *d)
{
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct dcbmsg *dcb;
	unsigned int seq = time(NULL), portid;
	int ret = -ENOMEM, n;

	memset(d, 0, sizeof(*d));
	if (!buf)
		return -ENOMEM;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->dcb_family = AF_UNSPEC;
	dcb->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	/* One reply, or an error message: dcbnl answers IEEE_GET without a dump. */
	n = mnl_socket_recvfrom(nl, buf, MNL_SOCKET_BUFFER_SIZE);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	ret = mnl_cb_run(buf, n, seq, portid, dcb_cb, d);
	ret = ret < 0 ? -errno : 0;
out:
	if (nl)
		mnl_socket_close(nl);
	free(buf);
	return ret;
}
