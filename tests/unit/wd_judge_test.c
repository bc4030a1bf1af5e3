// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog's judgement (kernel/watchdog/wd_judge.c), compiled in user space and
 * driven by a model NIC: pause on a priority as stretches of time, polls
 * at given times or as the module schedules them (at the interval, or
 * when a decision is due). What each case expects is worked out by hand
 * from rocectl-watchdog(8), DETECTION and RESTORATION, in its comment:
 * detection once the storm has lasted the detection time from its start,
 * restoration the restoration time after its end (alert) or after the
 * action (forward), doubling for a storm that comes back soon.
 */
#include <stdio.h>
#include <string.h>

#include "kshim.h"
#include "../../kernel/watchdog/wd_judge.h"
#include "wd_judge_test.h"

#define MS	1000000ULL
#define US	1000ULL
#define NB	8
#define NP	40

struct span {
	u64 from, to;		/* ms: [from, to) */
};

struct wd_case {
	const char *name;
	u32 detect, restore, interval;	/* ms; 0: the module's 200, 400, 100 */
	u8 action;
	bool frames;		/* counters pause-frames (no pause time) */
	bool no_pkts;		/* ... and no data counters */
	u8 dirs;		/* watched: bit 0 rx, bit 1 tx; 0: rx */
	int dir;		/* the direction paused */
	struct span pause[NB];	/* paused (while PFC is on) */
	struct span xon[NB];	/* XON frames only: no pause time */
	u64 polls[NP];		/* ms, after the first poll at 0; none: scheduled */
	u64 until;		/* scheduled polls: up to this, ms */
	u64 offset_us;		/* the pause time counter at 0 (a wrap ahead) */
	u64 reset_at;		/* ms: the counters start over from 0 there */
	struct span refuse;	/* the driver refuses PFC changes */
	const char *want;	/* events: Dms detect, Ams PFC cleared, Fms refused,
				 * Rms restored, "tx:" for the tx direction */
};

/* Overlap of [a, b) with a case's spans, in us (ms-valued spans). */
static u64 overlap(const struct span *s, u64 a_us, u64 b_us)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < NB && s[i].to; i++) {
		u64 lo = s[i].from * 1000 > a_us ? s[i].from * 1000 : a_us;
		u64 hi = s[i].to * 1000 < b_us ? s[i].to * 1000 : b_us;

		if (hi > lo)
			sum += hi - lo;
	}
	return sum;
}

struct model {
	const struct wd_case *c;
	struct rocectl_wd_judge_cfg cfg;
	struct rocectl_wd_prio p[ROCECTL_WD_NDIR];
	struct rocectl_wd_sample s, prev;
	bool pfc[ROCECTL_WD_NDIR];	/* the priority's PFC, per direction */
	char got[512];
};

static void note(struct model *m, int dir, char ev, u64 now)
{
	size_t n = strlen(m->got);

	snprintf(m->got + n, sizeof(m->got) - n, "%s%s%c%llu", n ? " " : "",
		 dir ? "tx:" : "", ev, (unsigned long long)(now / MS));
}

static bool refused(const struct model *m, u64 now)
{
	return now >= m->c->refuse.from * MS && now < m->c->refuse.to * MS;
}

/* What watchdog.c does for an action: clear PFC (forward), if allowed. */
static void act(struct model *m, int d, u64 now)
{
	struct rocectl_wd_prio *ps = &m->p[d];

	ps->action_time = now;
	if (m->cfg.action != ROCECTL_WD_ACTION_FORWARD || ps->cleared)
		return;
	if (refused(m, now)) {
		note(m, d, 'F', now);
		return;
	}
	m->pfc[d] = false;
	ps->cleared = true;
	note(m, d, 'A', now);
}

static void restore(struct model *m, int d, u64 now)
{
	struct rocectl_wd_prio *ps = &m->p[d];

	if (ps->cleared) {
		if (refused(m, now)) {
			ps->action_time = now;
			note(m, d, 'F', now);
			return;
		}
		m->pfc[d] = true;
		ps->cleared = false;
	}
	rocectl_wd_judge_restored(ps, now);
	note(m, d, 'R', now);
}

