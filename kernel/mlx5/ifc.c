// SPDX-License-Identifier: GPL-2.0
/* Encoding and decoding of PPCNT and PFCC (see ifc.h). */
#include "ifc.h"

static u64 rm5_u64(u32 high, u32 low)
{
	return (u64)high << 32 | low;
}

void rm5_ppcnt_prio_query(u32 *in, u8 local_port, u8 prio)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(ppcnt_reg));
	MLX5_SET(ppcnt_reg, in, local_port, local_port);
	MLX5_SET(ppcnt_reg, in, grp, MLX5_PER_PRIORITY_COUNTERS_GROUP);
	MLX5_SET(ppcnt_reg, in, prio_tc, prio);
}

void rm5_ppcnt_prio_decode(const u32 *out, struct rm5_prio_counters *c)
{
	const void *set = MLX5_ADDR_OF(ppcnt_reg, out, counter_set);

	/* Each 64-bit counter is a big-endian high/low pair of dwords. */
#define RM5_CTR(fld) rm5_u64(MLX5_GET(eth_per_prio_grp_data_layout, set, fld##_high), \
			     MLX5_GET(eth_per_prio_grp_data_layout, set, fld##_low))
	c->rx_frames = RM5_CTR(rx_frames);
	c->tx_frames = RM5_CTR(tx_frames);
	c->rx_pause = RM5_CTR(rx_pause);
	c->tx_pause = RM5_CTR(tx_pause);
	c->rx_pause_us = RM5_CTR(rx_pause_duration);
	c->tx_pause_us = RM5_CTR(tx_pause_duration);
	c->stall_minor = RM5_CTR(device_stall_minor_watermark_cnt);
	c->stall_critical = RM5_CTR(device_stall_critical_watermark_cnt);
#undef RM5_CTR
}

void rm5_pfcc_query(u32 *in, u8 local_port)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(pfcc_reg));
	MLX5_SET(pfcc_reg, in, local_port, local_port);
}

void rm5_pfcc_decode(const u32 *out, struct rm5_pfcc *p)
{
	p->pfctx = MLX5_GET(pfcc_reg, out, pfctx);
	p->pfcrx = MLX5_GET(pfcc_reg, out, pfcrx);
	p->pptx = MLX5_GET(pfcc_reg, out, pptx);
	p->pprx = MLX5_GET(pfcc_reg, out, pprx);
	p->stall_minor_ms = MLX5_GET(pfcc_reg, out, device_stall_minor_watermark);
	p->stall_critical_ms = MLX5_GET(pfcc_reg, out, device_stall_critical_watermark);
}

void rm5_pfcc_set_pfc(u32 *in, u8 local_port, const struct rm5_pfcc *cur,
		      u8 tx_en, u8 rx_en, u8 tx_mask, u8 rx_mask, bool masks)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(pfcc_reg));
	MLX5_SET(pfcc_reg, in, local_port, local_port);
	MLX5_SET(pfcc_reg, in, pfctx, (cur->pfctx & ~tx_mask) | (tx_en & tx_mask));
	MLX5_SET(pfcc_reg, in, pfcrx, (cur->pfcrx & ~rx_mask) | (rx_en & rx_mask));
	if (masks) {
		MLX5_SET(pfcc_reg, in, prio_mask_tx, tx_mask);
		MLX5_SET(pfcc_reg, in, prio_mask_rx, rx_mask);
		/* Global pause and pause-ability negotiation: not ours. */
		MLX5_SET(pfcc_reg, in, pptx_mask_n, 1);
		MLX5_SET(pfcc_reg, in, pprx_mask_n, 1);
		MLX5_SET(pfcc_reg, in, ppan_mask_n, 1);
	} else {
		/* The PFC bits change only where prio_mask says so: all. */
		MLX5_SET_TO_ONES(pfcc_reg, in, prio_mask_tx);
		MLX5_SET_TO_ONES(pfcc_reg, in, prio_mask_rx);
		MLX5_SET(pfcc_reg, in, pptx, cur->pptx);
		MLX5_SET(pfcc_reg, in, pprx, cur->pprx);
	}
}
