/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One mlx5 Ethernet port as the watchdog sees it: live per-priority pause
 * counters from PPCNT, PFC per direction through PFCC. Register access is
 * a function pointer, so that the unit tests drive this logic with a fake
 * firmware (error statuses, missing capabilities).
 */
#ifndef _ROCECTL_MLX5_PORT_H
#define _ROCECTL_MLX5_PORT_H

#include "ifc.h"

struct rocectl_be_sample;

struct rm5_port {
	/* mlx5_core_access_reg() in the module, a fake in the tests. */
	int (*access_reg)(void *ctx, u32 *in, int inlen, u32 *out, int outlen,
			  u16 reg_id, bool write);
	void *ctx;
	u8 local_port;
	/* Capabilities, from the device's PCAM as firmware reports them. */
	bool ppcnt;		/* PPCNT register */
	bool pfcc_mask;		/* PFCC per-field masks */
	bool stall_detect;	/* stall prevention and its event counters */
};

int rm5_read(const struct rm5_port *port, struct rocectl_be_sample *s);
int rm5_get_pfc(const struct rm5_port *port, u8 en[2]);
int rm5_set_pfc(const struct rm5_port *port, const u8 en[2], const u8 mask[2]);

#endif /* _ROCECTL_MLX5_PORT_H */
