// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC storm watchdog: detect, act, restore, count, notify.
 *
 * Each watched netdev is polled by a delayed work at its interval; what a
 * poll's counters say is judged in wd_judge.c, and carried out here:
 *
 *   A PFC mask changed by someone else (DCBX, dcb, lldpad) while we hold a
 *   bit cleared is respected: the bit is not set back, and that is reported.
 *
 *   A bit we cleared is set back or stays held, shown and retried, on
 *   every path: the netdev unregistered or moved to another namespace, a
 *   direction or priority dropped, a backend arriving or leaving, the
 *   driver refusing.
 *
 * Locks, in the order they are taken: rtnl_lock (the list of watches,
 * their state machines and every PFC change: the DCB and ethtool ops
 * expect it), a watch's be_lock (its backend, changed under both; the
 * poll reads a backend's counters -- firmware commands -- under be_lock
 * alone, before it takes rtnl_lock for the state machine), then
 * rocectl_backends_lock (backend.c, taken with nothing under it).
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include "backend/backend.h"
#include "backend/be_registry.h"
#include "trace.h"
#include "watchdog.h"
#include "wd_counters.h"
#include "wd_judge.h"

#define MS	NSEC_PER_MSEC

LIST_HEAD(rocectl_wds);
bool rocectl_wd_brs;
static struct workqueue_struct *rocectl_wd_wq;
static const struct rocectl_wd_listener *rocectl_wd_listener;

static void rocectl_wd_notify(struct rocectl_wd *w, int dir, int prio, u8 event,
			      u64 window_us, u64 pause_us, u64 frames)
{
	rocectl_wd_listener->event(w, dir, prio, event, window_us, pause_us, frames);
}

/* Bind the watch to the backend that claims its netdev, if any. */
static void rocectl_wd_backend_attach(struct rocectl_wd *w)
{
	ASSERT_RTNL();
	mutex_lock(&w->be_lock);
	w->be = rocectl_backend_claim(w->ndev, &w->be_priv);
	if (w->be) {
		/* Backends read pause time and data frames per priority. */
		w->layout.duration = true;
		w->layout.pkts_known = true;
	}
	mutex_unlock(&w->be_lock);
}

static void rocectl_wd_backend_detach(struct rocectl_wd *w)
{
	ASSERT_RTNL();
	mutex_lock(&w->be_lock);
	if (w->be)
		w->be->detach(w->be_priv);
	w->be = NULL;
	w->be_priv = NULL;
	mutex_unlock(&w->be_lock);
}

/* The watch of a netdev, in whatever namespace it is now. */
struct rocectl_wd *rocectl_wd_find(const struct net_device *ndev)
{
	struct rocectl_wd *w;

	ASSERT_RTNL();
	list_for_each_entry(w, &rocectl_wds, list)
		if (w->ndev == ndev)
			return w;
	return NULL;
}

/* A watch whose netdev is gone, by the name it had. */
struct rocectl_wd *rocectl_wd_find_gone(const char *name)
{
	struct rocectl_wd *w;

	ASSERT_RTNL();
	list_for_each_entry(w, &rocectl_wds, list)
		if (!w->ndev && !strcmp(w->name, name))
			return w;
	return NULL;
}

/*
 * Through dcbnl one PFC bit serves both directions; a backend has a mask
 * for each: stop honouring received pause without stopping our own.
 */
static bool rocectl_wd_shared(const struct rocectl_wd *w)
{
	return !w->be;
}

/* The other direction holds the priority's (shared) bit cleared. */
static bool rocectl_wd_held_by_other(const struct rocectl_wd *w, int dir, int prio)
{
	return rocectl_wd_shared(w) && w->p[!dir][prio].cleared;
}

static bool rocectl_wd_holds_any(const struct rocectl_wd *w)
{
	int d, p;

	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			if (w->p[d][p].cleared)
				return true;
	return false;
}

