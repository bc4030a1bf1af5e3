// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/mlx5/ifc.c against the register layouts of linux/mlx5/mlx5_ifc.h:
 * every buffer it encodes is compared bit for bit with one built here at
 * the offsets ifc_layout.py parsed from the header, and every buffer it
 * decodes is built here the same way.
 */
#include <stdio.h>
#include <string.h>

#include "../../../kernel/mlx5/ifc.h"
#define ROCECTL_MLX5_TEST_INTERNAL
#include "mlx5_test.h"

/* The shim's copies of constants, and the register sizes, against the headers. */
static void test_constants(struct mlx5_t *t)
{
	if (MLX5_REG_PFCC != IFC_MLX5_REG_PFCC)
		fail(t, "MLX5_REG_PFCC %#x, headers %#x", MLX5_REG_PFCC, IFC_MLX5_REG_PFCC);
	if (MLX5_REG_PPCNT != IFC_MLX5_REG_PPCNT)
		fail(t, "MLX5_REG_PPCNT %#x, headers %#x", MLX5_REG_PPCNT, IFC_MLX5_REG_PPCNT);
	if (MLX5_PER_PRIORITY_COUNTERS_GROUP != IFC_MLX5_PER_PRIORITY_COUNTERS_GROUP)
		fail(t, "MLX5_PER_PRIORITY_COUNTERS_GROUP %#x, headers %#x",
		     MLX5_PER_PRIORITY_COUNTERS_GROUP, IFC_MLX5_PER_PRIORITY_COUNTERS_GROUP);
	if (MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH != IFC_MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH ||
	    MLX5_QP_OPTPAR_COUNTER_SET_ID != IFC_MLX5_QP_OPTPAR_COUNTER_SET_ID)
		fail(t, "MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH %#x, COUNTER_SET_ID %#x, headers %#x, %#x",
		     MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH, MLX5_QP_OPTPAR_COUNTER_SET_ID,
		     IFC_MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH, IFC_MLX5_QP_OPTPAR_COUNTER_SET_ID);
	/* The C compiler's view of the same header (via the shim's macros). */
	if (RM5_PPCNT_DW * 32 != IFC_SZ_ppcnt_reg || RM5_PFCC_DW * 32 != IFC_SZ_pfcc_reg)
		fail(t, "register sizes: PPCNT %zu PFCC %zu dwords, parsed %u %u bits",
		     (size_t)RM5_PPCNT_DW, (size_t)RM5_PFCC_DW, IFC_SZ_ppcnt_reg, IFC_SZ_pfcc_reg);
	/* The per-priority group fits in counter_set, which ends the register. */
	if (IFC_SZ_eth_per_prio_grp_data_layout > IFC_W_ppcnt_reg__counter_set ||
	    IFC_OFF_ppcnt_reg__counter_set + IFC_W_ppcnt_reg__counter_set != IFC_SZ_ppcnt_reg ||
	    IFC_W_ppcnt_reg__counter_set != IFC_SZ_eth_cntrs_grp_data_layout_auto)
		fail(t, "counter_set at %#x, %u bits; per-prio group %u bits",
		     IFC_OFF_ppcnt_reg__counter_set, IFC_W_ppcnt_reg__counter_set,
		     IFC_SZ_eth_per_prio_grp_data_layout);
	done(t, "shim's MLX5_REG_PFCC/PPCNT, per-priority group id, QP optional-parameter bits and register sizes match " IFC_HEADER);
}

static void test_ppcnt_query(struct mlx5_t *t)
{
	static const struct { u8 port, prio; } cases[] = {
		{ 1, 0 }, { 1, 7 }, { 0, 0 }, { 0xff, 7 }, { 0x5a, 3 }, { 0x80, 4 },
	};
	unsigned char in[PPCNT_BYTES + 8] ALIGNED, want[PPCNT_BYTES];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(cases); i++) {
		memset(in, 0xa5, sizeof(in));	/* all of it must be written */
		rm5_ppcnt_prio_query((u32 *)in, cases[i].port, cases[i].prio);
		memset(want, 0, sizeof(want));
		bits_set(want, F(ppcnt_reg, local_port), cases[i].port);
		bits_set(want, F(ppcnt_reg, grp), IFC_MLX5_PER_PRIORITY_COUNTERS_GROUP);
		bits_set(want, F(ppcnt_reg, prio_tc), cases[i].prio);
		if (buf_diff(t->why, sizeof(t->why), in, want, sizeof(want)))
			fail(t, "port %u prio %u", cases[i].port, cases[i].prio);
		else if (in[PPCNT_BYTES] != 0xa5)
			fail(t, "wrote past the %u bytes of PPCNT", PPCNT_BYTES);
		if (t->why[0])
			break;
	}
	done(t, "PPCNT query: local_port, group 0x10, prio_tc at their bits, all else 0 (no clr)");
}

