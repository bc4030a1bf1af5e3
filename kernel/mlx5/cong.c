// SPDX-License-Identifier: GPL-2.0
/* DCQCN parameters, status and counters on mlx5 (see cong.h). */
#include "backend/backend.h"
#include "cong.h"

/*
 * Names, field_select bits and order as mlx5_ib's cc_params; the ranges
 * are the fields' widths, and the PRM's percent for rp_min_dec_fac.
 */
const struct rm5_cong_param rm5_cong_params[] = {
	{ .name = "rp_clamp_tgt_rate", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, clamp_tgt_rate),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, clamp_tgt_rate),
	  .select = BIT(1), .min = 0, .max = 1, },
	{ .name = "rp_clamp_tgt_rate_ati", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, clamp_tgt_rate_after_time_inc),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, clamp_tgt_rate_after_time_inc),
	  .select = BIT(2), .min = 0, .max = 1, },
	{ .name = "rp_time_reset", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_time_reset),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_time_reset),
	  .select = BIT(3), .min = 0, .max = U32_MAX, },
	{ .name = "rp_byte_reset", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_byte_reset),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_byte_reset),
	  .select = BIT(4), .min = 0, .max = U32_MAX, },
	{ .name = "rp_threshold", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_threshold),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_threshold),
	  .select = BIT(5), .min = 0, .max = U32_MAX, },
	{ .name = "rp_ai_rate", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_ai_rate),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_ai_rate),
	  .select = BIT(7), .min = 0, .max = U32_MAX, },
	{ .name = "rp_max_rate", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_max_rate),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_max_rate),
	  .select = BIT(6), .min = 0, .max = U32_MAX, },
	{ .name = "rp_hai_rate", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_hai_rate),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_hai_rate),
	  .select = BIT(8), .min = 0, .max = U32_MAX, },
	{ .name = "rp_min_dec_fac", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_min_dec_fac),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_min_dec_fac),
	  .select = BIT(9), .min = 1, .max = 100, },
	{ .name = "rp_min_rate", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_min_rate),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_min_rate),
	  .select = BIT(10), .min = 0, .max = U32_MAX, },
	{ .name = "rp_rate_to_set_on_first_cnp", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rate_to_set_on_first_cnp),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rate_to_set_on_first_cnp),
	  .select = BIT(11), .min = 0, .max = U32_MAX, },
	{ .name = "rp_dce_tcp_g", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, dce_tcp_g),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, dce_tcp_g),
	  .select = BIT(12), .min = 0, .max = U32_MAX, },
	{ .name = "rp_dce_tcp_rtt", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, dce_tcp_rtt),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, dce_tcp_rtt),
	  .select = BIT(13), .min = 0, .max = U32_MAX, },
	{ .name = "rp_rate_reduce_monitor_period", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rate_reduce_monitor_period),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rate_reduce_monitor_period),
	  .select = BIT(14), .min = 0, .max = U32_MAX, },
	{ .name = "rp_initial_alpha_value", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, initial_alpha_value),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, initial_alpha_value),
	  .select = BIT(15), .min = 0, .max = U32_MAX, },
	{ .name = "rp_gd", .node = RM5_CONG_RP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_rp, rpg_gd),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_rp, rpg_gd),
	  .select = BIT(16), .min = 0, .max = U32_MAX, },
	{ .name = "np_min_time_between_cnps", .node = RM5_CONG_NP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_np, min_time_between_cnps),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_np, min_time_between_cnps),
	  .select = BIT(2), .min = 0, .max = U32_MAX, },
	{ .name = "np_cnp_dscp", .node = RM5_CONG_NP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_np, cnp_dscp),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_np, cnp_dscp),
	  .select = BIT(3), .min = 0, .max = 63, },
	{ .name = "np_cnp_prio_mode", .node = RM5_CONG_NP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_np, cnp_prio_mode),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_np, cnp_prio_mode),
	  .select = BIT(4), .min = 0, .max = 1, },
	{ .name = "np_cnp_prio", .node = RM5_CONG_NP,
	  .bit_off = __mlx5_bit_off(cong_control_r_roce_ecn_np, cnp_802p_prio),
	  .bit_sz = __mlx5_bit_sz(cong_control_r_roce_ecn_np, cnp_802p_prio),
	  .select = BIT(4), .min = 0, .max = 7,
	  .sets_802p = true, },
};

