// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/path_plan.c: the probe's BTH byte by byte (InfiniBand
 * Architecture Specification, volume 1, 9.2: opcode, flags, P_Key,
 * reserved, destination QP, AckReq, PSN; then the ICRC), the grouping of
 * QPs whose probes hash alike, the TTL bound per destination, and the pace.
 */
#include <stdio.h>
#include <string.h>

#include "qp/path_plan.h"
#include "path_plan_test.h"

typedef void (*report_fn)(const char *, int, const char *, const char *);

static void hex(const uint8_t *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void v4gid(uint8_t gid[16], uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xff;
	gid[12] = a, gid[13] = b, gid[14] = c, gid[15] = d;
}

static void report_u(report_fn report, const char *name, unsigned long long got,
		     unsigned long long want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%llu", got);
	snprintf(w, sizeof(w), "%llu", want);
	report(name, got == want, g, w);
}

static void bth_cases(report_fn report)
{
	struct path_target t = { .dqpn = 0x123456, .sport = 49999, .tclass = 0x6a };
	uint8_t buf[PATH_PROBE_LEN];
	char got[2 * PATH_PROBE_LEN + 1];

	memset(buf, 0xee, sizeof(buf));
	path_probe_build(&t, 0xabcdef, buf);
	hex(buf, sizeof(buf), got);
	/* 0x80: CNP range, not the CNP; P_Key ffff; QPN 123456; AckReq 0; PSN abcdef; ICRC 0. */
	report("path: probe BTH: opcode 0x80, P_Key, destination QPN, no AckReq, PSN, zero ICRC",
	       !strcmp(got, "8000ffff0012345600abcdef00000000"), got,
	       "8000ffff0012345600abcdef00000000");
	t.dqpn = 0x1000001;	/* 25 bits: only 24 go on the wire */
	path_probe_build(&t, 0x1000002, buf);
	hex(buf, sizeof(buf), got);
	report("path: probe BTH: QPN and PSN cut to 24 bits",
	       !strcmp(got, "8000ffff0000000100000002" "00000000"), got,
	       "8000ffff000000010000000200000000");
}

static void group_cases(report_fn report)
{
	struct path_target a = { .sport = 50000, .tclass = 2, .dqpn = 17 }, b;
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	v4gid(a.src, 198, 18, 1, 1);
	v4gid(a.dst, 198, 18, 2, 1);
	b = a;
	report_u(report, "path: identical headers share one trace", path_same_headers(&a, &b), 1);
	b.sport++;
	report_u(report, "path: another source port is another trace", path_same_headers(&a, &b), 0);
	b = a, b.tclass = 0x6a;
	report_u(report, "path: another DSCP/ECN is another trace", path_same_headers(&a, &b), 0);
	b = a, b.dqpn = 18;
	report_u(report, "path: another destination QPN (hashed by some fabrics) is another trace",
		 path_same_headers(&a, &b), 0);
	b = a, b.dst[15] = 2;
	report_u(report, "path: another destination is another trace", path_same_headers(&a, &b), 0);
	report_u(report, "path: an IPv4-mapped GID is IPv4", path_gid_is_v4(a.src), 1);
	report_u(report, "path: 2001:db8::1 is not", path_gid_is_v4(v6), 0);
}

static void ttl_cases(report_fn report)
{
	struct path_dists ds = { 0 };
	uint8_t b[16], c[16];

	v4gid(b, 198, 18, 2, 1);
	v4gid(c, 198, 18, 3, 1);
	report_u(report, "path: an unknown destination: up to max-hops", path_ttl_limit(&ds, b, 16), 16);
	path_learn(&ds, b, 4);
	report_u(report, "path: silent at 4: later probes stop at 3", path_ttl_limit(&ds, b, 16), 3);
	report_u(report, "path: max-hops below the distance still bounds", path_ttl_limit(&ds, b, 2), 2);
	report_u(report, "path: another destination is not bounded by it", path_ttl_limit(&ds, c, 16), 16);
	path_learn(&ds, b, 6);
	report_u(report, "path: a farther silence does not lift the bound", path_ttl_limit(&ds, b, 16), 3);
	path_learn(&ds, b, 2);
	report_u(report, "path: a nearer silence lowers it", path_ttl_limit(&ds, b, 16), 1);
	path_learn(&ds, c, 1);
	report_u(report, "path: silent at the first hop: nothing more is sent", path_ttl_limit(&ds, c, 16), 0);
	report_u(report, "path: two destinations learned", ds.n, 2);
	path_dists_free(&ds);
}

static void pace_cases(report_fn report)
{
	struct path_pace p = { .rate = 10 };
	double j;
	int ok = 1, i;

	/* Whatever the jitter, never more than rate probes a second. */
	for (j = -0.5; j <= 1.5; j += 0.125)
		ok &= path_pace_gap_ns(&p, j) >= 100000000ull && path_pace_gap_ns(&p, j) <= 150000000ull;
	report_u(report, "path: 10 a second: every gap from 100 to 150 ms", ok, 1);
	report_u(report, "path: jitter 0.5: 125 ms", path_pace_gap_ns(&p, 0.5), 125000000ull);
	path_pace_result(&p, false);
	report_u(report, "path: one silent probe: the gap doubles", path_pace_gap_ns(&p, 0), 200000000ull);
	for (i = 0; i < 10; i++)
		path_pace_result(&p, false);
	report_u(report, "path: the backoff stops at 16 times", path_pace_gap_ns(&p, 0), 1600000000ull);
	path_pace_result(&p, true);
	report_u(report, "path: an answer ends the backoff", path_pace_gap_ns(&p, 0), 100000000ull);
	p.rate = 0;
	report_u(report, "path: rate 0 is taken as 1", path_pace_gap_ns(&p, 0), 1000000000ull);
}

void path_plan_tests(report_fn report)
{
	bth_cases(report);
	group_cases(report);
	ttl_cases(report);
	pace_cases(report);
}
