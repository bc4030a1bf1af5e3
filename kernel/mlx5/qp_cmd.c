// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5's QP and DCT firmware commands, decoded (see qp_cmd.h). Every
 * command's inbox starts with the opcode and the uid, as 2ERR_QP's does;
 * the rest is read with each command's own layout, and only once in_size
 * is seen to hold it.
 */
#include "qp_cmd.h"

/*
 * A move to state to of QP qpn, with its context qpc (NULL: none) and its
 * path: the command is need bytes long, of which len came. The QPN is in
 * every command's first 16 bytes, which the caller has seen.
 */
static int qp_move(struct rm5_qp_cmd *c, size_t len, size_t need, u8 to, u32 qpn,
		   const void *qpc, bool path)
{
	const void *ads;

	if (len < need)
		return -EINVAL;
	c->op = RM5_QP_MODIFY;
	c->to = to;
	c->qpn = qpn;
	if (!qpc)
		return 0;
	c->has_qpc = true;
	c->counter_set_id = MLX5_GET(qpc, qpc, counter_set_id);
	c->remote_qpn = MLX5_GET(qpc, qpc, remote_qpn);
	if (!path)
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

static int dct_create(struct rm5_qp_cmd *c, const void *in, size_t len)
{
	const void *dctc;

	if (len < MLX5_ST_SZ_BYTES(create_dct_in))
		return -EINVAL;
	dctc = MLX5_ADDR_OF(create_dct_in, in, dct_context_entry);
	c->op = RM5_DCT_CREATE;
	c->has_qpc = true;
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
	c->st = MLX5_GET(qpc, qpc, st);
	c->counter_set_id = MLX5_GET(qpc, qpc, counter_set_id);
	c->remote_qpn = MLX5_GET(qpc, qpc, remote_qpn);
	return 0;
}

bool rm5_qp_cmd_opcode(u16 opcode)
{
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_QP:
	case MLX5_CMD_OP_RST2INIT_QP:
	case MLX5_CMD_OP_INIT2RTR_QP:
	case MLX5_CMD_OP_RTR2RTS_QP:
	case MLX5_CMD_OP_RTS2RTS_QP:
	case MLX5_CMD_OP_SQERR2RTS_QP:
	case MLX5_CMD_OP_2ERR_QP:
	case MLX5_CMD_OP_2RST_QP:
	case MLX5_CMD_OP_DESTROY_QP:
	case MLX5_CMD_OP_CREATE_DCT:
	case MLX5_CMD_OP_DESTROY_DCT:
		return true;
	default:
		return false;
	}
}

int rm5_qp_cmd_in(const void *in, int in_size, struct rm5_qp_cmd *c)
{
	size_t len = in_size > 0 ? in_size : 0;
	int err;

	memset(c, 0, sizeof(*c));
	if (len < MLX5_ST_SZ_BYTES(qp_2err_in))
		return -EINVAL;
	c->opcode = MLX5_GET(qp_2err_in, in, opcode);
	c->uid = MLX5_GET(qp_2err_in, in, uid);
	switch (c->opcode) {
	case MLX5_CMD_OP_CREATE_QP:
		return qp_create(c, in, len);
	case MLX5_CMD_OP_RST2INIT_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(rst2init_qp_in), RM5_QPS_INIT,
			       MLX5_GET(rst2init_qp_in, in, qpn),
			       MLX5_ADDR_OF(rst2init_qp_in, in, qpc), false);
	case MLX5_CMD_OP_INIT2RTR_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(init2rtr_qp_in), RM5_QPS_RTR,
			       MLX5_GET(init2rtr_qp_in, in, qpn),
			       MLX5_ADDR_OF(init2rtr_qp_in, in, qpc), true);
	case MLX5_CMD_OP_RTR2RTS_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(rtr2rts_qp_in), RM5_QPS_RTS,
			       MLX5_GET(rtr2rts_qp_in, in, qpn),
			       MLX5_ADDR_OF(rtr2rts_qp_in, in, qpc), true);
	case MLX5_CMD_OP_RTS2RTS_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(rts2rts_qp_in), RM5_QPS_RTS,
			       MLX5_GET(rts2rts_qp_in, in, qpn),
			       MLX5_ADDR_OF(rts2rts_qp_in, in, qpc), true);
	case MLX5_CMD_OP_SQERR2RTS_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(sqerr2rts_qp_in), RM5_QPS_RTS,
			       MLX5_GET(sqerr2rts_qp_in, in, qpn),
			       MLX5_ADDR_OF(sqerr2rts_qp_in, in, qpc), false);
	case MLX5_CMD_OP_2ERR_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(qp_2err_in), RM5_QPS_ERR,
			       MLX5_GET(qp_2err_in, in, qpn), NULL, false);
	case MLX5_CMD_OP_2RST_QP:
		return qp_move(c, len, MLX5_ST_SZ_BYTES(qp_2rst_in), RM5_QPS_RESET,
			       MLX5_GET(qp_2rst_in, in, qpn), NULL, false);
	case MLX5_CMD_OP_DESTROY_QP:
		err = qp_move(c, len, MLX5_ST_SZ_BYTES(destroy_qp_in), RM5_QPS_RESET,
			      MLX5_GET(destroy_qp_in, in, qpn), NULL, false);
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
