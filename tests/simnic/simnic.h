/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simnic: a simulated DCB-capable Ethernet NIC for tests only.
 *
 * Netdevs come in connected pairs (like veth). Each port has IEEE DCB
 * state (PFC, ETS, APP through the generic helpers) and a time-driven
 * model of priority flow control: pause frames received and sent per
 * priority at rates set through debugfs, counters brought up to date
 * from the elapsed time whenever they are read, and frames of a paused
 * priority held in a bounded queue until the pause ends. Like mlx5e, a
 * port can stop sending pause that has lasted too long (the ethtool
 * tunable pfc-prevention-tout) and counts warning and error events.
 */
#ifndef _SIMNIC_H
#define _SIMNIC_H

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/dcbnl.h>
#include "compat.h"

#define SIMNIC_PRIOS		IEEE_8021QAZ_MAX_TCS
#define SIMNIC_HELD_MAX		1024
#define SIMNIC_RATE_MAX		1000000
#define SIMNIC_PERIOD_MAX	10000
#define SIMNIC_FLAP_MAX		1000
#define SIMNIC_FLAP_GAP_MS	50
#define SIMNIC_NO_PRIO		0xff

/* Stall prevention (pfc-prevention-tout), as mlx5e bounds it. */
#define SIMNIC_STALL_AUTO_MS	100
#define SIMNIC_STALL_MIN_MS	80
#define SIMNIC_STALL_MAX_MS	8000
#define SIMNIC_STALL_MINOR_PCT	85

/* Per-priority pause state and counters of one port, under pair->lock. */
struct simnic_prio {
	/* knobs */
	u32 rx_rate;		/* received pause storm, frames/s */
	u32 rx_period_ms;	/* chopped storm period, 0: continuous */
	u32 rx_duty;		/* percent of each period in pause */
	u64 rx_phase;		/* ktime (ns) the chopping started */
	u32 tx_rate;		/* pause frames we send, frames/s */
	u32 xon_rate;		/* XON frames received, frames/s */

	/* stall prevention of the pause we send */
	u64 tx_since;		/* ktime (ns) we last started sending */
	bool tx_warned;		/* minor watermark reached since then */
	bool tx_stopped;	/* critical reached: no pause until a new tx_storm */

	/* fractional carries, in frames * NSEC_PER_SEC or ns */
	u64 rx_carry;
	u64 xon_carry;
	u64 tx_carry;
	u64 rx_dur_carry;
	u64 tx_dur_carry;

	/* counters */
	u64 rx_pause;		/* indications */
	u64 tx_pause;		/* requests */
	u64 rx_pause_us;
	u64 tx_pause_us;
	u64 tx_packets;
	u64 tx_bytes;
	u64 rx_packets;
	u64 rx_bytes;
	u64 held_dropped;

	struct sk_buff_head held;	/* frames waiting for the pause to end */
};

struct simnic_pair;

struct simnic_port {
	struct net_device *netdev;
	struct simnic_pair *pair;
	struct simnic_port *peer;
	struct dentry *ddir;
	struct hrtimer release_timer;

	/* pause model, under pair->lock */
	u8 pfc_en;
	u8 releasing;		/* priorities the timer is releasing */
	int fail_setpfc;	/* >0: fail that many setpfc calls, -1: always */
	int fail_tunable;	/* the same for set_tunable */
	bool no_tunable;	/* no stall prevention: tunable -EOPNOTSUPP */
	u16 stall_ms;		/* critical timeout, 0: stall prevention off */
	u16 stall_minor_ms;	/* minor watermark */
	u64 stall_warnings;	/* tx_pause_storm_warning_events */
	u64 stall_errors;	/* tx_pause_storm_error_events */
	u8 dscp_prio[64];	/* DSCP -> priority from the APP table */
	struct simnic_prio prio[SIMNIC_PRIOS];
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_dropped;
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_dropped;

	/* DCB state, under RTNL */
	u8 pfc_mbc;
	u16 pfc_delay;
	struct ieee_ets ets;
	/* 802.3x global pause: stored only, no frames; default all off */
	bool pause_autoneg, pause_rx, pause_tx;
};

struct simnic_pair {
	struct list_head list;
	spinlock_t lock;	/* pause model and counters of both ports */
	u64 last;		/* ktime (ns) counters were brought up to date */
	struct simnic_port *port[2];
	struct delayed_work flap_work;
	unsigned int flaps_left;	/* under lock */
	bool flap_down;			/* under lock */
};

/* Live counters, as a hardware backend reads them (simnic_backend.ko). */
struct simnic_counters {
	u64 pause[2][SIMNIC_PRIOS];	/* [0] received, [1] sent */
	u64 pause_us[2][SIMNIC_PRIOS];
	u64 packets[2][SIMNIC_PRIOS];
	u64 stall[2];			/* stall prevention warnings, errors */
	u8 pfc_en;
};

/* main.c */
extern bool simnic_pfc_in_firmware;
struct simnic_port *simnic_port_of(struct net_device *dev);
int simnic_new_pair(const char *name0, const char *name1);
int simnic_del_pair(const char *name);
void simnic_link_flap(struct simnic_port *port, unsigned int n);

/* pfc.c */
void simnic_pfc_init(struct simnic_port *port);
void simnic_pfc_update(struct simnic_pair *pair, u64 now);
void simnic_pfc_sync(struct simnic_pair *pair);
void simnic_pfc_set_en(struct simnic_port *port, u8 pfc_en);
void simnic_tx_storm_set(struct simnic_port *port, unsigned int p, u32 rate);
void simnic_stall_set(struct simnic_port *port, u16 critical_ms);
bool simnic_tx_paused(struct simnic_port *port, unsigned int p, u64 now);
u8 simnic_frame_prio(struct simnic_port *port, struct sk_buff *skb);
netdev_tx_t simnic_pfc_xmit(struct simnic_port *port, struct sk_buff *skb);
void simnic_kick(struct simnic_pair *pair);
void simnic_pfc_purge(struct simnic_port *port);
void simnic_pfc_stop(struct simnic_port *port);

/* dcbnl.c */
extern const struct dcbnl_rtnl_ops simnic_dcbnl_ops;
int simnic_set_pfc_en(struct simnic_port *port, u8 pfc_en);
void simnic_dcb_init(struct simnic_port *port);

/* ethtool.c */
extern const struct ethtool_ops simnic_ethtool_ops;
void simnic_read_counters(struct simnic_port *port, struct simnic_counters *c);

/* debugfs.c */
extern struct dentry *simnic_ddir;
void simnic_debugfs_port_add(struct simnic_port *port);
void simnic_debugfs_port_del(struct simnic_port *port);
void simnic_debugfs_port_rename(struct simnic_port *port);
void simnic_debugfs_init(void);
void simnic_debugfs_exit(void);

#endif /* _SIMNIC_H */
