/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The QP and DCT firmware commands of mlx5 decoded into what rocectl's QP
 * table records of a QP: which QP, its move, its remote QPN, the path's
 * UDP source port, DSCP, ECN and Ethernet priority, its counter set. For
 * the commands DevX user contexts pass through mlx5_ib to mlx5_core's
 * command interface, which the RDMA core never sees (GPU-initiated
 * networking: NCCL's GIN, NVSHMEM's IBGDA, UCX's DevX transport). Pure
 * functions on buffers, with the layouts of linux/mlx5/mlx5_ifc.h: the
 * unit tests compile this file in user space against the same header.
 */
#ifndef _ROCECTL_MLX5_QP_CMD_H
#define _ROCECTL_MLX5_QP_CMD_H

#include "ifc.h"
#ifdef __KERNEL__
#include <linux/mlx5/qp.h>	/* MLX5_QP_OPTPAR_* (the shim's in the unit tests) */
#endif

enum rm5_qp_op {
	RM5_QP_CREATE,		/* CREATE_QP: a QP in RESET (or INIT, DCI) */
	RM5_QP_MODIFY,		/* a state move: rm5_qp_cmd.to */
	RM5_QP_DESTROY,
	RM5_DCT_CREATE,		/* CREATE_DCT: a DC target, ready at once */
	RM5_DCT_DESTROY,
};

/* The states a move goes to, as the RDMA core numbers them (IB_QPS_*). */
enum rm5_qp_state {
	RM5_QPS_RESET, RM5_QPS_INIT, RM5_QPS_RTR, RM5_QPS_RTS,
	RM5_QPS_SQD, RM5_QPS_SQE, RM5_QPS_ERR,
};

struct rm5_qp_cmd {
	u16 opcode;
	u16 uid;		/* the user context's (DevX); 0: the kernel's */
	u8 op;			/* enum rm5_qp_op */
	u8 to;			/* RM5_QP_MODIFY: enum rm5_qp_state */
	u8 st;			/* the QP's service type (MLX5_QP_ST_*), CREATE_QP */
	bool has_qpc;		/* a context came with it: remote_qpn (0: none) */
	bool has_counter_set;	/* ... with the QP's counter set: counter_set_id */
	bool has_path;		/* ... and its primary path: udp_sport to tclass */
	u32 qpn;		/* modify, destroy: the inbox's; create: the outbox's */
	u32 remote_qpn;
	u16 udp_sport;
	u8 dscp, ecn, eth_prio, tclass;
	u8 counter_set_id;
};

/* Whether opcode is one of the commands rm5_qp_cmd_in() decodes. */
bool rm5_qp_cmd_opcode(u16 opcode);

/*
 * A command's inbox (in_size bytes): 0 with *c filled, -ENOENT if it is
 * no QP or DCT command rocectl records, -EINVAL if the inbox is shorter
 * than its command.
 */
int rm5_qp_cmd_in(const void *in, int in_size, struct rm5_qp_cmd *c);

/*
 * A create's outbox: 0 with c->qpn the new QPN or DCTN, -EREMOTEIO if the
 * firmware refused it (status), -EINVAL if too short. Other commands: 0,
 * or -EREMOTEIO.
 */
int rm5_qp_cmd_out(const void *out, int out_size, struct rm5_qp_cmd *c);

#endif /* _ROCECTL_MLX5_QP_CMD_H */