/* The counters a decode must find, and decoys in every other field. */
static const char *const prio_ctrs[] = {
	"rx_frames", "tx_frames", "rx_pause", "tx_pause",
	"rx_pause_duration", "tx_pause_duration",
	"device_stall_minor_watermark_cnt", "device_stall_critical_watermark_cnt",
};

static void test_ppcnt_decode(struct mlx5_t *t)
{
	static const unsigned long long base[] = {
		0x0123456789abcdefULL, 0xffffffff00000000ULL, 0x00000000ffffffffULL,
		0xffffffffffffffffULL, 0x8000000000000001ULL,
	};
	unsigned char out[PPCNT_BYTES] ALIGNED;
	struct rm5_prio_counters c;
	unsigned int b, k, i;

	for (b = 0; b < IFC_COUNT(base) && !t->why[0]; b++) {
		unsigned long long want[IFC_COUNT(prio_ctrs)], got[IFC_COUNT(prio_ctrs)];

		/* Decoys: every field of the group, and the header, non-zero. */
		memset(out, 0x5c, sizeof(out));
		for (i = 0; i < IFC_COUNT(ifc_fields_eth_per_prio_grp_data_layout); i++) {
			const struct ifc_field *f = &ifc_fields_eth_per_prio_grp_data_layout[i];

			if (f->width == 32)
				bits_set(out, IFC_OFF_ppcnt_reg__counter_set + f->off, 32,
					 0xdead0000 + i);
		}
		for (k = 0; k < IFC_COUNT(prio_ctrs); k++) {
			const struct ifc_field *hi = NULL, *lo = NULL;
			char n[64];

			/* Different in each half, so a swap or a shift shows. */
			want[k] = b ? base[b] ^ ((unsigned long long)k << 40 | k << 8)
				    : base[b] + k * 0x0000010100000101ULL;
			for (i = 0; i < IFC_COUNT(ifc_fields_eth_per_prio_grp_data_layout); i++) {
				const struct ifc_field *f = &ifc_fields_eth_per_prio_grp_data_layout[i];

				snprintf(n, sizeof(n), "%s_high", prio_ctrs[k]);
				if (!strcmp(f->name, n))
					hi = f;
				snprintf(n, sizeof(n), "%s_low", prio_ctrs[k]);
				if (!strcmp(f->name, n))
					lo = f;
			}
			if (!hi || !lo || hi->width != 32 || lo->width != 32) {
				fail(t, "%s_high/_low not in the parsed layout", prio_ctrs[k]);
				break;
			}
			bits_set(out, IFC_OFF_ppcnt_reg__counter_set + hi->off, 32, want[k] >> 32);
			bits_set(out, IFC_OFF_ppcnt_reg__counter_set + lo->off, 32, want[k] & 0xffffffff);
		}
		if (t->why[0])
			break;
		/* The same fields through the generated macros, as a cross-check. */
		if (bits_get(out, PP(rx_pause_high)) != want[2] >> 32 ||
		    bits_get(out, PP(tx_pause_duration_low)) != (want[5] & 0xffffffff)) {
			fail(t, "field table and macros disagree");
			break;
		}
		memset(&c, 0x77, sizeof(c));
		rm5_ppcnt_prio_decode((const u32 *)out, &c);
		got[0] = c.rx_frames, got[1] = c.tx_frames;
		got[2] = c.rx_pause, got[3] = c.tx_pause;
		got[4] = c.rx_pause_us, got[5] = c.tx_pause_us;
		got[6] = c.stall_minor, got[7] = c.stall_critical;
		for (k = 0; k < IFC_COUNT(prio_ctrs); k++)
			if (got[k] != want[k]) {
				fail(t, "%s: got %#llx want %#llx", prio_ctrs[k], got[k], want[k]);
				break;
			}
	}
	done(t, "PPCNT per-priority decode: each of 8 counters from its own high/low dwords");
}

static void test_pfcc_query(struct mlx5_t *t)
{
	static const u8 ports[] = { 1, 0, 0xff, 0x80, 0x3c };
	unsigned char in[PFCC_BYTES + 8] ALIGNED, want[PFCC_BYTES];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(ports) && !t->why[0]; i++) {
		memset(in, 0xa5, sizeof(in));
		rm5_pfcc_query((u32 *)in, ports[i]);
		memset(want, 0, sizeof(want));
		bits_set(want, F(pfcc_reg, local_port), ports[i]);
		if (buf_diff(t->why, sizeof(t->why), in, want, sizeof(want)))
			fail(t, "port %u", ports[i]);
		else if (in[PFCC_BYTES] != 0xa5)
			fail(t, "wrote past the %u bytes of PFCC", PFCC_BYTES);
	}
	done(t, "PFCC query: local_port at its bits, all else 0");
}

