// SPDX-License-Identifier: GPL-2.0
/*
 * One probe of qp path on the wire (path_probe.h). A socket per probe:
 * its error queue then holds this probe's reply alone, and the QP's source
 * port is held only for the wait. rdma_rxe sends from its own socket on
 * 4791 with the source port written into each packet, so binding that
 * port here takes nothing from it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/errqueue.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "path_probe.h"

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ull + ts.tv_nsec / 1000;
}

/* gid as a socket address with port (IPv4 for IPv4-mapped GIDs). */
static socklen_t gid_sockaddr(const uint8_t gid[16], uint16_t port,
			      struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (path_gid_is_v4(gid)) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		memcpy(&s4->sin_addr, gid + 12, 4);
		return sizeof(*s4);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		memcpy(&s6->sin6_addr, gid, 16);
		return sizeof(*s6);
	}
}

bool path_netdev_of(const uint8_t gid[16], char ifname[IF_NAMESIZE])
{
	struct ifaddrs *ifa, *i;
	bool v4 = path_gid_is_v4(gid);
	bool found = false;

	if (getifaddrs(&ifa))
		return false;
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (v4 && i->ifa_addr->sa_family == AF_INET)
			found = !memcmp(&((struct sockaddr_in *)i->ifa_addr)->sin_addr, gid + 12, 4);
		else if (!v4 && i->ifa_addr->sa_family == AF_INET6)
			found = !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, gid, 16);
		if (found)
			snprintf(ifname, IF_NAMESIZE, "%s", i->ifa_name);
	}
	freeifaddrs(ifa);
	return found;
}

/* The socket, bound and connected as the QP's packets go. -1: errno. */
static int probe_socket(const struct path_target *t, const char *ifname, unsigned int ttl)
{
	struct sockaddr_storage src, dst;
	socklen_t slen = gid_sockaddr(t->src, t->sport, &src);
	bool v4 = src.ss_family == AF_INET;
	int one = 1, hops = ttl, tclass = t->tclass;
	int fd = socket(src.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	gid_sockaddr(t->dst, PATH_ROCE_PORT, &dst);
	if (fd < 0)
		return -1;
	/* The probe leaves where the QP's packets leave, not where routes say. */
	if ((*ifname && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, strlen(ifname) + 1)) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&src, slen) ||
	    (v4 ? setsockopt(fd, IPPROTO_IP, IP_TTL, &hops, sizeof(hops)) ||
		  setsockopt(fd, IPPROTO_IP, IP_TOS, &tclass, sizeof(tclass)) ||
		  setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one))
		: setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &hops, sizeof(hops)) ||
		  setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tclass, sizeof(tclass)) ||
		  setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one, sizeof(one))) ||
	    connect(fd, (struct sockaddr *)&dst, slen)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* The ICMP error queued on fd, if any, into hop. */
static bool read_error(int fd, struct path_hop *hop)
{
	char cbuf[512], data[64];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
		return false;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		struct sock_extended_err *ee;
		struct sockaddr *off;

		if (!((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RECVERR) ||
		      (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_RECVERR)))
			continue;
		ee = (struct sock_extended_err *)CMSG_DATA(c);
		if (ee->ee_origin != SO_EE_ORIGIN_ICMP && ee->ee_origin != SO_EE_ORIGIN_ICMP6)
			continue;
		off = SO_EE_OFFENDER(ee);
		if (off->sa_family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *)off)->sin_addr, hop->addr, sizeof(hop->addr));
		else if (off->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)off)->sin6_addr, hop->addr, sizeof(hop->addr));
		/* ICMP 11 and ICMPv6 3: time exceeded; anything else stops the way. */
		hop->reply = (ee->ee_origin == SO_EE_ORIGIN_ICMP ? ee->ee_type == 11 : ee->ee_type == 3) ?
			     PATH_REPLY_TTL : PATH_REPLY_UNREACH;
		return true;
	}
	return false;
}

void path_probe_once(const struct path_target *t, const char *ifname,
		     unsigned int ttl, unsigned int wait_ms, uint32_t psn,
		     struct path_hop *hop)
{
	uint8_t buf[PATH_PROBE_LEN];
	uint64_t start, end;
	int fd;

	memset(hop, 0, sizeof(*hop));
	hop->ttl = ttl;
	fd = probe_socket(t, ifname, ttl);
	if (fd < 0) {
		hop->reply = PATH_REPLY_ERROR;
		hop->err = errno;
		return;
	}
	path_probe_build(t, psn, buf);
	start = now_us();
	end = start + wait_ms * 1000ull;
	if (send(fd, buf, sizeof(buf), 0) < 0 && errno != EHOSTUNREACH &&
	    errno != ENETUNREACH && errno != ECONNREFUSED) {
		hop->reply = PATH_REPLY_ERROR;
		hop->err = errno;
		close(fd);
		return;
	}
	for (;;) {
		struct pollfd p = { fd, 0, 0 };
		uint64_t now = now_us();

		if (read_error(fd, hop)) {
			hop->rtt_us = now_us() - start;
			break;
		}
		if (now >= end)
			break;
		/* POLLERR: the error queue has something. */
		if (poll(&p, 1, (int)((end - now + 999) / 1000)) < 0 && errno != EINTR)
			break;
	}
	close(fd);
}
