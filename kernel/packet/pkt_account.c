// SPDX-License-Identifier: GPL-2.0
/*
 * A parsed RoCE packet into the counters of its QP, or of its device when
 * no counting QP takes it (dev_counters.c): the accounting the packet path's
 * hooks share (nf_hooks.c for the wire, rxe_hooks.c for loopback). Callers
 * hold the RCU read lock.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/sock.h>
#include "bth.h"
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "pkt_account.h"
#include "qp/qp_stats.h"
#include "qp/qps.h"

static void rocectl_count(struct rocectl_qp *e, int attr, u64 n)
{
	rocectl_qp_count(e, ROCECTL_STAT(attr), n);
}

/* A sign of congestion: counted, then maybe reported (qp_congestion). */
static void rocectl_count_cong(struct rocectl_dev *rdev, struct rocectl_qp *e,
			       int attr)
{
	rocectl_count(e, attr, 1);
	rocectl_qp_congestion(rdev, e);
}

/* A request's PSN against the next one expected: in order, old or a gap. */
static void rocectl_rx_psn(struct rocectl_dev *rdev, struct rocectl_qp *e,
			   const struct rocectl_bth *b)
{
	u32 next = READ_ONCE(e->rx_next_psn);

	if (!READ_ONCE(e->rx_psn_valid))
		return;
	if (b->psn == next) {
		next = b->psn + rocectl_bth_psns(b, READ_ONCE(e->info.path_mtu));
		WRITE_ONCE(e->rx_next_psn, next & 0xffffff);
	} else if (rocectl_psn_before(b->psn, next)) {
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_DUP);
	} else {
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ);
	}
}

static void rocectl_account_rx(struct rocectl_dev *rdev, struct rocectl_qp *e,
			       const struct rocectl_bth *b, bool ce)
{
	rocectl_qp_count_pkt(e, ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_PACKETS),
			     ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_BYTES), b->payload);
	if (ce)
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_ECN_CE);
	if (b->becn)
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_BECN);
	switch (b->kind) {
	case ROCECTL_PKT_CNP:
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_CNP);
		break;
	case ROCECTL_PKT_NAK_SEQ:
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_NAK_SEQ);
		break;
	case ROCECTL_PKT_RNR_NAK:
		rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_RX_RNR_NAK);
		break;
	case ROCECTL_PKT_REQUEST:
		rocectl_rx_psn(rdev, e, b);
		break;
	default:
		break;
	}
}

static void rocectl_account_tx(struct rocectl_dev *rdev, struct rocectl_qp *e,
			       const struct rocectl_bth *b, u16 sport)
{
	u32 next;

	/* The port the packet leaves on, as the network's ECMP hashes it. */
	if (sport)
		WRITE_ONCE(e->tx_sport, sport);

	rocectl_qp_count_pkt(e, ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_PACKETS),
			     ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_BYTES), b->payload);
	switch (b->kind) {
	case ROCECTL_PKT_CNP:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_CNP, 1);
		break;
	case ROCECTL_PKT_NAK_SEQ:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_NAK_SEQ, 1);
		break;
	case ROCECTL_PKT_RNR_NAK:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_RNR_NAK, 1);
		break;
	case ROCECTL_PKT_REQUEST:
		if (!READ_ONCE(e->tx_psn_valid))
			break;
		next = READ_ONCE(e->tx_next_psn);
		if (rocectl_psn_before(b->psn, next)) {
			rocectl_count_cong(rdev, e, ROCECTL_A_QP_STAT_TX_RETRANS);
		} else {
			next = b->psn + rocectl_bth_psns(b, READ_ONCE(e->info.path_mtu));
			WRITE_ONCE(e->tx_next_psn, next & 0xffffff);
		}
		break;
	default:
		break;
	}
}

void rocectl_pkt_rx_qp(struct rocectl_dev *rdev, struct rocectl_qp *e,
		       const struct rocectl_bth *b, bool ce)
{
	if (e && e->counts && rocectl_qp_stats_ready(e))
		rocectl_account_rx(rdev, e, b, ce);
	else
		rocectl_dev_unattributed(rdev, false, b->payload, ce);
}

/* A packet sent on rdev by sender (NULL: not known) from UDP port sport (0: not read). */
void rocectl_pkt_tx(struct rocectl_dev *rdev, struct rocectl_qp *sender,
		    const struct rocectl_bth *b, u16 sport)
{
	if (sender && sender->counts && rocectl_qp_stats_ready(sender))
		rocectl_account_tx(rdev, sender, b, sport);
	else
		rocectl_dev_unattributed(rdev, true, b->payload, false);
}

/*
 * The QP that sent skb: first by the socket rdma_rxe gives each QP, whose
 * sk_user_data holds the driver's QP (its address, or its pool index on
 * 6.10 to 6.16: compat.h). That value is never dereferenced: it is looked
 * up among the addresses of the QPs in the table, and as a QPN (an index
 * is the QPN of every QP but the special QP 1, whose index no QP has as
 * its QPN). The socket is only read on skbs the driver itself owns (their
 * destructor is its code). Else a datagram's DETH names its source QP.
 * Anything else is no sender at all, never a wrong one.
 */
struct rocectl_qp *rocectl_pkt_sender_rcu(struct rocectl_dev *rdev,
					  const struct sk_buff *skb,
					  const struct rocectl_bth *b)
{
	struct rocectl_qp *e = NULL;
	unsigned long v;

	if (skb->sk && skb->destructor && rdev->owner &&
	    within_module((unsigned long)skb->destructor, rdev->owner)) {
		/* Raw: the sk_user_data helpers would mask an index's low bits. */
		v = (unsigned long)READ_ONCE(skb->sk->sk_user_data);
		if (v > ROCECTL_QPN_MAX)
			e = rocectl_qp_by_drv_rcu(rdev, v);
		else if (v)
			e = rocectl_pkt_qp_rcu(rdev, v);
	}
	if (!e && b->src_qpn)
		e = rocectl_pkt_qp_rcu(rdev, b->src_qpn);
	return e;
}
