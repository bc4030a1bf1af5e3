/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of rocectl_mlx5's register encoding (kernel/mlx5/ifc.c) and
 * port logic (kernel/mlx5/port.c), in user space, against the layouts of
 * the kernel headers' linux/mlx5/mlx5_ifc.h as tests/unit/mlx5/ifc_layout.py
 * computes them (build/mlx5_ifc_layout.h), not as MLX5_SET/MLX5_GET do.
 */
#ifndef ROCECTL_MLX5_TEST_H
#define ROCECTL_MLX5_TEST_H

/* Prints "ok - unit: mlx5: ..." lines; returns the number of failures. */
int mlx5_tests(void);

#ifdef ROCECTL_MLX5_TEST_INTERNAL
#include <stdarg.h>
#include <stdio.h>
#include "mlx5_ifc_layout.h"

/*
 * The PRM's numbering, with no help from the C layout machinery: bit 0 is
 * the most significant bit of byte 0, a field's first bit its most
 * significant one. A dword of the big-endian register is 32 such bits.
 */
static inline unsigned long long bits_get(const void *buf, unsigned int off,
					  unsigned int width)
{
	const unsigned char *b = buf;
	unsigned long long v = 0;
	unsigned int i, n;

	for (i = 0; i < width; i++) {
		n = off + i;
		v = v << 1 | ((b[n / 8] >> (7 - n % 8)) & 1);
	}
	return v;
}

static inline void bits_set(void *buf, unsigned int off, unsigned int width,
			    unsigned long long v)
{
	unsigned char *b = buf;
	unsigned int i, n;

	for (i = 0; i < width; i++) {
		unsigned char bit = 0x80 >> ((off + i) % 8);

		n = off + i;
		if ((v >> (width - 1 - i)) & 1)
			b[n / 8] |= bit;
		else
			b[n / 8] &= ~bit;
	}
}

/* F(pfcc_reg, pfctx) -> "offset, width" for bits_get/bits_set. */
#define F(reg, fld)	IFC_OFF_##reg##__##fld, IFC_W_##reg##__##fld
/* A per-priority counter field, from the start of PPCNT. */
#define PP(fld)		IFC_OFF_ppcnt_reg__counter_set + \
			IFC_OFF_eth_per_prio_grp_data_layout__##fld, \
			IFC_W_eth_per_prio_grp_data_layout__##fld

/* Register buffers are u32 arrays to the code under test. */
#define ALIGNED		__attribute__((aligned(8)))

#define PPCNT_BYTES	(IFC_SZ_ppcnt_reg / 8)
#define PFCC_BYTES	(IFC_SZ_pfcc_reg / 8)

/* The first difference of two buffers, as "byte N: got X want Y". */
static inline int buf_diff(char *why, size_t len, const void *got,
			   const void *want, size_t n)
{
	const unsigned char *g = got, *w = want;
	size_t i;

	for (i = 0; i < n; i++)
		if (g[i] != w[i]) {
			snprintf(why, len, "byte %zu (bit %zu): got 0x%02x want 0x%02x",
				 i, i * 8, g[i], w[i]);
			return 1;
		}
	return 0;
}

struct mlx5_t {
	int failed;
	char why[512];		/* the first failure of the current test */
};

/* Notes a failure of the current test (only the first is kept). */
static inline void __attribute__((format(printf, 2, 3)))
fail(struct mlx5_t *t, const char *fmt, ...)
{
	va_list ap;

	if (t->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

/* Ends the current test: one line. */
static inline void done(struct mlx5_t *t, const char *what)
{
	if (!t->why[0]) {
		printf("ok - unit: mlx5: %s\n", what);
	} else {
		printf("not ok - unit: mlx5: %s # %s\n", what, t->why);
		t->failed++;
	}
	t->why[0] = 0;
}

void mlx5_ifc_tests(struct mlx5_t *t);
void mlx5_port_tests(struct mlx5_t *t);
void mlx5_cong_tests(struct mlx5_t *t);
void mlx5_raw_tests(struct mlx5_t *t);
void mlx5_qp_cmd_tests(struct mlx5_t *t);
#endif

#endif
