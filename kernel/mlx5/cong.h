/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN on mlx5: the congestion control parameters of the reaction point
 * (RP, the sender) and the notification point (NP, the receiver), their
 * enable per priority, and the port's congestion counters, through the
 * firmware commands QUERY_CONG_PARAMS, MODIFY_CONG_PARAMS,
 * QUERY_CONG_STATUS and QUERY_CONG_STATISTICS. Command execution is a
 * function pointer, so the unit tests drive this with a fake firmware.
 */
#ifndef _ROCECTL_MLX5_CONG_H
#define _ROCECTL_MLX5_CONG_H

#include "ifc.h"

struct rocectl_cong_info;
struct rocectl_cong_value;

/* cong_protocol of the commands, as mlx5_ib numbers its nodes. */
enum { RM5_CONG_RP = 1, RM5_CONG_NP = 2 };

/* One parameter: where it sits in its node's congestion_parameters. */
struct rm5_cong_param {
	const char *name;	/* as mlx5_ib's debugfs cc_params names it */
	u8 node;
	u16 bit_off;		/* from the start of congestion_parameters */
	u8 bit_sz;
	u32 select;		/* its bit in the node's field_select */
	u32 min, max;
	bool sets_802p;		/* a CNP priority: also cnp_prio_mode 0 */
};

extern const struct rm5_cong_param rm5_cong_params[];
extern const int rm5_cong_nparams;

/* One QUERY_CONG_STATISTICS counter: byte offset of its (high) dword. */
struct rm5_cong_stat {
	const char *name;
	u16 byte_off;
	bool wide;		/* a 64-bit high/low pair */
};

extern const struct rm5_cong_stat rm5_cong_stats[];
extern const int rm5_cong_nstats;

/* Big-endian bit fields within dwords, as MLX5_GET/MLX5_SET place them. */
u32 rm5_bits_get(const void *buf, unsigned int bit_off, unsigned int bit_sz);
void rm5_bits_set(void *buf, unsigned int bit_off, unsigned int bit_sz, u32 v);

void rm5_query_cong_params_in(u32 *in, u8 node);
u32 rm5_cong_param_decode(const u32 *out, const struct rm5_cong_param *p);
void rm5_modify_cong_params_in(u32 *in, u8 node);
void rm5_modify_cong_param_encode(u32 *in, const struct rm5_cong_param *p, u32 v);
void rm5_query_cong_status_in(u32 *in, u8 node, u8 prio);
bool rm5_cong_status_decode(const u32 *out);

/* rm5_cong_set's command buffers: too big for a kernel stack frame. */
struct rm5_cong_buf {
	u32 cur[2][MLX5_ST_SZ_DW(query_cong_params_out)];
	u32 qin[MLX5_ST_SZ_DW(query_cong_params_in)];
	u32 in[MLX5_ST_SZ_DW(modify_cong_params_in)];
	u32 out[MLX5_ST_SZ_DW(modify_cong_params_out)];
};

struct rm5_cong_dev {
	/* mlx5_cmd_exec(), or a fake. */
	int (*exec)(void *ctx, void *in, int inlen, void *out, int outlen);
	/* mlx5_lag_query_cong_counters(): summed over a LAG's ports. */
	int (*stats)(void *ctx, u64 *values, int n, size_t *offsets);
	void *ctx;
	bool query_allowed, modify_allowed;	/* HCA caps cc_query/modify_allowed */
	struct rm5_cong_buf *buf;		/* for rm5_cong_set */
};

int rm5_cong_get(const struct rm5_cong_dev *d, struct rocectl_cong_info *c);
int rm5_cong_set(const struct rm5_cong_dev *d, const struct rocectl_cong_value *v,
		 int n, int *bad, int *why);

#endif /* _ROCECTL_MLX5_CONG_H */
