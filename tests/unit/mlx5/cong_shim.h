/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/mlx5/cong.c and qp_cmd.c take from <linux/kernel.h> and
 * <linux/limits.h> (which mlx5/driver.h brings in the kernel) beyond
 * mlx5_shim.h: the Makefile force-includes this for those two only, so
 * that ifc.c and port.c stay compiled with exactly the shim they were
 * written against.
 */
#ifndef ROCECTL_MLX5_CONG_SHIM_H
#define ROCECTL_MLX5_CONG_SHIM_H

#define U32_MAX		((u32)~0U)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
