// SPDX-License-Identifier: GPL-2.0
/* Which live QPs' counts go to the module's "other" group (metrics_named.h). */
#include <stdlib.h>
#include <string.h>

#include "metrics_named.h"

/* The module's key of a group: device, port, command name, cgroup. */
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

bool named_groups_init(struct named_groups *ng, const struct snapshot *s)
{
	size_t i;

	memset(ng, 0, sizeof(*ng));
	ng->max = s->retired_max;
	if (!ng->max)
		return true;
	ng->g = calloc(s->nretired + 1, sizeof(*ng->g));
	if (!ng->g)
		return false;
	for (i = 0; i < s->nretired; i++)
		if (!s->retired[i].other)
			ng->g[ng->n++] = s->retired[i];
	qsort(ng->g, ng->n, sizeof(*ng->g), named_cmp);
	return true;
}

bool named_groups_goes_other(struct named_groups *ng, const struct qp *q)
{
	struct retired key;
	size_t i, k = 0;

	if (!ng->max)
		return false;
	if (!ng->have_dev || q->dev_index != ng->dev_index) {
		/* The QPs come by device: counted once a device. */
		for (i = 0; i < ng->n; i++)
			k += ng->g[i].dev_index == q->dev_index;
		ng->have_dev = true;
		ng->dev_index = q->dev_index;
		ng->full = k >= ng->max;
	}
	if (!ng->full)
		return false;
	memset(&key, 0, sizeof(key));
	key.dev_index = q->dev_index;
	key.port = q->port;
	key.cgroup = q->cgroup;
	memcpy(key.comm, q->comm, sizeof(key.comm));
	return !bsearch(&key, ng->g, ng->n, sizeof(*ng->g), named_cmp);
}

void named_groups_free(struct named_groups *ng)
{
	free(ng->g);
	ng->g = NULL;
}
