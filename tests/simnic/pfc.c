// SPDX-License-Identifier: GPL-2.0
/*
 * simnic: the priority flow control model.
 *
 * Pause frames are not really exchanged: each port has per-priority
 * rates (frames/s) of pause frames received (rx_storm, xon) and sent
 * (tx_storm, seen by the peer as received). Counters are brought up to
 * date from the time elapsed since the last update, with a fractional
 * carry, whenever anything reads or changes the state. Like real NICs,
 * a port does not count, and does not honour, pause frames on a
 * priority PFC is disabled on, and sends none on it.
 *
 * A port being paused on priority p (PFC enabled on p and a pause storm
 * received on p) holds the frames of p it should transmit, up to
 * SIMNIC_HELD_MAX (the rest are dropped and counted), and releases them
 * from an hrtimer when the pause ends or PFC is disabled on p.
 *
 * Stall prevention (mlx5e's pfc-prevention-tout): with a critical
 * timeout T set, a port that has been sending pause on p continuously
 * for the minor watermark counts a warning event, and at T an error
 * event, and stops sending pause on p (its peer is released) until
 * tx_storm on p is written again. Continuous sending starts when
 * tx_storm is written, when PFC is enabled on p, or when T changes.
 * Events, like the counters, are accounted from elapsed time at the
 * moment they fall due; the peer's release timer fires at T.
 */

#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <net/dst.h>
#include "simnic.h"

static bool simnic_pfc_on(const struct simnic_port *port, unsigned int p)
{
	return port->pfc_en & BIT(p);
}

/* Nanoseconds in pause within [0, x) of a storm on for @on of each @period. */
static u64 simnic_duty_on(u64 x, u64 period, u64 on)
{
	u64 rem;
	u64 n = div64_u64_rem(x, period, &rem);

	return n * on + min(rem, on);
}

static bool simnic_chopped(const struct simnic_prio *sp)
{
	return sp->rx_period_ms && sp->rx_duty < 100;
}

static u64 simnic_period_ns(const struct simnic_prio *sp)
{
	return (u64)sp->rx_period_ms * NSEC_PER_MSEC;
}

static u64 simnic_on_ns(const struct simnic_prio *sp)
{
	return div_u64(simnic_period_ns(sp) * sp->rx_duty, 100);
}

/* Nanoseconds of [t0, t1) during which the received storm of @sp is on. */
static u64 simnic_rx_on_ns(const struct simnic_prio *sp, u64 t0, u64 t1)
{
	u64 period, on;

	if (!sp->rx_rate)
		return 0;
	if (!simnic_chopped(sp))
		return t1 - t0;
	period = simnic_period_ns(sp);
	on = simnic_on_ns(sp);
	return simnic_duty_on(t1 - sp->rx_phase, period, on) -
	       simnic_duty_on(t0 - sp->rx_phase, period, on);
}

/* Frames sent at @rate frames/s during @ns, carrying the fraction. */
static u64 simnic_frames(u32 rate, u64 ns, u64 *carry)
{
	u32 rem, frac;
	u64 secs = div_u64_rem(ns, NSEC_PER_SEC, &rem);
	u64 acc = (u64)rate * rem + *carry;
	u64 n = secs * rate + div_u64_rem(acc, NSEC_PER_SEC, &frac);

	*carry = frac;
	return n;
}

/* Whole microseconds in @ns, carrying the rest. */
static u64 simnic_us(u64 ns, u64 *carry)
{
	u32 rem;
	u64 us = div_u64_rem(ns + *carry, NSEC_PER_USEC, &rem);

	*carry = rem;
	return us;
}

/*
 * Nanoseconds @port goes on sending pause on @p from @now: 0 if it does
 * not, U64_MAX if it does until some state changes. Only priorities PFC
 * is enabled on; stall prevention stops it T after it started.
 */
static u64 simnic_send_left(const struct simnic_port *port, unsigned int p,
			    u64 now)
{
	const struct simnic_prio *sp = &port->prio[p];
	u64 stop;

	if (!sp->tx_rate || !simnic_pfc_on(port, p) || sp->tx_stopped)
		return 0;
	if (!port->stall_ms)
		return U64_MAX;
	stop = sp->tx_since + (u64)port->stall_ms * NSEC_PER_MSEC;
	return now < stop ? stop - now : 0;
}

