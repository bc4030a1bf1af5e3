/* SPDX-License-Identifier: GPL-2.0 */
/* QP messages (qp_netlink.c): the QP table's listener, one QP's attributes. */
#ifndef _ROCECTL_QP_NETLINK_H
#define _ROCECTL_QP_NETLINK_H

#include <linux/netlink.h>
#include "qp/qp_owner.h"
#include "qp/qps.h"

extern const struct rocectl_qp_listener rocectl_qp_nl_listener;
int rocectl_nl_put_qp(struct sk_buff *skb, u32 dev_index, const char *dev,
		      const struct rocectl_qp_info *in,
		      enum rocectl_owner_view view, const u64 *stats,
		      u8 cmd, int prev_state, u64 lifetime);

#endif /* _ROCECTL_QP_NETLINK_H */
