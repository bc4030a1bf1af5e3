/* SPDX-License-Identifier: GPL-2.0 */
/* The PFC storm watchdog: printing shared by `watchdog` and `monitor`. */
#ifndef ROCECTL_WATCHDOG_H
#define ROCECTL_WATCHDOG_H

#include <stdbool.h>
#include <libmnl/libmnl.h>

/* One watch (show/stats) or one event (monitor). */
void wd_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     bool stats);
const char *wd_event_name(unsigned int event);

#endif
