// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's QP sums: a group is its destroyed QPs' counts (the
 * module's) plus its live QPs', never shown lower than before; another
 * module load or another device index starts over; the module's "other"
 * group is a group of its own; a group neither side has any more goes.
 */
#include <stdio.h>
#include <string.h>

#include "exporter/metrics_sums.h"
#include "metrics_sums_test.h"

static void (*rep)(const char *, int, const char *, const char *);

static struct retired R(uint32_t idx, const char *dev, uint32_t port, const char *comm,
			bool other, uint64_t tx)
{
	struct retired r = { .dev_index = idx, .port = port, .other = other };

	snprintf(r.dev, sizeof(r.dev), "%s", dev);
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	r.v[0] = tx;
	return r;
}

static struct qp Q(uint32_t idx, const char *dev, uint32_t port, const char *comm, int state,
		   bool counted, uint64_t tx)
{
	struct qp q = { .dev_index = idx, .port = port, .state = state, .counted = counted };

	snprintf(q.dev, sizeof(q.dev), "%s", dev);
	snprintf(q.comm, sizeof(q.comm), "%s", comm);
	q.v[0] = tx;
	return q;
}

/* The groups as "dev/port/comm:tx[:qps]" words, in order. */
static const char *show(void)
{
	static char buf[512];
	const struct group *g = NULL;
	size_t n, i, len = 0;
	unsigned int k, live;

	buf[0] = '\0';
	g = sums_groups(&n);
	for (i = 0; i < n; i++) {
		for (live = 0, k = 0; k < NQP_STATES; k++)
			live += g[i].qps[k];
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s/%s%u/%s:%s%llu:%u", i ? " " : "",
				g[i].dev, g[i].other ? "other" : "", g[i].other ? 0 : g[i].port, g[i].comm,
				g[i].counted ? "" : "-", (unsigned long long)g[i].sum[0], live);
	}
	return buf;
}

static void step_max(const char *name, uint32_t family, unsigned int max, struct retired *r,
		     size_t nr, struct qp *q, size_t nq, const char *want)
{
	struct snapshot s = { .retired = r, .nretired = nr, .qps = q, .nqps = nq, .retired_max = max };
	char label[128];
	const char *got;

	snprintf(label, sizeof(label), "metrics sums: %s", name);
	got = sums_update(family, &s) ? show() : "(out of memory)";
	rep(label, !strcmp(got, want), got, want);
}

static void step(const char *name, uint32_t family, struct retired *r, size_t nr,
		 struct qp *q, size_t nq, const char *want)
{
	step_max(name, family, 0, r, nr, q, nq, want);
}

