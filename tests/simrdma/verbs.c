// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: the verbs. Enough of a RoCE device for the RDMA core, its
 * clients (the MAD layer's QP1, the CM) and kernel QPs: objects exist and
 * move through their states, but no work request ever completes -- as on
 * hardware RoCE, no packet of theirs passes the kernel.
 */
#include <linux/etherdevice.h>
#include <linux/slab.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>
#include "simrdma.h"

/* The port's state and the netdev's MTU, as a NIC reports them. */
int simrdma_port_state(struct simrdma_dev *sd, enum ib_port_state *state,
		       int *mtu)
{
	struct net_device *ndev;

	mutex_lock(&sd->lock);
	ndev = sd->netdev;
	*state = ndev && netif_running(ndev) && netif_carrier_ok(ndev) ?
		 IB_PORT_ACTIVE : IB_PORT_DOWN;
	*mtu = ndev ? READ_ONCE(ndev->mtu) : ETH_DATA_LEN;
	mutex_unlock(&sd->lock);
	return 0;
}

static int simrdma_query_device(struct ib_device *ibdev,
				struct ib_device_attr *attr,
				struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 1;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = ~0ULL;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0xffffff;
	attr->max_qp = SIMRDMA_MAX_QP;
	attr->max_qp_wr = 4096;
	SIMRDMA_SET_LOCAL_DMA_LKEY(attr);
	attr->max_send_sge = 8;
	attr->max_recv_sge = 8;
	attr->max_sge_rd = 8;
	attr->max_cq = 1024;
	attr->max_cqe = 65536;
	attr->max_mr = 1024;
	attr->max_pd = 1024;
	attr->max_qp_rd_atom = 16;
	attr->max_qp_init_rd_atom = 16;
	attr->max_res_rd_atom = 16 * SIMRDMA_MAX_QP;
	attr->max_ah = 1024;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = 15;
	return 0;
}

static int simrdma_query_port(struct ib_device *ibdev, simrdma_port_t port,
			      struct ib_port_attr *attr)
{
	struct simrdma_dev *sd = to_sdev(ibdev);
	enum ib_port_state state;
	int mtu;

	simrdma_port_state(sd, &state, &mtu);
	attr->state = state;
	attr->phys_state = state == IB_PORT_ACTIVE ?
		IB_PORT_PHYS_STATE_LINK_UP : IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = iboe_get_mtu(mtu);
	attr->gid_tbl_len = SIMRDMA_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = 0x80000000;
	attr->pkey_tbl_len = 1;
	attr->lid = 0;
	attr->sm_lid = 0;
	attr->lmc = 0;
	attr->max_vl_num = 1;
	return ib_get_eth_speed(ibdev, port, &attr->active_speed,
				&attr->active_width);
}

static int simrdma_get_port_immutable(struct ib_device *ibdev,
				      simrdma_port_t port,
				      struct ib_port_immutable *immutable)
{
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = 1;
	immutable->gid_tbl_len = SIMRDMA_GID_TBL_LEN;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer simrdma_get_link_layer(struct ib_device *ibdev,
						   simrdma_port_t port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int simrdma_query_pkey(struct ib_device *ibdev, simrdma_port_t port,
			      u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int simrdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int simrdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

static int simrdma_create_cq(struct ib_cq *ibcq,
			     const struct ib_cq_init_attr *attr,
			     SIMRDMA_CQ_UDATA *udata)
{
	if (udata)
		return -EOPNOTSUPP;
	if (attr->flags || !attr->cqe || attr->cqe > 65536)
		return -EINVAL;
	ibcq->cqe = attr->cqe;
	return 0;
}

static int simrdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	return 0;
}

/* No work request completes: there is never a completion to poll. */
static int simrdma_poll_cq(struct ib_cq *ibcq, int num_entries,
			   struct ib_wc *wc)
{
	return 0;
}

static int simrdma_req_notify_cq(struct ib_cq *ibcq,
				 enum ib_cq_notify_flags flags)
{
	return 0;
}

int simrdma_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		      struct ib_udata *udata)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);
	struct simrdma_qp *sq = to_sqp(ibqp);
	int qpn, err;

	if (udata)
		return -EOPNOTSUPP;
	switch (init->qp_type) {
	case IB_QPT_GSI:
		qpn = 1;
		break;
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		qpn = ida_alloc_range(&sd->qpn_ida, SIMRDMA_QPN_FIRST,
				      SIMRDMA_QPN_LAST, GFP_KERNEL);
		if (qpn < 0)
			return qpn;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->cap.max_send_wr > 4096 || init->cap.max_recv_wr > 4096) {
		err = -EINVAL;
		goto err_qpn;
	}
	ibqp->qp_num = qpn;
	sq->state = IB_QPS_RESET;
	sq->cap = init->cap;
	mutex_lock(&sd->lock);
	err = xa_insert(&sd->qps, qpn, sq, GFP_KERNEL);
	mutex_unlock(&sd->lock);
	if (err)
		goto err_qpn;
	simrdma_devx_verb(sd, "create_qp", 0);
	return 0;

err_qpn:
	if (qpn > 1)
		ida_free(&sd->qpn_ida, qpn);
	return err;
}

/* The firmware command mlx5 moves a QP to each state with (devx.c). */
static const char * const simrdma_move_cmds[] = {
	[IB_QPS_RESET] = "2rst", [IB_QPS_INIT] = "rst2init",
	[IB_QPS_RTR] = "init2rtr", [IB_QPS_RTS] = "rtr2rts",
	[IB_QPS_SQD] = "rts2sqd", [IB_QPS_SQE] = "2err",
	[IB_QPS_ERR] = "2err",
};

