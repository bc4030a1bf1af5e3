/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/mlx5/ifc.c and port.c need from the kernel, for compiling
 * them in user space (kernel/mlx5/ifc.h includes this when __KERNEL__ is
 * not defined). The register layouts are not copied: the real
 * <linux/mlx5/mlx5_ifc.h> of the headers package is included at the end,
 * found through the -idirafter the Makefile gives (after the system
 * headers, so that <linux/types.h> stays the user-space one).
 */
#ifndef ROCECTL_MLX5_SHIM_H
#define ROCECTL_MLX5_SHIM_H

#include <endian.h>
#include <errno.h>		/* EOPNOTSUPP, EIO, ETIMEDOUT, EREMOTEIO... */
#include <stdbool.h>
#include <stddef.h>		/* offsetof */
#include <stdint.h>
#include <string.h>		/* memset */
/* u8..u64 and __be16/32/64: mlx5/linux/types.h, on top of user space's. */
#include <linux/types.h>

#define cpu_to_be16(x)	((__be16)htobe16(x))
#define be16_to_cpu(x)	be16toh((__u16)(x))
#define cpu_to_be32(x)	((__be32)htobe32(x))
#define be32_to_cpu(x)	be32toh((__u32)(x))
#define cpu_to_be64(x)	((__be64)htobe64(x))
#define be64_to_cpu(x)	be64toh((__u64)(x))

/* 5.10's mlx5_ifc_fpga.h has plain C structs beside the layouts. */
#define __packed		__attribute__((packed))
/* 6.4 on: a flexible array in a union, as the kernel's stddef.h has it. */
#define DECLARE_FLEX_ARRAY(TYPE, NAME) \
	struct { struct { } __empty_ ## NAME; TYPE NAME[]; }
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))

/* include/linux/mlx5/driver.h (enum of register ids); checked by the test. */
#define MLX5_REG_PFCC		0x5007
#define MLX5_REG_PPCNT		0x5008
/* include/linux/mlx5/device.h (enum of PPCNT groups); checked by the test. */
#define MLX5_PER_PRIORITY_COUNTERS_GROUP	0x10
/* include/linux/mlx5/qp.h (a modify's optional parameters); checked by the test. */
#define MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH	(1 << 7)
#define MLX5_QP_OPTPAR_COUNTER_SET_ID		(1 << 25)

/*
 * From include/linux/mlx5/device.h of linux-headers-6.1.0-57-common
 * (Debian 6.1.192-3), verbatim but for the ones not used here.
 */
#define __mlx5_nullp(typ) ((struct mlx5_ifc_##typ##_bits *)0)
#define __mlx5_bit_sz(typ, fld) sizeof(__mlx5_nullp(typ)->fld)
#define __mlx5_bit_off(typ, fld) (offsetof(struct mlx5_ifc_##typ##_bits, fld))
#define __mlx5_16_off(typ, fld) (__mlx5_bit_off(typ, fld) / 16)
#define __mlx5_dw_off(typ, fld) (__mlx5_bit_off(typ, fld) / 32)
#define __mlx5_64_off(typ, fld) (__mlx5_bit_off(typ, fld) / 64)
#define __mlx5_16_bit_off(typ, fld) (16 - __mlx5_bit_sz(typ, fld) - (__mlx5_bit_off(typ, fld) & 0xf))
#define __mlx5_dw_bit_off(typ, fld) (32 - __mlx5_bit_sz(typ, fld) - (__mlx5_bit_off(typ, fld) & 0x1f))
#define __mlx5_mask(typ, fld) ((u32)((1ull << __mlx5_bit_sz(typ, fld)) - 1))
#define __mlx5_dw_mask(typ, fld) (__mlx5_mask(typ, fld) << __mlx5_dw_bit_off(typ, fld))
#define __mlx5_mask16(typ, fld) ((u16)((1ull << __mlx5_bit_sz(typ, fld)) - 1))
#define __mlx5_16_mask(typ, fld) (__mlx5_mask16(typ, fld) << __mlx5_16_bit_off(typ, fld))
#define __mlx5_st_sz_bits(typ) sizeof(struct mlx5_ifc_##typ##_bits)

#define MLX5_FLD_SZ_BYTES(typ, fld) (__mlx5_bit_sz(typ, fld) / 8)
#define MLX5_ST_SZ_BYTES(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 8)
#define MLX5_ST_SZ_DW(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 32)
#define MLX5_ST_SZ_QW(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 64)
#define MLX5_UN_SZ_BYTES(typ) (sizeof(union mlx5_ifc_##typ##_bits) / 8)
#define MLX5_UN_SZ_DW(typ) (sizeof(union mlx5_ifc_##typ##_bits) / 32)
#define MLX5_BYTE_OFF(typ, fld) (__mlx5_bit_off(typ, fld) / 8)
#define MLX5_ADDR_OF(typ, p, fld) ((void *)((uint8_t *)(p) + MLX5_BYTE_OFF(typ, fld)))

/* insert a value to a struct */
#define MLX5_SET(typ, p, fld, v) do { \
	u32 _v = v; \
	BUILD_BUG_ON(__mlx5_st_sz_bits(typ) % 32);             \
	*((__be32 *)(p) + __mlx5_dw_off(typ, fld)) = \
	cpu_to_be32((be32_to_cpu(*((__be32 *)(p) + __mlx5_dw_off(typ, fld))) & \
		     (~__mlx5_dw_mask(typ, fld))) | (((_v) & __mlx5_mask(typ, fld)) \
		     << __mlx5_dw_bit_off(typ, fld))); \
} while (0)

#define MLX5_SET_TO_ONES(typ, p, fld) do { \
	BUILD_BUG_ON(__mlx5_st_sz_bits(typ) % 32);             \
	*((__be32 *)(p) + __mlx5_dw_off(typ, fld)) = \
	cpu_to_be32((be32_to_cpu(*((__be32 *)(p) + __mlx5_dw_off(typ, fld))) & \
		     (~__mlx5_dw_mask(typ, fld))) | ((__mlx5_mask(typ, fld)) \
		     << __mlx5_dw_bit_off(typ, fld))); \
} while (0)

#define MLX5_GET(typ, p, fld) ((be32_to_cpu(*((__be32 *)(p) +\
__mlx5_dw_off(typ, fld))) >> __mlx5_dw_bit_off(typ, fld)) & \
__mlx5_mask(typ, fld))

#define __MLX5_SET64(typ, p, fld, v) do { \
	BUILD_BUG_ON(__mlx5_bit_sz(typ, fld) != 64); \
	*((__be64 *)(p) + __mlx5_64_off(typ, fld)) = cpu_to_be64(v); \
} while (0)

#define MLX5_SET64(typ, p, fld, v) do { \
	BUILD_BUG_ON(__mlx5_bit_off(typ, fld) % 64); \
	__MLX5_SET64(typ, p, fld, v); \
} while (0)

#define MLX5_GET64(typ, p, fld) be64_to_cpu(*((__be64 *)(p) + __mlx5_64_off(typ, fld)))

#define MLX5_GET16(typ, p, fld) ((be16_to_cpu(*((__be16 *)(p) +\
__mlx5_16_off(typ, fld))) >> __mlx5_16_bit_off(typ, fld)) & \
__mlx5_mask16(typ, fld))

/* The real layouts: <headers>/include/linux/mlx5/mlx5_ifc.h (+ mlx5_ifc_fpga.h). */
#include <linux/mlx5/mlx5_ifc.h>

#endif /* ROCECTL_MLX5_SHIM_H */
