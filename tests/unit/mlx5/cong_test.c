// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/mlx5/cong.c (DCQCN) against linux/mlx5/mlx5_ifc.h and mlx5_ib:
 * its parameter table against mlx5_ib's (names, order, fields, field_select
 * bits, as ifc_layout.py parsed them from mlx5_ib's cong.c and the offsets
 * from mlx5_ifc.h's text), its encoders and decoders bit for bit, and
 * rm5_cong_get/rm5_cong_set against a fake firmware: an exec that decodes
 * the four congestion commands at the parsed offsets, keeps both nodes'
 * parameters and per-priority enables, applies a MODIFY to the fields its
 * field_select selects (every field under a bit: np_cnp_prio_mode and
 * np_cnp_prio share one) and ignores the others, as the PRM has it, and
 * refuses any other bit a request should not carry; and a stats
 * function with mlx5_lag_query_cong_counters()' contract over one or two
 * LAG ports.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../../kernel/backend/backend.h"
#include "../../../kernel/mlx5/cong.h"
#define ROCECTL_MLX5_TEST_INTERNAL
#include "mlx5_test.h"

#define RP		IFC_IB_NODE_RP
#define NP		IFC_IB_NODE_NP
#define NPRIO		8
#define NODE_BYTES	(IFC_SZ_cong_control_roce_ecn_auto / 8)
#define QP_IN		(IFC_SZ_query_cong_params_in / 8)
#define QP_OUT		(IFC_SZ_query_cong_params_out / 8)
#define MP_IN		(IFC_SZ_modify_cong_params_in / 8)
#define MP_OUT		(IFC_SZ_modify_cong_params_out / 8)
#define QS_IN		(IFC_SZ_query_cong_status_in / 8)
#define QS_OUT		(IFC_SZ_query_cong_status_out / 8)
#define QST_IN		(IFC_SZ_query_cong_statistics_in / 8)
#define QST_OUT		(IFC_SZ_query_cong_statistics_out / 8)
/* A node's parameters in QUERY's output and MODIFY's input. */
#define PARAMS_OUT	IFC_OFF_query_cong_params_out__congestion_parameters
#define PARAMS_IN	IFC_OFF_modify_cong_params_in__congestion_parameters
#define NPARAMS		((int)IFC_COUNT(ifc_ib_cc_params))
#define NCNTS		((int)IFC_COUNT(ifc_ib_cong_cnts))

static const char *node_name(unsigned int node)
{
	return node == RP ? "RP" : node == NP ? "NP" : "?";
}

/* MODIFY's field_select of a node: field_select_r_roce_rp or _np. */
static unsigned int sel_off(unsigned int node)
{
	return IFC_OFF_modify_cong_params_in__field_select +
	       (node == RP ? IFC_OFF_field_select_r_roce_rp__field_select_r_roce_rp
			   : IFC_OFF_field_select_r_roce_np__field_select_r_roce_np);
}

static unsigned int sel_w(unsigned int node)
{
	return node == RP ? IFC_W_field_select_r_roce_rp__field_select_r_roce_rp
			  : IFC_W_field_select_r_roce_np__field_select_r_roce_np;
}

static unsigned long long wmask(unsigned int w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

static const struct ifc_ib_cc_param *ib_param(const char *name)
{
	int i;

	for (i = 0; i < NPARAMS; i++)
		if (!strcmp(ifc_ib_cc_params[i].name, name))
			return &ifc_ib_cc_params[i];
	return NULL;
}

static const struct rm5_cong_param *rm5_param(const char *name)
{
	int i;

	for (i = 0; i < rm5_cong_nparams; i++)
		if (!strcmp(rm5_cong_params[i].name, name))
			return &rm5_cong_params[i];
	return NULL;
}

static const struct ifc_field *stat_field(const char *name)
{
	unsigned int i;

	for (i = 0; i < IFC_COUNT(ifc_fields_query_cong_statistics_out); i++)
		if (!strcmp(ifc_fields_query_cong_statistics_out[i].name, name))
			return &ifc_fields_query_cong_statistics_out[i];
	return NULL;
}

/* A value for parameter i that no other parameter has (as far as widths allow). */
static u32 pval(int i, unsigned int width, int salt)
{
	u32 v = 0x01010101u * (u32)(i + 1) ^ 0x5a000000u ^ (u32)salt * 0x00100010u;

	return v & (u32)wmask(width);
}

static void check_stat_table(struct mlx5_t *t);
static void check_modify_cnp_prio(struct mlx5_t *t);

/* ---- constants and tables ---- */

static void test_constants(struct mlx5_t *t)
{
	static const struct { const char *name; size_t c, parsed; } sz[] = {
		{ "query_cong_params_in", MLX5_ST_SZ_BYTES(query_cong_params_in), QP_IN },
		{ "query_cong_params_out", MLX5_ST_SZ_BYTES(query_cong_params_out), QP_OUT },
		{ "modify_cong_params_in", MLX5_ST_SZ_BYTES(modify_cong_params_in), MP_IN },
		{ "modify_cong_params_out", MLX5_ST_SZ_BYTES(modify_cong_params_out), MP_OUT },
		{ "query_cong_status_in", MLX5_ST_SZ_BYTES(query_cong_status_in), QS_IN },
		{ "query_cong_status_out", MLX5_ST_SZ_BYTES(query_cong_status_out), QS_OUT },
		{ "query_cong_statistics_in", MLX5_ST_SZ_BYTES(query_cong_statistics_in), QST_IN },
		{ "query_cong_statistics_out", MLX5_ST_SZ_BYTES(query_cong_statistics_out), QST_OUT },
	};
	unsigned int i;

	if (MLX5_CMD_OP_QUERY_CONG_STATUS != IFC_MLX5_CMD_OP_QUERY_CONG_STATUS ||
	    MLX5_CMD_OP_QUERY_CONG_PARAMS != IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS ||
	    MLX5_CMD_OP_MODIFY_CONG_PARAMS != IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS ||
	    MLX5_CMD_OP_QUERY_CONG_STATISTICS != IFC_MLX5_CMD_OP_QUERY_CONG_STATISTICS ||
	    IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS != 0x824)
		fail(t, "MLX5_CMD_OP_*CONG*: compiler %#x %#x %#x %#x, parsed %#x %#x %#x %#x",
		     MLX5_CMD_OP_QUERY_CONG_STATUS, MLX5_CMD_OP_QUERY_CONG_PARAMS,
		     MLX5_CMD_OP_MODIFY_CONG_PARAMS, MLX5_CMD_OP_QUERY_CONG_STATISTICS,
		     IFC_MLX5_CMD_OP_QUERY_CONG_STATUS, IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS,
		     IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS, IFC_MLX5_CMD_OP_QUERY_CONG_STATISTICS);
	for (i = 0; i < IFC_COUNT(sz); i++)
		if (sz[i].c != sz[i].parsed)
			fail(t, "%s: %zu bytes to the compiler, %zu parsed", sz[i].name,
			     sz[i].c, sz[i].parsed);
	if (RM5_CONG_RP != RP || RM5_CONG_NP != NP)
		fail(t, "RM5_CONG_RP/NP %d/%d, mlx5_ib's MLX5_IB_RROCE_ECN_RP/NP %d/%d",
		     RM5_CONG_RP, RM5_CONG_NP, RP, NP);
	/* cong.c writes field_select as one dword for both nodes. */
	if (sel_off(RP) != sel_off(NP) || sel_w(RP) != 32 || sel_w(NP) != 32 || sel_off(RP) % 32)
		fail(t, "field_select_r_roce_rp at %#x (%u bits), _np at %#x (%u bits)",
		     sel_off(RP), sel_w(RP), sel_off(NP), sel_w(NP));
	done(t, "dcqcn: MLX5_CMD_OP_*CONG* (0x822/0x824/0x825/0x826), the 8 command sizes, RM5_CONG_RP/NP match " IFC_HEADER " and mlx5_ib");
}

static void test_param_table(struct mlx5_t *t)
{
	int i;

	if (rm5_cong_nparams != NPARAMS)
		fail(t, "%d parameters, mlx5_ib has %d", rm5_cong_nparams, NPARAMS);
	for (i = 0; i < rm5_cong_nparams && i < NPARAMS; i++) {
		const struct rm5_cong_param *p = &rm5_cong_params[i];
		const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];
		u32 lo = 0, hi = (u32)wmask(ib->width);

		if (strcmp(p->name, ib->name)) {
			fail(t, "#%d is %s, mlx5_ib's is %s", i, p->name, ib->name);
			break;
		}
		if (p->node != ib->node)
			fail(t, "%s: node %u, mlx5_ib %s (%u)", p->name, p->node,
			     node_name(ib->node), ib->node);
		else if (p->bit_off != ib->off || p->bit_sz != ib->width)
			fail(t, "%s: bits %#x+%u, %s at %#x+%u", p->name, p->bit_off,
			     p->bit_sz, ib->field, ib->off, ib->width);
		else if (p->select != ib->select)
			fail(t, "%s: field_select %#x, mlx5_ib %#x", p->name, p->select, ib->select);
		else if (ib->off % 32 + ib->width > 32)	/* rm5_bits_get/set's premise */
			fail(t, "%s: %s at %#x+%u crosses a dword", p->name, ib->field, ib->off,
			     ib->width);
		else if (p->sets_802p != (ib->also_w != 0))
			fail(t, "%s: sets_802p %d, mlx5_ib sets %u more bits", p->name,
			     p->sets_802p, ib->also_w);
		if (!strcmp(p->name, "rp_min_dec_fac"))
			lo = 1, hi = 100;	/* percent */
		if (p->min != lo || p->max != hi)
			fail(t, "%s: range %u..%u, want %u..%u (%u-bit field)", p->name,
			     p->min, p->max, lo, hi, ib->width);
	}
	check_stat_table(t);
	done(t, "dcqcn: tables = mlx5_ib's (" IFC_IB_SRC "): 20 cc_params' names, order, node, field bits, field_select, ranges = field widths (rp_min_dec_fac 1..100); 4 cong counters at their _high byte, rp_cur_flows");
}

