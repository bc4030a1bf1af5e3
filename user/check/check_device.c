// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check, the device: the port is ACTIVE and has a RoCE v2 GID for
 * each address of its netdev (sysfs gid_attrs, the netdev's addresses).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dev/dev.h"
#include "lib/utils.h"
#include "netdev.h"

#define IB_PORT_ACTIVE		4

/* --- 1. device: port state, RoCE v2 GIDs --------------------------------------- */

static bool gid_zero(const uint8_t *g)
{
	static const uint8_t zero[16];

	return !memcmp(g, zero, 16);
}

static bool parse_gid(const char *s, uint8_t *g)
{
	unsigned int w[8], i;

	if (sscanf(s, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x",
		   &w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6], &w[7]) != 8)
		return false;
	for (i = 0; i < 8; i++) {
		g[2 * i] = w[i] >> 8;
		g[2 * i + 1] = w[i] & 0xff;
	}
	return true;
}

static const char *gid_str(const uint8_t *g, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(g, v4mapped, 12))
		return inet_ntop(AF_INET, g + 12, buf, len);
	return inet_ntop(AF_INET6, g, buf, len);
}

#define MAX_GIDS 64

void check_device(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	uint8_t v2[MAX_GIDS][16], addrs[MAX_GIDS][16];
	char path[256], buf[128], a[INET6_ADDRSTRLEN], fix[160];
	struct finding f = { .any = false };
	int nv2 = 0, naddr, i, j, missing = 0;
	struct dirent *d;
	DIR *dir;

	if (p->state == IB_PORT_ACTIVE)
		finding_add(&f, CHECK_PASS, NULL, "port ACTIVE (%s)", c->ports_from);
	else {
		snprintf(fix, sizeof(fix), "ip link set %s up", p->netdev);
		finding_add(&f, CHECK_FAIL, fix, "port %s, not ACTIVE (%s)",
			    p->state < 0 ? "state unknown" : dev_port_state_name(p->state),
			    c->ports_from);
	}

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/gids",
		 c->sysfs, p->dev, p->port);
	dir = opendir(path);
	if (!dir) {
		finding_add(&f, CHECK_SKIP, NULL, "no GID table in sysfs (%s)", path);
		check_report(c, "device", &f);
		return;
	}
	while ((d = readdir(dir)) && nv2 < MAX_GIDS) {
		uint32_t idx;

		if (d->d_name[0] == '.' || parse_u32(d->d_name, &idx))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/types/%u",
				      p->dev, p->port, idx) || strcmp(buf, "RoCE v2"))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/ndevs/%u",
				      p->dev, p->port, idx) || strcmp(buf, p->netdev))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gids/%u",
				      p->dev, p->port, idx) || !parse_gid(buf, v2[nv2]) ||
		    gid_zero(v2[nv2]))
			continue;
		nv2++;
	}
	closedir(dir);

	naddr = netdev_gids(p->netdev, addrs, MAX_GIDS);
	if (naddr < 0)
		naddr = 0;
	for (i = 0; i < naddr; i++) {
		for (j = 0; j < nv2 && memcmp(addrs[i], v2[j], 16); j++)
			;
		if (j < nv2)
			continue;
		missing++;
		snprintf(fix, sizeof(fix), "ip link set %s down && ip link set %s up",
			 p->netdev, p->netdev);
		finding_add(&f, CHECK_FAIL, fix, "no RoCE v2 GID for %s's address %s",
			    p->netdev, gid_str(addrs[i], a, sizeof(a)));
	}
	snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", p->netdev);
	if (!naddr && !nv2) {
		finding_add(&f, CHECK_FAIL, fix,
			    "no RoCE v2 GID: %s has no IPv4 or global IPv6 address", p->netdev);
	} else if (!naddr) {
		finding_add(&f, CHECK_WARN, fix,
			    "%d RoCE v2 GID%s, but %s has no IPv4 or global IPv6 address for routable RoCE v2 (sysfs gid_attrs/types)",
			    nv2, nv2 == 1 ? "" : "s", p->netdev);
	} else if (!missing) {
		buf[0] = '\0';
		for (i = 0; i < naddr; i++)
			check_append(buf, sizeof(buf), ",", "%s", gid_str(addrs[i], a, sizeof(a)));
		finding_add(&f, CHECK_PASS, NULL,
			    "RoCE v2 GIDs for %s's address%s %s, %d in all (sysfs gid_attrs/types)",
			    p->netdev, naddr == 1 ? "" : "es", buf, nv2);
	}
	check_report(c, "device", &f);
}
