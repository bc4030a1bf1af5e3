// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5's QP and DCT firmware commands, decoded (see qp_cmd.h). Every
 * command's inbox starts with the opcode and the uid, as 2ERR_QP's does;
 * the rest is read with each command's own layout, and only once in_size
 * is seen to hold it.
 */
#include "qp_cmd.h"

/*
 * What a move's context sets, as the firmware takes it: a field that the
 * move does not require counts only when its bit is in the command's
 * opt_param_mask. The primary path is required by INIT2RTR; the counter
 * set is part of the context RST2INIT starts. mlx5_ib leaves both at 0 in
 * its other moves, without their bits (its opt_mask table), and moves a
 * QP to a counter set with RTS2RTS and MLX5_QP_OPTPAR_COUNTER_SET_ID.
 */
enum rm5_move_ctx {
	RM5_CTX_NONE,		/* no context: 2ERR, 2RST, DESTROY */
	RM5_CTX_START,		/* RST2INIT: the counter set, no path */
	RM5_CTX_PATH,		/* INIT2RTR: the path; the counter set if its bit */
	RM5_CTX_OPTIONAL,	/* the others: each if its bit */
};

/*
 * A move to state to, its context read as ctx says: the command is need
 * bytes long, of which len came. Every move with a context has INIT2RTR's
 * layout up to the end of the context (rm5_moves[]); the others' QPN is
 * where 2ERR_QP has it.
 */
static int qp_move(struct rm5_qp_cmd *c, const void *in, size_t len, size_t need,
		   u8 to, enum rm5_move_ctx ctx)
{
	const void *qpc, *ads;
	u32 opt;

	if (len < need)
		return -EINVAL;
	c->op = RM5_QP_MODIFY;
	c->to = to;
	c->qpn = MLX5_GET(qp_2err_in, in, qpn);
	if (ctx == RM5_CTX_NONE)
		return 0;
	opt = MLX5_GET(init2rtr_qp_in, in, opt_param_mask);
	qpc = MLX5_ADDR_OF(init2rtr_qp_in, in, qpc);
	c->has_qpc = true;
	c->remote_qpn = MLX5_GET(qpc, qpc, remote_qpn);
	if (ctx == RM5_CTX_START || (opt & MLX5_QP_OPTPAR_COUNTER_SET_ID)) {
		c->has_counter_set = true;
		c->counter_set_id = MLX5_GET(qpc, qpc, counter_set_id);
	}
	if (ctx == RM5_CTX_START ||
	    (ctx == RM5_CTX_OPTIONAL && !(opt & MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH)))
		return 0;
	ads = MLX5_ADDR_OF(qpc, qpc, primary_address_path);
	c->has_path = true;
	c->udp_sport = MLX5_GET(ads, ads, udp_sport);
	c->dscp = MLX5_GET(ads, ads, dscp);
	c->ecn = MLX5_GET(ads, ads, ecn);
	c->eth_prio = MLX5_GET(ads, ads, eth_prio);
	c->tclass = MLX5_GET(ads, ads, tclass);
	return 0;
}

/* The moves: each command's state, context and size. */
static const struct rm5_move {
	u16 opcode;
	u8 to;			/* enum rm5_qp_state */
	u8 ctx;			/* enum rm5_move_ctx */
	u16 size;		/* the inbox's bytes */
} rm5_moves[] = {
	{ MLX5_CMD_OP_RST2INIT_QP, RM5_QPS_INIT, RM5_CTX_START,
	  MLX5_ST_SZ_BYTES(rst2init_qp_in) },
	{ MLX5_CMD_OP_INIT2INIT_QP, RM5_QPS_INIT, RM5_CTX_OPTIONAL,
	  MLX5_ST_SZ_BYTES(init2init_qp_in) },
	{ MLX5_CMD_OP_INIT2RTR_QP, RM5_QPS_RTR, RM5_CTX_PATH,
	  MLX5_ST_SZ_BYTES(init2rtr_qp_in) },
	{ MLX5_CMD_OP_RTR2RTS_QP, RM5_QPS_RTS, RM5_CTX_OPTIONAL,
	  MLX5_ST_SZ_BYTES(rtr2rts_qp_in) },
	{ MLX5_CMD_OP_RTS2RTS_QP, RM5_QPS_RTS, RM5_CTX_OPTIONAL,
	  MLX5_ST_SZ_BYTES(rts2rts_qp_in) },
	{ MLX5_CMD_OP_SQERR2RTS_QP, RM5_QPS_RTS, RM5_CTX_OPTIONAL,
	  MLX5_ST_SZ_BYTES(sqerr2rts_qp_in) },
	{ MLX5_CMD_OP_SQD_RTS_QP, RM5_QPS_RTS, RM5_CTX_OPTIONAL,
	  MLX5_ST_SZ_BYTES(sqd2rts_qp_in) },
	{ MLX5_CMD_OP_2ERR_QP, RM5_QPS_ERR, RM5_CTX_NONE,
	  MLX5_ST_SZ_BYTES(qp_2err_in) },
	{ MLX5_CMD_OP_2RST_QP, RM5_QPS_RESET, RM5_CTX_NONE,
	  MLX5_ST_SZ_BYTES(qp_2rst_in) },
};

