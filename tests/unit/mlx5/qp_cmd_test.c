// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/mlx5/qp_cmd.c against linux/mlx5/mlx5_ifc.h: every QP and DCT
 * command it decodes is written here, field by field, at the offsets
 * ifc_layout.py parsed from the header (not with MLX5_SET), with values
 * that fill each field's width; the opcodes are the header's. Short
 * inboxes and outboxes, other commands and refused ones are checked too.
 */
#include <string.h>

#include "../../../kernel/mlx5/qp_cmd.h"
#define ROCECTL_MLX5_TEST_INTERNAL
#include "mlx5_test.h"

#define CMD_BYTES	1024	/* more than any command here */

/* The values written: each field's all-ones but for a low bit, to catch shifts. */
#define V_UID		0xbeef
#define V_QPN		0xabcde5
#define V_RQPN		0x5a5a5b
#define V_CNT		0xc3
#define V_SPORT		0xd2f1
#define V_DSCP		0x2e
#define V_ECN		0x2
#define V_PRIO		0x5
#define V_TCLASS	0xb9
#define V_ST		0x5

/* Which fields of a move's context count (kernel/mlx5/qp_cmd.c's rule). */
enum ctx_rule {
	CTX_NONE,	/* no context */
	CTX_START,	/* RST2INIT: the counter set always, never a path */
	CTX_PATH,	/* INIT2RTR: the path always, the counter set with its bit */
	CTX_OPTIONAL,	/* each with its opt_param_mask bit */
};

struct qp_case {
	const char *name;
	unsigned int opcode, size;		/* the header's opcode, the inbox's bits */
	unsigned int opc_off, uid_off, qpn_off, qpn_w;	/* qpn_w 0: none in the inbox */
	int qpc_off, opt_off;			/* -1: no context */
	enum ctx_rule rule;
	unsigned int op, to;
};

