// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog's judgement of a poll (the algorithm of rocectl-watchdog(8),
 * DETECTION and RESTORATION). The time between polls is measured, not
 * assumed. Per priority and direction:
 *
 *   A poll is stormy when the priority was paused for at least half of it
 *   (devices that report pause time), or, with frame counters only, when
 *   pause frames arrived and the priority moved no data (XON frames do not
 *   stop data). A storm is declared once stormy polls have lasted the
 *   detection time since the storm's estimated start; one calm poll starts
 *   over. Chopped storms whose gaps are shorter than half a poll count.
 *   The unpaused part of a late poll may be one long gap between two
 *   short bursts, so it must also be within one interval.
 *
 *   The action runs at detection. "forward" clears the priority's PFC
 *   enable bit: pause is then neither honored nor, on many NICs, counted,
 *   so the counters cannot tell when the storm ends. PFC is set back after
 *   the restoration time (doubled for each storm that comes back soon,
 *   up to 32 times) and the storm, if still there, is detected again.
 *   With "alert" the counters stay truthful: the storm ends after the
 *   restoration time without a stormy poll.
 */
#include "wd_judge.h"

#define US	1000ULL		/* ns */
#define MS	1000000ULL	/* ns */
/* Frames or packets in one poll, at most, across a wrap. */
#define ROCECTL_WD_WRAP_MAX	0xffffffffULL

static u64 rocectl_wd_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 rocectl_wd_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * A counter's rise since the previous poll. A counter that passed the top
 * of its 64 bits rose by the difference modulo 2^64, which is then at most
 * max; one that went back otherwise was reset (a driver reconfigured), and
 * a reset is no event.
 */
u64 rocectl_wd_delta(u64 cur, u64 prev, u64 max)
{
	u64 d = cur - prev;

	return cur >= prev || d <= max ? d : 0;
}

/*
 * A poll of one priority in one direction from two samples. Paused on RX
 * means our TX is stuck, and the other way round: the data that should
 * move is the other direction's.
 */
void rocectl_wd_poll_of(const struct rocectl_wd_sample *cur,
			const struct rocectl_wd_sample *prev, u64 now,
			u64 prev_time, int dir, int prio,
			struct rocectl_wd_poll *in)
{
	in->now = now;
	in->prev_time = prev_time;
	in->frames = rocectl_wd_delta(cur->frames[dir][prio],
				      prev->frames[dir][prio], ROCECTL_WD_WRAP_MAX);
	/* Pause time across a wrap: at most the poll, twice over. */
	in->pause_us = rocectl_wd_delta(cur->pause_us[dir][prio],
					prev->pause_us[dir][prio],
					(now - prev_time) / US * 2);
	in->moved = rocectl_wd_delta(cur->pkts[!dir][prio], prev->pkts[!dir][prio],
				     ROCECTL_WD_WRAP_MAX);
	in->pfc_on = cur->pfc_en[dir] & (1U << prio);
}

/* The restoration time, doubled by the backoff. */
static u64 rocectl_wd_hold_ns(const struct rocectl_wd_prio *ps,
			      const struct rocectl_wd_judge_cfg *c)
{
	return (u64)(c->restore_ms << ps->backoff) * MS;
}

/* A poll during a storm: is it over, or its hold run out? */
static enum rocectl_wd_verdict
rocectl_wd_judge_storm(struct rocectl_wd_prio *ps,
		       const struct rocectl_wd_judge_cfg *c,
		       const struct rocectl_wd_poll *in, u64 pause_ns,
		       bool stormy)
{
	u64 elapsed = in->now - in->prev_time;

	ps->storm_frames += in->frames;
	/* A poll not paused throughout: the pause ended within it. */
	if (pause_ns >= elapsed)
		ps->pause_end = in->now;
	else if (pause_ns)
		ps->pause_end = in->prev_time + pause_ns;
	if (ps->cleared) {
		/* Counters silenced by our own action: restore on time. */
		return in->now - ps->action_time >= rocectl_wd_hold_ns(ps, c) ?
		       ROCECTL_WD_RESTORE : ROCECTL_WD_KEEP;
	}
	if (stormy) {
		ps->calm = false;
	} else if (!ps->calm) {
		ps->calm = true;
		/* The storm ended when the pause time last accrued. */
		ps->calm_start = c->duration ? rocectl_wd_max(ps->pause_end, ps->detect) :
					       in->prev_time;
	}
	if (ps->calm && in->now - ps->calm_start >= (u64)c->restore_ms * MS)
		return ROCECTL_WD_RESTORE;
	/* A failed forward is retried, unless the storm is over. */
	if (c->action == ROCECTL_WD_ACTION_FORWARD &&
	    in->now - ps->action_time >= (u64)c->restore_ms * MS)
		return ROCECTL_WD_ACT;
	return ROCECTL_WD_KEEP;
}