/* Flip the priority's bit in the mask(s) a storm in dir concerns. */
static int rocectl_wd_flip(struct rocectl_wd *w, int dir, int prio, bool on)
{
	u8 en[ROCECTL_WD_NDIR], mask[ROCECTL_WD_NDIR] = {};
	int d, err;

	err = rocectl_wd_get_pfc(w, en);
	if (err)
		return err;
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		if (d != dir && !rocectl_wd_shared(w))
			continue;
		mask[d] = BIT(prio);
		en[d] = on ? en[d] | BIT(prio) : en[d] & ~BIT(prio);
	}
	err = rocectl_wd_change_pfc(w, en, mask);
	if (err)
		return err;
	/* As the NIC reports it now: what a restore compares with. */
	if (rocectl_wd_get_pfc(w, w->pfc_left))
		memcpy(w->pfc_left, en, sizeof(w->pfc_left));
	return 0;
}

/* Clear the priority's PFC bit, unless the other direction already did. */
static int rocectl_wd_clear(struct rocectl_wd *w, int dir, int prio)
{
	int err;

	if (!rocectl_wd_held_by_other(w, dir, prio)) {
		err = rocectl_wd_flip(w, dir, prio, false);
		if (err)
			return err;
	}
	w->p[dir][prio].cleared = true;
	return 0;
}

/* Set the bit back, if nobody else changed PFC meanwhile. */
static int rocectl_wd_unclear(struct rocectl_wd *w, int dir, int prio,
			      bool *conflict)
{
	struct rocectl_wd_prio *ps = &w->p[dir][prio];
	u8 en[ROCECTL_WD_NDIR];
	int err;

	*conflict = false;
	ps->cleared = false;
	if (rocectl_wd_held_by_other(w, dir, prio))
		return 0;	/* the other direction still holds it */
	err = rocectl_wd_get_pfc(w, en);
	if (err)
		goto fail;
	if (memcmp(en, w->pfc_left, sizeof(en))) {
		*conflict = true;
		return 0;
	}
	err = rocectl_wd_flip(w, dir, prio, true);
	if (err)
		goto fail;
	return 0;
fail:
	ps->cleared = true;	/* still ours to set back */
	return err;
}

/*
 * The action, if one is due: 1 taken, 0 none, else the driver's error.
 * Reported apart (rocectl_wd_act_report()), so that a detection acts
 * before it walks its QPs and still reports the detection first.
 */
static int rocectl_wd_act_take(struct rocectl_wd *w, int dir, int prio, u64 now)
{
	struct rocectl_wd_prio *ps = &w->p[dir][prio];
	int err;

	ps->action_time = now;
	if (w->action != ROCECTL_WD_ACTION_FORWARD || ps->cleared)
		return 0;
	err = rocectl_wd_clear(w, dir, prio);
	trace_pfc_wd_action(w->name, prio, dir, w->action, err);
	if (err) {
		ps->actions_failed++;
		return err;
	}
	ps->actions++;
	return 1;
}

static void rocectl_wd_act_report(struct rocectl_wd *w, int dir, int prio,
				  int taken)
{
	if (taken)
		rocectl_wd_notify(w, dir, prio, taken < 0 ?
				  ROCECTL_WD_EV_ACTION_FAILED : ROCECTL_WD_EV_ACTION,
				  0, 0, 0);
}

static void rocectl_wd_act(struct rocectl_wd *w, int dir, int prio, u64 now)
{
	rocectl_wd_act_report(w, dir, prio, rocectl_wd_act_take(w, dir, prio, now));
}

/* PFC cleared first: the QPs' walk and the reports come after. */
static void rocectl_wd_detect(struct rocectl_wd *w, int dir, int prio,
			      const struct rocectl_wd_judge_cfg *c, u64 now)
{
	struct rocectl_wd_prio *ps = &w->p[dir][prio];
	u64 window_us = rocectl_wd_judge_detected(ps, c, now);
	struct rocectl_wd_blast *b;
	int taken;

	ps->last_detect_real = ktime_get_real_ns();
	taken = rocectl_wd_act_take(w, dir, prio, now);
	rocectl_wd_blast_detect(w, dir, prio);
	b = w->blast[dir][prio];
	trace_pfc_storm_detect(w->name, prio, dir, window_us, ps->ev_pause_us,
			       ps->ev_frames, b ? b->qps : 0, b ? b->procs : 0);
	rocectl_wd_notify(w, dir, prio, ROCECTL_WD_EV_DETECT, window_us,
			  ps->ev_pause_us, ps->ev_frames);
	rocectl_wd_act_report(w, dir, prio, taken);
}

