/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A netdev's IEEE DCB state read over rtnetlink (dcbnl), as dcb(8) reads
 * it: the PFC enable mask and the APP table's DSCP entries.
 */
#ifndef ROCECTL_DCB_H
#define ROCECTL_DCB_H

#include <stdbool.h>
#include <stdint.h>

struct dcb_state {
	bool has_pfc;		/* the driver answers ieee_getpfc */
	uint8_t pfc_cap;	/* priorities it can make lossless at once */
	uint8_t pfc_en;		/* bit p: PFC enabled on priority p */
	uint8_t dscp_prio[64];	/* bit p: an APP entry maps the DSCP to p */
	unsigned int dscp_entries;	/* APP entries with the DSCP selector */
};

/*
 * DCB_CMD_IEEE_GET for ifname: 0, or -errno (-EOPNOTSUPP: the netdev has
 * no DCB, -ENODEV: no such netdev).
 */
int dcb_read(const char *ifname, struct dcb_state *d);

#endif
