// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check, the mtu: the netdev's MTU carries the port's active MTU
 * and its RoCEv2 headers, no smaller active MTU than it allows, and the
 * host's RoCE netdevs agree.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "netdev.h"

/*
 * What a RoCEv2 packet over IPv4 carries besides a full payload: IPv4
 * header 20, UDP 8, BTH 12, and the largest set of extended headers a
 * payload-carrying packet has (XRCETH 4 + RETH 16 + ImmDt 4, an XRC RDMA
 * WRITE Only with Immediate), then the ICRC 4. The netdev's MTU counts
 * from the IP header on.
 */
#define ROCE_V2_IPV4_OVERHEAD	(20 + 8 + 12 + 4 + 16 + 4 + 4)
/*
 * What ib_core's iboe_get_mtu() takes off the netdev's MTU to choose the
 * active MTU (GRH 40, UDP 8, BTH 12, XRCETH 4, AtomicETH 28, ICRC 4): the
 * largest active MTU a port is given.
 */
#define IBOE_MTU_OVERHEAD	(40 + 8 + 12 + 4 + 28 + 4)

/* --- 4. mtu ------------------------------------------------------------------- */

/* The largest IB MTU (256..4096) of which mtu + overhead fits netdev_mtu, or 0. */
static uint32_t ib_mtu_fitting(uint32_t netdev_mtu, uint32_t overhead)
{
	uint32_t m;

	for (m = 4096; m >= 256; m /= 2)
		if (m + overhead <= netdev_mtu)
			return m;
	return 0;
}

void check_mtu(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	uint32_t mtu, other, best, target;
	char fix[160], differ[256] = "", fixes[384], src[CHECK_SRC_LEN + 16];
	unsigned int same = 0;
	size_t i;
	int err;

	err = netdev_mtu(p->netdev, &mtu);
	if (err) {
		finding_add(&f, CHECK_FAIL, NULL, "cannot read %s's MTU: %s", p->netdev, strerror(-err));
		check_report(c, "mtu", &f);
		return;
	}
	if (c->want_mtu && mtu != c->want_mtu) {
		snprintf(fix, sizeof(fix), "ip link set %s mtu %u", p->netdev, c->want_mtu);
		finding_add(&f, CHECK_FAIL, fix, "%s's MTU is %u, not the %u %s (SIOCGIFMTU)",
			    p->netdev, mtu, c->want_mtu,
			    check_intent_source(c->mtu_src, src, sizeof(src)));
	}
	if (!p->active_mtu) {
		finding_add(&f, CHECK_SKIP, NULL, "the port's active MTU is unknown (%s has none)",
			    c->ports_from);
	} else if (p->active_mtu + ROCE_V2_IPV4_OVERHEAD > mtu) {
		snprintf(fix, sizeof(fix), "ip link set %s mtu %u", p->netdev,
			 c->want_mtu ? c->want_mtu : p->active_mtu + ROCE_V2_IPV4_OVERHEAD);
		finding_add(&f, CHECK_FAIL, fix,
			    "active MTU %u (%s) needs a netdev MTU of at least %u = %u + %u (IPv4 20, UDP 8, BTH 12, XRCETH 4, RETH 16, ImmDt 4, ICRC 4); %s has %u",
			    p->active_mtu, c->ports_from, p->active_mtu + ROCE_V2_IPV4_OVERHEAD,
			    p->active_mtu, ROCE_V2_IPV4_OVERHEAD, p->netdev, mtu);
	} else {
		best = ib_mtu_fitting(mtu, IBOE_MTU_OVERHEAD);
		if (p->max_mtu && best > p->max_mtu)
			best = p->max_mtu;
		if (p->active_mtu < best)
			finding_add(&f, CHECK_WARN, NULL,
				    "active MTU %u (%s), though %s's MTU %u carries %u (%u - %u, the headers ib_core's iboe_get_mtu() allows for)",
				    p->active_mtu, c->ports_from, p->netdev, mtu, best, mtu,
				    IBOE_MTU_OVERHEAD);
		else
			finding_add(&f, CHECK_PASS, NULL,
				    "active MTU %u (%s) is the largest %s's MTU %u carries: %u + %u bytes of RoCEv2/IPv4 headers fit",
				    p->active_mtu, c->ports_from, p->netdev, mtu, p->active_mtu,
				    ROCE_V2_IPV4_OVERHEAD);
	}
	/*
	 * The RoCE ports of the host agree: the fix raises each that differs
	 * to the MTU given, else to the largest among them.
	 */
	target = c->want_mtu ? c->want_mtu : mtu;
	for (i = 0; i < c->n; i++) {
		const struct check_port *q = &c->ports[i];

		if (!*q->netdev || strcmp(q->netdev, p->netdev) == 0 ||
		    netdev_mtu(q->netdev, &other))
			continue;
		if (other == mtu) {
			same++;
			continue;
		}
		check_append(differ, sizeof(differ), ", ", "%s (%s/%u) has %u",
			   q->netdev, q->dev, q->port, other);
		if (!c->want_mtu && other > target)
			target = other;
	}
	if (*differ) {
		fixes[0] = '\0';
		if (mtu != target)
			check_append(fixes, sizeof(fixes), "; ", "ip link set %s mtu %u", p->netdev, target);
		for (i = 0; i < c->n; i++) {
			const struct check_port *q = &c->ports[i];

			if (*q->netdev && strcmp(q->netdev, p->netdev) &&
			    !netdev_mtu(q->netdev, &other) && other != mtu && other != target &&
			    !strstr(fixes, q->netdev))
				check_append(fixes, sizeof(fixes), "; ", "ip link set %s mtu %u",
					   q->netdev, target);
		}
		finding_add(&f, CHECK_WARN, *fixes ? fixes : NULL,
			    "the RoCE ports disagree: %s has %u, %s", p->netdev, mtu, differ);
	} else if (same) {
		finding_add(&f, CHECK_PASS, NULL, "the host's other %u RoCE netdev%s agree%s",
			    same, same == 1 ? "" : "s", same == 1 ? "s" : "");
	}
	check_report(c, "mtu", &f);
}
