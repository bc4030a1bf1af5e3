/* SPDX-License-Identifier: GPL-2.0 */
/* What a netdev says about itself: MTU, 802.3x pause, addresses. */
#ifndef ROCECTL_NETDEV_H
#define ROCECTL_NETDEV_H

#include <stdbool.h>
#include <stdint.h>

/* SIOCGIFMTU: 0, or -errno. */
int netdev_mtu(const char *ifname, uint32_t *mtu);

struct netdev_pause {
	bool autoneg, rx, tx;
};

/* ETHTOOL_GPAUSEPARAM (the ioctl ethtool -a uses): 0, or -errno. */
int netdev_pause(const char *ifname, struct netdev_pause *p);

/*
 * The NIC's PFC stall prevention (ethtool tunable pfc-prevention-tout,
 * ETHTOOL_GTUNABLE): 0 with the critical timeout in ms (0: off), or
 * -errno (-EOPNOTSUPP, -EINVAL: the NIC has no such tunable).
 */
int netdev_stall_ms(const char *ifname, uint16_t *ms);

/*
 * The netdev's IPv4 addresses and IPv6 addresses other than link-local,
 * as the 16-byte GIDs RoCE v2 derives from them (IPv4: ::ffff:a.b.c.d).
 * Returns how many were written to gids (at most max), or -errno.
 */
int netdev_gids(const char *ifname, uint8_t (*gids)[16], int max);

#endif
