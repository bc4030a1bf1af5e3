// SPDX-License-Identifier: GPL-2.0
/*
 * The module's RoCE header parser, compiled in user space against packets
 * built here byte by byte from the InfiniBand specification's layouts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kshim.h"
#include "../../kernel/packet/bth.h"
#include "bth_test.h"

/* A packet: BTH, then ext bytes of extended headers, payload, pad, ICRC. */
static u32 build(u8 *p, u8 opcode, u32 qpn, u32 psn, u32 ext, u32 payload,
		 u32 pad)
{
	u32 len = 12 + ext + payload + pad + 4;

	memset(p, 0, len);
	p[0] = opcode;
	p[1] = pad << 4;
	p[4] = 0;
	p[5] = qpn >> 16;
	p[6] = qpn >> 8;
	p[7] = qpn;
	p[8] = 0x80;		/* AckReq: must not leak into the PSN */
	p[9] = psn >> 16;
	p[10] = psn >> 8;
	p[11] = psn;
	return len;
}

/*
 * The packet's first min(len, ROCECTL_BTH_PARSE_MAX) bytes alone, in a
 * buffer of that size (ASan catches a read past it), parse as the whole
 * packet does: the module copies no more out of an skb. at/val: a byte
 * set first (a DETH or RETH field), for a field that varies.
 */
static int headers_only(u8 *p, u32 len, u32 at, u32 val)
{
	struct rocectl_bth whole, part;
	u32 n = len < ROCECTL_BTH_PARSE_MAX ? len : ROCECTL_BTH_PARSE_MAX;
	u8 *h;
	int ok;

	if (at == 12 && val > 0xff) {		/* a READ's DMA length */
		p[26] = val >> 8;
		p[27] = val;
	} else if (at) {
		p[at] = val;
	}
	h = malloc(n);
	if (!h)
		return 0;
	memcpy(h, p, n);
	ok = rocectl_bth_parse(p, len, &whole) && rocectl_bth_parse(h, len, &part) &&
	     whole.opcode == part.opcode && whole.qpn == part.qpn &&
	     whole.src_qpn == part.src_qpn && whole.psn == part.psn &&
	     whole.payload == part.payload && whole.read_len == part.read_len &&
	     whole.kind == part.kind && whole.becn == part.becn;
	free(h);
	return ok;
}