static void rocectl_wd_restore(struct rocectl_wd *w, int dir, int prio, u64 now)
{
	struct rocectl_wd_prio *ps = &w->p[dir][prio];
	bool conflict = false;
	int err = 0;

	if (ps->cleared) {
		err = rocectl_wd_unclear(w, dir, prio, &conflict);
		if (err) {
			ps->actions_failed++;
			ps->action_time = now;	/* try again a period later */
			rocectl_wd_notify(w, dir, prio, ROCECTL_WD_EV_ACTION_FAILED, 0, 0, 0);
			return;
		}
	}
	rocectl_wd_judge_restored(ps, now);
	rocectl_wd_blast_refresh(w, dir, prio, true);
	ps->last_restore_real = ktime_get_real_ns();
	trace_pfc_storm_restore(w->name, prio, dir, ps->last_storm_ms, conflict);
	if (conflict) {
		ps->conflicts++;
		rocectl_wd_notify(w, dir, prio, ROCECTL_WD_EV_CONFLICT, 0, 0, 0);
	}
	rocectl_wd_notify(w, dir, prio, ROCECTL_WD_EV_RESTORE,
			  (now - ps->detect) / NSEC_PER_USEC, 0, ps->storm_frames);
}

/* The watch's settings, as the judgement reads them. */
static void rocectl_wd_judge_cfg(const struct rocectl_wd *w,
				 struct rocectl_wd_judge_cfg *c)
{
	c->detect_ms = w->detect_ms;
	c->restore_ms = w->restore_ms;
	c->interval_ms = w->interval_ms;
	c->action = w->action;
	c->duration = w->layout.duration;
	c->pkts_known = w->layout.pkts_known;
}

/* One poll of one priority in one direction: judged, then carried out. */
static void rocectl_wd_eval(struct rocectl_wd *w, int dir, int prio,
			    const struct rocectl_wd_sample *cur, u64 now)
{
	struct rocectl_wd_judge_cfg c;
	struct rocectl_wd_poll in;

	rocectl_wd_poll_of(cur, &w->prev, now, w->prev_time, dir, prio, &in);
	rocectl_wd_judge_cfg(w, &c);
	switch (rocectl_wd_judge(&w->p[dir][prio], &c, &in)) {
	case ROCECTL_WD_DETECT:
		rocectl_wd_detect(w, dir, prio, &c, now);
		break;
	case ROCECTL_WD_ACT:
		rocectl_wd_act(w, dir, prio, now);	/* retry a failed one */
		break;
	case ROCECTL_WD_RESTORE:
		rocectl_wd_restore(w, dir, prio, now);
		break;
	case ROCECTL_WD_KEEP:
		break;
	}
}

/*
 * When the next poll is due: the interval, or earlier when a decision is.
 * Polling then, rather than at the next interval, keeps decisions within
 * a jiffy of when they are due.
 */
static u64 rocectl_wd_next_due(const struct rocectl_wd *w, u64 now)
{
	u64 due = now + (u64)w->interval_ms * MS, t;
	struct rocectl_wd_judge_cfg c;
	int d, p;

	rocectl_wd_judge_cfg(w, &c);
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			if (!rocectl_wd_active(w, d, p))
				continue;
			t = rocectl_wd_judge_due(&w->p[d][p], &c);
			if (t)
				due = min(due, max(t, now));
		}
	}
	return due;
}

static void rocectl_wd_rebind(struct rocectl_wd *w);