/* The NIC's counters from prev_ms to now_ms (PFC as it was meanwhile). */
static void count(struct model *m, u64 a_us, u64 b_us)
{
	const struct wd_case *c = m->c;
	int d, p = 3;

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		/* A priority without PFC is neither paused nor counts pause. */
		u64 paused = d == c->dir && m->pfc[d] ? overlap(c->pause, a_us, b_us) : 0;
		u64 xon = d == c->dir ? overlap(c->xon, a_us, b_us) : 0;

		m->s.pause_us[d][p] += paused;
		m->s.frames[d][p] += (paused + 999) / 1000 + (xon + 999) / 1000;
		/* Our data in the other direction moves while we are not paused. */
		m->s.pkts[!d][p] += (b_us - a_us - paused) / 1000;
		m->s.pfc_en[d] = m->pfc[d] ? 1 << p : 0;
	}
}

static void poll(struct model *m, u64 prev, u64 now)
{
	struct rocectl_wd_poll in;
	int d;

	if (m->c->reset_at && prev < m->c->reset_at * MS && now >= m->c->reset_at * MS) {
		memset(&m->s, 0, sizeof(m->s));
		count(m, m->c->reset_at * 1000, now / US);
	} else {
		count(m, prev / US, now / US);
	}
	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		struct rocectl_wd_prio *ps = &m->p[d];

		if (!(m->c->dirs & (1 << d)))
			continue;
		rocectl_wd_poll_of(&m->s, &m->prev, now, prev, d, 3, &in);
		switch (rocectl_wd_judge(ps, &m->cfg, &in)) {
		case ROCECTL_WD_DETECT:
			rocectl_wd_judge_detected(ps, &m->cfg, now);
			note(m, d, 'D', now);
			act(m, d, now);
			break;
		case ROCECTL_WD_ACT:
			act(m, d, now);
			break;
		case ROCECTL_WD_RESTORE:
			restore(m, d, now);
			break;
		case ROCECTL_WD_KEEP:
			break;
		}
	}
	m->prev = m->s;
}

/* As the module schedules them: the interval, or earlier when due. */
static u64 next_poll(const struct model *m, u64 now)
{
	u64 due = now + (u64)m->cfg.interval_ms * MS, t;
	int d;

	for (d = 0; d < ROCECTL_WD_NDIR; d++) {
		t = m->c->dirs & (1 << d) ? rocectl_wd_judge_due(&m->p[d], &m->cfg) : 0;
		if (t && t < due)
			due = t > now ? t : now + 1;
	}
	return due;
}

static const char *run(const struct wd_case *c, struct model *m)
{
	u64 prev = 0, now;
	int i;

	memset(m, 0, sizeof(*m));
	m->c = c;
	m->cfg.detect_ms = c->detect ?: 200;
	m->cfg.restore_ms = c->restore ?: 400;
	m->cfg.interval_ms = c->interval ?: 100;
	m->cfg.action = c->action;
	m->cfg.duration = !c->frames;
	m->cfg.pkts_known = !c->no_pkts;
	m->pfc[0] = m->pfc[1] = true;
	for (i = 0; i < ROCECTL_WD_NDIR; i++)
		m->s.pause_us[i][3] = c->offset_us;
	count(m, 0, 0);
	m->prev = m->s;
	if (c->polls[0]) {
		for (i = 0; i < NP && c->polls[i]; prev = now, i++) {
			now = c->polls[i] * MS;
			poll(m, prev, now);
		}
	} else {
		for (now = next_poll(m, 0); now <= c->until * MS; prev = now,
		     now = next_poll(m, now))
			poll(m, prev, now);
	}
	return m->got;
}

#define RX	.dirs = 1, .dir = 0
#define FWD	.action = ROCECTL_WD_ACTION_FORWARD