static void check_stat_table(struct mlx5_t *t)
{
	int i, k, seen[IFC_COUNT(ifc_ib_cong_cnts) + 1] = { 0 };
	char n[96];

	if (rm5_cong_nstats != NCNTS + 1)
		fail(t, "%d counters, want mlx5_ib's %d and rp_cur_flows", rm5_cong_nstats, NCNTS);
	for (i = 0; i < rm5_cong_nstats; i++) {
		const struct rm5_cong_stat *s = &rm5_cong_stats[i];
		const struct ifc_field *hi, *lo;

		if (!strcmp(s->name, "rp_cur_flows")) {
			hi = stat_field("rp_cur_flows");
			seen[NCNTS]++;
			if (s->wide || !hi || s->byte_off * 8 != hi->off || hi->width != 32)
				fail(t, "rp_cur_flows: byte %u wide %d, want byte %u, one dword",
				     s->byte_off, s->wide, hi ? hi->off / 8 : 0);
			continue;
		}
		for (k = 0; k < NCNTS; k++)
			if (!strcmp(s->name, ifc_ib_cong_cnts[k]))
				break;
		if (k == NCNTS) {
			fail(t, "%s is none of mlx5_ib's cong counters", s->name);
			continue;
		}
		seen[k]++;
		snprintf(n, sizeof(n), "%s_high", s->name);
		hi = stat_field(n);
		snprintf(n, sizeof(n), "%s_low", s->name);
		lo = stat_field(n);
		/* A big-endian u64 at _high's byte is high:low. */
		if (!hi || !lo || hi->width != 32 || lo->off != hi->off + 32)
			fail(t, "%s: _high/_low not adjacent dwords in the layout", s->name);
		else if (!s->wide || s->byte_off * 8 != hi->off)
			fail(t, "%s: byte %u wide %d, want byte %u (its _high), wide", s->name,
			     s->byte_off, s->wide, hi->off / 8);
	}
	for (k = 0; k <= NCNTS; k++)
		if (seen[k] != 1)
			fail(t, "%s listed %d times", k < NCNTS ? ifc_ib_cong_cnts[k] : "rp_cur_flows",
			     seen[k]);
}

/* ---- bits ---- */

static unsigned int rnd_state = 12345;

static unsigned int rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8 ^ rnd_state << 16;
}

static void test_bits(struct mlx5_t *t)
{
	static const unsigned int dws[] = { 0, 1, 3 };
	unsigned char buf[16] ALIGNED, a[16] ALIGNED, b[16] ALIGNED;
	unsigned int d, w, o, k, i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rnd();
	for (d = 0; d < IFC_COUNT(dws); d++)
		for (w = 1; w <= 32; w++)
			for (o = 0; o + w <= 32; o++) {
				unsigned int off = dws[d] * 32 + o;
				u32 vals[] = { 0, ~0u, 0xa5a5a5a5u, 0x5a5a5a5au, rnd(), rnd() };

				if (rm5_bits_get(buf, off, w) != bits_get(buf, off, w)) {
					fail(t, "get %u+%u: %#x, want %#llx", off, w,
					     rm5_bits_get(buf, off, w), bits_get(buf, off, w));
					goto out;
				}
				for (k = 0; k < IFC_COUNT(vals); k++) {
					memcpy(a, buf, sizeof(a));
					memcpy(b, buf, sizeof(b));
					/* Bits above the width must not leak out. */
					rm5_bits_set(a, off, w, vals[k]);
					bits_set(b, off, w, vals[k] & wmask(w));
					if (buf_diff(t->why, sizeof(t->why), a, b, sizeof(a))) {
						fail(t, "set %u+%u to %#x", off, w, vals[k]);
						goto out;
					}
					if (rm5_bits_get(a, off, w) != (vals[k] & wmask(w))) {
						fail(t, "get after set %u+%u", off, w);
						goto out;
					}
				}
				/* New neighbours: a fresh random buffer each time. */
				for (i = 0; i < sizeof(buf); i++)
					buf[i] = rnd();
			}
out:
	done(t, "dcqcn: rm5_bits_get/rm5_bits_set = MSB-first bits, widths 1..32 at every offset within dwords 0, 1, 3; no neighbour bit disturbed");
}

/* ---- encoders ---- */

