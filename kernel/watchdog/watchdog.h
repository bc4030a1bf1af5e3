/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PFC storm watchdog: one watch per netdev, one state machine per
 * watched priority and direction. The watches and their state machines
 * are under rtnl_lock: the DCB ops require it and it serializes netlink,
 * polls and notifiers. A backend's counters are read outside it (firmware
 * commands), under the watch's be_lock; see watchdog.c for the lock order.
 */
#ifndef _ROCECTL_WATCHDOG_H
#define _ROCECTL_WATCHDOG_H

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>
#include <net/dcbnl.h>
#include "backend/backend.h"
#include "wd_blast.h"
#include "wd_judge.h"

/* Where in the netdev's ethtool statistics each counter is; -1: absent. */
struct rocectl_wd_layout {
	int frames[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];
	int pause_us[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];
	int pkts[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];
	int stall[2];		/* tx_pause_storm_{warning,error}_events */
	int n_stats;
	bool duration;		/* pause time for every priority */
	bool pkts_known;
	bool stall_known;
};

struct rocectl_wd {
	struct list_head list;
	/*
	 * NULL once the netdev is gone while the watch still holds PFC bits
	 * the driver refused to set back: kept, shown, until a netdev of the
	 * same name comes back (firmware may keep PFC across a re-creation).
	 */
	struct net_device *ndev;
	int ifindex;
	char name[IFNAMSIZ];
	u32 detect_ms, restore_ms, interval_ms;
	u8 action, dirs;	/* dirs: bit per enum rocectl_wd_direction */
	struct rocectl_wd_layout layout;
	/*
	 * A hardware backend drives this netdev's counters and PFC, or NULL.
	 * Changed under rtnl_lock and be_lock; the poll reads through it
	 * under be_lock alone.
	 */
	struct mutex be_lock;
	struct rocectl_backend *be;
	void *be_priv;
	bool be_pending;	/* a backend claims it: move once nothing is held */
	struct rocectl_wd_sample prev;
	u64 prev_time;
	bool have_prev;
	u8 pfc_left[ROCECTL_WD_NDIR];	/* the masks as our last change left them */
	/* The NIC's stall prevention timeout before we first changed it. */
	bool stall_saved;
	u16 stall_orig;
	struct rocectl_wd_prio p[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];
	/* Each priority's storm's blast radius, from its first storm on. */
	struct rocectl_wd_blast *blast[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];
	bool dead;
	struct delayed_work poll;
	struct work_struct free_work;
};

/* watchdog.c */
extern struct list_head rocectl_wds;
extern bool rocectl_wd_brs;
/*
 * Who hears of the watchdog's events, given at init (wd_netlink.c: the
 * netlink multicast): the watchdog itself knows no netlink.
 */
struct rocectl_wd_listener {
	void (*event)(struct rocectl_wd *w, int dir, int prio, u8 event,
		      u64 window_us, u64 pause_us, u64 frames);
};

int rocectl_wd_init(const struct rocectl_wd_listener *l);
void rocectl_wd_exit(void);
struct rocectl_wd *rocectl_wd_find(const struct net_device *ndev);
struct rocectl_wd *rocectl_wd_find_gone(const char *name);
struct rocectl_wd *rocectl_wd_create(struct net_device *ndev);
void rocectl_wd_configure(struct rocectl_wd *w);
int rocectl_wd_unwatch(struct rocectl_wd *w, u8 prios, bool keep);
int rocectl_wd_set_brs(bool on);

/*
 * Whether a poll evaluates a priority in a direction: watched in a
 * watched direction, or still holding its PFC bit (a direction dropped
 * during a storm keeps its hold, shown, until it is set back).
 */
static inline bool rocectl_wd_active(const struct rocectl_wd *w, int d, int p)
{
	return w->p[d][p].watched && ((w->dirs & BIT(d)) || w->p[d][p].cleared);
}

#endif /* _ROCECTL_WATCHDOG_H */
