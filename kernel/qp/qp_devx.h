/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QPs the RDMA core never sees (qp_devx.c): made by a driver's DevX user
 * contexts with firmware commands, which the driver's backend module
 * decodes and reports here (mlx5/devx.c).
 */
#ifndef _ROCECTL_QP_DEVX_H
#define _ROCECTL_QP_DEVX_H

#include <linux/device.h>
#include <linux/types.h>

enum rocectl_devx_op {
	ROCECTL_DEVX_CREATE,	/* a QP, in RESET (mlx5's DCI: INIT) */
	ROCECTL_DEVX_CREATE_READY, /* a DC target: ready at once */
	ROCECTL_DEVX_MOVE,
	ROCECTL_DEVX_DESTROY,
};

/* What one command said of one QP. */
struct rocectl_devx_cmd {
	u8 op;			/* enum rocectl_devx_op */
	u8 type;		/* create: enum rocectl_qp_type */
	u8 state;		/* move: IB_QPS_*; create: the state it starts in */
	bool has_counter_set;	/* the command set counter_set */
	bool has_path;		/* ... a path: sport, tclass, sl */
	u8 counter_set;
	u8 tclass;		/* DSCP << 2 | ECN */
	u8 sl;			/* the Ethernet priority (PCP) */
	u16 sport;
	u32 qpn;
	u32 dest_qpn;		/* 0: the command set none */
};

/*
 * A command a backend saw succeed, issued by current on the device whose
 * parent is parent. Any context a kretprobe's return handler runs in.
 */
void rocectl_devx_cmd(struct device *parent, const struct rocectl_devx_cmd *c);
bool rocectl_devx_cmd_wanted(void);
/*
 * A command rocectl_devx_cmd_wanted() wanted that the backend could not
 * follow to its return, on the device whose parent is parent.
 */
void rocectl_devx_missed(struct device *parent);
/* rocectl.ko's own: load and unload. */
int rocectl_devx_init(void);
void rocectl_devx_missed_flush(void);
void rocectl_devx_exit(void);

#endif /* _ROCECTL_QP_DEVX_H */
