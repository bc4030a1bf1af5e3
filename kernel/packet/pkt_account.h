/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_PKT_ACCOUNT_H
#define _ROCECTL_PKT_ACCOUNT_H

#include <linux/types.h>
#include <linux/xarray.h>
#include "bth.h"
#include "devices/devices.h"

/* pkt_account.c: a parsed packet into its QP's counters, under RCU. */
struct rocectl_qp;
struct sk_buff;

/*
 * The QP numbered qpn on rdev, for the packet path: xa_load() without its
 * own RCU read lock, which every caller here holds already (a call pair
 * each way under preemptible RCU, per lookup).
 */
static inline struct rocectl_qp *rocectl_pkt_qp_rcu(struct rocectl_dev *rdev,
						    u32 qpn)
{
	XA_STATE(xas, &rdev->qps, qpn);
	void *entry;

	do {
		entry = xas_load(&xas);
	} while (xas_retry(&xas, entry));
	return xa_is_zero(entry) ? NULL : entry;
}

/* A packet received on rdev for e, the QP its BTH names (NULL: none). */
void rocectl_pkt_rx_qp(struct rocectl_dev *rdev, struct rocectl_qp *e,
		       const struct rocectl_bth *b, bool ce);

/* A packet received on rdev for the QP its BTH names. */
static inline void rocectl_pkt_rx(struct rocectl_dev *rdev,
				  const struct rocectl_bth *b, bool ce)
{
	rocectl_pkt_rx_qp(rdev, rocectl_pkt_qp_rcu(rdev, b->qpn), b, ce);
}

void rocectl_pkt_tx(struct rocectl_dev *rdev, struct rocectl_qp *sender,
		    const struct rocectl_bth *b, u16 sport);
struct rocectl_qp *rocectl_pkt_sender_rcu(struct rocectl_dev *rdev,
					  const struct sk_buff *skb,
					  const struct rocectl_bth *b);

#endif /* _ROCECTL_PKT_ACCOUNT_H */
