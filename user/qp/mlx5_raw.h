/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5's raw QP context, as its driver hands it to the RDMA netlink
 * (fill_res_qp_entry_raw, RDMA_NLDEV_ATTR_RES_RAW of
 * RDMA_NLDEV_CMD_RES_QP_GET_RAW): the firmware's resource dump of the QP,
 * segment PRM_QUERY_QP, copied as the firmware wrote it. A dump is a run
 * of segments, each a header dword (length_dw: the segment's length in
 * dwords, header included; segment_type) and its body: an info segment,
 * the command segment (the segment called and its index1, the QPN), the
 * resource segment (index1, index2, then the QUERY_QP command's output,
 * struct mlx5_ifc_query_qp_out_bits) and a terminate segment.
 *
 * Offsets below are in bytes, in the layouts of linux/mlx5/mlx5_ifc.h; the
 * unit tests check each against that header (tests/unit/mlx5/raw_test.c).
 * The segment type numbers are the firmware's (mlx5_ifc.h has none): those
 * of NVIDIA's resource dump tool (mstflint's resourcedump), resources
 * numbered 0x0000-0xfeff, the firmware's own segments above.
 */
#ifndef ROCECTL_MLX5_RAW_H
#define ROCECTL_MLX5_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* struct mlx5_ifc_resource_dump_segment_header_bits: one dword. */
#define MLX5_RAW_SEG_HDR_BYTES		4
/* resource_dump_command_segment: segment_called, index1. */
#define MLX5_RAW_CMD_CALLED		4	/* 16 bits */
#define MLX5_RAW_CMD_INDEX1		8	/* 32 bits */
/* resource_dump_resource_segment: index1, payload. */
#define MLX5_RAW_RES_INDEX1		8	/* 32 bits */
#define MLX5_RAW_RES_PAYLOAD		16
/*
 * In the payload, query_qp_out: qpc at byte 24; in qpc,
 * primary_address_path (struct ads) at byte 24; in ads, udp_sport (16
 * bits) at byte 34.
 */
#define MLX5_RAW_QP_OUT_QPC		24
#define MLX5_RAW_QPC_PRIMARY_PATH	24
#define MLX5_RAW_ADS_UDP_SPORT		34
#define MLX5_RAW_QP_OUT_UDP_SPORT	(MLX5_RAW_QP_OUT_QPC + MLX5_RAW_QPC_PRIMARY_PATH + \
					 MLX5_RAW_ADS_UDP_SPORT)

/* The firmware's segment types. */
#define MLX5_RAW_SEG_RESOURCE_MAX	0xfeff
#define MLX5_RAW_SEG_COMMAND		0xfffa
#define MLX5_RAW_SEG_TERMINATE		0xfffb

/*
 * The QPN and the UDP source port (qpc.primary_address_path.udp_sport) in
 * one raw QP context of len bytes: 0, or -1 where it holds no QP context
 * (no resource segment, one too short for the port, a resource segment
 * that is not the one the command segment called, a segment other than
 * the resource segment running past the end). A port of 0 is the QP's: one the hardware has none for (no
 * path set yet, or not a RoCE v2 connected QP).
 */
int mlx5_raw_qp_sport(const void *raw, size_t len, uint32_t *qpn,
		      uint16_t *sport);

#endif /* ROCECTL_MLX5_RAW_H */
