/* SPDX-License-Identifier: GPL-2.0 */
/* The PFC storm watchdog: printing shared by `watchdog` and `monitor`. */
#ifndef ROCECTL_WATCHDOG_H
#define ROCECTL_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

struct rocectl;

/* rocectl watchdog: the object's handler; whether a verb (or its prefix) configures. */
int cmd_watchdog(struct rocectl *rc);
bool wd_changes_config(const char *verb);

/*
 * A storm's processes as a WD_GET shows them to its reader, by their place
 * in the storm's table: an event names no user process (one multicast
 * reaches every pid namespace), so monitor reads them as itself.
 */
#define WD_SLOTS	64
struct wd_owner {
	bool set;	/* the reply named this slot's owner */
	bool has_pid;	/* in the reader's pid namespace */
	uint32_t pid;
	char comm[16];
	uint64_t cgroup;
};
struct wd_owners {
	unsigned int prio, direction;
	uint64_t detect;	/* the storm's detection: the same storm's table */
	struct wd_owner slot[WD_SLOTS];
};
struct nl;
/*
 * The owners of an event's processes (tb: its attributes), read with
 * WD_GET on nl, the listener's own request socket: 0 and o filled, or -1
 * when the event names none to look up or the watch is gone.
 */
int wd_event_owners(struct nl *nl, const struct nlattr **tb, struct wd_owners *o);
/* The owners the next wd_print_fields() fills an event in with; NULL none. */
void wd_print_owners(const struct wd_owners *o);

/* One watch (show/stats) or one event (monitor). */
void wd_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     bool stats);
const char *wd_event_name(unsigned int event);
/* Names of enum rocectl_wd_state (WD_NSTATES of them) and directions. */
#define WD_NSTATES	5
const char *wd_state_name(unsigned int state);
const char *wd_direction_name(unsigned int direction);

#endif