const int rm5_cong_nparams = ARRAY_SIZE(rm5_cong_params);

const struct rm5_cong_stat rm5_cong_stats[] = {
	{ "rp_cnp_handled", MLX5_BYTE_OFF(query_cong_statistics_out, rp_cnp_handled_high), true },
	{ "rp_cnp_ignored", MLX5_BYTE_OFF(query_cong_statistics_out, rp_cnp_ignored_high), true },
	{ "np_ecn_marked_roce_packets",
	  MLX5_BYTE_OFF(query_cong_statistics_out, np_ecn_marked_roce_packets_high), true },
	{ "np_cnp_sent", MLX5_BYTE_OFF(query_cong_statistics_out, np_cnp_sent_high), true },
	{ "rp_cur_flows", MLX5_BYTE_OFF(query_cong_statistics_out, rp_cur_flows), false },
};

const int rm5_cong_nstats = ARRAY_SIZE(rm5_cong_stats);

/* No mlx5 field crosses a dword: bit 0 is the top bit of dword 0. */
u32 rm5_bits_get(const void *buf, unsigned int bit_off, unsigned int bit_sz)
{
	u32 dw = be32_to_cpu(((const __be32 *)buf)[bit_off / 32]);
	u32 mask = bit_sz == 32 ? U32_MAX : (1U << bit_sz) - 1;

	return (dw >> (32 - bit_sz - bit_off % 32)) & mask;
}

void rm5_bits_set(void *buf, unsigned int bit_off, unsigned int bit_sz, u32 v)
{
	__be32 *p = (__be32 *)buf + bit_off / 32;
	u32 mask = bit_sz == 32 ? U32_MAX : (1U << bit_sz) - 1;
	unsigned int shift = 32 - bit_sz - bit_off % 32;
	u32 dw = be32_to_cpu(*p);

	dw = (dw & ~(mask << shift)) | ((v & mask) << shift);
	*p = cpu_to_be32(dw);
}

void rm5_query_cong_params_in(u32 *in, u8 node)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(query_cong_params_in));
	MLX5_SET(query_cong_params_in, in, opcode, MLX5_CMD_OP_QUERY_CONG_PARAMS);
	MLX5_SET(query_cong_params_in, in, cong_protocol, node);
}

u32 rm5_cong_param_decode(const u32 *out, const struct rm5_cong_param *p)
{
	return rm5_bits_get(MLX5_ADDR_OF(query_cong_params_out, out, congestion_parameters),
			    p->bit_off, p->bit_sz);
}

void rm5_modify_cong_params_in(u32 *in, u8 node)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(modify_cong_params_in));
	MLX5_SET(modify_cong_params_in, in, opcode, MLX5_CMD_OP_MODIFY_CONG_PARAMS);
	MLX5_SET(modify_cong_params_in, in, cong_protocol, node);
}

void rm5_modify_cong_param_encode(u32 *in, const struct rm5_cong_param *p, u32 v)
{
	void *params = MLX5_ADDR_OF(modify_cong_params_in, in, congestion_parameters);
	void *select = MLX5_ADDR_OF(modify_cong_params_in, in, field_select);

	/* field_select_r_roce_rp and _np are one dword at the same place. */
	rm5_bits_set(select, 0, 32, rm5_bits_get(select, 0, 32) | p->select);
	rm5_bits_set(params, p->bit_off, p->bit_sz, v);
	if (p->sets_802p)
		MLX5_SET(cong_control_r_roce_ecn_np, params, cnp_prio_mode, 0);
}

void rm5_query_cong_status_in(u32 *in, u8 node, u8 prio)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(query_cong_status_in));
	MLX5_SET(query_cong_status_in, in, opcode, MLX5_CMD_OP_QUERY_CONG_STATUS);
	MLX5_SET(query_cong_status_in, in, priority, prio);
	MLX5_SET(query_cong_status_in, in, cong_protocol, node);
}

bool rm5_cong_status_decode(const u32 *out)
{
	return MLX5_GET(query_cong_status_out, out, enable);
}

