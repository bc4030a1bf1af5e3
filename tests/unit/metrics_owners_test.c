// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter without "owners": the per-(device, port, comm) groups and
 * the per-(device, comm, cause) failure counts added up over comm, the
 * module's "other" apart; a fold's sum never lower than the last one of
 * the same module load, even when a comm's group leaves it; every owner
 * label dropped by the exposition writer, the others kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/metrics_owners.h"
#include "exporter/prom.h"
#include "metrics_owners_test.h"

static struct group G(uint32_t dev, const char *comm, uint32_t port, bool other, uint64_t tx, unsigned int rts)
{
	struct group g = { .dev_index = dev, .port = port, .other = other, .counted = true };

	snprintf(g.dev, sizeof(g.dev), "rxe%u", dev);
	snprintf(g.comm, sizeof(g.comm), "%s", comm);
	g.sum[0] = tx;
	g.qps[3] = rts;
	return g;
}

static const char *show(const struct group *g, size_t n)
{
	static char buf[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s/%s:%s:%llu:%u", i ? " " : "", g[i].dev,
				g[i].other ? "other" : (char[12]){ 0 }, g[i].comm,
				(unsigned long long)g[i].sum[0], g[i].qps[3]);
	return buf;
}

static void fold(void (*report)(const char *, int, const char *, const char *), const char *name,
		 uint32_t family, const struct group *g, size_t n, const char *want)
{
	struct group *f;
	size_t m;
	char full[160];

	snprintf(full, sizeof(full), "owners off: %s", name);
	if (!owners_fold_groups(family, g, n, &f, &m)) {
		report(full, 0, "out of memory", want);
		return;
	}
	report(full, !strcmp(show(f, m), want), show(f, m), want);
	free(f);
}

void metrics_owners_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	/* As sums_groups() sorts them: device index, other last, port, comm. */
	struct group g1[] = { G(1, "ib_send", 1, false, 10, 1), G(1, "python", 1, false, 5, 2),
			      G(1, "python", 2, false, 7, 0), G(1, "", 0, true, 100, 0),
			      G(2, "nccl", 1, false, 3, 4) };
	struct group g2[] = { G(1, "python", 1, false, 6, 2), G(1, "", 0, true, 100, 0),
			      G(2, "nccl", 1, false, 4, 4) };
	struct qp_err_count e[] = {
		{ .dev = "rxe0", .comm = "a", .cause = 1, .count = 2 },
		{ .dev = "rxe1", .comm = "a", .cause = 1, .count = 1 },
		{ .dev = "rxe0", .comm = "b", .cause = 1, .count = 3 },
		{ .dev = "rxe0", .comm = "b", .cause = 2, .count = 5 },
		{ .other = true, .cause = 1, .count = 7 },
		{ .other = true, .cause = 1, .count = 1 },
	};
	struct prom_label l[] = { { "device", "rxe0" }, { "port", "1" }, { "qpn", "17" }, { "pid", "42" },
				  { "comm", "python" }, { "cgroup", "/kubepods/pod1" }, { "namespace", "ns" },
				  { "pod", "p" }, { "pod_uid", "u" }, { "container", "c" },
				  { "container_runtime", "containerd" }, { "job", "7" } };
	static const char *const owners[] = { "pid", "comm", "cgroup", "namespace", "pod", "pod_uid",
					      "container", "container_runtime", "job" };
	static const char *const others[] = { "device", "port", "qpn", "state", "cause", "netdev",
					      "prio", "sport", "source", "reason" };
	struct qp_err_count *f;
	struct prom p;
	size_t i, m;
	bool all = true;
	char buf[256];

	fold(report, "groups summed per device and port over comm, \"other\" apart", 1, g1, 5,
	     "rxe1/::15:3 rxe1/::7:0 rxe1/other::100:0 rxe2/::3:4");
	/* ib_send's group left the fold (its QPs went to "other"): port 1 held at 15. */
	fold(report, "a fold's sum held when a comm's group leaves it", 1, g2, 3,
	     "rxe1/::15:2 rxe1/other::100:0 rxe2/::4:4");
	fold(report, "another module load starts over", 2, g2, 3,
	     "rxe1/::6:2 rxe1/other::100:0 rxe2/::4:4");

	if (owners_fold_errors(e, 6, &f, &m)) {
		size_t len = 0;

		buf[0] = '\0';
		for (i = 0; i < m; i++)
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s/%u:%llu%s", i ? " " : "",
					f[i].other ? "other" : f[i].dev, f[i].cause,
					(unsigned long long)f[i].count, f[i].comm[0] ? "(comm!)" : "");
		report("owners off: QP failures summed per device and cause over comm", !strcmp(buf,
		       "rxe0/1:5 rxe0/2:5 rxe1/1:1 other/1:8"), buf, "rxe0/1:5 rxe0/2:5 rxe1/1:1 other/1:8");
		free(f);
	} else {
		report("owners off: QP failures summed per device and cause over comm", 0, "out of memory", NULL);
	}

	for (i = 0; i < sizeof(owners) / sizeof(owners[0]); i++)
		all &= owner_label(owners[i]);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		all &= !owner_label(others[i]);
	report("owners off: pid, comm, cgroup, namespace, pod, container, job are owners; device, port, qpn ... not",
	       all, NULL, NULL);

	prom_init(&p, false);
	p.drop_label = owner_label;
	prom_family(&p, "rocectl_top_qp_tx_bytes", PROM_COUNTER, "Top.");
	prom_u64(&p, l, sizeof(l) / sizeof(l[0]), 9);
	prom_u64(&p, l + 3, 2, 1);
	report("owners off: the writer drops every owner label, keeps the others, and the braces of none",
	       !p.failed && !strcmp(p.buf, "# HELP rocectl_top_qp_tx_bytes_total Top.\n"
				   "# TYPE rocectl_top_qp_tx_bytes_total counter\n"
				   "rocectl_top_qp_tx_bytes_total{device=\"rxe0\",port=\"1\",qpn=\"17\"} 9\n"
				   "rocectl_top_qp_tx_bytes_total 1\n"), p.buf, NULL);
	prom_free(&p);
}
