// SPDX-License-Identifier: GPL-2.0
/* The watchdog's operations on an mlx5 port (see port.h). */
#include "backend/backend.h"
#include "port.h"

static int rm5_pfcc_read(const struct rm5_port *port, struct rm5_pfcc *p)
{
	u32 in[RM5_PFCC_DW], out[RM5_PFCC_DW];
	int err;

	rm5_pfcc_query(in, port->local_port);
	memset(out, 0, sizeof(out));
	err = port->access_reg(port->ctx, in, sizeof(in), out, sizeof(out),
			       MLX5_REG_PFCC, false);
	if (!err)
		rm5_pfcc_decode(out, p);
	return err;
}

/* Eight PPCNT reads, one per priority, and the PFC masks. */
int rm5_read(const struct rm5_port *port, struct rocectl_be_sample *s)
{
	u32 in[RM5_PPCNT_DW], out[RM5_PPCNT_DW];
	struct rm5_prio_counters c;
	struct rm5_pfcc pfcc;
	int prio, err;

	if (!port->ppcnt)
		return -EOPNOTSUPP;
	for (prio = 0; prio < ROCECTL_BE_NPRIO; prio++) {
		rm5_ppcnt_prio_query(in, port->local_port, prio);
		memset(out, 0, sizeof(out));
		err = port->access_reg(port->ctx, in, sizeof(in), out, sizeof(out),
				       MLX5_REG_PPCNT, false);
		if (err)
			return err;
		rm5_ppcnt_prio_decode(out, &c);
		s->frames[ROCECTL_BE_RX][prio] = c.rx_pause;
		s->frames[ROCECTL_BE_TX][prio] = c.tx_pause;
		s->pause_us[ROCECTL_BE_RX][prio] = c.rx_pause_us;
		s->pause_us[ROCECTL_BE_TX][prio] = c.tx_pause_us;
		s->pkts[ROCECTL_BE_RX][prio] = c.rx_frames;
		s->pkts[ROCECTL_BE_TX][prio] = c.tx_frames;
		/* The port's stall events are kept in priority 0's set. */
		if (prio == 0 && port->stall_detect) {
			s->stall_known = true;
			s->stall_events[0] = c.stall_minor;
			s->stall_events[1] = c.stall_critical;
		}
	}
	err = rm5_pfcc_read(port, &pfcc);
	if (err)
		return err;
	s->pfc_en[ROCECTL_BE_RX] = pfcc.pfcrx;
	s->pfc_en[ROCECTL_BE_TX] = pfcc.pfctx;
	return 0;
}

int rm5_get_pfc(const struct rm5_port *port, u8 en[2])
{
	struct rm5_pfcc pfcc;
	int err = rm5_pfcc_read(port, &pfcc);

	if (err)
		return err;
	en[ROCECTL_BE_RX] = pfcc.pfcrx;
	en[ROCECTL_BE_TX] = pfcc.pfctx;
	return 0;
}

/*
 * Read, change the masked bits, write. The read gives what the write must
 * keep when the NIC has no per-field masks; with them it is a check that
 * the port answers before anything is written.
 */
int rm5_set_pfc(const struct rm5_port *port, const u8 en[2], const u8 mask[2])
{
	u32 in[RM5_PFCC_DW], out[RM5_PFCC_DW];
	struct rm5_pfcc cur;
	int err;

	err = rm5_pfcc_read(port, &cur);
	if (err)
		return err;
	rm5_pfcc_set_pfc(in, port->local_port, &cur,
			 en[ROCECTL_BE_TX], en[ROCECTL_BE_RX],
			 mask[ROCECTL_BE_TX], mask[ROCECTL_BE_RX], port->pfcc_mask);
	memset(out, 0, sizeof(out));
	return port->access_reg(port->ctx, in, sizeof(in), out, sizeof(out),
				MLX5_REG_PFCC, true);
}