static void test_pfcc_decode(struct mlx5_t *t)
{
	static const struct rm5_pfcc cases[] = {
		{ .pfctx = 0x5a, .pfcrx = 0xc3, .pptx = 1, .pprx = 0,
		  .stall_minor_ms = 0x1234, .stall_critical_ms = 0xfedc },
		{ .pfctx = 0x01, .pfcrx = 0x80, .pptx = 0, .pprx = 1,
		  .stall_minor_ms = 0xffff, .stall_critical_ms = 0 },
		{ .pfctx = 0xff, .pfcrx = 0x00, .pptx = 1, .pprx = 1,
		  .stall_minor_ms = 0, .stall_critical_ms = 0x8001 },
		{ .pfctx = 0x00, .pfcrx = 0xff, .pptx = 0, .pprx = 0,
		  .stall_minor_ms = 100, .stall_critical_ms = 8000 },
	};
	unsigned char out[PFCC_BYTES] ALIGNED;
	unsigned int i, fill;

	for (fill = 0; fill < 2; fill++)
		for (i = 0; i < IFC_COUNT(cases) && !t->why[0]; i++) {
			const struct rm5_pfcc *w = &cases[i];
			struct rm5_pfcc p;

			/* Every other bit (masks, ppan, aptx, reserved) set, or clear. */
			memset(out, fill ? 0xff : 0, sizeof(out));
			bits_set(out, F(pfcc_reg, pfctx), w->pfctx);
			bits_set(out, F(pfcc_reg, pfcrx), w->pfcrx);
			bits_set(out, F(pfcc_reg, pptx), w->pptx);
			bits_set(out, F(pfcc_reg, pprx), w->pprx);
			bits_set(out, F(pfcc_reg, device_stall_minor_watermark), w->stall_minor_ms);
			bits_set(out, F(pfcc_reg, device_stall_critical_watermark), w->stall_critical_ms);
			memset(&p, 0x77, sizeof(p));
			rm5_pfcc_decode((const u32 *)out, &p);
			if (p.pfctx != w->pfctx || p.pfcrx != w->pfcrx || p.pptx != w->pptx ||
			    p.pprx != w->pprx || p.stall_minor_ms != w->stall_minor_ms ||
			    p.stall_critical_ms != w->stall_critical_ms)
				fail(t, "case %u (rest %s): got pfctx %#x pfcrx %#x pptx %u pprx %u minor %u critical %u, want %#x %#x %u %u %u %u",
				     i, fill ? "ones" : "zeros", p.pfctx, p.pfcrx, p.pptx, p.pprx,
				     p.stall_minor_ms, p.stall_critical_ms, w->pfctx, w->pfcrx,
				     w->pptx, w->pprx, w->stall_minor_ms, w->stall_critical_ms);
		}
	done(t, "PFCC decode: pfctx/pfcrx, pptx/pprx, both stall watermarks");
}

struct set_case {
	struct rm5_pfcc cur;
	u8 tx_en, rx_en, tx_mask, rx_mask;
};

static const struct set_case set_cases[] = {
	/* forward: stop honouring pause on priority 3, keep generating it */
	{ { .pfctx = 0x08, .pfcrx = 0x08 }, 0x00, 0x00, 0x00, 0x08 },
	{ { .pfctx = 0x08, .pfcrx = 0x00 }, 0x00, 0x08, 0x00, 0x08 },
	{ { .pfctx = 0x5a, .pfcrx = 0xa5, .pptx = 1, .pprx = 1,
	    .stall_minor_ms = 77, .stall_critical_ms = 99 }, 0xff, 0x00, 0x81, 0x18 },
	{ { .pfctx = 0xff, .pfcrx = 0xff }, 0x00, 0x00, 0xff, 0xff },
	{ { .pfctx = 0x00, .pfcrx = 0x00, .pptx = 1 }, 0xff, 0xff, 0xff, 0xff },
	{ { .pfctx = 0x3c, .pfcrx = 0xc3, .pprx = 1 }, 0xff, 0xff, 0x00, 0x00 },
	{ { .pfctx = 0x80, .pfcrx = 0x01 }, 0x7f, 0xfe, 0x01, 0x80 },
};