int bth_tests(void (*report)(const char *, int))
{
	u8 p[4200];
	struct rocectl_bth b;
	u32 len;
	int ok;

	len = build(p, 0x04, 0x123456, 0xabcdef, 0, 1024, 0);	/* RC SEND only */
	ok = rocectl_bth_parse(p, len, &b) && b.opcode == 0x04 && b.qpn == 0x123456 &&
	     b.psn == 0xabcdef && b.payload == 1024 && b.kind == ROCECTL_PKT_REQUEST && !b.becn;
	report("bth: RC SEND only: QPN, PSN, payload", ok);

	len = build(p, 0x04, 1, 0, 0, 5, 3);			/* 5 bytes + 3 pad */
	ok = rocectl_bth_parse(p, len, &b) && b.payload == 5;
	report("bth: pad count is not payload", ok);

	len = build(p, 0x06, 17, 5, 16, 1024, 0);		/* WRITE first: RETH */
	ok = rocectl_bth_parse(p, len, &b) && b.payload == 1024 && b.kind == ROCECTL_PKT_REQUEST;
	report("bth: RDMA WRITE first: RETH is a header", ok);

	len = build(p, 0x0b, 17, 5, 20, 100, 0);		/* WRITE only + imm */
	ok = rocectl_bth_parse(p, len, &b) && b.payload == 100;
	report("bth: RDMA WRITE only with immediate: RETH + ImmDt", ok);

	len = build(p, 0x0c, 17, 5, 16, 0, 0);			/* READ request */
	p[12 + 12] = 0, p[12 + 13] = 0, p[12 + 14] = 0x10, p[12 + 15] = 0x01;	/* 4097 bytes */
	ok = rocectl_bth_parse(p, len, &b) && b.read_len == 4097 && b.payload == 0 &&
	     rocectl_bth_psns(&b, 1024) == 5 && rocectl_bth_psns(&b, 4096) == 2;
	report("bth: READ request uses one PSN per response packet", ok);

	len = build(p, 0x10, 17, 5, 4, 512, 0);			/* READ response only */
	ok = rocectl_bth_parse(p, len, &b) && b.payload == 512 && b.kind == ROCECTL_PKT_RESPONSE;
	report("bth: READ response only: AETH, a response", ok);

	len = build(p, 0x11, 17, 5, 4, 0, 0);			/* ACK */
	p[12] = 0x1f;
	ok = rocectl_bth_parse(p, len, &b) && b.kind == ROCECTL_PKT_ACK && b.payload == 0;
	report("bth: ACK", ok);

	p[12] = 0x60;						/* NAK, PSN sequence error */
	ok = rocectl_bth_parse(p, len, &b) && b.kind == ROCECTL_PKT_NAK_SEQ;
	report("bth: NAK PSN sequence error", ok);

	p[12] = 0x61;						/* NAK, invalid request */
	ok = rocectl_bth_parse(p, len, &b) && b.kind == ROCECTL_PKT_NAK_OTHER;
	report("bth: other NAK codes are not sequence errors", ok);

	p[12] = 0x2e;						/* RNR NAK, timer 14 */
	ok = rocectl_bth_parse(p, len, &b) && b.kind == ROCECTL_PKT_RNR_NAK;
	report("bth: RNR NAK", ok);

	len = build(p, 0x81, 17, 0, 16, 0, 0);			/* CNP, BECN set */
	p[4] = 0x40;
	ok = rocectl_bth_parse(p, len, &b) && b.kind == ROCECTL_PKT_CNP && b.becn && b.qpn == 17;
	report("bth: CNP with BECN, QPN still read", ok);

	len = build(p, 0x64, 17, 0, 8, 256, 0);			/* UD SEND only: DETH */
	ok = rocectl_bth_parse(p, len, &b) && b.payload == 256;
	report("bth: UD SEND only: DETH is a header", ok);

	p[17] = 0x0a;						/* DETH source QP 0x0abcde */
	p[18] = 0xbc;
	p[19] = 0xde;
	ok = rocectl_bth_parse(p, len, &b) && b.src_qpn == 0x0abcde;
	report("bth: UD: the source QP from the DETH", ok);

	len = build(p, 0x04, 17, 0, 0, 64, 0);
	p[17] = 0x0a;						/* RC: no DETH there */
	ok = rocectl_bth_parse(p, len, &b) && b.src_qpn == 0;
	report("bth: RC carries no source QP", ok);

	ok = headers_only(p, build(p, 0x0c, 17, 5, 16, 0, 0), 12, 4097) &&
	     headers_only(p, build(p, 0x11, 17, 5, 4, 0, 0), 12, 0) &&
	     headers_only(p, build(p, 0x64, 17, 5, 8, 1000, 0), 17, 0x0a) &&
	     headers_only(p, build(p, 0x06, 17, 5, 16, 4000, 3), 0, 0);
	report("bth: parsed from its first ROCECTL_BTH_PARSE_MAX bytes alone", ok);

	ok = !rocectl_bth_parse(p, 15, &b) && rocectl_bth_parse(p, 16, &b);
	report("bth: shorter than BTH + ICRC is refused", ok);

	len = build(p, 0x0a, 17, 5, 16, 0, 0);
	ok = rocectl_bth_parse(p, len - 4, &b) && b.payload == 0;	/* truncated RETH */
	report("bth: truncated extended header gives no payload", ok);

	ok = rocectl_psn_before(0xfffffe, 1) && !rocectl_psn_before(1, 0xfffffe) &&
	     rocectl_psn_before(5, 6) && !rocectl_psn_before(6, 6);
	report("bth: PSN order wraps at 2^24", ok);
	return 0;
}