#define QP_MOVE_CASE(cmd, opc, state, rule) \
	{ #cmd, IFC_MLX5_CMD_OP_##opc, IFC_SZ_##cmd, IFC_OFF_##cmd##__opcode, \
	  IFC_OFF_##cmd##__uid, IFC_OFF_##cmd##__qpn, IFC_W_##cmd##__qpn, \
	  IFC_OFF_##cmd##__qpc, IFC_OFF_##cmd##__opt_param_mask, rule, RM5_QP_MODIFY, state }
#define QP_BARE_CASE(cmd, opc, op, state) \
	{ #cmd, IFC_MLX5_CMD_OP_##opc, IFC_SZ_##cmd, IFC_OFF_##cmd##__opcode, \
	  IFC_OFF_##cmd##__uid, IFC_OFF_##cmd##__qpn, IFC_W_##cmd##__qpn, -1, -1, CTX_NONE, \
	  op, state }

/* Every field of the context: which of them count is the decoder's to say. */
static void write_qpc(unsigned char *in, unsigned int qpc, bool path)
{
	unsigned int ads = qpc + IFC_OFF_qpc__primary_address_path;

	bits_set(in, qpc + IFC_OFF_qpc__st, IFC_W_qpc__st, V_ST);
	bits_set(in, qpc + IFC_OFF_qpc__counter_set_id, IFC_W_qpc__counter_set_id, V_CNT);
	bits_set(in, qpc + IFC_OFF_qpc__remote_qpn, IFC_W_qpc__remote_qpn, V_RQPN);
	if (!path)
		return;
	bits_set(in, ads + IFC_OFF_ads__udp_sport, IFC_W_ads__udp_sport, V_SPORT);
	bits_set(in, ads + IFC_OFF_ads__dscp, IFC_W_ads__dscp, V_DSCP);
	bits_set(in, ads + IFC_OFF_ads__ecn, IFC_W_ads__ecn, V_ECN);
	bits_set(in, ads + IFC_OFF_ads__eth_prio, IFC_W_ads__eth_prio, V_PRIO);
	bits_set(in, ads + IFC_OFF_ads__tclass, IFC_W_ads__tclass, V_TCLASS);
}

static void check_ctx(struct mlx5_t *t, const char *name, const struct rm5_qp_cmd *c,
		      bool cnt, bool path)
{
	if (!c->has_qpc || c->remote_qpn != V_RQPN)
		fail(t, "%s: qpc %d remote_qpn %#x", name, c->has_qpc, c->remote_qpn);
	if (c->has_counter_set != cnt || c->counter_set_id != (cnt ? V_CNT : 0))
		fail(t, "%s: has_counter_set %d counter_set_id %#x, want %d", name,
		     c->has_counter_set, c->counter_set_id, cnt);
	if (c->has_path != path)
		fail(t, "%s: has_path %d, want %d", name, c->has_path, path);
	if (path && (c->udp_sport != V_SPORT || c->dscp != V_DSCP || c->ecn != V_ECN ||
		     c->eth_prio != V_PRIO || c->tclass != V_TCLASS))
		fail(t, "%s: sport %#x dscp %#x ecn %u prio %u tclass %#x", name, c->udp_sport,
		     c->dscp, c->ecn, c->eth_prio, c->tclass);
	if (!path && (c->udp_sport || c->dscp || c->tclass))
		fail(t, "%s: a path read where the command sets none", name);
}

/*
 * Each move twice: its context whole but opt_param_mask 0, then with the
 * primary path's and the counter set's bits (the only ones read).
 */
static void test_moves(struct mlx5_t *t)
{
	static const struct qp_case cases[] = {
		QP_MOVE_CASE(rst2init_qp_in, RST2INIT_QP, RM5_QPS_INIT, CTX_START),
		QP_MOVE_CASE(init2init_qp_in, INIT2INIT_QP, RM5_QPS_INIT, CTX_OPTIONAL),
		QP_MOVE_CASE(init2rtr_qp_in, INIT2RTR_QP, RM5_QPS_RTR, CTX_PATH),
		QP_MOVE_CASE(rtr2rts_qp_in, RTR2RTS_QP, RM5_QPS_RTS, CTX_OPTIONAL),
		QP_MOVE_CASE(rts2rts_qp_in, RTS2RTS_QP, RM5_QPS_RTS, CTX_OPTIONAL),
		QP_MOVE_CASE(sqerr2rts_qp_in, SQERR2RTS_QP, RM5_QPS_RTS, CTX_OPTIONAL),
		QP_MOVE_CASE(sqd2rts_qp_in, SQD_RTS_QP, RM5_QPS_RTS, CTX_OPTIONAL),
		QP_BARE_CASE(qp_2err_in, 2ERR_QP, RM5_QP_MODIFY, RM5_QPS_ERR),
		QP_BARE_CASE(qp_2rst_in, 2RST_QP, RM5_QP_MODIFY, RM5_QPS_RESET),
		QP_BARE_CASE(destroy_qp_in, DESTROY_QP, RM5_QP_DESTROY, 0),
	};
	const unsigned int bits = IFC_MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH |
				  IFC_MLX5_QP_OPTPAR_COUNTER_SET_ID;
	unsigned char in[CMD_BYTES] ALIGNED;
	struct rm5_qp_cmd c;
	unsigned int i, with;
	bool cnt, path;
	int ret;

	for (i = 0; i < IFC_COUNT(cases); i++) {
		const struct qp_case *k = &cases[i];

		for (with = 0; with < (k->qpc_off >= 0 ? 2 : 1); with++) {
			memset(in, 0, sizeof(in));
			bits_set(in, k->opc_off, 16, k->opcode);
			bits_set(in, k->uid_off, 16, V_UID);
			bits_set(in, k->qpn_off, k->qpn_w, V_QPN);
			if (k->qpc_off >= 0) {
				write_qpc(in, k->qpc_off, true);
				bits_set(in, k->opt_off, 32, with ? bits : 0);
			}
			ret = rm5_qp_cmd_in(in, k->size / 8, &c);
			if (ret || c.opcode != k->opcode || c.uid != V_UID || c.op != k->op ||
			    (k->op == RM5_QP_MODIFY && c.to != k->to) || c.qpn != V_QPN)
				fail(t, "%s: ret %d opcode %#x uid %#x op %u to %u qpn %#x",
				     k->name, ret, c.opcode, c.uid, c.op, c.to, c.qpn);
			if (k->qpc_off >= 0) {
				cnt = k->rule == CTX_START || with;
				path = k->rule == CTX_PATH || (k->rule == CTX_OPTIONAL && with);
				check_ctx(t, k->name, &c, cnt, path);
			} else if (c.has_qpc) {
				fail(t, "%s: a context read where the command has none", k->name);
			}
			/* One byte short of the command: refused, not read past. */
			if (rm5_qp_cmd_in(in, k->size / 8 - 1, &c) != -EINVAL)
				fail(t, "%s: an inbox one byte short is not refused", k->name);
		}
	}
	done(t, "QP commands: the moves (SQD2RTS and INIT2INIT too), 2ERR, 2RST and DESTROY_QP decoded at mlx5_ifc.h's offsets; a move's path and counter set read only where required or named in opt_param_mask; short inboxes refused");
}

static void test_creates(struct mlx5_t *t)
{
	unsigned char in[CMD_BYTES] ALIGNED, out[64] ALIGNED;
	unsigned int dctc = IFC_OFF_create_dct_in__dct_context_entry;
	unsigned int qp_in = IFC_OFF_create_qp_in__qpc + IFC_SZ_qpc;
	struct rm5_qp_cmd c;
	int ret;

	memset(in, 0, sizeof(in));
	bits_set(in, F(create_qp_in, opcode), IFC_MLX5_CMD_OP_CREATE_QP);
	bits_set(in, F(create_qp_in, uid), V_UID);
	write_qpc(in, IFC_OFF_create_qp_in__qpc, false);
	ret = rm5_qp_cmd_in(in, qp_in / 8, &c);
	if (ret || c.op != RM5_QP_CREATE || c.uid != V_UID || c.st != V_ST)
		fail(t, "CREATE_QP: ret %d op %u uid %#x st %u", ret, c.op, c.uid, c.st);
	check_ctx(t, "CREATE_QP", &c, true, false);
	if (rm5_qp_cmd_in(in, qp_in / 8 - 1, &c) != -EINVAL)
		fail(t, "CREATE_QP: an inbox without the whole context is not refused");
	rm5_qp_cmd_in(in, qp_in / 8, &c);
	memset(out, 0, sizeof(out));
	bits_set(out, F(create_qp_out, qpn), V_QPN);
	ret = rm5_qp_cmd_out(out, IFC_SZ_create_qp_out / 8, &c);
	if (ret || c.qpn != V_QPN)
		fail(t, "CREATE_QP out: ret %d qpn %#x", ret, c.qpn);
	if (rm5_qp_cmd_out(out, IFC_SZ_create_qp_out / 8 - 1, &c) != -EINVAL)
		fail(t, "CREATE_QP out: an outbox one byte short is not refused");
	bits_set(out, F(create_qp_out, status), 0x3);
	if (rm5_qp_cmd_out(out, IFC_SZ_create_qp_out / 8, &c) != -EREMOTEIO)
		fail(t, "CREATE_QP out: a status is not a refusal");
	done(t, "CREATE_QP: the context's service type, counter set, remote QPN; the outbox's QPN; a refusal");

	memset(in, 0, sizeof(in));
	bits_set(in, F(create_dct_in, opcode), IFC_MLX5_CMD_OP_CREATE_DCT);
	bits_set(in, F(create_dct_in, uid), V_UID);
	bits_set(in, dctc + IFC_OFF_dctc__counter_set_id, IFC_W_dctc__counter_set_id, V_CNT);
	bits_set(in, dctc + IFC_OFF_dctc__dscp, IFC_W_dctc__dscp, V_DSCP);
	bits_set(in, dctc + IFC_OFF_dctc__ecn, IFC_W_dctc__ecn, V_ECN);
	bits_set(in, dctc + IFC_OFF_dctc__eth_prio, IFC_W_dctc__eth_prio, V_PRIO);
	bits_set(in, dctc + IFC_OFF_dctc__tclass, IFC_W_dctc__tclass, V_TCLASS);
	ret = rm5_qp_cmd_in(in, IFC_SZ_create_dct_in / 8, &c);
	if (ret || c.op != RM5_DCT_CREATE || c.uid != V_UID || c.counter_set_id != V_CNT ||
	    c.dscp != V_DSCP || c.ecn != V_ECN || c.eth_prio != V_PRIO || c.tclass != V_TCLASS)
		fail(t, "CREATE_DCT: ret %d op %u counter %#x dscp %#x ecn %u prio %u tclass %#x", ret,
		     c.op, c.counter_set_id, c.dscp, c.ecn, c.eth_prio, c.tclass);
	memset(out, 0, sizeof(out));
	bits_set(out, F(create_dct_out, dctn), V_QPN);
	ret = rm5_qp_cmd_out(out, IFC_SZ_create_dct_out / 8, &c);
	if (ret || c.qpn != V_QPN)
		fail(t, "CREATE_DCT out: ret %d dctn %#x", ret, c.qpn);
	memset(in, 0, sizeof(in));
	bits_set(in, F(destroy_dct_in, opcode), IFC_MLX5_CMD_OP_DESTROY_DCT);
	bits_set(in, F(destroy_dct_in, dctn), V_QPN);
	ret = rm5_qp_cmd_in(in, IFC_SZ_destroy_dct_in / 8, &c);
	if (ret || c.op != RM5_DCT_DESTROY || c.qpn != V_QPN || c.uid)
		fail(t, "DESTROY_DCT: ret %d op %u dctn %#x uid %#x", ret, c.op, c.qpn, c.uid);
	done(t, "DCT commands: CREATE_DCT's context (counter set, DSCP, ECN, priority, traffic class), its DCTN; DESTROY_DCT");
}

static void test_others(struct mlx5_t *t)
{
	unsigned char in[CMD_BYTES] ALIGNED, out[64] ALIGNED;
	struct rm5_qp_cmd c;

	memset(in, 0, sizeof(in));
	/* A query: no state moves, nothing to record. */
	bits_set(in, F(qp_2err_in, opcode), IFC_MLX5_CMD_OP_CREATE_QP + 0x100);
	if (rm5_qp_cmd_in(in, CMD_BYTES, &c) != -ENOENT)
		fail(t, "opcode %#x is not -ENOENT", IFC_MLX5_CMD_OP_CREATE_QP + 0x100);
	if (rm5_qp_cmd_in(in, IFC_SZ_qp_2err_in / 8 - 1, &c) != -EINVAL)
		fail(t, "an inbox shorter than any command is not refused");
	memset(out, 0, sizeof(out));
	bits_set(out, F(qp_2err_out, status), 0x1);
	c.op = RM5_QP_MODIFY;
	if (rm5_qp_cmd_out(out, IFC_SZ_qp_2err_out / 8, &c) != -EREMOTEIO)
		fail(t, "a refused move is not -EREMOTEIO");
	done(t, "other commands are not decoded; inboxes shorter than a header refused; a refused move said");
}

void mlx5_qp_cmd_tests(struct mlx5_t *t)
{
	test_moves(t);
	test_creates(t);
	test_others(t);
}
