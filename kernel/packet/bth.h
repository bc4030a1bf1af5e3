/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCE transport headers as the InfiniBand specification defines them:
 * what the per-QP counters need from one packet. Pure code, no kernel
 * state, so that user-space unit tests compile it too (with u8, u32 and
 * bool defined for them).
 */
#ifndef _ROCECTL_BTH_H
#define _ROCECTL_BTH_H

#include <linux/types.h>

#define ROCECTL_BTH_LEN		12
#define ROCECTL_ICRC_LEN	4
#define ROCECTL_OP_CNP		0x81
#define ROCECTL_QPN_MAX		0xffffff	/* QPNs are 24 bits */
/*
 * The parser reads no byte past min(len, this) from the BTH's start (BTH
 * and RETH): a caller copying the headers out of an skb needs no more.
 */
#define ROCECTL_BTH_PARSE_MAX	28

/* What happened to a packet, as far as congestion is concerned. */
enum rocectl_pkt_kind {
	ROCECTL_PKT_REQUEST,	/* carries a PSN the responder checks */
	ROCECTL_PKT_RESPONSE,	/* read response, atomic ACK */
	ROCECTL_PKT_ACK,
	ROCECTL_PKT_NAK_SEQ,	/* NAK: PSN sequence error */
	ROCECTL_PKT_RNR_NAK,
	ROCECTL_PKT_NAK_OTHER,
	ROCECTL_PKT_CNP,
	ROCECTL_PKT_OTHER,	/* unknown opcode: counted, not classified */
};

struct rocectl_bth {
	u8 opcode;
	bool becn;
	u32 qpn;		/* destination QP */
	u32 src_qpn;		/* UD (DETH): the sending QP; else 0 */
	u32 psn;
	u32 payload;		/* message bytes: no headers, pad or ICRC */
	u32 read_len;		/* READ request: bytes asked for */
	enum rocectl_pkt_kind kind;
};

/*
 * Parse the RoCE packet that starts at the BTH and is len bytes long (the
 * UDP payload). Returns false if it is too short to be one.
 */
bool rocectl_bth_parse(const u8 *p, u32 len, struct rocectl_bth *b);

/* The PSNs a request uses: READ requests one per response packet. */
static inline u32 rocectl_bth_psns(const struct rocectl_bth *b, u32 mtu)
{
	if (!b->read_len || !mtu)
		return 1;
	return (b->read_len + mtu - 1) / mtu;
}

/* PSNs are 24-bit serial numbers: is a before b? */
static inline bool rocectl_psn_before(u32 a, u32 b)
{
	return ((a - b) & 0xffffff) > 0x800000;
}

#endif /* _ROCECTL_BTH_H */
