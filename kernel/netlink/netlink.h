/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family (netlink.c) and its handlers. */
#ifndef _ROCECTL_NETLINK_H
#define _ROCECTL_NETLINK_H

#include <linux/netlink.h>
#include <linux/types.h>

struct genl_family;
struct genl_info;
struct rocectl_dev;
struct rocectl_qp_info;
struct sk_buff;

/* netlink.c: the generic netlink family, its multicast and its helpers. */
extern struct genl_family rocectl_genl_family;
int rocectl_nl_init(void);
bool rocectl_nl_has_listeners(void);
void rocectl_nl_multicast(struct sk_buff *skb);
void rocectl_nl_exit(void);
void rocectl_nl_notify_dev(const struct rocectl_dev *rdev, u8 cmd,
			   const char *prev_name);
void rocectl_nl_notify_qp(const struct rocectl_dev *rdev,
			  const struct rocectl_qp_info *info, const u64 *stats,
			  u8 cmd, int prev_state, u64 lifetime);
int rocectl_nl_put_stats(struct sk_buff *skb, int attr, const u64 *stats);
int rocectl_nl_put_qp(struct sk_buff *skb, u32 dev_index, const char *dev,
		      const struct rocectl_qp_info *in, const u64 *stats,
		      u8 cmd, int prev_state, u64 lifetime);
struct rocectl_qp_err_rec;
void rocectl_nl_notify_qp_error(const struct rocectl_qp_err_rec *rec);
struct rocectl_dev *rocectl_nl_find_dev(struct nlattr **attrs,
					struct netlink_ext_ack *extack);

/* Set an extack message and point it at the attribute it is about. */
#define ROCECTL_ERR_ATTR(extack, attr, msg) do {		\
	struct netlink_ext_ack *__ext = (extack);		\
								\
	NL_SET_ERR_MSG_MOD(__ext, msg);				\
	NL_SET_BAD_ATTR(__ext, attr);				\
} while (0)

#endif /* _ROCECTL_NETLINK_H */
