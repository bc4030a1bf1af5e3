/* SPDX-License-Identifier: GPL-2.0 */
/* The PFC storm watchdog: printing shared by `watchdog` and `monitor`. */
#ifndef ROCECTL_WATCHDOG_H
#define ROCECTL_WATCHDOG_H

#include <stdbool.h>
#include <libmnl/libmnl.h>

struct rocectl;

/* rocectl watchdog: the object's handler; whether a verb (or its prefix) configures. */
int cmd_watchdog(struct rocectl *rc);
bool wd_changes_config(const char *verb);

/* One watch (show/stats) or one event (monitor). */
void wd_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     bool stats);
const char *wd_event_name(unsigned int event);
/* Names of enum rocectl_wd_state (WD_NSTATES of them) and directions. */
#define WD_NSTATES	5
const char *wd_state_name(unsigned int state);
const char *wd_direction_name(unsigned int direction);

#endif
