// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's series without their owners (metrics_owners.h says why):
 * the per-(device, port, comm) groups and the per-(device, comm, cause)
 * failure counts added up over comm.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics_owners.h"

bool owner_label(const char *name)
{
	/* Every label that says whose a QP is; "job" for the batch schedulers' jobs. */
	static const char *const owners[] = {
		"pid", "comm", "cgroup", "namespace", "pod", "pod_uid", "container",
		"container_runtime", "job", "step", "user", "uid",
	};
	size_t i;

	for (i = 0; i < sizeof(owners) / sizeof(owners[0]); i++)
		if (!strcmp(name, owners[i]))
			return true;
	return false;
}

/* Same device and port (sums_groups() sorts by device index, other, port, comm). */
static bool same_place(const struct group *a, const struct group *b)
{
	return a->dev_index == b->dev_index && a->other == b->other && (a->other || a->port == b->port);
}

/*
 * The last scrape's folded sums, for the module load family: a comm's
 * group can leave a fold (its QPs gone to the device's "other" when the
 * module's table filled), and the fold's sum is a counter of its own that
 * must not go back for it (sums_hold(), as the groups' own sums).
 */
static struct {
	uint32_t family;
	struct group *g;
	size_t n;
} last;

static void hold(uint32_t family, struct group *f, size_t m)
{
	struct group *copy;
	size_t i, j;

	/* A few per device (its ports and "other"): no index needed. */
	for (i = 0; last.family == family && i < m; i++)
		for (j = 0; j < last.n; j++)
			if (same_place(&last.g[j], &f[i]))
				sums_hold(f[i].sum, last.g[j].sum);
	copy = malloc((m ? m : 1) * sizeof(*copy));
	if (!copy)
		return;	/* the next scrape holds against an older one */
	memcpy(copy, f, m * sizeof(*copy));
	free(last.g);
	last.g = copy;
	last.n = m;
	last.family = family;
}

bool owners_fold_groups(uint32_t family, const struct group *g, size_t n, struct group **out,
			size_t *nout)
{
	struct group *f = calloc(n ? n : 1, sizeof(*f));
	size_t i, k, m = 0;

	if (!f)
		return false;
	for (i = 0; i < n; i++) {
		if (m && same_place(&f[m - 1], &g[i])) {
			struct group *t = &f[m - 1];

			t->counted |= g[i].counted;
			for (k = 0; k < NQP_STATES; k++)
				t->qps[k] += g[i].qps[k];
			for (k = 0; k < QP_NSTATS; k++)
				t->sum[k] += g[i].sum[k];
			continue;
		}
		f[m] = g[i];
		f[m].comm[0] = '\0';
		m++;
	}
	hold(family, f, m);
	*out = f;
	*nout = m;
	return true;
}

static int err_cmp(const void *a, const void *b)
{
	const struct qp_err_count *x = a, *y = b;
	int c;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	/* The module's "other" names no device. */
	c = x->other ? 0 : strcmp(x->dev, y->dev);
	if (c)
		return c;
	return (int)x->cause - (int)y->cause;
}

bool owners_fold_errors(const struct qp_err_count *e, size_t n, struct qp_err_count **out,
			size_t *nout)
{
	struct qp_err_count *f = calloc(n ? n : 1, sizeof(*f));
	size_t i, m = 0;

	if (!f)
		return false;
	memcpy(f, e, n * sizeof(*f));
	qsort(f, n, sizeof(*f), err_cmp);
	for (i = 0; i < n; i++) {
		if (m && !err_cmp(&f[m - 1], &f[i])) {
			f[m - 1].count += f[i].count;
			continue;
		}
		f[m] = f[i];
		f[m].comm[0] = '\0';
		if (f[m].other)
			f[m].dev[0] = '\0';
		m++;
	}
	*out = f;
	*nout = m;
	return true;
}