static void want_set(unsigned char *want, u8 port, const struct set_case *c, bool masks)
{
	memset(want, 0, PFCC_BYTES);
	bits_set(want, F(pfcc_reg, local_port), port);
	bits_set(want, F(pfcc_reg, pfctx), (c->cur.pfctx & ~c->tx_mask) | (c->tx_en & c->tx_mask));
	bits_set(want, F(pfcc_reg, pfcrx), (c->cur.pfcrx & ~c->rx_mask) | (c->rx_en & c->rx_mask));
	if (masks) {
		bits_set(want, F(pfcc_reg, prio_mask_tx), c->tx_mask);
		bits_set(want, F(pfcc_reg, prio_mask_rx), c->rx_mask);
		bits_set(want, F(pfcc_reg, pptx_mask_n), 1);
		bits_set(want, F(pfcc_reg, pprx_mask_n), 1);
		bits_set(want, F(pfcc_reg, ppan_mask_n), 1);
	} else {
		bits_set(want, F(pfcc_reg, pptx), c->cur.pptx);
		bits_set(want, F(pfcc_reg, pprx), c->cur.pprx);
	}
}

static void test_pfcc_set_masks(struct mlx5_t *t)
{
	unsigned char in[PFCC_BYTES + 8] ALIGNED, want[PFCC_BYTES];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(set_cases) && !t->why[0]; i++) {
		const struct set_case *c = &set_cases[i];
		u8 port = i ? 1 : 0xff;

		memset(in, 0xa5, sizeof(in));
		rm5_pfcc_set_pfc((u32 *)in, port, &c->cur, c->tx_en, c->rx_en,
				 c->tx_mask, c->rx_mask, true);
		want_set(want, port, c, true);
		if (buf_diff(t->why, sizeof(t->why), in, want, PFCC_BYTES))
			fail(t, "case %u", i);
		else if (in[PFCC_BYTES] != 0xa5)
			fail(t, "wrote past the %u bytes of PFCC", PFCC_BYTES);
	}
	done(t, "PFCC set, per-field masks: masked PFC bits, prio_mask_tx/rx = masks, pptx/pprx/ppan_mask_n = 1, all else 0");
}

static void test_pfcc_set_nomasks(struct mlx5_t *t)
{
	unsigned char in[PFCC_BYTES + 8] ALIGNED, want[PFCC_BYTES];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(set_cases) && !t->why[0]; i++) {
		const struct set_case *c = &set_cases[i];

		memset(in, 0xa5, sizeof(in));
		rm5_pfcc_set_pfc((u32 *)in, 1, &c->cur, c->tx_en, c->rx_en,
				 c->tx_mask, c->rx_mask, false);
		want_set(want, 1, c, false);
		/* prio_mask_tx/rx: the next test's concern. */
		bits_set(in, F(pfcc_reg, prio_mask_tx), 0);
		bits_set(in, F(pfcc_reg, prio_mask_rx), 0);
		if (buf_diff(t->why, sizeof(t->why), in, want, PFCC_BYTES))
			fail(t, "case %u", i);
		else if (in[PFCC_BYTES] != 0xa5)
			fail(t, "wrote past the %u bytes of PFCC", PFCC_BYTES);
	}
	done(t, "PFCC set, no per-field masks: whole PFC masks from cur with the masked bits changed, pptx/pprx from cur, mask_n 0");
}

/*
 * The PRM's prio_mask_tx/rx ("bit per priority indicating if the flow
 * control policy should be updated based on pfctx/pfcrx") are not among
 * the fields the pfcc_mask capability adds (those are the *_mask_n and
 * stall masks): mlx5_set_port_pfc() sets them to ones on every device.
 * A write must set them for every priority whose bit it means to change.
 */
static void test_pfcc_set_nomasks_prio_mask(struct mlx5_t *t)
{
	unsigned char in[PFCC_BYTES] ALIGNED;
	unsigned int i;

	for (i = 0; i < IFC_COUNT(set_cases) && !t->why[0]; i++) {
		const struct set_case *c = &set_cases[i];
		unsigned int mtx, mrx;

		rm5_pfcc_set_pfc((u32 *)in, 1, &c->cur, c->tx_en, c->rx_en,
				 c->tx_mask, c->rx_mask, false);
		mtx = bits_get(in, F(pfcc_reg, prio_mask_tx));
		mrx = bits_get(in, F(pfcc_reg, prio_mask_rx));
		if ((mtx & c->tx_mask) != c->tx_mask || (mrx & c->rx_mask) != c->rx_mask)
			fail(t, "case %u: prio_mask_tx 0x%02x prio_mask_rx 0x%02x for tx_mask 0x%02x rx_mask 0x%02x: firmware leaves those PFC bits as they are",
			     i, mtx, mrx, c->tx_mask, c->rx_mask);
	}
	done(t, "PFCC set, no per-field masks: prio_mask_tx/rx select every priority the write changes");
}

void mlx5_ifc_tests(struct mlx5_t *t)
{
	test_constants(t);
	test_ppcnt_query(t);
	test_ppcnt_decode(t);
	test_pfcc_query(t);
	test_pfcc_decode(t);
	test_pfcc_set_masks(t);
	test_pfcc_set_nomasks(t);
	test_pfcc_set_nomasks_prio_mask(t);
}
