// SPDX-License-Identifier: GPL-2.0
/* The exporter's QP sums per (device, cgroup) (metrics_workloads.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A destroyed QPs' group of the module, by its key (device, port, comm, cgroup). */
static int named_cmp(const void *a, const void *b)
{
	const struct retired *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	if (x->cgroup != y->cgroup)
		return x->cgroup < y->cgroup ? -1 : 1;
	return strncmp(x->comm, y->comm, sizeof(x->comm));
}

/*
 * The module's named groups, sorted, in *named (NULL where its bound is
 * not known: no device is then taken as full); false if out of memory.
 */
static bool named_groups(const struct snapshot *s, struct retired **named, size_t *n)
{
	size_t i;

	*named = NULL;
	*n = 0;
	if (!s->retired_max)
		return true;
	*named = calloc(s->nretired + 1, sizeof(**named));
	if (!*named)
		return false;
	for (i = 0; i < s->nretired; i++)
		if (!s->retired[i].other)
			(*named)[(*n)++] = s->retired[i];
	qsort(*named, *n, sizeof(**named), named_cmp);
	return true;
}

/* Whether device dev_index's table of named groups is full. */
static bool device_full(const struct snapshot *s, const struct retired *named, size_t n,
			uint32_t dev_index)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += named[i].dev_index == dev_index;
	return s->retired_max && k >= s->retired_max;
}

bool workload_sums_update(uint32_t family_id, const struct snapshot *s)
{
	size_t n = 0, i, out = 0, nnamed;
	struct workload_sum *all;
	struct retired *named, key;
	bool full = false, have_dev = false;
	uint32_t full_dev = 0;
	unsigned int k;

	if (family_id != st.family_id) {
		free(st.w);
		st.w = NULL;
		st.n = 0;
		st.family_id = family_id;
	}
	if (!named_groups(s, &named, &nnamed))
		return false;
	all = calloc(s->nretired + s->nqps + 1, sizeof(*all));
	if (!all) {
		free(named);
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
		 * On a device whose module table is full, a QP of a group the
		 * module does not name goes to "other" when it is destroyed,
		 * which names no cgroup: its counts are left out of its
		 * workload's sum while it lives too, or the sum would fall when
		 * it goes, or come back lower to a series dropped meanwhile (a
		 * counter reset for Prometheus). It still counts as a live QP.
		 */
		if (s->retired_max && (!have_dev || q->dev_index != full_dev)) {
			full_dev = q->dev_index;	/* the QPs come by device */
			have_dev = true;
			full = device_full(s, named, nnamed, full_dev);
		}
		memset(&key, 0, sizeof(key));
		key.dev_index = q->dev_index;
		key.port = q->port;
		key.cgroup = q->cgroup;
		memcpy(key.comm, q->comm, sizeof(key.comm));
		if (q->counted && !(full && !bsearch(&key, named, nnamed, sizeof(*named), named_cmp))) {
			all[n].counted = true;
			memcpy(all[n].sum, q->v, sizeof(q->v));
		}
		n++;
	}
	free(named);
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