static void test_query_params_in(struct mlx5_t *t)
{
	unsigned char in[QP_IN + 8] ALIGNED, want[QP_IN];
	unsigned int node;

	for (node = RP; node <= NP && !t->why[0]; node++) {
		memset(in, 0xa5, sizeof(in));
		rm5_query_cong_params_in((u32 *)in, node);
		memset(want, 0, sizeof(want));
		bits_set(want, F(query_cong_params_in, opcode), IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS);
		bits_set(want, F(query_cong_params_in, cong_protocol), node);
		if (buf_diff(t->why, sizeof(t->why), in, want, QP_IN))
			fail(t, "%s", node_name(node));
		else if (in[QP_IN] != 0xa5)
			fail(t, "wrote past the %u bytes", QP_IN);
	}
	done(t, "dcqcn: QUERY_CONG_PARAMS in: opcode 0x824, cong_protocol 1 (RP) / 2 (NP), all else 0");
}

/* The MODIFY a set of (ib param, value) pairs of one node must be. */
static void want_modify(unsigned char *want, unsigned int node,
			const struct ifc_ib_cc_param *const *ps, const u32 *vs, int n)
{
	u32 sel = 0;
	int i;

	memset(want, 0, MP_IN);
	bits_set(want, F(modify_cong_params_in, opcode), IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS);
	bits_set(want, F(modify_cong_params_in, cong_protocol), node);
	for (i = 0; i < n; i++) {
		sel |= ps[i]->select;
		bits_set(want, PARAMS_IN + ps[i]->off, ps[i]->width, vs[i] & wmask(ps[i]->width));
		if (ps[i]->also_w)
			bits_set(want, PARAMS_IN + ps[i]->also_off, ps[i]->also_w, ps[i]->also_val);
	}
	bits_set(want, sel_off(node), sel_w(node), sel);
}

static int modify_encode(struct mlx5_t *t, unsigned int node, const char *const *names,
			 const u32 *vs, int n, const char *what)
{
	const struct ifc_ib_cc_param *ps[32];
	unsigned char in[MP_IN + 8] ALIGNED, want[MP_IN];
	int i;

	memset(in, 0xa5, sizeof(in));
	rm5_modify_cong_params_in((u32 *)in, node);
	for (i = 0; i < n; i++) {
		const struct rm5_cong_param *p = rm5_param(names[i]);

		ps[i] = ib_param(names[i]);
		if (!p || !ps[i]) {
			fail(t, "%s: no parameter %s", what, names[i]);
			return 1;
		}
		rm5_modify_cong_param_encode((u32 *)in, p, vs[i]);
	}
	want_modify(want, node, ps, vs, n);
	if (buf_diff(t->why, sizeof(t->why), in, want, MP_IN)) {
		char why[sizeof(t->why)];

		snprintf(why, sizeof(why), "%s", t->why);
		t->why[0] = 0;
		fail(t, "%s: %s", what, why);
		return 1;
	}
	if (in[MP_IN] != 0xa5) {
		fail(t, "%s: wrote past the %u bytes", what, MP_IN);
		return 1;
	}
	return 0;
}

static void test_modify_in(struct mlx5_t *t)
{
	const char *names[32];
	u32 vs[32];
	unsigned int node;
	int i, n, salt;

	/* Each alone; values with bits above the width (not to leak). */
	for (i = 0; i < NPARAMS; i++) {
		const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];

		for (salt = 0; salt < 3; salt++) {
			names[0] = ib->name;
			vs[0] = salt == 2 ? ~0u : pval(i, 32, salt);
			if (modify_encode(t, ib->node, names, vs, 1, ib->name))
				goto out;
		}
	}
	/* All of a node's together (NP: np_cnp_prio_mode with np_cnp_prio excluded). */
	for (node = RP; node <= NP; node++)
		for (salt = 0; salt < 2; salt++) {
			n = 0;
			for (i = 0; i < NPARAMS; i++) {
				const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];

				if (ib->node != node || (salt && !strcmp(ib->name, "np_cnp_prio_mode")) ||
				    (!salt && !strcmp(ib->name, "np_cnp_prio")))
					continue;
				names[n] = ib->name;
				vs[n++] = pval(i, ib->width, salt + 7);
			}
			if (modify_encode(t, node, names, vs, n, node == RP ? "all of RP" : "all of NP"))
				goto out;
		}
	check_modify_cnp_prio(t);
out:
	done(t, "dcqcn: MODIFY_CONG_PARAMS in: opcode 0x825, cong_protocol, field_select = exactly the params' bits, each value at its field, all else 0; np_cnp_prio forces cnp_prio_mode 0");
}

/* np_cnp_prio is cnp_802p_prio under cnp_prio_mode's select bit: the mode goes to 0. */
static void check_modify_cnp_prio(struct mlx5_t *t)
{
	const struct rm5_cong_param *prio = rm5_param("np_cnp_prio");
	const struct rm5_cong_param *mode = rm5_param("np_cnp_prio_mode");
	unsigned char in[MP_IN] ALIGNED;
	unsigned int v;

	if (!prio || !mode) {
		fail(t, "no np_cnp_prio / np_cnp_prio_mode");
		return;
	}
	for (v = 0; v < 8 && !t->why[0]; v++) {
		unsigned int m, p, sel;

		rm5_modify_cong_params_in((u32 *)in, NP);
		/* A 1 already in the request: the encoder must clear it itself. */
		rm5_modify_cong_param_encode((u32 *)in, mode, 1);
		rm5_modify_cong_param_encode((u32 *)in, prio, v);
		m = bits_get(in, PARAMS_IN + IFC_OFF_cong_control_r_roce_ecn_np__cnp_prio_mode,
			     IFC_W_cong_control_r_roce_ecn_np__cnp_prio_mode);
		p = bits_get(in, PARAMS_IN + IFC_OFF_cong_control_r_roce_ecn_np__cnp_802p_prio,
			     IFC_W_cong_control_r_roce_ecn_np__cnp_802p_prio);
		sel = bits_get(in, sel_off(NP), sel_w(NP));
		if (m != 0 || p != v || sel != ib_param("np_cnp_prio_mode")->select)
			fail(t, "np_cnp_prio %u: cnp_prio_mode %u cnp_802p_prio %u field_select %#x, want 0 %u %#x",
			     v, m, p, sel, v, ib_param("np_cnp_prio_mode")->select);
	}
}

static void test_query_status_in(struct mlx5_t *t)
{
	static const u8 prios[] = { 0, 1, 3, 5, 7, 15 };
	unsigned char in[QS_IN + 8] ALIGNED, want[QS_IN];
	unsigned int node, i;

	for (node = RP; node <= NP; node++)
		for (i = 0; i < IFC_COUNT(prios) && !t->why[0]; i++) {
			memset(in, 0xa5, sizeof(in));
			rm5_query_cong_status_in((u32 *)in, node, prios[i]);
			memset(want, 0, sizeof(want));
			bits_set(want, F(query_cong_status_in, opcode), IFC_MLX5_CMD_OP_QUERY_CONG_STATUS);
			bits_set(want, F(query_cong_status_in, priority), prios[i]);
			bits_set(want, F(query_cong_status_in, cong_protocol), node);
			if (buf_diff(t->why, sizeof(t->why), in, want, QS_IN))
				fail(t, "%s prio %u", node_name(node), prios[i]);
			else if (in[QS_IN] != 0xa5)
				fail(t, "wrote past the %u bytes", QS_IN);
		}
	done(t, "dcqcn: QUERY_CONG_STATUS in: opcode 0x822, priority, cong_protocol at their bits, all else 0");
}