static int rm5_cong_get_params(const struct rm5_cong_dev *d, struct rocectl_cong_info *c)
{
	u32 in[MLX5_ST_SZ_DW(query_cong_params_in)];
	u32 out[MLX5_ST_SZ_DW(query_cong_params_out)];
	u8 node;
	int i, err;

	for (node = RM5_CONG_RP; node <= RM5_CONG_NP; node++) {
		rm5_query_cong_params_in(in, node);
		memset(out, 0, sizeof(out));
		err = d->exec(d->ctx, in, sizeof(in), out, sizeof(out));
		if (err)
			return err;
		for (i = 0; i < rm5_cong_nparams && c->nparams < ROCECTL_CONG_MAX; i++) {
			if (rm5_cong_params[i].node != node)
				continue;
			c->params[c->nparams].name = rm5_cong_params[i].name;
			c->params[c->nparams++].value =
				rm5_cong_param_decode(out, &rm5_cong_params[i]);
		}
	}
	return 0;
}

static int rm5_cong_get_status(const struct rm5_cong_dev *d, struct rocectl_cong_info *c)
{
	u32 in[MLX5_ST_SZ_DW(query_cong_status_in)];
	u32 out[MLX5_ST_SZ_DW(query_cong_status_out)];
	int prio, err;
	u8 node;

	for (node = RM5_CONG_RP; node <= RM5_CONG_NP; node++) {
		for (prio = 0; prio < ROCECTL_BE_NPRIO; prio++) {
			rm5_query_cong_status_in(in, node, prio);
			memset(out, 0, sizeof(out));
			err = d->exec(d->ctx, in, sizeof(in), out, sizeof(out));
			if (err)
				return err;
			if (!rm5_cong_status_decode(out))
				continue;
			if (node == RM5_CONG_RP)
				c->rp_enabled |= BIT(prio);
			else
				c->np_enabled |= BIT(prio);
		}
	}
	c->status_known = true;
	return 0;
}

/*
 * The 64-bit counters summed over a LAG's ports (as mlx5_ib's port
 * counters are); the current flows of this function from its own query.
 */
