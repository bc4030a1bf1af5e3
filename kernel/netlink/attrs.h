/* SPDX-License-Identifier: GPL-2.0 */
/* What every object's messages share (attrs.c). */
#ifndef _ROCECTL_ATTRS_H
#define _ROCECTL_ATTRS_H

#include <linux/netlink.h>

struct rocectl_dev;
struct rocectl_reader;

struct rocectl_dev *rocectl_nl_find_dev(struct nlattr **attrs,
					struct netlink_ext_ack *extack);
int rocectl_nl_put_stats(struct sk_buff *skb, int attr, const u64 *stats);
void rocectl_nl_reader(const struct sk_buff *req, struct rocectl_reader *r);

#endif /* _ROCECTL_ATTRS_H */