/* ---- decoders ---- */

static void test_decode(struct mlx5_t *t)
{
	unsigned char out[QP_OUT] ALIGNED, sout[QS_OUT] ALIGNED;
	unsigned int node, fill;
	int i;

	for (fill = 0; fill < 2; fill++)
		for (node = RP; node <= NP; node++) {
			u32 want[32];

			/* The rest of the output: all zeros, or all ones. */
			memset(out, fill ? 0xff : 0, sizeof(out));
			for (i = 0; i < NPARAMS; i++) {
				const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];

				if (ib->node != node)
					continue;
				want[i] = pval(i, ib->width, 3);
				if (ib->width == 1)
					want[i] = 1;
				if (fill)
					want[i] = ~want[i] & (u32)wmask(ib->width);
				bits_set(out, PARAMS_OUT + ib->off, ib->width, want[i]);
			}
			for (i = 0; i < NPARAMS; i++) {
				const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];
				const struct rm5_cong_param *p = rm5_param(ib->name);
				u32 got;

				if (ib->node != node)
					continue;
				if (!p) {
					fail(t, "no parameter %s", ib->name);
					break;
				}
				got = rm5_cong_param_decode((const u32 *)out, p);
				if (got != want[i])
					fail(t, "%s (rest %s): %#x, want %#x", ib->name,
					     fill ? "ones" : "zeros", got, want[i]);
			}
		}
	for (fill = 0; fill < 2; fill++) {
		/* enable alone differs from every other bit (tag_enable, status...). */
		memset(sout, fill ? 0 : 0xff, sizeof(sout));
		bits_set(sout, F(query_cong_status_out, enable), fill);
		if (rm5_cong_status_decode((const u32 *)sout) != (bool)fill)
			fail(t, "status: enable %u with every other bit %u decoded as %d", fill,
			     !fill, rm5_cong_status_decode((const u32 *)sout));
	}
	done(t, "dcqcn: decode: each of the 20 params from its own field of QUERY_CONG_PARAMS out (rest zeros or ones); QUERY_CONG_STATUS enable bit alone");
}

/* ---- fake firmware ---- */

enum { K_EXEC, K_STATS };

struct ccall {
	int kind;
	unsigned int opcode, proto, prio;
	u32 select;
};

struct cfw {
	unsigned char params[NP + 1][NODE_BYTES];	/* each node's struct */
	bool enabled[NP + 1][NPRIO];
	unsigned long long ctr[2][IFC_COUNT(ifc_ib_cong_cnts)];	/* per LAG port */
	u32 cur_flows[2];
	int lag_ports;
	unsigned long long fail_calls;		/* bit n-1: call n (exec or stats) fails */
	int fail_err;
	int ncalls, nmodify;
	struct ccall calls[64];
	char error[256];
};

static void __attribute__((format(printf, 3, 4)))
fw_error(struct cfw *fw, int n, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (fw->error[0])
		return;
	len = snprintf(fw->error, sizeof(fw->error), "call %d: ", n);
	va_start(ap, fmt);
	vsnprintf(fw->error + len, sizeof(fw->error) - len, fmt, ap);
	va_end(ap);
}

static bool valid_node(unsigned int node)
{
	return node == RP || node == NP;
}

/* Nothing but the fields cleared in req (a copy) may be set. */
static bool only_zeros(const unsigned char *req, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (req[i])
			return false;
	return true;
}

/* QUERY_CONG_STATISTICS out of one LAG port. */
static void fw_stats_out(const struct cfw *fw, int port, unsigned char *out)
{
	char n[96];
	int k;

	memset(out, 0, QST_OUT);
	bits_set(out, F(query_cong_statistics_out, rp_cur_flows), fw->cur_flows[port]);
	/* Decoys around the counters. */
	bits_set(out, F(query_cong_statistics_out, sum_flows), 0xdead0001 + port);
	bits_set(out, F(query_cong_statistics_out, time_stamp_high), 0xdead0002 + port);
	bits_set(out, F(query_cong_statistics_out, time_stamp_low), 0xdead0003 + port);
	bits_set(out, F(query_cong_statistics_out, accumulators_period), 0xdead0004 + port);
	for (k = 0; k < NCNTS; k++) {
		const struct ifc_field *hi, *lo;

		snprintf(n, sizeof(n), "%s_high", ifc_ib_cong_cnts[k]);
		hi = stat_field(n);
		snprintf(n, sizeof(n), "%s_low", ifc_ib_cong_cnts[k]);
		lo = stat_field(n);
		bits_set(out, hi->off, 32, fw->ctr[port][k] >> 32);
		bits_set(out, lo->off, 32, fw->ctr[port][k] & 0xffffffff);
	}
}

static int fw_modify(struct cfw *fw, struct ccall *c, const unsigned char *in, int n)
{
	unsigned char req[MP_IN];
	u32 known = 0;
	int i;

	/*
	 * The header: opcode, protocol, field_select and nothing else. The
	 * parameters: fields not selected are ignored (so a MODIFY may carry
	 * the node's current values in them).
	 */
	memcpy(req, in, MP_IN);
	c->select = bits_get(in, sel_off(c->proto), sel_w(c->proto));
	bits_set(req, F(modify_cong_params_in, opcode), 0);
	bits_set(req, F(modify_cong_params_in, cong_protocol), 0);
	bits_set(req, sel_off(c->proto), sel_w(c->proto), 0);
	memset(req + PARAMS_IN / 8, 0, NODE_BYTES);
	for (i = 0; i < NPARAMS; i++)
		if (ifc_ib_cc_params[i].node == c->proto)
			known |= ifc_ib_cc_params[i].select;
	if (!c->select || (c->select & ~known)) {
		fw_error(fw, n, "MODIFY %s field_select %#x (known %#x)", node_name(c->proto),
			 c->select, known);
		return -EINVAL;
	}
	if (!only_zeros(req, MP_IN)) {
		fw_error(fw, n, "MODIFY %s: bits set in the header besides opcode, protocol, field_select",
			 node_name(c->proto));
		return -EINVAL;
	}
	/* Every field under a selected bit takes the request's value. */
	for (i = 0; i < NPARAMS; i++) {
		const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];

		if (ib->node == c->proto && (c->select & ib->select))
			bits_set(fw->params[c->proto], ib->off, ib->width,
				 bits_get(in, PARAMS_IN + ib->off, ib->width));
	}
	fw->nmodify++;
	return 0;
}

