// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/mlx5_raw.c, the UDP source port in mlx5's raw QP context: its
 * offsets against linux/mlx5/mlx5_ifc.h as ifc_layout.py parsed it, and
 * its parse of dumps written here at those offsets, segment by segment.
 */
#include <string.h>

#include "../../../user/qp/mlx5_raw.h"
#define ROCECTL_MLX5_TEST_INTERNAL
#include "mlx5_test.h"

#define SEG_TYPE_FW	0x4000	/* PRM_QUERY_QP in a ConnectX-6 Dx's menu */

static void offsets(struct mlx5_t *t)
{
	static const struct { const char *name; unsigned int ours, ifc, ours_w, ifc_w; } o[] = {
		{ "segment header", MLX5_RAW_SEG_HDR_BYTES * 8, IFC_SZ_resource_dump_segment_header, 0, 0 },
		{ "length_dw", 0, IFC_OFF_resource_dump_segment_header__length_dw,
		  16, IFC_W_resource_dump_segment_header__length_dw },
		{ "segment_type", 16, IFC_OFF_resource_dump_segment_header__segment_type,
		  16, IFC_W_resource_dump_segment_header__segment_type },
		{ "command segment_called", MLX5_RAW_CMD_CALLED * 8,
		  IFC_OFF_resource_dump_command_segment__segment_called,
		  16, IFC_W_resource_dump_command_segment__segment_called },
		{ "command index1", MLX5_RAW_CMD_INDEX1 * 8, IFC_OFF_resource_dump_command_segment__index1,
		  32, IFC_W_resource_dump_command_segment__index1 },
		{ "resource index1", MLX5_RAW_RES_INDEX1 * 8, IFC_OFF_resource_dump_resource_segment__index1,
		  32, IFC_W_resource_dump_resource_segment__index1 },
		{ "resource payload", MLX5_RAW_RES_PAYLOAD * 8, IFC_OFF_resource_dump_resource_segment__payload, 0, 0 },
		{ "query_qp_out.qpc", MLX5_RAW_QP_OUT_QPC * 8, IFC_OFF_query_qp_out__qpc, 0, 0 },
		{ "qpc.primary_address_path", MLX5_RAW_QPC_PRIMARY_PATH * 8,
		  IFC_OFF_qpc__primary_address_path, 0, 0 },
		{ "ads.udp_sport", MLX5_RAW_ADS_UDP_SPORT * 8, IFC_OFF_ads__udp_sport, 16, IFC_W_ads__udp_sport },
	};
	size_t i;

	for (i = 0; i < IFC_COUNT(o); i++)
		if (o[i].ours != o[i].ifc || o[i].ours_w != o[i].ifc_w)
			fail(t, "%s: bit %u (%u wide), mlx5_ifc.h has bit %u (%u wide)",
			     o[i].name, o[i].ours, o[i].ours_w, o[i].ifc, o[i].ifc_w);
	done(t, "raw QP context: user/qp/mlx5_raw.h's offsets are mlx5_ifc.h's");
}

/* A dump as the firmware lays it out: info, command, resource, terminate. */
struct dump {
	unsigned char b[1024] ALIGNED;
	size_t len;
};

static unsigned char *seg_add(struct dump *d, unsigned int bits, unsigned int type)
{
	unsigned char *s = d->b + d->len;

	bits_set(s, F(resource_dump_segment_header, length_dw), bits / 32);
	bits_set(s, F(resource_dump_segment_header, segment_type), type);
	d->len += bits / 8;
	return s;
}

