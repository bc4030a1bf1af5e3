/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family and its event group (family.c). */
#ifndef _ROCECTL_FAMILY_H
#define _ROCECTL_FAMILY_H

#include <linux/netlink.h>
#include <linux/types.h>
#include <net/genetlink.h>

extern struct genl_family rocectl_genl_family;
int rocectl_nl_init(const struct genl_ops *ops, int n_ops,
		    const struct genl_multicast_group *mcgrps, int n_mcgrps);
void rocectl_nl_exit(void);
bool rocectl_nl_has_listeners(void);
void rocectl_nl_multicast(struct sk_buff *skb);

/* Set an extack message and point it at the attribute it is about. */
#define ROCECTL_ERR_ATTR(extack, attr, msg) do {		\
	struct netlink_ext_ack *__ext = (extack);		\
								\
	NL_SET_ERR_MSG_MOD(__ext, msg);				\
	NL_SET_BAD_ATTR(__ext, attr);				\
} while (0)

#endif /* _ROCECTL_FAMILY_H */