static int fw_exec(void *ctx, void *inv, int inlen, void *outv, int outlen)
{
	struct cfw *fw = ctx;
	const unsigned char *in = inv;
	unsigned char *out = outv, req[QST_IN];
	int n = ++fw->ncalls;
	struct ccall *c = &fw->calls[n <= 64 ? n - 1 : 63];

	memset(c, 0, sizeof(*c));
	c->kind = K_EXEC;
	/* Every command starts with the opcode and op_mod of the others. */
	c->opcode = bits_get(in, F(query_cong_params_in, opcode));
	if (bits_get(in, F(query_cong_params_in, op_mod))) {
		fw_error(fw, n, "op_mod not 0");
		return -EINVAL;
	}
	switch (c->opcode) {
	case IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS:
		if (inlen != QP_IN || outlen != QP_OUT)
			goto len;
		c->proto = bits_get(in, F(query_cong_params_in, cong_protocol));
		memcpy(req, in, QP_IN);
		bits_set(req, F(query_cong_params_in, opcode), 0);
		bits_set(req, F(query_cong_params_in, cong_protocol), 0);
		break;
	case IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS:
		if (inlen != MP_IN || outlen != MP_OUT)
			goto len;
		c->proto = bits_get(in, F(modify_cong_params_in, cong_protocol));
		memset(req, 0, sizeof(req));
		break;
	case IFC_MLX5_CMD_OP_QUERY_CONG_STATUS:
		if (inlen != QS_IN || outlen != QS_OUT)
			goto len;
		c->proto = bits_get(in, F(query_cong_status_in, cong_protocol));
		c->prio = bits_get(in, F(query_cong_status_in, priority));
		memcpy(req, in, QS_IN);
		bits_set(req, F(query_cong_status_in, opcode), 0);
		bits_set(req, F(query_cong_status_in, cong_protocol), 0);
		bits_set(req, F(query_cong_status_in, priority), 0);
		if (c->prio >= NPRIO) {
			fw_error(fw, n, "QUERY_CONG_STATUS priority %u", c->prio);
			return -EINVAL;
		}
		break;
	case IFC_MLX5_CMD_OP_QUERY_CONG_STATISTICS:
		if (inlen != QST_IN || outlen != QST_OUT)
			goto len;
		/* No clear: that would reset mlx5_ib's counters too. */
		memcpy(req, in, QST_IN);
		bits_set(req, F(query_cong_statistics_in, opcode), 0);
		break;
	default:
		fw_error(fw, n, "opcode %#x", c->opcode);
		return -EINVAL;
	}
	if (c->opcode != IFC_MLX5_CMD_OP_QUERY_CONG_STATISTICS && !valid_node(c->proto)) {
		fw_error(fw, n, "opcode %#x cong_protocol %u", c->opcode, c->proto);
		return -EINVAL;
	}
	if (!only_zeros(req, c->opcode == IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS ? sizeof(req) : (size_t)inlen)) {
		fw_error(fw, n, "opcode %#x: bits set besides opcode, protocol, priority", c->opcode);
		return -EINVAL;
	}
	if (n <= 64 && (fw->fail_calls >> (n - 1) & 1)) {
		memset(out, 0xee, outlen);	/* not to be used */
		return fw->fail_err;
	}
	memset(out, 0, outlen);
	switch (c->opcode) {
	case IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS:
		memcpy(out + PARAMS_OUT / 8, fw->params[c->proto], NODE_BYTES);
		return 0;
	case IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS:
		return fw_modify(fw, c, in, n);
	case IFC_MLX5_CMD_OP_QUERY_CONG_STATUS:
		bits_set(out, F(query_cong_status_out, enable), fw->enabled[c->proto][c->prio]);
		/* A decoy next to it. */
		bits_set(out, F(query_cong_status_out, tag_enable), !fw->enabled[c->proto][c->prio]);
		return 0;
	default:
		/* This function's own port (LAG port 0). */
		fw_stats_out(fw, 0, out);
		return 0;
	}
len:
	fw_error(fw, n, "opcode %#x: inlen %d outlen %d", c->opcode, inlen, outlen);
	return -EINVAL;
}

/* mlx5_lag_query_cong_counters(): values[j] = sum over the LAG's ports of the
 * big-endian u64 at byte offsets[j] of each port's QUERY_CONG_STATISTICS. */
static int fw_stats(void *ctx, u64 *values, int num, size_t *offsets)
{
	struct cfw *fw = ctx;
	unsigned char out[QST_OUT];
	int n = ++fw->ncalls, p, j;

	memset(&fw->calls[n <= 64 ? n - 1 : 63], 0, sizeof(fw->calls[0]));
	fw->calls[n <= 64 ? n - 1 : 63].kind = K_STATS;
	memset(values, 0, sizeof(*values) * num);
	if (n <= 64 && (fw->fail_calls >> (n - 1) & 1))
		return fw->fail_err;
	for (p = 0; p < fw->lag_ports; p++) {
		fw_stats_out(fw, p, out);
		for (j = 0; j < num; j++) {
			__be64 be;

			if (offsets[j] + 8 > QST_OUT) {
				fw_error(fw, n, "stats offset %zu past the %u bytes", offsets[j], QST_OUT);
				return -EINVAL;
			}
			memcpy(&be, out + offsets[j], 8);
			values[j] += be64toh(be);
		}
	}
	return 0;
}

static void fw_init(struct cfw *fw, struct rm5_cong_dev *d, int lag_ports)
{
	static const u8 rp_en = 0x29, np_en = 0xc4;
	static struct rm5_cong_buf buf;
	int i, p, k;

	memset(fw, 0, sizeof(*fw));
	/* Distinct values in every parameter; reserved bits 0, as firmware has them. */
	for (i = 0; i < NPARAMS; i++) {
		const struct ifc_ib_cc_param *ib = &ifc_ib_cc_params[i];

		bits_set(fw->params[ib->node], ib->off, ib->width,
			 ib->width == 1 ? (unsigned int)(i & 1) : pval(i, ib->width, 11));
	}
	/* A CNP priority mode of 1 (np_cnp_prio must clear it). */
	bits_set(fw->params[NP], IFC_OFF_cong_control_r_roce_ecn_np__cnp_prio_mode,
		 IFC_W_cong_control_r_roce_ecn_np__cnp_prio_mode, 1);
	for (p = 0; p < NPRIO; p++) {
		fw->enabled[RP][p] = rp_en >> p & 1;
		fw->enabled[NP][p] = np_en >> p & 1;
	}
	/* Halves that differ; the low halves carry when two ports are summed. */
	for (p = 0; p < 2; p++) {
		for (k = 0; k < NCNTS; k++)
			fw->ctr[p][k] = (0x0000012300000000ULL + ((unsigned long long)k << 40) +
					 ((unsigned long long)p << 36)) |
					(p ? 0x00000020u + k : 0xfffffff0u - k);
		fw->cur_flows[p] = 0x1000 + 0x111 * (p + 1);
	}
	fw->lag_ports = lag_ports;
	memset(d, 0, sizeof(*d));
	d->buf = &buf;
	d->exec = fw_exec;
	d->stats = fw_stats;
	d->ctx = fw;
	d->query_allowed = true;
	d->modify_allowed = true;
}

static u32 fw_param(const struct cfw *fw, const struct ifc_ib_cc_param *ib)
{
	return bits_get(fw->params[ib->node], ib->off, ib->width);
}

/* ---- rm5_cong_get ---- */

#define NGET_CALLS	(2 + 2 * NPRIO + 2)

