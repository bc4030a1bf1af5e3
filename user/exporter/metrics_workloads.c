// SPDX-License-Identifier: GPL-2.0
/* The exporter's QP sums per (device, cgroup) and (device, job) (metrics_workloads.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics_named.h"
#include "metrics_sums.h"
#include "metrics_workloads.h"

static struct {
	uint32_t family_id;
	struct workload_sum *w;	/* the last scrape's, sorted */
	size_t n;
} st;

static int wl_cmp(const void *a, const void *b)
{
	const struct workload_sum *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return x->cgroup < y->cgroup ? -1 : x->cgroup > y->cgroup;
}

static void wl_key(struct workload_sum *w, uint32_t dev_index, const char *dev, uint64_t cgroup)
{
	memset(w, 0, sizeof(*w));
	w->dev_index = dev_index;
	snprintf(w->dev, sizeof(w->dev), "%s", dev);
	w->cgroup = cgroup;
}

bool workload_sums_update(uint32_t family_id, const struct snapshot *s)
{
	size_t n = 0, i, out = 0;
	struct workload_sum *all;
	struct named_groups named;
	unsigned int k;

	if (family_id != st.family_id) {
		free(st.w);
		st.w = NULL;
		st.n = 0;
		st.family_id = family_id;
	}
	if (!named_groups_init(&named, s))
		return false;
	all = calloc(s->nretired + s->nqps + 1, sizeof(*all));
	if (!all) {
		named_groups_free(&named);
		return false;
	}
	for (i = 0; i < s->nretired; i++) {
		const struct retired *r = &s->retired[i];

		if (r->other || !r->cgroup)
			continue;
		wl_key(&all[n], r->dev_index, r->dev, r->cgroup);
		all[n].counted = true;
		memcpy(all[n].sum, r->v, sizeof(r->v));
		n++;
	}
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];

		if (!q->cgroup)
			continue;
		wl_key(&all[n], q->dev_index, q->dev, q->cgroup);
		all[n].qps = 1;
		/*
		 * A QP whose counts will go to "other", which names no cgroup,
		 * is left out of its workload's sum while it lives too
		 * (metrics_named.h). It still counts as a live QP.
		 */
		if (q->counted && !named_groups_goes_other(&named, q)) {
			all[n].counted = true;
			memcpy(all[n].sum, q->v, sizeof(q->v));
		}
		n++;
	}
	named_groups_free(&named);
	qsort(all, n, sizeof(*all), wl_cmp);
	for (i = 0; i < n; i++) {
		if (out && !wl_cmp(&all[out - 1], &all[i])) {
			struct workload_sum *w = &all[out - 1];

			w->counted |= all[i].counted;
			w->qps += all[i].qps;
			for (k = 0; k < QP_NSTATS; k++)
				w->sum[k] += all[i].sum[k];
			continue;
		}
		if (out != i)
			all[out] = all[i];
		out++;
	}
	/* Never lower than the last scrape showed. */
	for (i = 0; i < out; i++) {
		const struct workload_sum *prev = st.n ?
			bsearch(&all[i], st.w, st.n, sizeof(*st.w), wl_cmp) : NULL;

		if (prev)
			sums_hold(all[i].sum, prev->sum);
	}
	free(st.w);
	st.w = all;
	st.n = out;
	return true;
}

const struct workload_sum *workload_sums(size_t *n)
{
	*n = st.n;
	return st.w;
}

static struct {
	uint32_t family_id;
	struct job_sum *j;	/* the last scrape's, sorted */
	size_t n;
} js;

static int job_cmp(const void *a, const void *b)
{
	const struct job_sum *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

bool job_sums_update(uint32_t family_id, const uint64_t *job, const bool *has)
{
	struct job_sum *all;
	size_t i, n = 0, out = 0;
	unsigned int k;

	if (family_id != js.family_id) {
		free(js.j);
		js.j = NULL;
		js.n = 0;
		js.family_id = family_id;
	}
	all = calloc(st.n + 1, sizeof(*all));
	if (!all)
		return false;
	for (i = 0; i < st.n; i++) {
		if (!has[i])
			continue;
		all[n].dev_index = st.w[i].dev_index;
		memcpy(all[n].dev, st.w[i].dev, sizeof(all[n].dev));
		all[n].job = job[i];
		all[n].counted = st.w[i].counted;
		all[n].qps = st.w[i].qps;
		memcpy(all[n].sum, st.w[i].sum, sizeof(all[n].sum));
		n++;
	}
	qsort(all, n, sizeof(*all), job_cmp);
	for (i = 0; i < n; i++) {
		if (out && !job_cmp(&all[out - 1], &all[i])) {
			struct job_sum *j = &all[out - 1];

			j->counted |= all[i].counted;
			j->qps += all[i].qps;
			for (k = 0; k < QP_NSTATS; k++)
				j->sum[k] += all[i].sum[k];
			continue;
		}
		if (out != i)
			all[out] = all[i];
		out++;
	}
	/* A step's cgroup may leave the workloads (its groups gone to "other"). */
	for (i = 0; i < out; i++) {
		const struct job_sum *prev = js.n ?
			bsearch(&all[i], js.j, js.n, sizeof(*js.j), job_cmp) : NULL;

		if (prev)
			sums_hold(all[i].sum, prev->sum);
	}
	free(js.j);
	js.j = all;
	js.n = out;
	return true;
}

const struct job_sum *job_sums(size_t *n)
{
	*n = js.n;
	return js.j;
}
