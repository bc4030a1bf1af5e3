/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the marks come from, free of sockets so that the unit tests drive
 * it: given each traced QP's hops and the congestion counted on its traced
 * direction over a window, the links the QPs cross, ranked, and a verdict
 * (boolean network tomography): the one link every marked QP crosses and
 * few unmarked ones do, or why no link can be named.
 *
 * A hop is the address that answered a probe's expiry. With replies from
 * the inbound interface (Linux: icmp_errors_use_inbound_ifaddr=1) that
 * address is the far end of the link the probe arrived on, so a link is
 * keyed by it; the previous hops are shown beside it.
 */
#ifndef ROCECTL_PATH_LINKS_H
#define ROCECTL_PATH_LINKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One traced QP; every string is the caller's and outlives the result. */
struct links_qp {
	uint32_t qpn;
	const char *src;		/* its source address: the first link's near end */
	const char *const *hops;	/* by TTL - 1; "" where no hop answered */
	/* A second probe's answer by TTL - 1 ("" none), or NULL if not probed again. */
	const char *const *again;
	unsigned int nhops;
	/* Over the window, on the traced direction. */
	uint64_t ce, cnp, retrans;
};

/* Marked: CE or CNP over the window (retransmissions are shown, not judged). */
bool links_qp_marked(const struct links_qp *q);

struct links_link {
	const char *addr;	/* the hop: the link's far end */
	unsigned int ttl;	/* the lowest TTL it answered at */
	const char **prev;	/* the previous hops seen (a QP's source for the first) */
	size_t nprev;
	size_t *qps;		/* indexes of the QPs crossing it */
	size_t nqps, marked;
	uint64_t ce, cnp, retrans;	/* the sums of the QPs crossing it */
};

enum links_verdict {
	LINKS_LOCALIZED,	/* link names it */
	LINKS_NO_MARKS,		/* no QP marked over the window */
	LINKS_PER_PACKET,	/* a second probe took another way: no hashing */
	LINKS_ROUTERS,		/* hops answer from router addresses, not links' */
	LINKS_INDISTINCT,	/* several links, crossed by the same QPs */
	LINKS_NONE_EXPLAINS,	/* no link is crossed by every marked QP, few unmarked */
};

struct links_result {
	struct links_link *l;	/* ranked: most marked QPs, fewest unmarked, most marks */
	size_t n;
	size_t nqps, nmarked;
	enum links_verdict verdict;
	size_t link;		/* LINKS_LOCALIZED: the link's index in l */
	size_t ntied;		/* LINKS_INDISTINCT: l[0] to l[ntied - 1] */
	/*
	 * LINKS_ROUTERS: the hop (addr) and, unless it is a loopback, the two
	 * hops before it (addr2, addr3) that both follow one hop (via).
	 * LINKS_PER_PACKET: the TTL's first answer (addr) and the second (addr2).
	 */
	const char *addr, *addr2, *addr3, *via;
	uint32_t qpn;		/* LINKS_PER_PACKET: the QP probed again */
};

/*
 * Localizes the marks of n QPs into r (freed by path_links_free). -1 if
 * out of memory.
 */
int path_links_localize(const struct links_qp *q, size_t n, struct links_result *r);
void path_links_free(struct links_result *r);
/* The verdict's name: "localized", "no-marks", "per-packet", ... */
const char *path_links_verdict_name(enum links_verdict v);
/* Whether address a (text) is a loopback or unspecified address. */
bool path_links_loopback(const char *a);

#endif
