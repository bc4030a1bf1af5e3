/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One probe of qp path on the wire: a UDP socket bound to the QP's source
 * address and port on its netdev, sending the QP's destination port,
 * traffic class and a BTH (path_plan.h) with one TTL, and the ICMP error
 * that comes back read from the socket's error queue, as traceroute -U
 * reads it. No raw socket.
 */
#ifndef ROCECTL_PATH_PROBE_H
#define ROCECTL_PATH_PROBE_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "path_plan.h"

enum path_reply {
	PATH_REPLY_NONE,	/* nothing within the wait */
	PATH_REPLY_TTL,		/* time exceeded: a hop */
	PATH_REPLY_UNREACH,	/* destination unreachable (from offender) */
	PATH_REPLY_ERROR,	/* the probe could not be sent: err */
};

struct path_hop {
	unsigned int ttl;
	enum path_reply reply;
	char addr[INET6_ADDRSTRLEN];	/* the offender, "" if none */
	uint64_t rtt_us;
	int err;			/* errno, with PATH_REPLY_ERROR */
};

/*
 * Sends one probe toward t from netdev ifname ("" for none) with TTL ttl
 * and waits up to wait_ms for its ICMP error.
 */
void path_probe_once(const struct path_target *t, const char *ifname,
		     unsigned int ttl, unsigned int wait_ms, uint32_t psn,
		     struct path_hop *hop);
/* The netdev holding address gid (IPv4-mapped or IPv6), into ifname. */
bool path_netdev_of(const uint8_t gid[16], char ifname[IF_NAMESIZE]);

#endif
