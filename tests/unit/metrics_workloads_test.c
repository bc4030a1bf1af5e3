// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's per-workload sums: a (device, cgroup) workload is its
 * live QPs' counts plus the module's destroyed QPs' groups of that
 * cgroup, whatever their command names and ports; never shown lower than
 * before; the root cgroup (0) and the module's "other" group are no
 * workload; another module load starts over. On a device whose table of
 * groups is full, a live QP of a group the module does not name is left
 * out of its workload's sum (shown "-" where nothing is counted): no sum
 * falls, nor comes back lower after it was dropped.
 */
#include <stdio.h>
#include <string.h>

#include "exporter/metrics_workloads.h"
#include "metrics_workloads_test.h"

static struct retired R(const char *comm, uint64_t cgroup, bool other, uint64_t tx)
{
	struct retired r = { .dev_index = 1, .port = 1, .cgroup = cgroup, .other = other };

	snprintf(r.dev, sizeof(r.dev), "rxe0");
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	r.v[0] = tx;
	return r;
}

static struct qp Q(const char *comm, uint64_t cgroup, uint64_t tx)
{
	struct qp q = { .dev_index = 1, .port = 1, .cgroup = cgroup, .counted = true, .state = 3 };

	snprintf(q.dev, sizeof(q.dev), "rxe0");
	snprintf(q.comm, sizeof(q.comm), "%s", comm);
	q.v[0] = tx;
	return q;
}

static const char *show(void)
{
	static char buf[256];
	const struct workload_sum *w;
	size_t n, i, len = 0;

	buf[0] = '\0';
	w = workload_sums(&n);
	for (i = 0; i < n; i++)
		if (w[i].counted)
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s/%llu:%llu:%u", i ? " " : "", w[i].dev,
					(unsigned long long)w[i].cgroup, (unsigned long long)w[i].sum[0], w[i].qps);
		else
			len += snprintf(buf + len, sizeof(buf) - len, "%s%s/%llu:-:%u", i ? " " : "", w[i].dev,
					(unsigned long long)w[i].cgroup, w[i].qps);
	return buf;
}

static void step_max(void (*report)(const char *, int, const char *, const char *), const char *name,
		     uint32_t family, unsigned int max, struct retired *r, size_t nr, struct qp *q, size_t nq,
		     const char *want)
{
	struct snapshot s = { .retired = r, .nretired = nr, .qps = q, .nqps = nq, .retired_max = max };
	char full[160];

	workload_sums_update(family, &s);
	snprintf(full, sizeof(full), "workload sums: %s", name);
	report(full, !strcmp(show(), want), show(), want);
}

static void step(void (*report)(const char *, int, const char *, const char *), const char *name,
		 uint32_t family, struct retired *r, size_t nr, struct qp *q, size_t nq, const char *want)
{
	step_max(report, name, family, 0, r, nr, q, nq, want);
}

static const char *show_jobs(void)
{
	static char buf[256];
	const struct job_sum *j;
	size_t n, i, len = 0;

	buf[0] = '\0';
	j = job_sums(&n);
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s/job%llu:%llu:%u", i ? " " : "", j[i].dev,
				(unsigned long long)j[i].job, (unsigned long long)j[i].sum[0], j[i].qps);
	return buf;
}

/* Per-job sums: cgroups 77 and 88 are job 7's steps, 99 job 8's, 55 no job's. */
static void job_tests(void (*report)(const char *, int, const char *, const char *))
{
	struct retired r[] = { R("python", 77, false, 100), R("python", 99, false, 4) };
	struct qp q[] = { Q("python", 77, 10), Q("python", 88, 7), Q("python", 55, 1) };
	struct qp q2[] = { Q("python", 88, 9) };
	struct snapshot s = { .retired = r, .nretired = 2, .qps = q, .nqps = 3 };
	/* workload_sums()' order: by cgroup, 55 77 88 99. */
	uint64_t job[] = { 0, 7, 7, 8 };
	bool has[] = { false, true, true, true };
	const char *want;

	workload_sums_update(5, &s);
	job_sums_update(5, job, has);
	want = "rxe0/job7:117:2 rxe0/job8:4:0";
	report("job sums: a job's steps added up, a cgroup of no job left out", !strcmp(show_jobs(), want),
	       show_jobs(), want);
	/* 77's live QP destroyed between the dumps (in neither): the job holds. */
	s.retired = r;
	s.nretired = 2;
	s.qps = q2;
	s.nqps = 1;
	r[0].v[0] = 100;
	workload_sums_update(5, &s);
	{
		uint64_t job2[] = { 7, 7, 8 };
		bool has2[] = { true, true, true };

		job_sums_update(5, job2, has2);
	}
	want = "rxe0/job7:119:1 rxe0/job8:4:0";
	report("job sums: a QP between the dumps: the job's sum holds and grows", !strcmp(show_jobs(), want),
	       show_jobs(), want);
	workload_sums_update(6, &s);
	{
		uint64_t job3[] = { 7, 7, 8 };
		bool has3[] = { true, true, true };

		job_sums_update(6, job3, has3);
	}
	want = "rxe0/job7:109:1 rxe0/job8:4:0";
	report("job sums: another module load starts over", !strcmp(show_jobs(), want), show_jobs(), want);
}

void metrics_workloads_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	struct retired r1[] = { R("python", 77, false, 100), R("nccl", 77, false, 5), R("ib_send", 0, false, 9),
				R("x", 0, true, 40) };
	struct qp q1[] = { Q("python", 77, 10), Q("python", 88, 7), Q("ib_send", 0, 3) };
	struct qp q2[] = { Q("python", 88, 8) };
	struct retired r3[] = { R("python", 77, false, 100), R("nccl", 77, false, 5) };

	step(report, "destroyed groups and live QPs of one cgroup summed across names; root and other are none",
	     1, r1, 4, q1, 3, "rxe0/77:115:1 rxe0/88:7:1");
	/* 77's live QP destroyed between the two dumps: in neither, its sum held. */
	step(report, "a QP between the two dumps: the sum holds", 1, r3, 2, q2, 1, "rxe0/77:115:0 rxe0/88:8:1");
	step(report, "another module load starts over", 2, r3, 2, NULL, 0, "rxe0/77:105:0");

	/* A pod (cgroup 88) coming and going on a device with room for 2 groups. */
	{
		struct retired one[] = { R("python", 77, false, 100) };
		struct retired two[] = { R("python", 77, false, 100), R("nccl", 99, false, 5),
					 R("", 0, true, 8) };
		struct qp live[] = { Q("python", 77, 10), Q("python", 88, 7) };
		struct qp live2[] = { Q("python", 77, 10), Q("python", 88, 8) };
		struct qp back[] = { Q("python", 88, 3) };

		step_max(report, "room left: a live QP of an unnamed group counts for its workload", 3, 2,
			 one, 1, live, 2, "rxe0/77:110:1 rxe0/88:7:1");
		step_max(report, "the table full: a named group's live QP counts, an unnamed one's not", 3, 2,
			 two, 3, live2, 2, "rxe0/77:110:1 rxe0/88:-:1 rxe0/99:5:0");
		step_max(report, "its QP destroyed into other: the workload is dropped", 3, 2, two, 3, NULL, 0,
			 "rxe0/77:110:0 rxe0/99:5:0");
		step_max(report, "the pod back on the full device: no sum comes back lower", 3, 2, two, 3, back, 1,
			 "rxe0/77:110:0 rxe0/88:-:1 rxe0/99:5:0");
	}
	job_tests(report);
}