/* What qp_move() reads with one layout is where each command has it. */
static void rm5_moves_check(void)
{
	BUILD_BUG_ON(MLX5_BYTE_OFF(qp_2err_in, qpn) != MLX5_BYTE_OFF(init2rtr_qp_in, qpn) ||
		     MLX5_BYTE_OFF(qp_2rst_in, qpn) != MLX5_BYTE_OFF(qp_2err_in, qpn) ||
		     MLX5_BYTE_OFF(destroy_qp_in, qpn) != MLX5_BYTE_OFF(qp_2err_in, qpn));
	BUILD_BUG_ON(MLX5_BYTE_OFF(rst2init_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(rst2init_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
	BUILD_BUG_ON(MLX5_BYTE_OFF(init2init_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(init2init_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
	BUILD_BUG_ON(MLX5_BYTE_OFF(rtr2rts_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(rtr2rts_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
	BUILD_BUG_ON(MLX5_BYTE_OFF(rts2rts_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(rts2rts_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
	BUILD_BUG_ON(MLX5_BYTE_OFF(sqerr2rts_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(sqerr2rts_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
	BUILD_BUG_ON(MLX5_BYTE_OFF(sqd2rts_qp_in, opt_param_mask) !=
		     MLX5_BYTE_OFF(init2rtr_qp_in, opt_param_mask) ||
		     MLX5_BYTE_OFF(sqd2rts_qp_in, qpc) != MLX5_BYTE_OFF(init2rtr_qp_in, qpc));
}

static const struct rm5_move *rm5_move_find(u16 opcode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rm5_moves); i++)
		if (rm5_moves[i].opcode == opcode)
			return &rm5_moves[i];
	return NULL;
}

static int dct_create(struct rm5_qp_cmd *c, const void *in, size_t len)
{
	const void *dctc;

	if (len < MLX5_ST_SZ_BYTES(create_dct_in))
		return -EINVAL;
	dctc = MLX5_ADDR_OF(create_dct_in, in, dct_context_entry);
	c->op = RM5_DCT_CREATE;
	c->has_qpc = true;
	c->has_counter_set = true;
	c->has_path = true;
	c->counter_set_id = MLX5_GET(dctc, dctc, counter_set_id);
	c->dscp = MLX5_GET(dctc, dctc, dscp);
	c->ecn = MLX5_GET(dctc, dctc, ecn);
	c->eth_prio = MLX5_GET(dctc, dctc, eth_prio);
	c->tclass = MLX5_GET(dctc, dctc, tclass);
	return 0;
}

static int qp_create(struct rm5_qp_cmd *c, const void *in, size_t len)
{
	const void *qpc;

	/* The context ends the command's fixed part (pas[] follows). */
	if (len < MLX5_BYTE_OFF(create_qp_in, qpc) + MLX5_ST_SZ_BYTES(qpc))
		return -EINVAL;
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	c->op = RM5_QP_CREATE;
	c->has_qpc = true;
	c->has_counter_set = true;
	c->st = MLX5_GET(qpc, qpc, st);
	c->counter_set_id = MLX5_GET(qpc, qpc, counter_set_id);
	c->remote_qpn = MLX5_GET(qpc, qpc, remote_qpn);
	return 0;
}

bool rm5_qp_cmd_opcode(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_QP:
	case MLX5_CMD_OP_DESTROY_QP:
	case MLX5_CMD_OP_CREATE_DCT:
	case MLX5_CMD_OP_DESTROY_DCT:
		return true;
	default:
		return rm5_move_find(opcode);
	}
}

int rm5_qp_cmd_in(const void *in, int in_size, struct rm5_qp_cmd *c)
{
	size_t len = in_size > 0 ? in_size : 0;
	const struct rm5_move *move;
	int err;

	rm5_moves_check();
	memset(c, 0, sizeof(*c));
	if (len < MLX5_ST_SZ_BYTES(qp_2err_in))
		return -EINVAL;
	c->opcode = MLX5_GET(qp_2err_in, in, opcode);
	c->uid = MLX5_GET(qp_2err_in, in, uid);
	move = rm5_move_find(c->opcode);
	if (move)
		return qp_move(c, in, len, move->size, move->to, move->ctx);
	switch (c->opcode) {
	case MLX5_CMD_OP_CREATE_QP:
		return qp_create(c, in, len);
	case MLX5_CMD_OP_DESTROY_QP:
		err = qp_move(c, in, len, MLX5_ST_SZ_BYTES(destroy_qp_in), RM5_QPS_RESET,
			      RM5_CTX_NONE);
		c->op = RM5_QP_DESTROY;
		return err;
	case MLX5_CMD_OP_CREATE_DCT:
		return dct_create(c, in, len);
	case MLX5_CMD_OP_DESTROY_DCT:
		if (len < MLX5_ST_SZ_BYTES(destroy_dct_in))
			return -EINVAL;
		c->op = RM5_DCT_DESTROY;
		c->qpn = MLX5_GET(destroy_dct_in, in, dctn);
		return 0;
	default:
		return -ENOENT;
	}
}

/* Every outbox starts with the status (and the syndrome), as 2ERR_QP's does. */
int rm5_qp_cmd_out(const void *out, int out_size, struct rm5_qp_cmd *c)
{
	size_t len = out_size > 0 ? out_size : 0;

	if (len < MLX5_ST_SZ_BYTES(qp_2err_out))
		return -EINVAL;
	if (MLX5_GET(qp_2err_out, out, status))
		return -EREMOTEIO;
	switch (c->op) {
	case RM5_QP_CREATE:
		if (len < MLX5_ST_SZ_BYTES(create_qp_out))
			return -EINVAL;
		c->qpn = MLX5_GET(create_qp_out, out, qpn);
		break;
	case RM5_DCT_CREATE:
		if (len < MLX5_ST_SZ_BYTES(create_dct_out))
			return -EINVAL;
		c->qpn = MLX5_GET(create_dct_out, out, dctn);
		break;
	}
	return 0;
}