static void rocectl_wd_poll(struct work_struct *work)
{
	struct rocectl_wd *w = container_of(to_delayed_work(work),
					    struct rocectl_wd, poll);
	struct rocectl_wd_sample *cur;
	struct rocectl_backend *be;
	int d, p, err = -ENOMEM;
	u64 now = 0;
	bool up;

	cur = kzalloc(sizeof(*cur), GFP_KERNEL);
	/* A backend's counters are firmware reads: not under rtnl_lock. */
	mutex_lock(&w->be_lock);
	be = w->be;
	/*
	 * The time is taken once the counters are read: no pause they count
	 * lies after it, so a storm's start is never estimated early.
	 */
	if (be && cur) {
		err = rocectl_wd_read_backend(w, cur);
		now = ktime_get_ns();
	}
	mutex_unlock(&w->be_lock);

	rtnl_lock();
	if (w->dead || !w->ndev)
		goto unlock;	/* polled again if its netdev comes back */
	if (be != w->be) {
		err = -EAGAIN;	/* the backend changed meanwhile */
	} else if (!be && cur) {
		err = rocectl_wd_read(w, cur);
		now = ktime_get_ns();
	}
	up = netif_running(w->ndev) && netif_carrier_ok(w->ndev);
	if (err) {
		w->have_prev = false;
		goto requeue;
	}
	w->layout.stall_known = cur->stall_known;
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			struct rocectl_wd_prio *ps = &w->p[d][p];

			if (!rocectl_wd_active(w, d, p))
				continue;
			if (rocectl_wd_brs) {
				ps->state = ROCECTL_WD_SUSPENDED;
				ps->candidate = false;
			} else if (!up && ps->state != ROCECTL_WD_STORM) {
				/* No storm is judged across a link flap. */
				ps->state = ROCECTL_WD_LINK_DOWN;
				ps->candidate = false;
			} else if (w->have_prev) {
				if (ps->state == ROCECTL_WD_SUSPENDED ||
				    ps->state == ROCECTL_WD_LINK_DOWN)
					ps->state = ROCECTL_WD_MONITORING;
				rocectl_wd_eval(w, d, p, cur, now);
			}
		}
	}
	/* The storms' QPs: destroyed ones read, all walked now and then. */
	rocectl_wd_blast_poll(w);
	/* The NIC's own stall prevention acted: say so. */
	for (d = 0; d < 2 && w->have_prev && w->layout.stall_known; d++) {
		u64 n = rocectl_wd_delta(cur->stall[d], w->prev.stall[d], U32_MAX);

		if (n)
			rocectl_wd_notify(w, -1, -1, d ? ROCECTL_WD_EV_STALL_ERROR :
					  ROCECTL_WD_EV_STALL_WARNING, 0, 0, n);
	}
	if (!rocectl_wd_holds_any(w)) {
		/* Out of the initial namespace only while holding PFC. */
		if (!net_eq(dev_net(w->ndev), &init_net)) {
			rocectl_wd_notify(w, -1, -1, ROCECTL_WD_EV_GONE, 0, 0, 0);
			rocectl_wd_unwatch(w, 0xff, false);
			goto unlock;
		}
		/* A backend arrived while a bit was held: move to it now. */
		if (w->be_pending) {
			rocectl_wd_rebind(w);
			goto unlock;
		}
	}
	w->prev = *cur;
	w->prev_time = now;
	w->have_prev = up;
	queue_delayed_work(rocectl_wd_wq, &w->poll,
			   DIV_ROUND_UP_ULL(rocectl_wd_next_due(w, now) - now,
					    NSEC_PER_SEC / HZ) ?: 1);
	goto unlock;
requeue:
	queue_delayed_work(rocectl_wd_wq, &w->poll,
			   msecs_to_jiffies(w->interval_ms));
unlock:
	rtnl_unlock();
	kfree(cur);
}

static void rocectl_wd_free_work(struct work_struct *work)
{
	struct rocectl_wd *w = container_of(work, struct rocectl_wd, free_work);
	int d, p;

	cancel_delayed_work_sync(&w->poll);
	mutex_destroy(&w->be_lock);
	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			kfree(w->blast[d][p]);
	kfree(w);
}

struct rocectl_wd *rocectl_wd_create(struct net_device *ndev)
{
	struct rocectl_wd *w;

