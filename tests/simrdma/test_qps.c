// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: kernel QPs on demand (debugfs "qps"), created and moved through
 * their states with the RDMA core's exported verbs, as a kernel ULP's are:
 * whatever watches those verbs sees them as any kernel QP. RC QPs reach
 * RTR over a loopback path (to themselves) from the port's first RoCE v2
 * IPv4 GID, with the traffic class the test asks for; UC QPs the same
 * way, with UC's attributes.
 * The PD and CQ are made with the first QP; everything is released when
 * the device goes (the client's remove) or on "destroy all".
 */
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include "simrdma.h"

static int simrdma_test_res(struct simrdma_dev *sd)
{
	struct ib_cq_init_attr cq_attr = { .cqe = 1024 };
	struct ib_pd *pd;
	struct ib_cq *cq;

	if (sd->pd)
		return 0;
	pd = ib_alloc_pd(&sd->ibdev, 0);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	cq = ib_create_cq(&sd->ibdev, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(cq)) {
		ib_dealloc_pd(pd);
		return PTR_ERR(cq);
	}
	sd->pd = pd;
	sd->cq = cq;
	return 0;
}

int simrdma_test_qps_create(struct simrdma_dev *sd, unsigned int n,
			    enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp;
	unsigned int i;
	int err;

	mutex_lock(&sd->test_lock);
	err = sd->removing ? -ENODEV : simrdma_test_res(sd);
	for (i = 0; !err && i < n; i++) {
		init.send_cq = sd->cq;
		init.recv_cq = sd->cq;
		qp = ib_create_qp(sd->pd, &init);
		if (IS_ERR(qp)) {
			err = PTR_ERR(qp);
			break;
		}
		err = xa_insert(&sd->test_qps, qp->qp_num, qp, GFP_KERNEL);
		if (err)
			ib_destroy_qp(qp);
	}
	mutex_unlock(&sd->test_lock);
	return err;
}

/* The first RoCE v2 GID of an IPv4 address: the loopback path's. */
static int simrdma_v2_gid(struct simrdma_dev *sd, union ib_gid *gid,
			  u8 *index)
{
	const struct ib_gid_attr *attr;
	int i;

	for (i = 0; i < SIMRDMA_GID_TBL_LEN; i++) {
		attr = rdma_get_gid_attr(&sd->ibdev, SIMRDMA_PORT, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    ipv6_addr_v4mapped((struct in6_addr *)attr->gid.raw)) {
			*gid = attr->gid;
			*index = i;
			rdma_put_gid_attr(attr);
			return 0;
		}
		rdma_put_gid_attr(attr);
	}
	return -ENODATA;
}

/* One step from the QP's state towards TO, with what each step needs. */
static int simrdma_step(struct simrdma_dev *sd, struct ib_qp *qp,
			enum ib_qp_state cur, enum ib_qp_state to, u8 tclass)
{
	struct ib_qp_attr attr = {};
	struct net_device *ndev;
	union ib_gid gid;
	int mask = IB_QP_STATE;
	u8 sgid;
	int err;

	if (to == IB_QPS_RESET || to == IB_QPS_ERR || cur == to) {
		attr.qp_state = to;
		return ib_modify_qp(qp, &attr, mask);
	}
	switch (cur) {
	case IB_QPS_RESET:
		attr.qp_state = IB_QPS_INIT;
		attr.pkey_index = 0;
		attr.port_num = SIMRDMA_PORT;
		/* UC has no RDMA read. */
		attr.qp_access_flags = IB_ACCESS_REMOTE_WRITE;
		if (qp->qp_type == IB_QPT_RC)
			attr.qp_access_flags |= IB_ACCESS_REMOTE_READ;
		mask |= IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS;
		break;
	case IB_QPS_INIT:
		err = simrdma_v2_gid(sd, &gid, &sgid);
		if (err)
			return err;
		attr.qp_state = IB_QPS_RTR;
		attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_port_num(&attr.ah_attr, SIMRDMA_PORT);
		rdma_ah_set_grh(&attr.ah_attr, &gid, 0, sgid, 64, tclass);
		mutex_lock(&sd->lock);
		ndev = sd->netdev;
		if (ndev)
			ether_addr_copy(attr.ah_attr.roce.dmac, ndev->dev_addr);
		mutex_unlock(&sd->lock);
		if (!ndev)
			return -ENODEV;
		attr.path_mtu = IB_MTU_1024;
		attr.dest_qp_num = qp->qp_num;
		attr.rq_psn = 0;
		mask |= IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			IB_QP_RQ_PSN;
		/* What only RC has: reads and atomics, RNR NAKs. */
		if (qp->qp_type == IB_QPT_RC) {
			attr.max_dest_rd_atomic = 1;
			attr.min_rnr_timer = 12;
			mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
		}
		break;
	case IB_QPS_RTR:
		attr.qp_state = IB_QPS_RTS;
		attr.sq_psn = 0;
		mask |= IB_QP_SQ_PSN;
		if (qp->qp_type == IB_QPT_RC) {
			attr.timeout = 14;
			attr.retry_cnt = 7;
			attr.rnr_retry = 7;
			attr.max_rd_atomic = 1;
			mask |= IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
				IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC;
		}
		break;
	default:
		return -EINVAL;
	}
	return ib_modify_qp(qp, &attr, mask);
}

static int simrdma_move(struct simrdma_dev *sd, struct ib_qp *qp,
			enum ib_qp_state to, u8 tclass)
{
	enum ib_qp_state cur;
	int err;

	do {
		mutex_lock(&sd->lock);
		cur = to_sqp(qp)->state;
		mutex_unlock(&sd->lock);
		if (cur == to)
			return 0;
		if (to != IB_QPS_RESET && to != IB_QPS_ERR && cur > to)
			return -EINVAL;	/* forward only, or to RESET/ERR */
		err = simrdma_step(sd, qp, cur, to, tclass);
	} while (!err);
	return err;
}

int simrdma_test_qps_modify(struct simrdma_dev *sd, u32 qpn, bool all,
			    enum ib_qp_state to, u8 tclass)
{
	unsigned long i;
	struct ib_qp *qp;
	int err = 0;

	mutex_lock(&sd->test_lock);
	if (all) {
		xa_for_each(&sd->test_qps, i, qp) {
			err = simrdma_move(sd, qp, to, tclass);
			if (err)
				break;
		}
	} else {
		qp = xa_load(&sd->test_qps, qpn);
		err = qp ? simrdma_move(sd, qp, to, tclass) : -ENOENT;
	}
	mutex_unlock(&sd->test_lock);
	return err;
}

static void simrdma_destroy_all(struct simrdma_dev *sd)
{
	unsigned long i;
	struct ib_qp *qp;

	xa_for_each(&sd->test_qps, i, qp) {
		xa_erase(&sd->test_qps, i);
		ib_destroy_qp(qp);
	}
}

int simrdma_test_qps_destroy(struct simrdma_dev *sd, u32 qpn, bool all)
{
	struct ib_qp *qp;
	int err = 0;

	mutex_lock(&sd->test_lock);
	if (all) {
		simrdma_destroy_all(sd);
	} else {
		qp = xa_erase(&sd->test_qps, qpn);
		if (qp)
			err = ib_destroy_qp(qp);
		else
			err = -ENOENT;
	}
	mutex_unlock(&sd->test_lock);
	return err;
}

/*
 * An asynchronous event on QP qpn, raised as drivers raise theirs: the
 * QP's event_handler called directly, if it has one (a kernel QP made
 * without a handler has none before Linux 6.12, where the RDMA core puts
 * its own wrapper on every QP). -ENOENT: no such test QP.
 */
int simrdma_test_qp_event(struct simrdma_dev *sd, u32 qpn,
			  enum ib_event_type type)
{
	struct ib_event ev = { .device = &sd->ibdev, .event = type };
	struct ib_qp *qp;
	int err = 0;

	mutex_lock(&sd->test_lock);
	qp = xa_load(&sd->test_qps, qpn);
	if (!qp) {
		err = -ENOENT;
	} else if (qp->event_handler) {
		ev.element.qp = qp;
		qp->event_handler(&ev, qp->qp_context);
	}
	mutex_unlock(&sd->test_lock);
	return err;
}

/* The device is going: its QPs, CQ and PD go first, while it still works. */
void simrdma_test_qps_release(struct simrdma_dev *sd)
{
	mutex_lock(&sd->test_lock);
	sd->removing = true;
	simrdma_destroy_all(sd);
	if (sd->cq)
		ib_destroy_cq(sd->cq);
	if (sd->pd)
		ib_dealloc_pd(sd->pd);
	sd->cq = NULL;
	sd->pd = NULL;
	mutex_unlock(&sd->test_lock);
}