static void test_get_params(struct mlx5_t *t)
{
	struct rocectl_cong_info c;
	struct rm5_cong_dev d;
	struct cfw fw;
	int err, i, q[NP + 1] = { 0 };

	fw_init(&fw, &d, 2);
	memset(&c, 0, sizeof(c));	/* rocectl.ko kzalloc()s it */
	err = rm5_cong_get(&d, &c);
	if (err || fw.error[0])
		fail(t, "rm5_cong_get %d %s", err, fw.error);
	else if (c.nparams != NPARAMS)
		fail(t, "%d params, want %d", c.nparams, NPARAMS);
	for (i = 0; !t->why[0] && i < NPARAMS; i++) {
		const struct ifc_ib_cc_param *ib = ib_param(c.params[i].name);

		if (c.params[i].name != rm5_cong_params[i].name || !ib)
			fail(t, "#%d is %s, want %s (the table's order)", i, c.params[i].name,
			     rm5_cong_params[i].name);
		else if (c.params[i].value != fw_param(&fw, ib))
			fail(t, "%s = %#llx, firmware has %#x", ib->name,
			     (unsigned long long)c.params[i].value, fw_param(&fw, ib));
	}
	for (i = 0; i < fw.ncalls && i < 64; i++)
		if (fw.calls[i].kind == K_EXEC && fw.calls[i].opcode == IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS)
			q[fw.calls[i].proto]++;
	if (!t->why[0] && (q[RP] != 1 || q[NP] != 1 || fw.nmodify))
		fail(t, "QUERY_CONG_PARAMS RP %d NP %d times, %d MODIFY; want 1, 1, 0", q[RP], q[NP],
		     fw.nmodify);
	done(t, "dcqcn: get: the 20 params in the table's order with the firmware's values, one QUERY_CONG_PARAMS per node");
}

static void test_get_status_stats(struct mlx5_t *t)
{
	int lag;

	for (lag = 1; lag <= 2 && !t->why[0]; lag++) {
		int st[NP + 1][NPRIO] = { { 0 } }, nstats = 0, nqst = 0, i, p, k;
		struct rocectl_cong_info c;
		struct rm5_cong_dev d;
		struct cfw fw;
		u8 want[NP + 1] = { 0 };
		int err;

		fw_init(&fw, &d, lag);
		memset(&c, 0, sizeof(c));
		err = rm5_cong_get(&d, &c);
		if (err || fw.error[0]) {
			fail(t, "rm5_cong_get %d %s", err, fw.error);
			break;
		}
		for (i = 0; i < fw.ncalls && i < 64; i++) {
			const struct ccall *cl = &fw.calls[i];

			if (cl->kind == K_STATS)
				nstats++;
			else if (cl->opcode == IFC_MLX5_CMD_OP_QUERY_CONG_STATUS)
				st[cl->proto][cl->prio]++;
			else if (cl->opcode == IFC_MLX5_CMD_OP_QUERY_CONG_STATISTICS)
				nqst++;
		}
		for (p = 0; p < NPRIO; p++) {
			want[RP] |= fw.enabled[RP][p] << p;
			want[NP] |= fw.enabled[NP][p] << p;
			if (st[RP][p] != 1 || st[NP][p] != 1)
				fail(t, "prio %d: QUERY_CONG_STATUS RP %d NP %d times", p,
				     st[RP][p], st[NP][p]);
		}
		if (fw.ncalls != NGET_CALLS || nstats != 1 || nqst != 1)
			fail(t, "%d commands, %d stats calls, %d QUERY_CONG_STATISTICS; want %d, 1, 1",
			     fw.ncalls, nstats, nqst, NGET_CALLS);
		if (!c.status_known || c.rp_enabled != want[RP] || c.np_enabled != want[NP])
			fail(t, "status_known %d rp_enabled %#x np_enabled %#x, want 1 %#x %#x",
			     c.status_known, c.rp_enabled, c.np_enabled, want[RP], want[NP]);
		if (c.nstats != NCNTS + 1) {
			fail(t, "%d counters, want %d", c.nstats, NCNTS + 1);
			break;
		}
		for (i = 0; i < c.nstats; i++) {
			unsigned long long w = 0;

			if (!c.stats[i].name) {
				fail(t, "counter %d has no name", i);
				break;
			}
			if (!strcmp(c.stats[i].name, "rp_cur_flows")) {
				w = fw.cur_flows[0];	/* this function's, not the LAG's */
			} else {
				for (k = 0; k < NCNTS; k++)
					if (!strcmp(c.stats[i].name, ifc_ib_cong_cnts[k]))
						break;
				if (k == NCNTS) {
					fail(t, "counter %s", c.stats[i].name);
					break;
				}
				for (p = 0; p < lag; p++)
					w += fw.ctr[p][k];
			}
			if (c.stats[i].value != w)
				fail(t, "%d LAG port(s): %s = %#llx, want %#llx", lag, c.stats[i].name,
				     (unsigned long long)c.stats[i].value, w);
		}
	}
	done(t, "dcqcn: get: RP/NP enable per priority (16 QUERY_CONG_STATUS); 4 64-bit counters summed over 1 and 2 LAG ports, rp_cur_flows from the direct query");
}

static const int errs[] = { -EIO, -ETIMEDOUT, -EREMOTEIO, -ENOMEM };

static void test_get_errors(struct mlx5_t *t)
{
	struct rocectl_cong_info c;
	struct rm5_cong_dev d;
	struct cfw fw;
	unsigned int e;
	int n, err;

	fw_init(&fw, &d, 2);
	d.query_allowed = false;
	memset(&c, 0, sizeof(c));
	err = rm5_cong_get(&d, &c);
	if (err != -EOPNOTSUPP || fw.ncalls)
		fail(t, "without cc_query_allowed: %d after %d commands, want %d and none", err,
		     fw.ncalls, -EOPNOTSUPP);
	for (n = 1; n <= NGET_CALLS && !t->why[0]; n++)
		for (e = 0; e < IFC_COUNT(errs); e++) {
			fw_init(&fw, &d, 2);
			fw.fail_calls = 1ULL << (n - 1);
			fw.fail_err = errs[e];
			memset(&c, 0, sizeof(c));
			err = rm5_cong_get(&d, &c);
			if (err != errs[e] || fw.ncalls != n || fw.nmodify || fw.error[0])
				fail(t, "command %d failing with %d: rm5_cong_get %d after %d commands %s",
				     n, errs[e], err, fw.ncalls, fw.error);
		}
	done(t, "dcqcn: get: without cc_query_allowed -EOPNOTSUPP and no command; a failure of any of the 20 commands is returned at once");
}

/* ---- rm5_cong_set ---- */

struct setv {
	const char *name;
	u64 value;
};

static int do_set(struct rm5_cong_dev *d, const struct setv *sv, int n, int *bad, int *why)
{
	struct rocectl_cong_value v[16];
	int i;

	for (i = 0; i < n; i++) {
		v[i].name = sv[i].name;
		v[i].value = sv[i].value;
	}
	*bad = -7;
	*why = -7;
	return rm5_cong_set(d, v, n, bad, why);
}