static void dump_build(struct dump *d, unsigned int called, unsigned int type,
		       unsigned int qpn, unsigned int sport)
{
	unsigned char *s;

	memset(d, 0, sizeof(*d));
	s = seg_add(d, IFC_SZ_resource_dump_info_segment, 0xfffe);
	bits_set(s, F(resource_dump_info_segment, dump_version), 1);
	s = seg_add(d, IFC_SZ_resource_dump_command_segment, MLX5_RAW_SEG_COMMAND);
	bits_set(s, F(resource_dump_command_segment, segment_called), called);
	bits_set(s, F(resource_dump_command_segment, index1), qpn);
	bits_set(s, F(resource_dump_command_segment, num_of_obj1), 1);
	s = seg_add(d, IFC_SZ_resource_dump_resource_segment + IFC_SZ_query_qp_out, type);
	bits_set(s, F(resource_dump_resource_segment, index1), qpn);
	bits_set(s, IFC_OFF_resource_dump_resource_segment__payload + IFC_OFF_query_qp_out__qpc +
		 IFC_OFF_qpc__primary_address_path + IFC_OFF_ads__udp_sport, IFC_W_ads__udp_sport, sport);
	seg_add(d, IFC_SZ_resource_dump_terminate_segment, MLX5_RAW_SEG_TERMINATE);
}

static void parse(struct mlx5_t *t)
{
	struct dump d;
	uint32_t qpn = 0;
	uint16_t sport = 0;
	int r;

	dump_build(&d, SEG_TYPE_FW, SEG_TYPE_FW, 0x12345, 0xc0de);
	r = mlx5_raw_qp_sport(d.b, d.len, &qpn, &sport);
	if (r || qpn != 0x12345 || sport != 0xc0de)
		fail(t, "got %d qpn %#x sport %#x, want 0 qpn 0x12345 sport 0xc0de", r, qpn, sport);
	/* Bytes past the terminate segment are not read. */
	r = mlx5_raw_qp_sport(d.b, d.len + 8, &qpn, &sport);
	if (r || sport != 0xc0de)
		fail(t, "with trailing bytes: got %d sport %#x", r, sport);
	done(t, "raw QP context: QPN and udp_sport of a PRM_QUERY_QP dump");

	/* A dump cut inside the resource segment before the port has none ... */
	r = mlx5_raw_qp_sport(d.b, IFC_SZ_resource_dump_info_segment / 8 +
			      IFC_SZ_resource_dump_command_segment / 8 + 40, &qpn, &sport);
	if (r != -1)
		fail(t, "cut dump: got %d, want -1", r);
	/* ... after it (mlx5_ib copies 1 KiB at most), the port as far as it goes. */
	r = mlx5_raw_qp_sport(d.b, IFC_SZ_resource_dump_info_segment / 8 +
			      IFC_SZ_resource_dump_command_segment / 8 +
			      IFC_SZ_resource_dump_resource_segment / 8 + 100, &qpn, &sport);
	if (r || sport != 0xc0de)
		fail(t, "dump cut after the port: got %d sport %#x, want 0 0xc0de", r, sport);
	/* A resource segment the command did not call is not the QP's. */
	dump_build(&d, SEG_TYPE_FW, SEG_TYPE_FW + 1, 7, 0xc001);
	r = mlx5_raw_qp_sport(d.b, d.len, &qpn, &sport);
	if (r != -1)
		fail(t, "other segment type: got %d, want -1", r);
	/* A zero length would loop: refused. */
	dump_build(&d, SEG_TYPE_FW, SEG_TYPE_FW, 7, 0xc001);
	bits_set(d.b, F(resource_dump_segment_header, length_dw), 0);
	r = mlx5_raw_qp_sport(d.b, d.len, &qpn, &sport);
	if (r != -1)
		fail(t, "zero-length segment: got %d, want -1", r);
	/* Nothing but the firmware's own segments. */
	r = mlx5_raw_qp_sport(d.b, 0, &qpn, &sport);
	if (r != -1)
		fail(t, "empty: got %d, want -1", r);
	done(t, "raw QP context: cut before the port, foreign, looping and empty dumps give no port; cut after it, the port");
}

void mlx5_raw_tests(struct mlx5_t *t)
{
	offsets(t);
	parse(t);
}