/* Stall prevention events of @port sending on @sp that fall due by @now. */
static void simnic_stall_events(struct simnic_port *port,
				struct simnic_prio *sp, u64 now)
{
	if (!port->stall_ms)
		return;
	if (!sp->tx_warned &&
	    sp->tx_since + (u64)port->stall_minor_ms * NSEC_PER_MSEC <= now) {
		sp->tx_warned = true;
		port->stall_warnings++;
	}
	if (sp->tx_since + (u64)port->stall_ms * NSEC_PER_MSEC <= now) {
		sp->tx_stopped = true;
		port->stall_errors++;
	}
}

/* Bring the counters of both ports of @pair up to @now. */
void simnic_pfc_update(struct simnic_pair *pair, u64 now)
{
	u64 t0 = pair->last, dt, sent[2], send[2], on, paused;
	struct simnic_port *port;
	struct simnic_prio *sp;
	unsigned int p, i;

	lockdep_assert_held(&pair->lock);
	if (now <= t0)
		return;
	dt = now - t0;

	for (p = 0; p < SIMNIC_PRIOS; p++) {
		/* Pause frames sent during the first send[i] ns of dt. */
		for (i = 0; i < 2; i++) {
			port = pair->port[i];
			sp = &port->prio[p];
			sent[i] = 0;
			send[i] = min(simnic_send_left(port, p, t0), dt);
			if (!send[i])
				continue;
			simnic_stall_events(port, sp, now);
			sent[i] = simnic_frames(sp->tx_rate, send[i],
						&sp->tx_carry);
			sp->tx_pause += sent[i];
			sp->tx_pause_us += simnic_us(send[i], &sp->tx_dur_carry);
		}
		/* Received: neither counted nor honoured while PFC is off. */
		for (i = 0; i < 2; i++) {
			port = pair->port[i];
			sp = &port->prio[p];
			if (!simnic_pfc_on(port, p))
				continue;
			sp->rx_pause += sent[!i];
			on = simnic_rx_on_ns(sp, t0, now);
			if (on)
				sp->rx_pause += simnic_frames(sp->rx_rate, on,
							      &sp->rx_carry);
			if (sp->xon_rate)
				sp->rx_pause += simnic_frames(sp->xon_rate, dt,
							      &sp->xon_carry);
			/* The peer's pause, then the storm's after it stops. */
			if (send[!i])
				paused = send[!i] +
					 simnic_rx_on_ns(sp, t0 + send[!i], now);
			else
				paused = on;
			if (paused)
				sp->rx_pause_us += simnic_us(paused,
							     &sp->rx_dur_carry);
		}
	}
	pair->last = now;
}

/* Bring the counters up to date now. */
void simnic_pfc_sync(struct simnic_pair *pair)
{
	lockdep_assert_held(&pair->lock);
	simnic_pfc_update(pair, ktime_get_ns());
}

/* Continuous sending of pause on @p starts over now (after a sync). */
static void simnic_send_restart(struct simnic_port *port, unsigned int p)
{
	port->prio[p].tx_since = port->pair->last;
	port->prio[p].tx_warned = false;
}

/* A new PFC enable mask, after a sync. */
void simnic_pfc_set_en(struct simnic_port *port, u8 pfc_en)
{
	unsigned int p;

	lockdep_assert_held(&port->pair->lock);
	for (p = 0; p < SIMNIC_PRIOS; p++)
		if (pfc_en & ~port->pfc_en & BIT(p))
			simnic_send_restart(port, p);
	port->pfc_en = pfc_en;
}

/* A write to tx_storm, after a sync: a new storm, not stopped. */
void simnic_tx_storm_set(struct simnic_port *port, unsigned int p, u32 rate)
{
	lockdep_assert_held(&port->pair->lock);
	port->prio[p].tx_rate = rate;
	port->prio[p].tx_stopped = false;
	simnic_send_restart(port, p);
}