static void test_set(struct mlx5_t *t)
{
	static const struct {
		const char *what;
		struct setv v[8];
		int n;
	} cases[] = {
		{ "RP and NP", { { "rp_ai_rate", 0x11223344 }, { "np_cnp_dscp", 46 },
				 { "rp_min_dec_fac", 50 }, { "np_min_time_between_cnps", 4 },
				 { "rp_clamp_tgt_rate", 1 }, { "rp_gd", 11 } }, 6 },
		{ "RP only", { { "rp_hai_rate", 0x100 }, { "rp_time_reset", 0xffffffff },
			       { "rp_clamp_tgt_rate_ati", 0 } }, 3 },
		{ "NP only, np_cnp_prio", { { "np_cnp_prio", 5 } }, 1 },
		{ "NP only", { { "np_cnp_dscp", 0 }, { "np_min_time_between_cnps", 0xffffffff } }, 2 },
		{ "bounds", { { "rp_min_dec_fac", 1 }, { "np_cnp_dscp", 63 }, { "np_cnp_prio", 7 },
			      { "rp_threshold", 0 } }, 4 },
		{ "bounds", { { "rp_min_dec_fac", 100 }, { "rp_rate_to_set_on_first_cnp", 0xffffffff },
			      { "np_cnp_prio", 0 } }, 3 },
		{ "nothing", { { NULL, 0 } }, 0 },
	};
	unsigned int ci;

	for (ci = 0; ci < IFC_COUNT(cases) && !t->why[0]; ci++) {
		unsigned char want[NP + 1][NODE_BYTES];
		u32 sel[NP + 1] = { 0 };
		int mods[NP + 1] = { 0 }, nodes = 0, i, bad, why, err;
		struct rm5_cong_dev d;
		struct cfw fw;
		bool en_same;
		unsigned int node;

		fw_init(&fw, &d, 1);
		memcpy(want, fw.params, sizeof(want));
		for (i = 0; i < cases[ci].n; i++) {
			const struct ifc_ib_cc_param *ib = ib_param(cases[ci].v[i].name);

			bits_set(want[ib->node], ib->off, ib->width, cases[ci].v[i].value);
			if (ib->also_w)
				bits_set(want[ib->node], ib->also_off, ib->also_w, ib->also_val);
			if (!sel[ib->node])
				nodes++;
			sel[ib->node] |= ib->select;
		}
		err = do_set(&d, cases[ci].v, cases[ci].n, &bad, &why);
		if (err || fw.error[0]) {
			fail(t, "%s: rm5_cong_set %d (why %d, bad %d) %s", cases[ci].what, err, why,
			     bad, fw.error);
			break;
		}
		for (i = 0; i < fw.ncalls && i < 64; i++) {
			const struct ccall *c = &fw.calls[i];

			/* Reads (of the parameters to carry over) may come first. */
			if (c->kind == K_EXEC && c->opcode == IFC_MLX5_CMD_OP_QUERY_CONG_PARAMS) {
				if (mods[RP] || mods[NP])
					fail(t, "%s: command %d reads after a MODIFY", cases[ci].what, i + 1);
				continue;
			}
			if (c->kind != K_EXEC || c->opcode != IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS) {
				fail(t, "%s: command %d is neither QUERY_CONG_PARAMS nor MODIFY_CONG_PARAMS",
				     cases[ci].what, i + 1);
				break;
			}
			mods[c->proto]++;
			if (c->select != sel[c->proto])
				fail(t, "%s: MODIFY %s field_select %#x, want %#x", cases[ci].what,
				     node_name(c->proto), c->select, sel[c->proto]);
		}
		if (fw.nmodify != nodes || mods[RP] != !!sel[RP] || mods[NP] != !!sel[NP])
			fail(t, "%s: MODIFY RP %d NP %d times; want once per node involved (%d)",
			     cases[ci].what, mods[RP], mods[NP], nodes);
		for (node = RP; node <= NP && !t->why[0]; node++) {
			char w[256];

			if (buf_diff(w, sizeof(w), fw.params[node], want[node], NODE_BYTES))
				fail(t, "%s: %s parameters after: %s", cases[ci].what,
				     node_name(node), w);
		}
		en_same = true;
		for (i = 0; i < NPRIO; i++)
			en_same &= fw.enabled[RP][i] == (0x29 >> i & 1) &&
				   fw.enabled[NP][i] == (0xc4 >> i & 1);
		if (!en_same)
			fail(t, "%s: enables changed", cases[ci].what);
	}
	done(t, "dcqcn: set: one MODIFY per node involved with exactly its params' bits (reads only besides); the values land, every other field stays");
}

/*
 * np_cnp_prio_mode shares field_select bit 4 with cnp_802p_prio (mlx5_ib's
 * np_cnp_prio is written under MLX5_IB_NP_CNP_PRIO_MODE_ATTR: the firmware
 * takes cnp_802p_prio under that bit). A MODIFY of the mode alone carries
 * cnp_802p_prio too, so it must carry the current one, or the CNP priority
 * set before is lost: mode 0 ("use cnp_802p_prio") would then send CNPs
 * with priority 0.
 */
static void test_set_prio_mode(struct mlx5_t *t)
{
	const struct ifc_ib_cc_param *prio = ib_param("np_cnp_prio");
	const struct ifc_ib_cc_param *mode = ib_param("np_cnp_prio_mode");
	unsigned int m;

	for (m = 0; m < 2 && !t->why[0]; m++) {
		const struct setv v[] = { { "np_cnp_prio_mode", m } };
		struct rm5_cong_dev d;
		struct cfw fw;
		int err, bad, why;

		fw_init(&fw, &d, 1);
		bits_set(fw.params[NP], prio->off, prio->width, 5);
		bits_set(fw.params[NP], mode->off, mode->width, !m);
		err = do_set(&d, v, 1, &bad, &why);
		if (err || fw.error[0])
			fail(t, "np_cnp_prio_mode %u: rm5_cong_set %d %s", m, err, fw.error);
		else if (fw_param(&fw, mode) != m || fw_param(&fw, prio) != 5)
			fail(t, "np_cnp_prio_mode %u over np_cnp_prio 5: firmware now has mode %u np_cnp_prio %u: the MODIFY wrote its cnp_802p_prio under the same select bit",
			     m, fw_param(&fw, mode), fw_param(&fw, prio));
	}
	done(t, "dcqcn: set: np_cnp_prio_mode alone (0 or 1) keeps np_cnp_prio, which its select bit also writes");
}

