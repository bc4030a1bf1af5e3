/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mlx5 registers rocectl_mlx5 reads and writes, encoded and decoded
 * with the layouts of linux/mlx5/mlx5_ifc.h. Pure functions on buffers:
 * the unit tests compile this file in user space against the same header.
 */
#ifndef _ROCECTL_MLX5_IFC_H
#define _ROCECTL_MLX5_IFC_H

#ifdef __KERNEL__
#include <linux/mlx5/driver.h>	/* MLX5_REG_*, and device.h, mlx5_ifc.h */
#else
#include "mlx5_shim.h"		/* tests/unit/mlx5: kernel types, MLX5_SET/GET */
#endif

#define RM5_PPCNT_DW	MLX5_ST_SZ_DW(ppcnt_reg)
#define RM5_PFCC_DW	MLX5_ST_SZ_DW(pfcc_reg)

/* PPCNT, per-priority group (0x10): one priority's port counters. */
struct rm5_prio_counters {
	u64 rx_frames, tx_frames;		/* data frames */
	u64 rx_pause, tx_pause;			/* pause frames */
	u64 rx_pause_us, tx_pause_us;		/* pause duration, microseconds */
	u64 stall_minor, stall_critical;	/* NIC stall prevention events */
};

/* PFCC: per-priority flow control, both directions, stall watermarks. */
struct rm5_pfcc {
	u8 pfctx, pfcrx;	/* PFC generated / honoured, bit per priority */
	u8 pptx, pprx;		/* global pause */
	u16 stall_minor_ms, stall_critical_ms;
};

void rm5_ppcnt_prio_query(u32 *in, u8 local_port, u8 prio);
void rm5_ppcnt_prio_decode(const u32 *out, struct rm5_prio_counters *c);
void rm5_pfcc_query(u32 *in, u8 local_port);
void rm5_pfcc_decode(const u32 *out, struct rm5_pfcc *p);
/*
 * A PFCC write that changes the PFC bits in tx_mask/rx_mask only. With
 * masks (the PCAM pfcc_mask feature) the NIC leaves every other priority,
 * global pause and the stall watermarks alone; without, prio_mask selects
 * every priority and the whole of both masks and global pause are written,
 * from cur.
 */
void rm5_pfcc_set_pfc(u32 *in, u8 local_port, const struct rm5_pfcc *cur,
		      u8 tx_en, u8 rx_en, u8 tx_mask, u8 rx_mask, bool masks);

#endif /* _ROCECTL_MLX5_IFC_H */