/*
 * A new critical timeout (0: off), after a sync; the minor watermark
 * follows as mlx5e derives it. A change restarts the measurement of
 * every priority; priorities already stopped stay stopped.
 */
void simnic_stall_set(struct simnic_port *port, u16 critical_ms)
{
	unsigned int p;

	lockdep_assert_held(&port->pair->lock);
	if (critical_ms != port->stall_ms)
		for (p = 0; p < SIMNIC_PRIOS; p++)
			simnic_send_restart(port, p);
	port->stall_ms = critical_ms;
	port->stall_minor_ms = max_t(u16, SIMNIC_STALL_MIN_MS,
				     critical_ms * SIMNIC_STALL_MINOR_PCT / 100);
}

/*
 * Nanoseconds @port stays paused on @p from @now: 0 if it is not
 * paused, U64_MAX if the pause lasts until some state changes.
 */
static u64 simnic_pause_left(struct simnic_port *port, unsigned int p, u64 now)
{
	const struct simnic_port *peer = port->peer;
	const struct simnic_prio *sp = &port->prio[p];
	u64 rem, on, send;

	if (!simnic_pfc_on(port, p))
		return 0;
	/* A rx_storm may outlast the peer's pause: the timer looks again. */
	send = simnic_send_left(peer, p, now);
	if (send)
		return send;
	if (!sp->rx_rate)
		return 0;
	if (!simnic_chopped(sp))
		return U64_MAX;
	div64_u64_rem(now - sp->rx_phase, simnic_period_ns(sp), &rem);
	on = simnic_on_ns(sp);
	return rem < on ? on - rem : 0;
}

bool simnic_tx_paused(struct simnic_port *port, unsigned int p, u64 now)
{
	lockdep_assert_held(&port->pair->lock);
	return simnic_pause_left(port, p, now) != 0;
}

/*
 * The priority of a frame: for IPv4 and IPv6 its DSCP mapped through
 * the IEEE APP table (trust DSCP), otherwise skb->priority.
 */
u8 simnic_frame_prio(struct simnic_port *port, struct sk_buff *skb)
{
	__be16 proto, _proto;
	const __be16 *pp;
	u8 dsfield, prio;
	u8 buf[2];
	const u8 *b;

	pp = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
				sizeof(_proto), &_proto);
	proto = pp ? *pp : 0;
	if (proto == htons(ETH_P_IP) || proto == htons(ETH_P_IPV6)) {
		b = skb_header_pointer(skb, ETH_HLEN, sizeof(buf), buf);
		if (b) {
			if (proto == htons(ETH_P_IP))
				dsfield = b[1];
			else
				dsfield = (b[0] << 4) | (b[1] >> 4);
			prio = port->dscp_prio[dsfield >> 2];
			if (prio != SIMNIC_NO_PRIO)
				return prio;
		}
	}
	return skb->priority & (SIMNIC_PRIOS - 1);
}

/* Hand a frame of priority @p to the peer, as the wire would. */
static void simnic_deliver(struct simnic_port *port, struct sk_buff *skb,
			   unsigned int p)
{
	struct simnic_port *peer = port->peer;
	unsigned int len = skb->len;
	bool ok;

	ok = dev_forward_skb(peer->netdev, skb) == NET_RX_SUCCESS;

	spin_lock_bh(&port->pair->lock);
	if (ok) {
		port->tx_packets++;
		port->tx_bytes += len;
		port->prio[p].tx_packets++;
		port->prio[p].tx_bytes += len;
		peer->rx_packets++;
		peer->rx_bytes += len;
		peer->prio[p].rx_packets++;
		peer->prio[p].rx_bytes += len;
	} else {
		port->tx_dropped++;
		peer->rx_dropped++;
	}
	spin_unlock_bh(&port->pair->lock);
}