static void test_set_refused(struct mlx5_t *t)
{
	static const struct {
		const char *what;
		struct setv v[4];
		int n, err, bad, why;
		bool nomodify, noquery;
	} cases[] = {
		{ "unknown", { { "rp_ai_rate", 1 }, { "np_cnp_dscp", 1 }, { "rp_ai_rat", 1 } }, 3,
		  -EINVAL, 2, ROCECTL_CONG_WHY_UNKNOWN, false, false },
		{ "unknown first", { { "cnp_dscp", 1 }, { "rp_ai_rate", 1 } }, 2,
		  -EINVAL, 0, ROCECTL_CONG_WHY_UNKNOWN, false, false },
		{ "rp_min_dec_fac 0", { { "rp_ai_rate", 1 }, { "rp_min_dec_fac", 0 } }, 2,
		  -ERANGE, 1, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "rp_min_dec_fac 101", { { "np_cnp_dscp", 1 }, { "rp_min_dec_fac", 101 } }, 2,
		  -ERANGE, 1, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "np_cnp_dscp 64", { { "rp_ai_rate", 1 }, { "np_cnp_dscp", 64 } }, 2,
		  -ERANGE, 1, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "np_cnp_prio 8", { { "rp_ai_rate", 1 }, { "np_cnp_prio", 8 } }, 2,
		  -ERANGE, 1, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "rp_clamp_tgt_rate 2", { { "rp_clamp_tgt_rate", 2 } }, 1,
		  -ERANGE, 0, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "rp_ai_rate 2^32", { { "np_cnp_prio", 1 }, { "rp_ai_rate", 1ULL << 32 } }, 2,
		  -ERANGE, 1, ROCECTL_CONG_WHY_RANGE, false, false },
		{ "np_cnp_prio + np_cnp_prio_mode", { { "rp_ai_rate", 1 }, { "np_cnp_prio", 3 },
						      { "np_cnp_prio_mode", 0 } }, 3,
		  -EINVAL, 2, ROCECTL_CONG_WHY_CONFLICT, false, false },
		{ "np_cnp_prio_mode + np_cnp_prio", { { "np_cnp_prio_mode", 1 }, { "np_cnp_prio", 3 } }, 2,
		  -EINVAL, 1, ROCECTL_CONG_WHY_CONFLICT, false, false },
		{ "no cc_modify_allowed", { { "rp_ai_rate", 1 }, { "np_cnp_dscp", 1 } }, 2,
		  -EOPNOTSUPP, -1, ROCECTL_CONG_WHY_NOT_ALLOWED, true, false },
		/* rm5_cong_set reads the nodes before it writes them. */
		{ "no cc_query_allowed", { { "rp_ai_rate", 1 }, { "np_cnp_dscp", 1 } }, 2,
		  -EOPNOTSUPP, -1, ROCECTL_CONG_WHY_NOT_ALLOWED, false, true },
	};
	unsigned int ci;

	for (ci = 0; ci < IFC_COUNT(cases); ci++) {
		unsigned char before[NP + 1][NODE_BYTES];
		struct rm5_cong_dev d;
		struct cfw fw;
		int err, bad, why;

		fw_init(&fw, &d, 1);
		d.modify_allowed = !cases[ci].nomodify;
		d.query_allowed = !cases[ci].noquery;
		memcpy(before, fw.params, sizeof(before));
		err = do_set(&d, cases[ci].v, cases[ci].n, &bad, &why);
		if (err != cases[ci].err || bad != cases[ci].bad || why != cases[ci].why ||
		    fw.ncalls || memcmp(before, fw.params, sizeof(before)))
			fail(t, "%s: %d bad %d why %d after %d commands, want %d %d %d and none",
			     cases[ci].what, err, bad, why, fw.ncalls, cases[ci].err,
			     cases[ci].bad, cases[ci].why);
	}
	done(t, "dcqcn: set: unknown name (UNKNOWN), out of range (RANGE), np_cnp_prio with np_cnp_prio_mode (CONFLICT), no cc_modify/query_allowed (NOT_ALLOWED): *bad = the value, no command");
}

/* The commands of a successful set of v, as the fake saw them. */
static int set_calls(const struct setv *v, int n, struct ccall *calls)
{
	struct rm5_cong_dev d;
	struct cfw fw;
	int bad, why;

	fw_init(&fw, &d, 1);
	if (do_set(&d, v, n, &bad, &why) || fw.error[0] || fw.ncalls > 64)
		return -1;
	memcpy(calls, fw.calls, sizeof(fw.calls));
	return fw.ncalls;
}

/*
 * A failure of any command of a set: returned with FIRMWARE, *bad -1, and
 * the NIC as it was (rm5_cong_set writes back what it wrote before the
 * failing MODIFY), unless that write-back fails too.
 */
static void test_set_firmware(struct mlx5_t *t)
{
	static const struct setv v[] = { { "rp_ai_rate", 0x777 }, { "np_cnp_dscp", 9 },
					 { "rp_clamp_tgt_rate", 1 } };
	struct ccall calls[64];
	int ncalls = set_calls(v, IFC_COUNT(v), calls), k, nmod = 0, last_mod = 0;
	unsigned int e;

	if (ncalls < 2) {
		fail(t, "a set of RP and NP params failed, or issued %d commands", ncalls);
		goto out;
	}
	for (k = 1; k <= ncalls; k++)
		if (calls[k - 1].opcode == IFC_MLX5_CMD_OP_MODIFY_CONG_PARAMS)
			nmod++, last_mod = k;
	if (nmod != 2) {
		fail(t, "%d MODIFY, want 2", nmod);
		goto out;
	}
	for (k = 1; k <= ncalls && !t->why[0]; k++)
		for (e = 0; e < IFC_COUNT(errs); e++) {
			unsigned char before[NP + 1][NODE_BYTES];
			struct rm5_cong_dev d;
			struct cfw fw;
			int err, bad, why, node;

			fw_init(&fw, &d, 1);
			memcpy(before, fw.params, sizeof(before));
			fw.fail_calls = 1ULL << (k - 1);
			fw.fail_err = errs[e];
			err = do_set(&d, v, IFC_COUNT(v), &bad, &why);
			if (err != errs[e] || why != ROCECTL_CONG_WHY_FIRMWARE || bad != -1 ||
			    fw.error[0]) {
				fail(t, "command %d (%#x %s) failing with %d: %d why %d bad %d %s", k,
				     calls[k - 1].opcode, node_name(calls[k - 1].proto), errs[e],
				     err, why, bad, fw.error);
				break;
			}
			for (node = RP; node <= NP; node++)
				if (memcmp(before[node], fw.params[node], NODE_BYTES)) {
					char w[256];

					buf_diff(w, sizeof(w), fw.params[node], before[node], NODE_BYTES);
					fail(t, "command %d (%#x %s) failing: %s parameters changed: %s",
					     k, calls[k - 1].opcode, node_name(calls[k - 1].proto),
					     node_name(node), w);
				}
			if (t->why[0])
				break;
		}
	/*
	 * The last MODIFY fails, and so does the write-back: the error is the
	 * first, and PARTIAL says the first node may be left changed.
	 */
	if (!t->why[0]) {
		struct rm5_cong_dev d;
		struct cfw fw;
		int err, bad, why;

		fw_init(&fw, &d, 1);
		fw.fail_calls = ~0ULL << (last_mod - 1);
		fw.fail_err = -ETIMEDOUT;
		err = do_set(&d, v, IFC_COUNT(v), &bad, &why);
		if (err != -ETIMEDOUT || why != ROCECTL_CONG_WHY_PARTIAL || fw.error[0])
			fail(t, "second MODIFY and write-back failing: %d why %d %s", err, why, fw.error);
	}
out:
	done(t, "dcqcn: set: a failure of any of its commands is returned with FIRMWARE, *bad -1, both nodes as they were (the first MODIFY written back; PARTIAL if that fails too)");
}

void mlx5_cong_tests(struct mlx5_t *t)
{
	test_constants(t);
	test_param_table(t);
	test_bits(t);
	test_query_params_in(t);
	test_modify_in(t);
	test_query_status_in(t);
	test_decode(t);
	test_get_params(t);
	test_get_status_stats(t);
	test_get_errors(t);
	test_set(t);
	test_set_prio_mode(t);
	test_set_refused(t);
	test_set_firmware(t);
}
