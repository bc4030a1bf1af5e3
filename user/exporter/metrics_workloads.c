// SPDX-License-Identifier: GPL-2.0
/* The exporter's QP sums per (device, cgroup) (metrics_workloads.h). */
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