static const struct wd_case cases[] = {
	/* Polls 100, 200: paused throughout since 0: T = 200 has passed at 200.
	 * The last paused poll is 1000: calm from 1000, restored at 1000 + R. */
	{ "a storm on time polls: detected at T, restored R after its end",
	  RX, .pause = {{0, 1000}}, .until = 2000, .want = "D200 R1400" },
	/* Poll 200 is paused 50 of 100: half is stormy, start 150; the
	 * decision is due at 350. The poll 1050 is paused its first 50 ms:
	 * the storm ended at 1000, restored at 1400. */
	{ "a poll half paused is stormy: the storm starts within it",
	  RX, .pause = {{150, 1000}}, .until = 2000, .want = "D350 R1400" },
	/* Poll 200 is paused 49 of 100: calm. Poll 300 is paused throughout:
	 * the storm began with the previous poll's pause, at 151. */
	{ "a poll paused less than half is calm, yet its pause dates the storm",
	  RX, .pause = {{151, 1000}}, .until = 2000, .want = "D351 R1400" },
	/* A 60 ms burst in a poll late by 200 ms: 60 of 300 ms, not half. A
	 * detector dividing by the 100 ms interval would see 60%. */
	{ "a late poll: a burst is judged against the time measured, not the interval",
	  RX, .pause = {{0, 60}}, .polls = {300, 400, 500, 600, 700}, .want = "" },
	/* Polls 0, 100 (stormy, start 0), 450 (late, paused throughout):
	 * 450 - 0 >= T: detected at that poll, not before. */
	{ "a late poll in a storm: detected at it, timed from the storm's start",
	  RX, .pause = {{0, 2000}}, .polls = {100, 450, 550}, .want = "D450" },
	/* Polls every 20 ms (a decision due, say): polls are not counted as
	 * intervals, the time is: detected at 200, not after two polls. */
	{ "early polls: detection waits for the time, not for a count of polls",
	  RX, .pause = {{0, 2000}},
	  .polls = {20, 40, 60, 80, 100, 120, 140, 160, 180, 199, 200, 220},
	  .want = "D200" },
	/* Late poll 100 -> 500 (400 ms): paused 280 (>= half) but unpaused
	 * 120, more than one interval: that may be one gap, between bursts
	 * (of 190 ms each here) shorter than T. */
	{ "two short bursts in a late poll: its gap is longer than an interval, no storm",
	  RX, .pause = {{0, 190}, {300, 490}}, .polls = {100, 500, 600, 700, 800},
	  .want = "" },
	/* Bursts of 150 ms, 200 ms apart: poll 200 is half paused (the burst
	 * ended at 150, 150 < T), poll 300 calm; the second burst likewise. */
	{ "two short bursts with a gap on time polls: no storm",
	  RX, .pause = {{0, 150}, {350, 500}}, .until = 1500, .want = "" },
	/* The limit of judging by halves: bursts of 150 ms with a 100 ms gap
	 * split between polls 200 and 300, each paused 50 of 100 (stormy):
	 * known paused from 0 to 300 - 50, at least T: detected at 300. */
	{ "a gap split between two half-paused polls goes unseen",
	  RX, .pause = {{0, 150}, {250, 400}}, .until = 1000, .want = "D300 R800" },
	/* 95% duty, 5 ms gaps in every 100 ms: every poll stormy. The first
	 * is paused 95 ms: the storm started at 5, T passed at 205 (a poll
	 * then, as the decision is due). */
	{ "a storm chopped by short gaps is detected",
	  RX, .pause = {{0, 95}, {100, 195}, {200, 295}, {300, 395}, {400, 495}},
	  .until = 450, .want = "D205" },
	/* The pause time counter passes 2^64 at 150 ms: its rise is still
	 * the pause time. */
	{ "a pause time counter that wraps: the storm goes on across it",
	  RX, .pause = {{0, 2000}}, .offset_us = ~0ULL - 150000 + 1, .until = 500,
	  .want = "D200" },
	/* The counters start over at 150 (a driver's reset): poll 200 has
	 * no evidence (calm), poll 300 is paused throughout after a poll
	 * paused 0: start 200, detected at 400. No event made of the reset. */
	{ "counters reset: the drop is no event, the storm goes on",
	  RX, .pause = {{0, 2000}}, .reset_at = 150, .until = 500, .want = "D400" },
	/* Counters reset in a calm poll: a backward jump is not a storm. */
	{ "counters reset while calm: no storm",
	  RX, .pause = {{0, 50}}, .offset_us = 1000000, .reset_at = 250,
	  .until = 1000, .want = "" },
	/* Ends at 1030, within the poll 1000..1100 (30 ms paused: calm):
	 * restored at 1030 + R. */
	{ "a storm that ends within one interval: restored R after its end",
	  RX, .pause = {{0, 1030}}, .until = 2000, .want = "D200 R1430" },
	/* Forward: PFC off at the detection (the NIC no longer counts pause):
	 * set back R after it, at 600; the storm is still there: start 600,
	 * detected at 800, back soon: R doubled (800), and so on: 400 << k,
	 * up to 32 times, 200 ms of detection between. */
	{ "forward: PFC held for R, then the backoff doubles it up to 32 times",
	  RX, FWD, .detect = 200, .restore = 400, .pause = {{0, 100000}},
	  .until = 40000,
	  .want = "D200 A200 R600 D800 A800 R1600 D1800 A1800 R3400 D3600 A3600 "
		  "R6800 D7000 A7000 R13400 D13600 A13600 R26400 D26600 A26600 "
		  "R39400 D39600 A39600" },
	/* Two storms (backoff 1, hold 800), then quiet from 1600 for more
	 * than ten holds (8 s): the third storm at 12000 holds R again. */
	{ "backoff: ten quiet restoration periods reset it",
	  RX, FWD, .pause = {{0, 1000}, {12000, 12300}}, .until = 13000,
	  .want = "D200 A200 R600 D800 A800 R1600 D12200 A12200 R12600" },
	/* Quiet for 2 s after a hold of 800: not ten periods, the backoff
	 * stays 1 and the storm, later than 2 x (800 + 200), adds none. */
	{ "backoff: kept after a short quiet time, not raised by a late storm",
	  RX, FWD, .pause = {{0, 1000}, {3600, 4300}}, .until = 5000,
	  .want = "D200 A200 R600 D800 A800 R1600 D3800 A3800 R4600" },
	/* The driver refuses from 0 to 700: refused at the detection, retried
	 * R later (600, refused), at 1000 cleared; set back R after it. */
	{ "forward refused: retried every R until the driver accepts",
	  RX, FWD, .pause = {{0, 5000}}, .refuse = {0, 700}, .until = 1500,
	  .want = "D200 F200 F600 A1000 R1400" },
	/* Cleared at 200; setting back refused at 600 and 1000, done at 1400. */
	{ "forward: setting PFC back refused: retried every R",
	  RX, FWD, .pause = {{0, 300}}, .refuse = {500, 1300}, .until = 2000,
	  .want = "D200 A200 F600 F1000 R1400" },
	/* A refused forward whose storm ended (at 300): restored R after the
	 * end, with PFC never cleared -- not cleared by a late retry. */
	{ "forward refused, storm over: restored, PFC not cleared late",
	  RX, FWD, .pause = {{0, 300}}, .refuse = {0, 10000}, .until = 2000,
	  .want = "D200 F200 F600 R700" },
	/* Retry and restoration due at the same poll (storm over at 200,
	 * when it was detected): restored, PFC not cleared for a calm storm. */
	{ "forward refused, retry due with the restoration: restored, not cleared",
	  RX, FWD, .pause = {{0, 200}}, .refuse = {0, 500}, .until = 2000,
	  .want = "D200 F200 R600" },
	/* Alert changes nothing: the counters keep counting the storm. */
	{ "alert: no PFC change, restored R after the end",
	  RX, .pause = {{0, 3000}}, .until = 4000, .want = "D200 R3400" },
	/* tx watched, rx paused: nothing. */
	{ "direction tx: a received-pause storm is not its storm",
	  .dirs = 2, .dir = 0, .pause = {{0, 1000}}, .until = 2000, .want = "" },
	{ "direction tx: a sent-pause storm",
	  .dirs = 2, .dir = 1, .pause = {{0, 1000}}, .until = 2000,
	  .want = "tx:D200 tx:R1400" },
	{ "direction both: each direction judged on its own counters",
	  .dirs = 3, .dir = 1, FWD, .pause = {{0, 300}}, .until = 2000,
	  .want = "tx:D200 tx:A200 tx:R600" },
	{ "direction rx, forward: cleared and set back in rx",
	  RX, FWD, .pause = {{0, 300}}, .until = 2000, .want = "D200 A200 R600" },
	/* Frames only: stormy when pause frames come and no data moves. */
	{ "frame counters: pause frames with no data moved is a storm",
	  RX, .frames = true, .pause = {{0, 1000}}, .until = 2000,
	  .want = "D300 R1400" },
	/* XON frames: frames, no pause, our data moves: never a storm. */
	{ "frame counters: XON frames while data moves are no storm",
	  RX, .frames = true, .xon = {{0, 1000}}, .until = 2000, .want = "" },
	{ "pause time: XON frames carry none and are no storm",
	  RX, .xon = {{0, 1000}}, .until = 2000, .want = "" },
};

int wd_judge_tests(void (*report)(const char *, int))
{
	char name[160];
	struct model m;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = run(&cases[i], &m);
		int ok = !strcmp(got, cases[i].want);

		snprintf(name, sizeof(name), "wd_judge: %s", cases[i].name);
		if (!ok)
			fprintf(stderr, "  %s: got '%s', want '%s'\n", cases[i].name,
				got, cases[i].want);
		report(name, ok);
	}
	return 0;
}