	ASSERT_RTNL();
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return NULL;
	w->ndev = ndev;
	dev_hold(ndev);
	w->ifindex = ndev->ifindex;
	strscpy(w->name, ndev->name, sizeof(w->name));
	w->detect_ms = 200;
	w->restore_ms = 400;
	w->interval_ms = 100;
	w->action = ROCECTL_WD_ACTION_ALERT;
	w->dirs = BIT(ROCECTL_WD_DIR_RX);
	INIT_DELAYED_WORK(&w->poll, rocectl_wd_poll);
	INIT_WORK(&w->free_work, rocectl_wd_free_work);
	mutex_init(&w->be_lock);
	rocectl_wd_layout(ndev, &w->layout);
	rocectl_wd_backend_attach(w);
	list_add_tail(&w->list, &rocectl_wds);
	return w;
}

/* New settings: start measuring afresh, keep storms and statistics. */
void rocectl_wd_configure(struct rocectl_wd *w)
{
	u8 en[ROCECTL_WD_NDIR];
	int d, p;

	/* Backoff belongs to the old timings. */
	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			w->p[d][p].backoff = 0;

	ASSERT_RTNL();
	/* What a restore compares with, while we hold nothing. */
	if (!rocectl_wd_holds_any(w) && !rocectl_wd_get_pfc(w, en))
		memcpy(w->pfc_left, en, sizeof(w->pfc_left));
	w->have_prev = false;
	mod_delayed_work(rocectl_wd_wq, &w->poll, 0);
}

/*
 * Stop watching prios (the whole netdev when none is left). With keep, a
 * priority whose PFC the driver refuses to set back stays watched, held,
 * to be set back by the watch's next restoration: never lossy unwatched.
 */
int rocectl_wd_unwatch(struct rocectl_wd *w, u8 prios, bool keep)
{
	bool conflict, any = false;
	int d, p, err, ret = 0;

	ASSERT_RTNL();
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			struct rocectl_wd_prio *ps = &w->p[d][p];

			if (!(prios & BIT(p))) {
				any |= ps->watched;
				continue;
			}
			err = ps->cleared && !w->dead && w->ndev ?
			      rocectl_wd_unclear(w, d, p, &conflict) : 0;
			if (ps->cleared && !w->ndev)
				pr_warn("%s: gone: priority %d stays without PFC, as the watchdog left it\n",
					w->name, p);
			if (err) {
				pr_warn("%s: could not set PFC back on priority %d\n",
					w->name, p);
				if (keep) {
					ret = err;
					any = true;
					continue;
				}
			}
			memset(ps, 0, sizeof(*ps));
		}
	}
	if (any && !w->dead)
		return ret;
	/* The NIC's stall prevention as it was before the watch changed it. */
	if (w->stall_saved && !w->dead && w->ndev &&
	    rocectl_wd_set_stall(w->ndev, w->stall_orig))
		pr_warn("%s: could not set the NIC's stall prevention back to %u ms\n",
			w->name, w->stall_orig);
	list_del(&w->list);
	w->dead = true;
	rocectl_wd_backend_detach(w);
	if (w->ndev)
		dev_put(w->ndev);
	queue_work(rocectl_wd_wq, &w->free_work);
	return 0;
}

/* The big red switch; the number of priorities the driver refused. */
int rocectl_wd_set_brs(bool on)
{
	struct rocectl_wd *w;
	bool conflict;
	int d, p, failed = 0;

	ASSERT_RTNL();
	if (on == rocectl_wd_brs)
		return 0;
	rocectl_wd_brs = on;
	list_for_each_entry(w, &rocectl_wds, list) {
		if (!w->ndev)
			continue;	/* gone: its holds wait for it */
		for (d = 0; d < ROCECTL_WD_NDIR; d++) {
			for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
				struct rocectl_wd_prio *ps = &w->p[d][p];

				if (!rocectl_wd_active(w, d, p))
					continue;
				if (on && !ps->cleared) {
					if (!rocectl_wd_clear(w, d, p)) {
						ps->brs = true;
						ps->actions++;
					} else {
						ps->actions_failed++;
						failed++;
						rocectl_wd_notify(w, d, p,
								  ROCECTL_WD_EV_ACTION_FAILED,
								  0, 0, 0);
					}
				} else if (!on && ps->brs) {
					ps->brs = false;
					if (rocectl_wd_unclear(w, d, p, &conflict)) {
						/* Still held: restored like a storm's hold. */
						ps->actions_failed++;
						failed++;
						rocectl_wd_notify(w, d, p,
								  ROCECTL_WD_EV_ACTION_FAILED,
								  0, 0, 0);
					}
				}
				/* A storm's own hold outlives the switch, to its restore. */
				if (on)
					ps->state = ROCECTL_WD_SUSPENDED;
				else
					ps->state = ps->cleared ? ROCECTL_WD_STORM :
						    ROCECTL_WD_MONITORING;
				ps->candidate = false;
			}
		}
		w->have_prev = false;
	}
	return failed;
}

