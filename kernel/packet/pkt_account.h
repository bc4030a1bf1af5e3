/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_PKT_ACCOUNT_H
#define _ROCECTL_PKT_ACCOUNT_H

#include <linux/types.h>

/* pkt_account.c: a parsed packet into its QP's counters, under RCU. */
struct rocectl_bth;
struct rocectl_dev;
struct rocectl_qp;
struct sk_buff;

void rocectl_pkt_rx(struct rocectl_dev *rdev, const struct rocectl_bth *b,
		    bool ce);
void rocectl_pkt_tx(struct rocectl_dev *rdev, struct rocectl_qp *sender,
		    const struct rocectl_bth *b, u16 sport);
struct rocectl_qp *rocectl_pkt_sender_rcu(struct rocectl_dev *rdev,
					  const struct sk_buff *skb,
					  const struct rocectl_bth *b);

#endif /* _ROCECTL_PKT_ACCOUNT_H */
