// SPDX-License-Identifier: GPL-2.0
/* The UDP source port in mlx5's raw QP context (see mlx5_raw.h). */
#include "mlx5_raw.h"

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int mlx5_raw_qp_sport(const void *raw, size_t len, uint32_t *qpn,
		      uint16_t *sport)
{
	const uint8_t *p = raw, *res = NULL;
	size_t off = 0, seg, res_len = 0;
	bool called = false;
	uint16_t type, want = 0;

	while (off + MLX5_RAW_SEG_HDR_BYTES <= len) {
		/* length_dw is the header dword's high half, segment_type its low. */
		seg = (size_t)be16_at(p + off) * 4;
		type = be16_at(p + off + 2);
		if (seg < MLX5_RAW_SEG_HDR_BYTES)
			return -1;
		/*
		 * mlx5_ib copies at most 1 KiB of the dump: a resource
		 * segment (its QP's page list last) may be cut short, and
		 * is read as far as it goes.
		 */
		if (seg > len - off) {
			if (type > MLX5_RAW_SEG_RESOURCE_MAX || res)
				return -1;
			seg = len - off;
		}
		if (type == MLX5_RAW_SEG_TERMINATE)
			break;
		if (type == MLX5_RAW_SEG_COMMAND && seg >= MLX5_RAW_CMD_INDEX1 + 4) {
			want = be16_at(p + off + MLX5_RAW_CMD_CALLED);
			called = true;
		} else if (type <= MLX5_RAW_SEG_RESOURCE_MAX && !res) {
			res = p + off;
			res_len = seg;
			if (called && type != want)
				return -1;
		}
		off += seg;
	}
	if (!res || res_len < MLX5_RAW_RES_PAYLOAD + MLX5_RAW_QP_OUT_UDP_SPORT + 2)
		return -1;
	*qpn = be32_at(res + MLX5_RAW_RES_INDEX1);
	*sport = be16_at(res + MLX5_RAW_RES_PAYLOAD + MLX5_RAW_QP_OUT_UDP_SPORT);
	return 0;
}