/*
 * Move a watch to the view that serves its netdev now: a backend that
 * claims it, or the generic DCB view. A bit still held is set back
 * through the new view, so that is what a restore compares with.
 * Measurements start afresh.
 */
static void rocectl_wd_rebind(struct rocectl_wd *w)
{
	u8 en[ROCECTL_WD_NDIR];
	int d, p;

	ASSERT_RTNL();
	rocectl_wd_backend_detach(w);
	rocectl_wd_layout(w->ndev, &w->layout);
	rocectl_wd_backend_attach(w);
	w->be_pending = false;
	if (!rocectl_wd_get_pfc(w, en))
		memcpy(w->pfc_left, en, sizeof(w->pfc_left));
	for (d = 0; d < ROCECTL_WD_NDIR; d++)
		for (p = 0; p < ROCECTL_WD_NPRIO; p++)
			w->p[d][p].candidate = false;
	rocectl_wd_configure(w);
}

/*
 * A backend comes or goes. A leaving backend's watches hand their storms
 * back through it (restored, detected again by what follows); a bit it
 * refuses to set back stays held and is set back through the generic
 * view. An arriving backend takes a watch at once only if it holds
 * nothing: dcbnl's one bit per priority cannot be handed back per
 * direction, so a watch holding one moves once it is set back.
 */
static void rocectl_wd_backend_switch(struct rocectl_backend *be, bool added)
{
	u64 now = ktime_get_ns();
	struct rocectl_wd *w;
	int d, p;

	ASSERT_RTNL();
	list_for_each_entry(w, &rocectl_wds, list) {
		if (!w->ndev || (added ? !!w->be : w->be != be))
			continue;
		if (added && rocectl_wd_holds_any(w)) {
			w->be_pending = true;
			continue;
		}
		for (d = 0; d < ROCECTL_WD_NDIR && !added; d++)
			for (p = 0; p < ROCECTL_WD_NPRIO; p++)
				if (w->p[d][p].state == ROCECTL_WD_STORM)
					rocectl_wd_restore(w, d, p, now);
		rocectl_wd_rebind(w);
	}
}

/*
 * The watched netdev is unregistered: for good, or to move to another
 * namespace (it is registered again there). What the watch holds is set
 * back now, while the driver still answers; then the watch goes. What the
 * driver refuses stays held: a moving netdev keeps its watch, which polls
 * and retries in the new namespace until nothing is held; a netdev going
 * for good leaves its watch without it, shown as gone, set back when a
 * netdev of that name comes back (firmware may keep PFC across a
 * re-creation) or dropped by the operator.
 */
static void rocectl_wd_netdev_leaves(struct rocectl_wd *w)
{
	struct net_device *ndev = w->ndev;
	bool moving = ndev->reg_state == NETREG_REGISTERED;
	u64 now = ktime_get_ns();
	bool conflict;
	int d, p;

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			struct rocectl_wd_prio *ps = &w->p[d][p];

			if (!ps->cleared)
				continue;
			if (ps->state == ROCECTL_WD_STORM)
				rocectl_wd_restore(w, d, p, now);
			else if (!rocectl_wd_unclear(w, d, p, &conflict))
				ps->brs = false;
		}
	}
	if (!rocectl_wd_holds_any(w)) {
		rocectl_wd_notify(w, -1, -1, ROCECTL_WD_EV_GONE, 0, 0, 0);
		rocectl_wd_unwatch(w, 0xff, false);
		return;
	}
	pr_warn("%s: %s while the driver refuses to set PFC back: the watch keeps holding it\n",
		w->name, moving ? "leaves the namespace" : "unregistered");
	if (moving)
		return;
	rocectl_wd_notify(w, -1, -1, ROCECTL_WD_EV_GONE, 0, 0, 0);
	if (w->stall_saved && !rocectl_wd_set_stall(ndev, w->stall_orig))
		w->stall_saved = false;
	cancel_delayed_work(&w->poll);	/* a poll running finds it gone */
	rocectl_wd_backend_detach(w);
	w->ndev = NULL;
	w->have_prev = false;
	dev_put(ndev);
}

