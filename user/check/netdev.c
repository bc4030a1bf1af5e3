// SPDX-License-Identifier: GPL-2.0
/* What a netdev says about itself: MTU, 802.3x pause, addresses. */
#include <errno.h>
#include <ifaddrs.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "netdev.h"

static int ifreq_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	int fd, ret = 0;

	if (strlen(ifname) >= IFNAMSIZ)
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strncpy(ifr->ifr_name, ifname, IFNAMSIZ - 1);
	if (ioctl(fd, req, ifr) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int netdev_mtu(const char *ifname, uint32_t *mtu)
{
	struct ifreq ifr;
	int err;

	memset(&ifr, 0, sizeof(ifr));
	err = ifreq_ioctl(ifname, SIOCGIFMTU, &ifr);
	if (!err)
		*mtu = ifr.ifr_mtu;
	return err;
}

int netdev_pause(const char *ifname, struct netdev_pause *p)
{
	struct ethtool_pauseparam ep = { .cmd = ETHTOOL_GPAUSEPARAM };
	struct ifreq ifr;
	int err;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = (void *)&ep;
	err = ifreq_ioctl(ifname, SIOCETHTOOL, &ifr);
	if (err)
		return err;
	p->autoneg = ep.autoneg;
	p->rx = ep.rx_pause;
	p->tx = ep.tx_pause;
	return 0;
}

int netdev_stall_ms(const char *ifname, uint16_t *ms)
{
	struct {
		struct ethtool_tunable t;
		uint16_t value;
	} tun = {
		.t = {
			.cmd = ETHTOOL_GTUNABLE,
			.id = ETHTOOL_PFC_PREVENTION_TOUT,
			.type_id = ETHTOOL_TUNABLE_U16,
			.len = sizeof(uint16_t),
		},
	};
	struct ifreq ifr;
	int err;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = (void *)&tun;
	err = ifreq_ioctl(ifname, SIOCETHTOOL, &ifr);
	if (!err)
		*ms = tun.value;
	return err;
}

int netdev_gids(const char *ifname, uint8_t (*gids)[16], int max)
{
	struct ifaddrs *ifa, *i;
	int n = 0;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i && n < max; i = i->ifa_next) {
		if (!i->ifa_addr || strcmp(i->ifa_name, ifname))
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *s = (const void *)i->ifa_addr;

			memset(gids[n], 0, 10);
			gids[n][10] = gids[n][11] = 0xff;
			memcpy(&gids[n][12], &s->sin_addr, 4);
			n++;
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *s = (const void *)i->ifa_addr;

			if (IN6_IS_ADDR_LINKLOCAL(&s->sin6_addr))
				continue;
			memcpy(gids[n], &s->sin6_addr, 16);
			n++;
		}
	}
	freeifaddrs(ifa);
	return n;
}