static int simrdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			     int mask, struct ib_udata *udata)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);
	struct simrdma_qp *sq = to_sqp(ibqp);
	enum ib_qp_state cur, next;
	int err = 0;

	if (udata)
		return -EOPNOTSUPP;
	mutex_lock(&sd->lock);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : sq->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	/* As hardware does: the transition and its attributes are checked. */
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	if ((mask & IB_QP_PORT) && attr->port_num != SIMRDMA_PORT) {
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_PATH_MTU)
		sq->mtu = attr->path_mtu;
	if (mask & IB_QP_DEST_QPN)
		sq->dest_qpn = attr->dest_qp_num;
	if (mask & IB_QP_RQ_PSN)
		sq->rq_psn = attr->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		sq->sq_psn = attr->sq_psn;
	if (mask & IB_QP_ACCESS_FLAGS)
		sq->access = attr->qp_access_flags;
	if (next == IB_QPS_RESET)
		sq->udp_sport = 0;
	simrdma_raw_modify(sq, attr, mask);
	sq->state = next;
out:
	mutex_unlock(&sd->lock);
	if (!err && next != cur && next <= IB_QPS_ERR)
		simrdma_devx_verb(sd, simrdma_move_cmds[next], ibqp->qp_num);
	return err;
}

static int simrdma_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_qp_init_attr *init)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);
	struct simrdma_qp *sq = to_sqp(ibqp);

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	mutex_lock(&sd->lock);
	attr->qp_state = sq->state;
	attr->cur_qp_state = sq->state;
	attr->path_mtu = sq->mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->dest_qp_num = sq->dest_qpn;
	attr->rq_psn = sq->rq_psn;
	attr->sq_psn = sq->sq_psn;
	attr->qp_access_flags = sq->access;
	attr->port_num = SIMRDMA_PORT;
	attr->cap = sq->cap;
	mutex_unlock(&sd->lock);
	init->qp_type = ibqp->qp_type;
	init->cap = attr->cap;
	init->sq_sig_type = IB_SIGNAL_ALL_WR;
	return 0;
}

static int simrdma_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);

	mutex_lock(&sd->lock);
	xa_erase(&sd->qps, ibqp->qp_num);
	mutex_unlock(&sd->lock);
	simrdma_devx_verb(sd, "destroy_qp", ibqp->qp_num);
	if (ibqp->qp_num > 1)
		ida_free(&sd->qpn_ida, ibqp->qp_num);
#ifdef SIMRDMA_DRIVER_ALLOCS_QP
	kfree(to_sqp(ibqp));
#endif
	return 0;
}

#ifdef SIMRDMA_DRIVER_ALLOCS_QP
/* Before 5.15 the driver allocates the QP, and the core sets its device after. */
static struct ib_qp *simrdma_create_qp_alloc(struct ib_pd *pd,
					     struct ib_qp_init_attr *init,
					     struct ib_udata *udata)
{
	struct simrdma_qp *sq = kzalloc(sizeof(*sq), GFP_KERNEL);
	int err;

	if (!sq)
		return ERR_PTR(-ENOMEM);
	sq->ibqp.device = pd->device;
	sq->ibqp.qp_type = init->qp_type;
	err = simrdma_create_qp(&sq->ibqp, init, udata);
	if (err) {
		kfree(sq);
		return ERR_PTR(err);
	}
	return &sq->ibqp;
}
#endif

/* Work requests are taken and never complete (see the top). */
static int simrdma_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			     const struct ib_send_wr **bad_wr)
{
	return 0;
}

static int simrdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			     const struct ib_recv_wr **bad_wr)
{
	return 0;
}

/*
 * Memory regions: none. PDs use the local DMA lkey (IBK_LOCAL_DMA_LKEY),
 * so the RDMA core never asks for a DMA MR; user MRs need user contexts,
 * which the device does not offer.
 */
static struct ib_mr *simrdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static struct ib_mr *simrdma_reg_user_mr(struct ib_pd *ibpd, u64 start,
					 u64 length, u64 virt, int access,
					 SIMRDMA_MR_DMAH_PARAM
					 struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static int simrdma_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	return -EINVAL;
}

const struct ib_device_ops simrdma_verbs_ops = {
	.query_device = simrdma_query_device,
	.query_port = simrdma_query_port,
	.get_port_immutable = simrdma_get_port_immutable,
	.get_link_layer = simrdma_get_link_layer,
	.query_pkey = simrdma_query_pkey,
	.alloc_pd = simrdma_alloc_pd,
	.dealloc_pd = simrdma_dealloc_pd,
	.create_cq = simrdma_create_cq,
	.destroy_cq = simrdma_destroy_cq,
	.poll_cq = simrdma_poll_cq,
	.req_notify_cq = simrdma_req_notify_cq,
#ifdef SIMRDMA_DRIVER_ALLOCS_QP
	.create_qp = simrdma_create_qp_alloc,
#else
	.create_qp = simrdma_create_qp,
#endif
	.modify_qp = simrdma_modify_qp,
	.query_qp = simrdma_query_qp,
	.destroy_qp = simrdma_destroy_qp,
	.post_send = simrdma_post_send,
	.post_recv = simrdma_post_recv,
	.get_dma_mr = simrdma_get_dma_mr,
	.reg_user_mr = simrdma_reg_user_mr,
	.dereg_mr = simrdma_dereg_mr,

	INIT_RDMA_OBJ_SIZE(ib_pd, simrdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, simrdma_cq, ibcq),
#ifndef SIMRDMA_DRIVER_ALLOCS_QP
	INIT_RDMA_OBJ_SIZE(ib_qp, simrdma_qp, ibqp),
#endif
};