/* A netdev registers: a watch that moved with it, or one waiting for it. */
static void rocectl_wd_netdev_arrives(struct net_device *ndev)
{
	struct rocectl_wd *w = rocectl_wd_find(ndev);
	int d, p;

	if (w) {
		w->ifindex = ndev->ifindex;
		strscpy(w->name, ndev->name, sizeof(w->name));
		return;
	}
	if (!net_eq(dev_net(ndev), &init_net) || !rocectl_wd_dcb_capable(ndev))
		return;
	w = rocectl_wd_find_gone(ndev->name);
	if (!w)
		return;
	w->ndev = ndev;
	dev_hold(ndev);
	w->ifindex = ndev->ifindex;
	rocectl_wd_layout(ndev, &w->layout);
	rocectl_wd_backend_attach(w);
	/* Set back at the next polls what it holds (pfc_left tells if kept). */
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		for (p = 0; p < ROCECTL_WD_NPRIO; p++) {
			struct rocectl_wd_prio *ps = &w->p[d][p];

			if (!ps->cleared)
				continue;
			ps->action_time = 0;
			if (ps->brs && !rocectl_wd_brs) {
				ps->brs = false;
				ps->state = ROCECTL_WD_STORM;
			}
		}
	}
	pr_info("%s: back: the watch sets back the PFC it holds\n", w->name);
	rocectl_wd_configure(w);
}

/* A watched netdev leaves, moves, is renamed, or comes back. */
static int rocectl_wd_netdev_event(struct notifier_block *nb,
				   unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct rocectl_wd *w;

	switch (event) {
	case NETDEV_CHANGENAME:
		w = rocectl_wd_find(ndev);
		if (w)
			strscpy(w->name, ndev->name, sizeof(w->name));
		break;
	case NETDEV_UNREGISTER:
		w = rocectl_wd_find(ndev);
		if (w)
			rocectl_wd_netdev_leaves(w);
		break;
	case NETDEV_REGISTER:
		rocectl_wd_netdev_arrives(ndev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block rocectl_wd_netdev_nb = {
	.notifier_call = rocectl_wd_netdev_event,
};

int rocectl_wd_init(const struct rocectl_wd_listener *l)
{
	int err;

	rocectl_wd_listener = l;

	/* High priority: a decision due should not wait behind busy tasks. */
	rocectl_wd_wq = alloc_workqueue("rocectl_wd", WQ_HIGHPRI | WQ_FREEZABLE |
					ROCECTL_WQ_PERCPU, 0);
	if (!rocectl_wd_wq)
		return -ENOMEM;
	err = register_netdevice_notifier(&rocectl_wd_netdev_nb);
	if (err) {
		destroy_workqueue(rocectl_wd_wq);
		return err;
	}
	rocectl_backends_listen(rocectl_wd_backend_switch);
	return 0;
}

/* Unload: every PFC bit we cleared is set back before we go. */
void rocectl_wd_exit(void)
{
	struct rocectl_wd *w, *tmp;

	rocectl_backends_listen(NULL);
	rtnl_lock();
	rocectl_wd_brs = false;
	list_for_each_entry_safe(w, tmp, &rocectl_wds, list)
		rocectl_wd_unwatch(w, 0xff, false);
	rtnl_unlock();
	/* Only now: unregistering replays NETDEV_UNREGISTER for every netdev. */
	unregister_netdevice_notifier(&rocectl_wd_netdev_nb);
	destroy_workqueue(rocectl_wd_wq);	/* runs the frees */
}