/* One poll of one priority in one direction; ps is updated. */
enum rocectl_wd_verdict rocectl_wd_judge(struct rocectl_wd_prio *ps,
					 const struct rocectl_wd_judge_cfg *c,
					 const struct rocectl_wd_poll *in)
{
	u64 now = in->now, elapsed = now - in->prev_time;
	u64 prev_pause_ns = ps->prev_pause_ns;
	u64 pause_ns, unpaused, end;
	bool stormy, fresh;

	/* Never more than the poll (and no overflow of a wild delta). */
	pause_ns = in->pause_us > elapsed / US ? elapsed :
		   rocectl_wd_min(in->pause_us * US, elapsed);
	ps->prev_pause_ns = pause_ns;
	unpaused = elapsed - pause_ns;
	if (c->duration)
		stormy = unpaused * 2 <= elapsed &&
			 unpaused <= (u64)c->interval_ms * MS;
	else
		stormy = in->frames && (!c->pkts_known || !in->moved);

	if (ps->state == ROCECTL_WD_STORM)
		return rocectl_wd_judge_storm(ps, c, in, pause_ns, stormy);

	if (!in->pfc_on) {
		ps->state = ROCECTL_WD_PFC_OFF;	/* nothing can pause it */
		ps->candidate = false;
		return ROCECTL_WD_KEEP;
	}
	ps->state = ROCECTL_WD_MONITORING;
	if (ps->backoff && now - ps->restored > rocectl_wd_hold_ns(ps, c) * 10)
		ps->backoff = 0;	/* quiet for long enough */
	if (!stormy) {
		ps->candidate = false;
		return ROCECTL_WD_KEEP;
	}
	fresh = !ps->candidate;
	if (fresh) {
		ps->candidate = true;
		/*
		 * It began when this poll's pause time did, or, if it was paused
		 * throughout, when the previous poll's did (frames: at its end).
		 */
		ps->start = now - pause_ns - (pause_ns >= elapsed ? prev_pause_ns : 0);
		if (!c->duration)
			ps->start = now;
		ps->ev_pause_us = pause_ns >= elapsed ? prev_pause_ns / US : 0;
		ps->ev_frames = 0;
	}
	ps->ev_pause_us += pause_ns / US;
	ps->ev_frames += in->frames;
	/*
	 * Known paused since the start: a new candidate's pause time is one
	 * stretch (as its start assumes); after that, a poll's unpaused part
	 * may be its end, so a burst that ended within it is not taken as
	 * lasting to the poll.
	 */
	end = c->duration && !fresh ? now - unpaused : now;
	if (end - ps->start >= (u64)c->detect_ms * MS)
		return ROCECTL_WD_DETECT;
	/* Due at start + T; if that passed (held back), at the next interval. */
	ps->due = now - ps->start < (u64)c->detect_ms * MS ?
		  ps->start + (u64)c->detect_ms * MS : 0;
	return ROCECTL_WD_KEEP;
}

/* A storm declared at now; the time its evidence covers, in us. */
u64 rocectl_wd_judge_detected(struct rocectl_wd_prio *ps,
			      const struct rocectl_wd_judge_cfg *c, u64 now)
{
	/* Back so soon after a restore: wait longer next time. */
	if (ps->restores && now - ps->restored <
	    (rocectl_wd_hold_ns(ps, c) + (u64)c->detect_ms * MS) * 2 &&
	    ps->backoff < ROCECTL_WD_MAX_BACKOFF)
		ps->backoff++;
	ps->state = ROCECTL_WD_STORM;
	ps->candidate = false;
	ps->calm = false;
	ps->detect = now;
	ps->pause_end = now;
	ps->storm_frames = ps->ev_frames;
	ps->storms++;
	return (now - ps->start) / US;
}

/* The storm is over at now, its PFC (if held) set back. */
void rocectl_wd_judge_restored(struct rocectl_wd_prio *ps, u64 now)
{
	ps->state = ROCECTL_WD_MONITORING;
	ps->restores++;
	ps->restored = now;
	ps->last_storm_ms = (now - ps->detect) / MS;
	ps->storm_ms += ps->last_storm_ms;
	ps->last_storm_frames = ps->storm_frames;
}

/*
 * When the priority's next decision is due (a storm's detection time from
 * its estimated start, a restoration time), or 0: none before the next
 * interval.
 */
u64 rocectl_wd_judge_due(const struct rocectl_wd_prio *ps,
			 const struct rocectl_wd_judge_cfg *c)
{
	if (ps->state == ROCECTL_WD_STORM && ps->cleared)
		return ps->action_time + rocectl_wd_hold_ns(ps, c);
	if (ps->state == ROCECTL_WD_STORM && ps->calm)
		return ps->calm_start + (u64)c->restore_ms * MS;
	if (ps->candidate)
		return ps->due;
	return 0;
}
