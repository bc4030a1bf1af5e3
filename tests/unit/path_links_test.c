// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/path_links.c: each verdict from paths through a leaf-spine
 * shaped as the fabric scenario's (hosts A and C behind leafA and leafC, B
 * behind leafB, two spines; every router answering from the address of the
 * link a probe came in on, unless a case says otherwise), and the ranking.
 */
#include <stdio.h>
#include <string.h>

#include "qp/path_links.h"
#include "path_links_test.h"

typedef void (*report_fn)(const char *, int, const char *, const char *);

#define A	"198.18.1.1"
#define C	"198.18.3.1"
/* The hops A -> B and C -> B take through spine1 or spine2. */
static const char *const a_s1[] = { "198.18.1.254", "198.18.11.2", "198.18.21.1" };
static const char *const a_s2[] = { "198.18.1.254", "198.18.12.2", "198.18.22.1" };
static const char *const c_s1[] = { "198.18.3.254", "198.18.31.2", "198.18.21.1" };
static const char *const c_s2[] = { "198.18.3.254", "198.18.32.2", "198.18.22.1" };

static struct links_qp qp(uint32_t qpn, const char *src, const char *const *hops,
			  uint64_t ce, uint64_t cnp, uint64_t retrans)
{
	struct links_qp q = { .qpn = qpn, .src = src, .hops = hops, .nhops = 3,
			      .ce = ce, .cnp = cnp, .retrans = retrans };

	return q;
}

/* "verdict link" or "verdict addr addr2 ...", as a test compares it. */
static const char *summary(const struct links_result *r)
{
	static char buf[256];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path_links_verdict_name(r->verdict));
	if (r->verdict == LINKS_LOCALIZED)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", r->l[r->link].addr);
	for (i = 0; r->verdict == LINKS_INDISTINCT && i < r->ntied; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", r->l[i].addr);
	if (r->verdict == LINKS_ROUTERS || r->verdict == LINKS_PER_PACKET)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s %s %s %s", r->addr,
			 r->addr2 ? r->addr2 : "-", r->addr3 ? r->addr3 : "-", r->via ? r->via : "-");
	return buf;
}

static void run(report_fn report, const char *name, const struct links_qp *q, size_t n,
		const char *want, struct links_result *r)
{
	const char *got;

	if (path_links_localize(q, n, r)) {
		report(name, 0, "out of memory", want);
		return;
	}
	got = summary(r);
	report(name, !strcmp(got, want), got, want);
}

/* Marks on spine2 -> leafB: A's and C's QPs through spine2 carry them. */
static void localized(report_fn report)
{
	const struct links_qp q[] = {
		qp(1, A, a_s1, 0, 0, 3), qp(2, A, a_s2, 200, 0, 0), qp(3, C, c_s1, 0, 0, 0),
		qp(4, C, c_s2, 150, 0, 1), qp(5, A, a_s2, 0, 40, 0), qp(6, C, c_s1, 0, 0, 0),
	};
	struct links_result r;
	char got[128];

	run(report, "links: the link every marked QP crosses and no unmarked one is named",
	    q, 6, "localized 198.18.22.1", &r);
	if (r.verdict != LINKS_LOCALIZED)
		return;
	snprintf(got, sizeof(got), "qps %zu marked %zu ce %llu cnp %llu retrans %llu ttl %u prev %zu %s %s",
		 r.l[0].nqps, r.l[0].marked, (unsigned long long)r.l[0].ce,
		 (unsigned long long)r.l[0].cnp, (unsigned long long)r.l[0].retrans, r.l[0].ttl,
		 r.l[0].nprev, r.l[0].prev[0], r.l[0].prev[r.l[0].nprev - 1]);
	report("links: the named link's QPs, marks summed, its previous hops",
	       !strcmp(got, "qps 3 marked 3 ce 350 cnp 40 retrans 1 ttl 3 prev 2 198.18.12.2 198.18.32.2"),
	       got, "qps 3 marked 3 ce 350 cnp 40 retrans 1 ttl 3 prev 2 198.18.12.2 198.18.32.2");
	/* Then the links crossed by some of the marked QPs, by marked QPs then fewest unmarked. */
	snprintf(got, sizeof(got), "%zu: %s %s %s %s", r.n, r.l[1].addr, r.l[2].addr, r.l[3].addr,
		 r.l[r.n - 1].addr);
	report("links: ranked by marked QPs, then fewest unmarked, then marks",
	       !strcmp(got, "8: 198.18.12.2 198.18.1.254 198.18.32.2 198.18.21.1"), got,
	       "8: 198.18.12.2 198.18.1.254 198.18.32.2 198.18.21.1");
	path_links_free(&r);
	report("links: freed", r.l == NULL && r.n == 0, NULL, NULL);
}

