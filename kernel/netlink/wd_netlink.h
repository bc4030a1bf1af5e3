/* SPDX-License-Identifier: GPL-2.0 */
/* The watchdog's netlink side (wd_netlink.c): its events as multicasts. */
#ifndef _ROCECTL_WD_NETLINK_H
#define _ROCECTL_WD_NETLINK_H

#include "watchdog/watchdog.h"

extern const struct rocectl_wd_listener rocectl_wd_nl_listener;

#endif /* _ROCECTL_WD_NETLINK_H */
