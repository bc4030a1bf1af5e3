// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: each QP's raw context, in mlx5's layout (fill_res_qp_entry_raw,
 * what "rdma res show qp -r" prints): the resource dump mlx5_ib copies from
 * the firmware for segment PRM_QUERY_QP -- an info segment, the command
 * segment, the resource segment holding the QUERY_QP output, a terminate
 * segment -- written with linux/mlx5/mlx5_ifc.h's own layouts. It carries
 * the QPN, the remote QPN and the path's UDP source port: the one the
 * kernel's rule gives at the modify to RTR, as mlx5_ib sets it, until the
 * test changes it behind the kernel's back (debugfs qps "sport QPN PORT",
 * as mlx5dv_modify_qp_udp_sport() or DevX would).
 */
#include <linux/mlx5/device.h>
#include <net/netlink.h>
#include <rdma/rdma_netlink.h>
#include "simrdma.h"

/*
 * The firmware's segment types: its own segments' as NVIDIA's resource
 * dump tool (mstflint) numbers them; PRM_QUERY_QP's is what one
 * ConnectX-6 Dx's menu gives it (each firmware names its own in the menu).
 */
#define SIMRDMA_SEG_COMMAND	0xfffa
#define SIMRDMA_SEG_TERMINATE	0xfffb
#define SIMRDMA_SEG_INFO	0xfffe
#define SIMRDMA_SEG_PRM_QUERY_QP 0x4000

#define SIMRDMA_RAW_DW (MLX5_ST_SZ_DW(resource_dump_info_segment) + \
			MLX5_ST_SZ_DW(resource_dump_command_segment) + \
			MLX5_ST_SZ_DW(resource_dump_resource_segment) + \
			MLX5_ST_SZ_DW(query_qp_out) + \
			MLX5_ST_SZ_DW(resource_dump_terminate_segment))

static void *simrdma_seg(u32 *p, unsigned int dw, u16 type)
{
	MLX5_SET(resource_dump_segment_header, p, length_dw, dw);
	MLX5_SET(resource_dump_segment_header, p, segment_type, type);
	return p;
}

/*
 * The rule's port at a modify carrying the primary path and the remote
 * QPN, where mlx5_set_path() sets it: connected QPs over a RoCE v2 GID.
 */
void simrdma_raw_modify(struct simrdma_qp *sq, const struct ib_qp_attr *attr,
			int mask)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(&attr->ah_attr);
	enum ib_qp_type type = sq->ibqp.qp_type;
	u32 fl;

	if (!(mask & IB_QP_AV) || !(mask & IB_QP_DEST_QPN) ||
	    !(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH) ||
	    !grh->sgid_attr || grh->sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return;
	if (type != IB_QPT_RC && type != IB_QPT_UC && type != IB_QPT_XRC_INI &&
	    type != IB_QPT_XRC_TGT)
		return;
	fl = grh->flow_label ?: rdma_calc_flow_label(sq->ibqp.qp_num, attr->dest_qp_num);
	sq->udp_sport = rdma_flow_label_to_udp_sport(fl);
}

#ifdef SIMRDMA_RAW_QP
static int simrdma_fill_res_qp_entry_raw(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);
	struct simrdma_qp *sq = to_sqp(ibqp);
	u32 *raw, *p;
	void *qpc, *path;
	int err;

	raw = kzalloc(SIMRDMA_RAW_DW * 4, GFP_KERNEL);
	if (!raw)
		return -ENOMEM;
	p = simrdma_seg(raw, MLX5_ST_SZ_DW(resource_dump_info_segment), SIMRDMA_SEG_INFO);
	MLX5_SET(resource_dump_info_segment, p, dump_version, 1);
	p += MLX5_ST_SZ_DW(resource_dump_info_segment);

	simrdma_seg(p, MLX5_ST_SZ_DW(resource_dump_command_segment), SIMRDMA_SEG_COMMAND);
	MLX5_SET(resource_dump_command_segment, p, segment_called, SIMRDMA_SEG_PRM_QUERY_QP);
	MLX5_SET(resource_dump_command_segment, p, index1, ibqp->qp_num);
	MLX5_SET(resource_dump_command_segment, p, num_of_obj1, 1);
	p += MLX5_ST_SZ_DW(resource_dump_command_segment);

	simrdma_seg(p, MLX5_ST_SZ_DW(resource_dump_resource_segment) +
		    MLX5_ST_SZ_DW(query_qp_out), SIMRDMA_SEG_PRM_QUERY_QP);
	MLX5_SET(resource_dump_resource_segment, p, index1, ibqp->qp_num);
	p += MLX5_ST_SZ_DW(resource_dump_resource_segment);
	qpc = MLX5_ADDR_OF(query_qp_out, p, qpc);
	path = MLX5_ADDR_OF(qpc, qpc, primary_address_path);
	mutex_lock(&sd->lock);
	MLX5_SET(qpc, qpc, remote_qpn, sq->dest_qpn);
	MLX5_SET(ads, path, udp_sport, sq->udp_sport);
	mutex_unlock(&sd->lock);
	p += MLX5_ST_SZ_DW(query_qp_out);

	simrdma_seg(p, MLX5_ST_SZ_DW(resource_dump_terminate_segment), SIMRDMA_SEG_TERMINATE);
	err = nla_put(msg, RDMA_NLDEV_ATTR_RES_RAW, SIMRDMA_RAW_DW * 4, raw);
	kfree(raw);
	return err;
}
#endif

const struct ib_device_ops simrdma_raw_ops = {
#ifdef SIMRDMA_RAW_QP
	.fill_res_qp_entry_raw = simrdma_fill_res_qp_entry_raw,
#endif
};

/* mlx5's driver id, for the tests that ask for it (module parameter). */
const struct ib_device_ops simrdma_mlx5_id_ops = {
	.driver_id = RDMA_DRIVER_MLX5,
};

/* The test's change behind the kernel's back: one QP's port, as is. */
int simrdma_raw_set_sport(struct simrdma_dev *sd, u32 qpn, u16 sport)
{
	struct simrdma_qp *sq;
	int err = 0;

	mutex_lock(&sd->lock);
	sq = xa_load(&sd->qps, qpn);
	if (sq)
		sq->udp_sport = sport;
	else
		err = -ENOENT;
	mutex_unlock(&sd->lock);
	return err;
}
