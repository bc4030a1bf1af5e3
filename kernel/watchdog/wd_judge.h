/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The watchdog's judgement of one poll, for one priority in one direction:
 * from the counters' deltas and the measured time since the previous
 * poll, whether a storm starts, is declared, goes on or is over. Pure
 * arithmetic on the state below, no kernel state, so that user-space unit
 * tests compile it too (with u8, u32, u64 and bool defined for them). The
 * caller (watchdog.c) carries out what a verdict asks: PFC, events, traces.
 */
#ifndef _ROCECTL_WD_JUDGE_H
#define _ROCECTL_WD_JUDGE_H

#include <linux/types.h>
#include <linux/rocectl.h>

#define ROCECTL_WD_NPRIO	8
#define ROCECTL_WD_NDIR		2
#define ROCECTL_WD_MAX_BACKOFF	5	/* restore_ms << 5 at most */

/* One reading of a netdev's per-priority counters. */
struct rocectl_wd_sample {
	u64 frames[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];	/* pause frames */
	u64 pause_us[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];	/* pause time */
	u64 pkts[ROCECTL_WD_NDIR][ROCECTL_WD_NPRIO];	/* data packets */
	u8 pfc_en[ROCECTL_WD_NDIR];	/* generic DCB: one mask for both */
	u64 stall[2];			/* NIC stall prevention: warnings, errors */
	bool stall_known;		/* a backend's sample counts them */
};

/* One priority in one direction. Times are ktime_get_ns() unless _real. */
struct rocectl_wd_prio {
	bool watched;
	u8 state;		/* enum rocectl_wd_state */
	/* Detection: a storm is a candidate from its estimated start on. */
	bool candidate;
	u64 start;
	u64 due;		/* its detection, if not held back: 0 */
	u64 ev_pause_us;
	u64 ev_frames;
	/* Restoration by counters (when PFC stays on): calm since. */
	bool calm;
	u64 calm_start;
	u64 pause_end;		/* last moment known paused */
	u64 prev_pause_ns;	/* pause time in the previous poll */
	/* The storm in progress. */
	u64 detect;
	u64 action_time;
	u64 storm_frames;
	bool cleared;		/* we hold PFC off on this priority */
	bool brs;		/* ... for the big red switch */
	u64 restored;		/* when the last storm ended */
	/* Statistics. */
	u64 storms, restores, actions, actions_failed, conflicts;
	u64 storm_ms, last_storm_ms, last_storm_frames;
	u64 last_detect_real, last_restore_real;
	u8 backoff;
};

/* The watch's settings a judgement reads. */
struct rocectl_wd_judge_cfg {
	u32 detect_ms, restore_ms, interval_ms;
	u8 action;		/* enum rocectl_wd_action */
	bool duration;		/* pause time is counted, not frames alone */
	bool pkts_known;	/* data packets are counted per priority */
};

/* One poll as the judgement sees it: deltas since the previous poll. */
struct rocectl_wd_poll {
	u64 now, prev_time;	/* ns */
	u64 frames;		/* pause frames */
	u64 pause_us;		/* pause time */
	u64 moved;		/* data packets of the paused traffic */
	bool pfc_on;		/* the priority's PFC enable bit */
};

/* What the caller must do after a poll's judgement. */
enum rocectl_wd_verdict {
	ROCECTL_WD_KEEP,	/* nothing */
	ROCECTL_WD_DETECT,	/* a storm: declare it (judge_detected), act */
	ROCECTL_WD_ACT,		/* a failed forward is due again */
	ROCECTL_WD_RESTORE,	/* over, or its hold ran out: set back, restored */
};

u64 rocectl_wd_delta(u64 cur, u64 prev, u64 max);
void rocectl_wd_poll_of(const struct rocectl_wd_sample *cur,
			const struct rocectl_wd_sample *prev, u64 now,
			u64 prev_time, int dir, int prio,
			struct rocectl_wd_poll *in);
enum rocectl_wd_verdict rocectl_wd_judge(struct rocectl_wd_prio *ps,
					 const struct rocectl_wd_judge_cfg *c,
					 const struct rocectl_wd_poll *in);
u64 rocectl_wd_judge_detected(struct rocectl_wd_prio *ps,
			      const struct rocectl_wd_judge_cfg *c, u64 now);
void rocectl_wd_judge_restored(struct rocectl_wd_prio *ps, u64 now);
u64 rocectl_wd_judge_due(const struct rocectl_wd_prio *ps,
			 const struct rocectl_wd_judge_cfg *c);

#endif /* _ROCECTL_WD_JUDGE_H */