void metrics_sums_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	uint64_t held0;

	rep = report;
	{
		struct retired r[] = { R(1, "rxe0", 1, "ib_write_bw", false, 100) };
		struct qp q[] = { Q(1, "rxe0", 1, "ib_write_bw", 4, true, 7),
				  Q(1, "rxe0", 1, "ib_write_bw", 4, true, 3),
				  Q(1, "rxe0", 1, "nccl", 3, true, 5),
				  Q(2, "mlx5_0", 1, "nccl", 4, false, 0) };

		step("destroyed plus live, per device, port and comm", 10, r, 1, q, 4,
		     "rxe0/1/ib_write_bw:110:2 rxe0/1/nccl:5:1 mlx5_0/1/nccl:-0:1");
	}
	held0 = sums_held();
	{
		/* nccl's QP destroyed between the module's two dumps: in neither. */
		struct retired r[] = { R(1, "rxe0", 1, "ib_write_bw", false, 100) };
		struct qp q[] = { Q(1, "rxe0", 1, "ib_write_bw", 4, true, 8),
				  Q(1, "rxe0", 1, "ib_write_bw", 4, true, 3),
				  Q(2, "mlx5_0", 1, "nccl", 4, false, 0) };

		step("a QP between the dumps: its group holds its last sum, live QPs grow", 10, r, 1, q, 3,
		     "rxe0/1/ib_write_bw:111:2 mlx5_0/1/nccl:-0:1");
		rep("metrics sums: a group in neither dump goes (nothing held for it)",
		    sums_held() == held0, NULL, NULL);
	}
	{
		/* Next scrape: nccl's QP is in the destroyed QPs' group now. */
		struct retired r[] = { R(1, "rxe0", 1, "ib_write_bw", false, 100),
				       R(1, "rxe0", 1, "nccl", false, 6) };
		struct qp q[] = { Q(1, "rxe0", 1, "ib_write_bw", 4, true, 8) };

		step("a QP destroyed while a sibling lives: the sum goes on, never lower", 10, r, 2, q, 1,
		     "rxe0/1/ib_write_bw:111:1 rxe0/1/nccl:6:0");
		rep("metrics sums: the dip is counted as held",
		    sums_held() == held0 + 1, NULL, NULL);
	}
	{
		struct retired r[] = { R(1, "rxe0", 1, "ib_write_bw", false, 113),
				       R(1, "rxe0", 1, "nccl", false, 6),
				       R(1, "rxe0", 0, "", true, 40) };

		step("the module's other group is a group of its own", 10, r, 3, NULL, 0,
		     "rxe0/1/ib_write_bw:113:0 rxe0/1/nccl:6:0 rxe0/other0/:40:0");
	}
	{
		struct retired r[] = { R(3, "rxe0", 1, "ib_write_bw", false, 2) };

		step("another device index under the same name starts over", 10, r, 1, NULL, 0,
		     "rxe0/1/ib_write_bw:2:0");
	}
	{
		struct retired r[] = { R(3, "rxe0", 1, "ib_write_bw", false, 1) };

		step("another module load starts over", 11, r, 1, NULL, 0, "rxe0/1/ib_write_bw:1:0");
	}
	step("no QP at all: no group", 11, NULL, 0, NULL, 0, "");
	{
		/* The module names 2 groups a device: rxe0's are both taken. */
		struct retired r[] = { R(1, "rxe0", 1, "a", false, 10), R(1, "rxe0", 1, "b", false, 20),
				       R(1, "rxe0", 0, "", true, 5) };
		struct qp q[] = { Q(1, "rxe0", 1, "a", 4, true, 1), Q(1, "rxe0", 1, "c", 4, true, 2),
				  Q(1, "rxe0", 2, "a", 4, true, 4), Q(2, "rxe1", 1, "c", 4, true, 8) };

		step_max("a full device: live QPs of unnamed groups in other, named ones and other devices' as theirs",
			 12, 2, r, 3, q, 4, "rxe0/1/a:11:1 rxe0/1/b:20:0 rxe0/other0/:11:2 rxe1/1/c:8:1");
	}
	{
		/* c's QP destroyed: its counts moved into the module's other group. */
		struct retired r[] = { R(1, "rxe0", 1, "a", false, 10), R(1, "rxe0", 1, "b", false, 20),
				       R(1, "rxe0", 0, "", true, 7) };
		struct qp q[] = { Q(1, "rxe0", 1, "a", 4, true, 1), Q(1, "rxe0", 2, "a", 4, true, 4) };

		step_max("a full device: an unnamed group's QP destroyed, other's sum goes on", 12, 2, r, 3, q, 2,
			 "rxe0/1/a:11:1 rxe0/1/b:20:0 rxe0/other0/:11:1");
	}
	{
		/* c again: still in other, never a series of its own come back lower. */
		struct retired r[] = { R(1, "rxe0", 1, "a", false, 15), R(1, "rxe0", 1, "b", false, 20),
				       R(1, "rxe0", 0, "", true, 11) };
		struct qp q[] = { Q(1, "rxe0", 1, "c", 4, true, 1) };

		step_max("a full device: a comm seen before comes back into other", 12, 2, r, 3, q, 1,
			 "rxe0/1/a:15:0 rxe0/1/b:20:0 rxe0/other0/:12:1");
	}
	{
		struct retired r[] = { R(1, "rxe0", 1, "a", false, 10) };
		struct qp q[] = { Q(1, "rxe0", 1, "c", 4, true, 1) };

		step_max("room left in the module's table: a new comm is its own group", 13, 2, r, 1, q, 1,
			 "rxe0/1/a:10:0 rxe0/1/c:1:1");
	}
	{
		/*
		 * The module's groups are per cgroup too: on a full device a
		 * QP of comm a in a cgroup it does not name goes to other when
		 * destroyed, so it is shown there, not in a's series.
		 */
		struct retired r[] = { R(1, "rxe0", 1, "a", false, 10), R(1, "rxe0", 1, "b", false, 20) };
		struct qp q[] = { Q(1, "rxe0", 1, "a", 4, true, 1), Q(1, "rxe0", 1, "a", 4, true, 4) };

		r[0].cgroup = 100;
		q[0].cgroup = 100;
		q[1].cgroup = 200;
		step_max("a full device: a named comm's QP in an unnamed cgroup in other", 14, 2, r, 2, q, 2,
			 "rxe0/1/a:11:1 rxe0/1/b:20:0 rxe0/other0/:4:1");
	}
}