static int rm5_cong_get_stats(const struct rm5_cong_dev *d, struct rocectl_cong_info *c)
{
	u32 in[MLX5_ST_SZ_DW(query_cong_statistics_in)] = {};
	u32 out[MLX5_ST_SZ_DW(query_cong_statistics_out)] = {};
	size_t offsets[ARRAY_SIZE(rm5_cong_stats)];
	u64 values[ARRAY_SIZE(rm5_cong_stats)] = {};
	int i, n = 0, err;

	for (i = 0; i < rm5_cong_nstats; i++)
		if (rm5_cong_stats[i].wide)
			offsets[n++] = rm5_cong_stats[i].byte_off;
	err = d->stats(d->ctx, values, n, offsets);
	if (err)
		return err;
	MLX5_SET(query_cong_statistics_in, in, opcode, MLX5_CMD_OP_QUERY_CONG_STATISTICS);
	err = d->exec(d->ctx, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	for (i = 0, n = 0; i < rm5_cong_nstats; i++) {
		const struct rm5_cong_stat *s = &rm5_cong_stats[i];

		c->stats[c->nstats].name = s->name;
		c->stats[c->nstats++].value = s->wide ? values[n++] :
			rm5_bits_get(out, s->byte_off * 8, 32);
	}
	return 0;
}

int rm5_cong_get(const struct rm5_cong_dev *d, struct rocectl_cong_info *c)
{
	int err;

	if (!d->query_allowed)
		return -EOPNOTSUPP;
	err = rm5_cong_get_params(d, c);
	if (!err)
		err = rm5_cong_get_status(d, c);
	if (!err)
		err = rm5_cong_get_stats(d, c);
	return err;
}

static const struct rm5_cong_param *rm5_cong_param_find(const char *name)
{
	int i;

	for (i = 0; i < rm5_cong_nparams; i++)
		if (!strcmp(rm5_cong_params[i].name, name))
			return &rm5_cong_params[i];
	return NULL;
}

/* A node's MODIFY: its current parameters, with the given ones changed. */
static void rm5_cong_modify_in(u32 *in, u8 node, const u32 *cur,
			       const struct rocectl_cong_value *v, int n)
{
	const struct rm5_cong_param *p;
	int i;

	rm5_modify_cong_params_in(in, node);
	/*
	 * Fields that share a field_select bit (np_cnp_prio_mode and
	 * np_cnp_prio) are written together: start from what the NIC has.
	 */
	memcpy(MLX5_ADDR_OF(modify_cong_params_in, in, congestion_parameters),
	       MLX5_ADDR_OF(query_cong_params_out, cur, congestion_parameters),
	       MLX5_FLD_SZ_BYTES(modify_cong_params_in, congestion_parameters));
	for (i = 0; i < n; i++) {
		p = rm5_cong_param_find(v[i].name);
		if (p->node == node)
			rm5_modify_cong_param_encode(in, p, v[i].value);
	}
}

static bool rm5_cong_node_used(u8 node, const struct rocectl_cong_value *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (rm5_cong_param_find(v[i].name)->node == node)
			return true;
	return false;
}

/*
 * Everything is checked before anything is written. Both nodes are read
 * first; one MODIFY per node; if the second fails, the first node's
 * selected fields are written back as they were.
 */
int rm5_cong_set(const struct rm5_cong_dev *d, const struct rocectl_cong_value *v,
		 int n, int *bad, int *why)
{
	struct rm5_cong_buf *b = d->buf;
	const struct rm5_cong_param *p;
	bool mode = false, prio = false, done[2] = {};
	u32 (*cur)[MLX5_ST_SZ_DW(query_cong_params_out)] = b->cur;
	u32 *qin = b->qin, *in = b->in, *out = b->out;
	int i, err;
	u8 node;

	*bad = -1;
	*why = ROCECTL_CONG_WHY_NONE;
	if (!d->modify_allowed || !d->query_allowed) {
		*why = ROCECTL_CONG_WHY_NOT_ALLOWED;
		return -EOPNOTSUPP;
	}
	for (i = 0; i < n; i++) {
		p = rm5_cong_param_find(v[i].name);
		*bad = i;
		if (!p) {
			*why = ROCECTL_CONG_WHY_UNKNOWN;
			return -EINVAL;
		}
		if (v[i].value < p->min || v[i].value > p->max) {
			*why = ROCECTL_CONG_WHY_RANGE;
			return -ERANGE;
		}
		mode |= !p->sets_802p && p->select == BIT(4) && p->node == RM5_CONG_NP;
		prio |= p->sets_802p;
		if (mode && prio) {
			*why = ROCECTL_CONG_WHY_CONFLICT;
			return -EINVAL;
		}
	}
	*bad = -1;
	for (node = RM5_CONG_RP; node <= RM5_CONG_NP; node++) {
		if (!rm5_cong_node_used(node, v, n))
			continue;
		rm5_query_cong_params_in(qin, node);
		memset(cur[node - 1], 0, sizeof(b->cur[0]));
		err = d->exec(d->ctx, qin, sizeof(b->qin), cur[node - 1], sizeof(b->cur[0]));
		if (err) {
			*why = ROCECTL_CONG_WHY_FIRMWARE;
			return err;
		}
	}
	for (node = RM5_CONG_RP; node <= RM5_CONG_NP; node++) {
		if (!rm5_cong_node_used(node, v, n))
			continue;
		rm5_cong_modify_in(in, node, cur[node - 1], v, n);
		memset(out, 0, sizeof(b->out));
		err = d->exec(d->ctx, in, sizeof(b->in), out, sizeof(b->out));
		if (err)
			goto undo;
		done[node - 1] = true;
	}
	return 0;
undo:
	*why = ROCECTL_CONG_WHY_FIRMWARE;
	/* What was written goes back: the same fields, their old values. */
	for (node = RM5_CONG_RP; node <= RM5_CONG_NP; node++) {
		void *select = MLX5_ADDR_OF(modify_cong_params_in, in, field_select);

		if (!done[node - 1])
			continue;
		/* The old block as it was, under the same select bits. */
		rm5_cong_modify_in(in, node, cur[node - 1], NULL, 0);
		for (i = 0; i < n; i++) {
			p = rm5_cong_param_find(v[i].name);
			if (p->node != node)
				continue;
			rm5_bits_set(select, 0, 32, rm5_bits_get(select, 0, 32) | p->select);
		}
		memset(out, 0, sizeof(b->out));
		if (d->exec(d->ctx, in, sizeof(b->in), out, sizeof(b->out)))
			*why = ROCECTL_CONG_WHY_PARTIAL;
	}
	return err;
}
