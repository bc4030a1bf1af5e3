// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check's ecmp judgement on QP tables made to measure: the
 * symmetric pairs soft-RoCE's rule gives (both ends of a loopback pair on
 * one port), distinct ports, a process that sets one port for all its
 * QPs, more colliding destinations than a finding names, none at all. The
 * ports of the first two are the ones a packet capture saw in the guest.
 */
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "check_ecmp_test.h"

static struct ecmp_qp qp(const char *ipv4, unsigned int sport, unsigned int rule, bool wire,
			 unsigned int pid, const char *comm)
{
	struct ecmp_qp q = { .sport = sport, .rule = rule, .wire = wire, .pid = pid };
	unsigned int a, b, c, d;

	if (sscanf(ipv4, "%u.%u.%u.%u", &a, &b, &c, &d) != 4)
		a = b = c = d = 0;
	q.dgid[10] = q.dgid[11] = 0xff;
	q.dgid[12] = a;
	q.dgid[13] = b;
	q.dgid[14] = c;
	q.dgid[15] = d;
	snprintf(q.comm, sizeof(q.comm), "%s", comm);
	return q;
}

static const char *const result_names[] = { "SKIP", "PASS", "WARN", "FAIL" };

/* "RESULT: EVIDENCE[; fix: FIX]" of the judgement on q[0..n). */
static const char *judged(struct ecmp_qp *q, size_t n)
{
	static char out[2048];
	struct finding f = { .any = false };

	check_ecmp_judge(q, n, "rxe0/1", &f);
	snprintf(out, sizeof(out), "%s: %s%s%s", result_names[f.result], f.evidence,
		 *f.fix ? "; fix: " : "", f.fix);
	return out;
}

static void eq(void (*report)(const char *, int, const char *, const char *),
	       const char *name, const char *got, const char *want)
{
	report(name, !strcmp(got, want), got, want);
}

#define RULE_FIX "give the QPs to one destination distinct GRH flow labels (the port follows the flow label), or more QPs per connection (NCCL: NCCL_IB_QPS_PER_CONNECTION=4)"

void check_ecmp_tests(void (*report)(const char *, int, const char *, const char *))
{
	struct ecmp_qp q[16];
	size_t i;

	/* Two loopback pairs, 17<->18 and 20<->21: each pair's ends on one port. */
	q[0] = qp("192.0.2.1", 49458, 49458, true, 197, "qptraffic");
	q[1] = qp("192.0.2.1", 49458, 49458, true, 197, "qptraffic");
	q[2] = qp("192.0.2.1", 49572, 49572, true, 197, "qptraffic");
	q[3] = qp("192.0.2.1", 49572, 49572, true, 197, "qptraffic");
	eq(report, "ecmp: symmetric pairs to one destination share ports (WARN, the rule's fix)",
	   judged(q, 4),
	   "WARN: 4 QPs of pid 197 (qptraffic) to 192.0.2.1 over 2 source ports (port 49458 carries 2 of them): "
	   "QPs on one port take one ECMP path; fix: " RULE_FIX);

	/* Three pairs across the wire: 19<->17, 22<->18, 23<->19. */
	q[0] = qp("192.0.2.2", 49475, 49475, true, 198, "qptraffic");
	q[1] = qp("192.0.2.2", 49548, 49548, true, 198, "qptraffic");
	q[2] = qp("192.0.2.2", 49589, 49589, true, 198, "qptraffic");
	q[3] = qp("192.0.2.1", 49458, 0, true, 0, "rds");
	eq(report, "ecmp: distinct ports per destination PASS with the count",
	   judged(q, 4),
	   "PASS: 4 live QPs on rxe0/1 to 2 destinations over 4 distinct source ports, none shared "
	   "towards one destination (ports seen on the wire; rocectl QP table)");
	q[3].wire = false;
	eq(report, "ecmp: where the ports come from",
	   judged(q, 4),
	   "PASS: 4 live QPs on rxe0/1 to 2 destinations over 4 distinct source ports, none shared "
	   "towards one destination (ports seen on the wire, else the kernel's rule's; rocectl QP table)");

	/* A process that gives all its QPs one port, to 8 hosts. */
	for (i = 0; i < 8; i++) {
		char dst[32];

		snprintf(dst, sizeof(dst), "10.0.0.%zu", i + 2);
		q[i] = qp(dst, 65472, 49152 + 300 + i, true, 4242, "ucx_perftest");
	}
	eq(report, "ecmp: one process's many QPs over one port it set itself (WARN, its port base)",
	   judged(q, 8),
	   "WARN: pid 4242 (ucx_perftest): 8 QPs to 8 destinations over 1 source port (port 65472 carries 8 of them); "
	   "fix: pid 4242 sets its QPs' source ports itself (the kernel's rule gives another): widen its port base "
	   "(mlx5dv_modify_qp_udp_sport, the application's setting)");

	/* 16 QPs to one host over 1 port: "N QPs to HOST over 1 source port". */
	for (i = 0; i < 16; i++)
		q[i] = qp("10.0.0.2", 49158, 49158, false, 7, "nccl");
	eq(report, "ecmp: 16 QPs to one host over 1 port (WARN once, not again per process)",
	   judged(q, 16),
	   "WARN: 16 QPs of pid 7 (nccl) to 10.0.0.2 over 1 source port (port 49158 carries 16 of them): "
	   "QPs on one port take one ECMP path; fix: " RULE_FIX);

	/* Five destinations, two QPs each, each pair on one port: three named. */
	for (i = 0; i < 10; i++) {
		char dst[32];

		snprintf(dst, sizeof(dst), "10.0.1.%zu", i / 2 + 1);
		q[i] = qp(dst, 50000 + i / 2, 50000 + i / 2, true, 8 + i % 2, "app");
	}
	eq(report, "ecmp: three colliding destinations named, the others counted",
	   judged(q, 10),
	   "WARN: 2 QPs of 2 processes to 10.0.1.1 over 1 source port (port 50000 carries 2 of them): "
	   "QPs on one port take one ECMP path; "
	   "2 QPs of 2 processes to 10.0.1.2 over 1 source port (port 50001 carries 2 of them): "
	   "QPs on one port take one ECMP path; "
	   "2 QPs of 2 processes to 10.0.1.3 over 1 source port (port 50002 carries 2 of them): "
	   "QPs on one port take one ECMP path; 2 more destinations like these; fix: " RULE_FIX);

	/* An owner outside the reader's pid namespace: neither pid nor comm. */
	q[0] = qp("10.0.2.1", 50100, 50100, true, 0, "");
	q[1] = qp("10.0.2.1", 50100, 50100, true, 0, "");
	eq(report, "ecmp: QPs of an owner out of sight are named so",
	   judged(q, 2),
	   "WARN: 2 QPs of a process outside this pid namespace to 10.0.2.1 over 1 source port (port 50100 carries 2 of them): "
	   "QPs on one port take one ECMP path; fix: " RULE_FIX);

	eq(report, "ecmp: no QP is a SKIP", judged(q, 0),
	   "SKIP: no live connected QP on rxe0/1 with a source port (rocectl QP table)");
}
