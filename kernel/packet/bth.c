// SPDX-License-Identifier: GPL-2.0
/*
 * RoCE transport header parsing (InfiniBand Architecture Specification,
 * volume 1, chapter 9): header lengths by opcode, ACK syndromes and CNPs.
 */
#include "bth.h"

/* Extended transport header bytes after the BTH, by opcode. */
#define RETH		16
#define AETH		4
#define IMMDT		4
#define IETH		4
#define DETH		8
#define ATOMICETH	28
#define ATOMICACKETH	8

/* The low five bits of an RC, UC, UD or XRC opcode: the operation. */
static u32 rocectl_ext_len(u8 opcode, bool *is_request)
{
	u8 transport = opcode >> 5, op = opcode & 0x1f;
	u32 base = 0;

	*is_request = true;
	if (transport == 3)		/* UD: every packet has a DETH */
		base = DETH;
	if (transport == 5)		/* XRC: an XRCETH */
		base = 4;

	switch (op) {
	case 0x00: case 0x01: case 0x02:		/* SEND first/middle/last */
	case 0x04:					/* SEND only */
	case 0x07: case 0x08:				/* WRITE middle/last */
		return base;
	case 0x03: case 0x05:				/* SEND last/only + imm */
	case 0x09:					/* WRITE last + imm */
		return base + IMMDT;
	case 0x06: case 0x0a:				/* WRITE first/only */
		return base + RETH;
	case 0x0b:					/* WRITE only + imm */
		return base + RETH + IMMDT;
	case 0x0c:					/* READ request */
		return base + RETH;
	case 0x0d: case 0x0f: case 0x10:		/* READ resp first/last/only */
		*is_request = false;
		return base + AETH;
	case 0x0e:					/* READ resp middle */
		*is_request = false;
		return base;
	case 0x11:					/* ACK */
		*is_request = false;
		return base + AETH;
	case 0x12:					/* ATOMIC ACK */
		*is_request = false;
		return base + AETH + ATOMICACKETH;
	case 0x13: case 0x14:				/* CMP&SWAP, FETCH&ADD */
		return base + ATOMICETH;
	case 0x16: case 0x17:				/* SEND last/only + inv */
		return base + IETH;
	default:
		*is_request = false;
		return base;
	}
}

static u32 rocectl_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

bool rocectl_bth_parse(const u8 *p, u32 len, struct rocectl_bth *b)
{
	u32 hdr, pad, syndrome;
	bool is_request;

	if (len < ROCECTL_BTH_LEN + ROCECTL_ICRC_LEN)
		return false;

	b->opcode = p[0];
	b->becn = p[4] & 0x40;
	b->qpn = rocectl_be32(p + 4) & 0xffffff;
	b->psn = rocectl_be32(p + 8) & 0xffffff;
	b->src_qpn = 0;
	b->payload = 0;
	b->read_len = 0;

	if (b->opcode == ROCECTL_OP_CNP) {
		b->kind = ROCECTL_PKT_CNP;
		return true;
	}
	/* 0x80-0x9f is the CNP range, 0xc0 and up manufacturer-specific. */
	if (b->opcode >= 0xc0 || (b->opcode >> 5) == 4) {
		b->kind = ROCECTL_PKT_OTHER;
		return true;
	}

	hdr = ROCECTL_BTH_LEN + rocectl_ext_len(b->opcode, &is_request);
	pad = (p[1] >> 4) & 3;
	if (len >= hdr + pad + ROCECTL_ICRC_LEN)
		b->payload = len - hdr - pad - ROCECTL_ICRC_LEN;

	b->kind = is_request ? ROCECTL_PKT_REQUEST : ROCECTL_PKT_RESPONSE;
	/* UD: the DETH (Q_Key, then the source QP's number) follows the BTH. */
	if ((b->opcode >> 5) == 3 && len >= ROCECTL_BTH_LEN + DETH)
		b->src_qpn = rocectl_be32(p + ROCECTL_BTH_LEN + 4) & 0xffffff;
	/* A READ request: its RETH DMA length says how many PSNs it uses. */
	if ((b->opcode & 0x1f) == 0x0c && len >= ROCECTL_BTH_LEN + RETH)
		b->read_len = rocectl_be32(p + ROCECTL_BTH_LEN + 12);
	if ((b->opcode & 0x1f) == 0x11 && len >= ROCECTL_BTH_LEN + AETH) {
		/* The AETH syndrome: 0xx ACK, 001 RNR NAK, 011 NAK (code 0: PSN). */
		syndrome = p[ROCECTL_BTH_LEN];
		switch (syndrome >> 5) {
		case 0:
			b->kind = ROCECTL_PKT_ACK;
			break;
		case 1:
			b->kind = ROCECTL_PKT_RNR_NAK;
			break;
		case 3:
			b->kind = (syndrome & 0x1f) ? ROCECTL_PKT_NAK_OTHER :
						      ROCECTL_PKT_NAK_SEQ;
			break;
		default:
			b->kind = ROCECTL_PKT_OTHER;
		}
	}
	return true;
}