static void not_localized(report_fn report)
{
	struct links_qp q[] = {
		qp(1, A, a_s1, 0, 0, 0), qp(2, A, a_s2, 9, 0, 0), qp(3, A, a_s1, 0, 0, 0),
		qp(4, A, a_s2, 7, 0, 0),
	};
	const char *const a_s1_rtr[] = { "198.18.1.254", "198.18.11.2", "198.18.21.1" };
	const char *const a_s2_rtr[] = { "198.18.1.254", "198.18.12.2", "198.18.21.1" };
	const char *const a_lo[] = { "198.18.1.254", "10.0.0.1", "127.0.0.1" };
	const char *const again[] = { "198.18.1.254", "198.18.11.2", "198.18.21.1" };
	struct links_result r;

	/* Two leaves only: leafA -> spine2 and spine2 -> leafB are crossed by the same QPs. */
	run(report, "links: links in series crossed by the same QPs cannot be told apart",
	    q, 4, "indistinct 198.18.12.2 198.18.22.1", &r);
	path_links_free(&r);
	q[1].ce = q[3].ce = 0;
	run(report, "links: nothing marked, nothing to localize", q, 4, "no-marks", &r);
	path_links_free(&r);
	/* One marked QP through each spine: only leafA's first link is shared, by every QP. */
	q[0].cnp = 5, q[1].ce = 9;
	run(report, "links: marks on both spines: no link explains them", q, 4, "none-explains", &r);
	path_links_free(&r);
	/* Routers answering from their own address (icmp_errors_use_inbound_ifaddr=0). */
	q[0].cnp = 0, q[0].hops = a_s1_rtr, q[1].hops = a_s2_rtr, q[2].hops = a_s1_rtr,
	q[3].hops = a_s2_rtr, q[3].ce = 4;
	run(report, "links: one address after two ways out of one hop: a router, not a link",
	    q, 4, "routers 198.18.21.1 198.18.12.2 198.18.11.2 198.18.1.254", &r);
	path_links_free(&r);
	q[0].hops = q[2].hops = a_s1, q[1].hops = q[3].hops = a_lo;
	run(report, "links: a loopback hop names a router", q, 4, "routers 127.0.0.1 - - -", &r);
	path_links_free(&r);
	/* A second probe of QP 2 at TTL 2 went by spine1: the fabric does not hash. */
	q[1].hops = q[3].hops = a_s2, q[1].again = again;
	run(report, "links: a second probe answered by another hop: paths differ per packet",
	    q, 4, "per-packet 198.18.12.2 198.18.11.2 - -", &r);
	path_links_free(&r);
	q[1].again = a_s2;
	run(report, "links: a second probe by the same hops changes nothing",
	    q, 4, "indistinct 198.18.12.2 198.18.22.1", &r);
	path_links_free(&r);
	run(report, "links: no QP, no marks", q, 0, "no-marks", &r);
	path_links_free(&r);
}

/* "Few unmarked": at most one in four of the QPs crossing the link. */
static void few_unmarked(report_fn report)
{
	struct links_qp q[] = {
		qp(1, A, a_s2, 5, 0, 0), qp(2, C, c_s2, 5, 0, 0), qp(3, A, a_s2, 5, 0, 0),
		qp(4, C, c_s2, 0, 0, 0), qp(5, A, a_s2, 0, 0, 0), qp(6, A, a_s1, 0, 0, 0),
	};
	struct links_result r;

	run(report, "links: 2 unmarked of 5 crossing the link is not few", q, 6, "none-explains", &r);
	path_links_free(&r);
	q[4] = q[5];
	run(report, "links: 1 unmarked of 4 crossing the link is few", q, 5, "localized 198.18.22.1", &r);
	path_links_free(&r);
	q[0].ce = q[1].ce = q[2].ce = 0, q[0].retrans = 50;
	run(report, "links: retransmissions alone are not marks", q, 5, "no-marks", &r);
	path_links_free(&r);
}

static void loopbacks(report_fn report)
{
	static const struct { const char *a; bool lo; } cases[] = {
		{ "127.0.0.1", true }, { "127.255.0.9", true }, { "0.0.0.0", true }, { "::1", true },
		{ "::", true }, { "::ffff:127.0.0.1", true }, { "198.18.1.1", false },
		{ "2001:db8::1", false }, { "", false }, { "x", false },
	};
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (path_links_loopback(cases[i].a) != cases[i].lo) {
			printf("# path_links_loopback(\"%s\") != %d\n", cases[i].a, cases[i].lo);
			ok = 0;
		}
	report("links: loopback and unspecified addresses, IPv4 and IPv6", ok, NULL, NULL);
}

void path_links_tests(report_fn report)
{
	localized(report);
	not_localized(report);
	few_unmarked(report);
	loopbacks(report);
}