netdev_tx_t simnic_pfc_xmit(struct simnic_port *port, struct sk_buff *skb)
{
	struct simnic_pair *pair = port->pair;
	struct simnic_prio *sp;
	bool paused, kick;
	unsigned int p;

	spin_lock_bh(&pair->lock);
	p = simnic_frame_prio(port, skb);
	sp = &port->prio[p];
	paused = simnic_tx_paused(port, p, ktime_get_ns());
	/* Behind frames still held or being released: keep the order. */
	if (paused || !skb_queue_empty(&sp->held) ||
	    (port->releasing & BIT(p))) {
		if (skb_queue_len(&sp->held) >= SIMNIC_HELD_MAX) {
			sp->held_dropped++;
			port->tx_dropped++;
			spin_unlock_bh(&pair->lock);
			dev_kfree_skb_any(skb);
			return NETDEV_TX_OK;
		}
		/* Held frames keep no socket, route or device reference. */
		skb_orphan(skb);
		skb_dst_drop(skb);
		kick = skb_queue_empty(&sp->held) || !paused;
		__skb_queue_tail(&sp->held, skb);
		spin_unlock_bh(&pair->lock);
		if (kick)
			hrtimer_start(&port->release_timer, 0,
				      HRTIMER_MODE_REL_SOFT);
		return NETDEV_TX_OK;
	}
	spin_unlock_bh(&pair->lock);

	simnic_deliver(port, skb, p);
	return NETDEV_TX_OK;
}

/*
 * Release the held frames of priorities no longer paused; come back
 * when a chopped pause ends on a priority that still holds frames.
 */
static enum hrtimer_restart simnic_release(struct hrtimer *timer)
{
	struct simnic_port *port = container_of(timer, struct simnic_port,
						release_timer);
	struct simnic_pair *pair = port->pair;
	struct sk_buff_head q;
	struct sk_buff *skb;
	u64 next = U64_MAX, left;
	struct simnic_prio *sp;
	unsigned int p;

	__skb_queue_head_init(&q);
	for (p = 0; p < SIMNIC_PRIOS; p++) {
		sp = &port->prio[p];
		spin_lock_bh(&pair->lock);
		for (;;) {
			port->releasing &= ~BIT(p);
			if (skb_queue_empty(&sp->held))
				break;
			left = simnic_pause_left(port, p, ktime_get_ns());
			if (left) {
				next = min(next, left);
				break;
			}
			skb_queue_splice_init(&sp->held, &q);
			port->releasing |= BIT(p);
			spin_unlock_bh(&pair->lock);
			while ((skb = __skb_dequeue(&q)))
				simnic_deliver(port, skb, p);
			spin_lock_bh(&pair->lock);
		}
		spin_unlock_bh(&pair->lock);
	}

	if (next == U64_MAX)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

/* Re-examine the held frames of both ports after a state change. */
void simnic_kick(struct simnic_pair *pair)
{
	hrtimer_start(&pair->port[0]->release_timer, 0, HRTIMER_MODE_REL_SOFT);
	hrtimer_start(&pair->port[1]->release_timer, 0, HRTIMER_MODE_REL_SOFT);
}

void simnic_pfc_init(struct simnic_port *port)
{
	unsigned int p;

	for (p = 0; p < SIMNIC_PRIOS; p++) {
		skb_queue_head_init(&port->prio[p].held);
		port->prio[p].rx_duty = 100;
	}
	memset(port->dscp_prio, SIMNIC_NO_PRIO, sizeof(port->dscp_prio));
	port->stall_minor_ms = SIMNIC_STALL_MIN_MS;	/* as mlx5e's for "off" */
	simnic_hrtimer_setup(&port->release_timer, simnic_release,
			     CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
}

/* Drop the frames @port holds (link down, removal). */
void simnic_pfc_purge(struct simnic_port *port)
{
	struct sk_buff_head q;
	unsigned int p;

	__skb_queue_head_init(&q);
	spin_lock_bh(&port->pair->lock);
	for (p = 0; p < SIMNIC_PRIOS; p++)
		skb_queue_splice_init(&port->prio[p].held, &q);
	spin_unlock_bh(&port->pair->lock);
	__skb_queue_purge(&q);
}

/* Final teardown, once nothing can kick the timer any more. */
void simnic_pfc_stop(struct simnic_port *port)
{
	hrtimer_cancel(&port->release_timer);
	simnic_pfc_purge(port);
}
