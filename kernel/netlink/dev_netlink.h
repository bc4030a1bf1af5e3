/* SPDX-License-Identifier: GPL-2.0 */
/* The device notifications (dev_netlink.c), subscribed to the registry. */
#ifndef _ROCECTL_DEV_NETLINK_H
#define _ROCECTL_DEV_NETLINK_H

int rocectl_dev_nl_init(void);
void rocectl_dev_nl_exit(void);

#endif /* _ROCECTL_DEV_NETLINK_H */
