// SPDX-License-Identifier: GPL-2.0
/* The exporter's QP sums per (device, port, comm) (metrics_sums.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics_named.h"
#include "metrics_sums.h"

static struct {
	uint32_t family_id;
	struct group *groups;	/* the last scrape's, sorted */
	size_t ngroups;
	uint64_t held;
} st;

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	if (x->other != y->other)
		return x->other ? 1 : -1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

static void key(struct group *g, uint32_t dev_index, const char *dev, uint32_t port,
		const char *comm, bool other)
{
	memset(g, 0, sizeof(*g));
	g->dev_index = dev_index;
	snprintf(g->dev, sizeof(g->dev), "%s", dev);
	g->other = other;
	if (!other) {
		g->port = port;
		snprintf(g->comm, sizeof(g->comm), "%s", comm);
	}
}

bool sums_update(uint32_t family_id, const struct snapshot *s)
{
	size_t n = s->nretired + s->nqps, nr = s->nretired, i, j, out = 0;
	struct named_groups named;
	struct group *all;
	unsigned int k;

	if (family_id != st.family_id) {
		free(st.groups);
		st.groups = NULL;
		st.ngroups = 0;
		st.family_id = family_id;
	}
	if (!named_groups_init(&named, s))
		return false;
	all = calloc(n ? n : 1, sizeof(*all));
	if (!all) {
		named_groups_free(&named);
		return false;
	}
	/* One entry per destroyed QPs' group and per QP, then merged by key. */
	for (i = 0; i < nr; i++) {
		const struct retired *r = &s->retired[i];

		key(&all[i], r->dev_index, r->dev, r->port, r->comm, r->other);
		all[i].counted = true;
		memcpy(all[i].sum, r->v, sizeof(r->v));
	}
	for (j = 0; j < s->nqps; j++) {
		const struct qp *q = &s->qps[j];
		struct group *g = &all[nr + j];

		key(g, q->dev_index, q->dev, q->port, q->comm, false);
		/*
		 * Shown in "other" while it lives if its counts go there when
		 * it is destroyed (metrics_named.h): they never leave one
		 * series for another.
		 */
		if (named_groups_goes_other(&named, q))
			key(g, q->dev_index, q->dev, 0, "", true);
		if (q->state >= 0 && q->state < NQP_STATES)
			g->qps[q->state]++;
		g->counted = q->counted;
		if (q->counted)
			memcpy(g->sum, q->v, sizeof(q->v));
	}
	named_groups_free(&named);
	qsort(all, n, sizeof(*all), group_cmp);
	for (i = 0; i < n; i++) {
		struct group *g = &all[out];

		if (out && !group_cmp(&all[out - 1], &all[i])) {
			g = &all[out - 1];
			g->counted |= all[i].counted;
			for (k = 0; k < NQP_STATES; k++)
				g->qps[k] += all[i].qps[k];
			for (k = 0; k < QP_NSTATS; k++)
				g->sum[k] += all[i].sum[k];
			continue;
		}
		if (out != i)
			*g = all[i];
		out++;
	}
	/* Never lower than the last scrape showed. */
	for (i = 0; i < out; i++) {
		const struct group *prev = st.ngroups ?
			bsearch(&all[i], st.groups, st.ngroups, sizeof(*st.groups), group_cmp) : NULL;

		if (prev)
			st.held += sums_hold(all[i].sum, prev->sum);
	}
	free(st.groups);
	st.groups = all;
	st.ngroups = out;
	return true;
}

unsigned int sums_hold(uint64_t *sum, const uint64_t *prev)
{
	unsigned int k, held = 0;

	for (k = 0; k < QP_NSTATS; k++) {
		if (prev[k] > sum[k]) {
			sum[k] = prev[k];
			held++;
		}
	}
	return held;
}

const struct group *sums_groups(size_t *n)
{
	*n = st.ngroups;
	return st.groups;
}

uint64_t sums_held(void)
{
	return st.held;
}
