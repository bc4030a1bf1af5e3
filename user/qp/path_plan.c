// SPDX-License-Identifier: GPL-2.0
/*
 * qp path's plan (path_plan.h): the probe's BTH, the grouping of QPs, the
 * distances learned per destination and the pace. No sockets here.
 */
#include <stdlib.h>
#include <string.h>

#include "path_plan.h"

void path_probe_build(const struct path_target *t, uint32_t psn,
		      uint8_t buf[PATH_PROBE_LEN])
{
	memset(buf, 0, PATH_PROBE_LEN);
	buf[0] = PATH_PROBE_OPCODE;
	buf[1] = 0;			/* SE, MigReq, no pad, transport version 0 */
	buf[2] = 0xff;			/* P_Key: the default, full member */
	buf[3] = 0xff;
	/* buf[4]: reserved (FECN, BECN clear); the QPN a fabric may hash. */
	buf[5] = t->dqpn >> 16;
	buf[6] = t->dqpn >> 8;
	buf[7] = t->dqpn;
	/* buf[8]: AckReq clear: nothing is asked of whoever receives it. */
	buf[9] = psn >> 16;
	buf[10] = psn >> 8;
	buf[11] = psn;
	/* buf[12..15]: the ICRC, zero (see rocectl-qp(8): not the packet's). */
}

bool path_gid_is_v4(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(gid, prefix, sizeof(prefix));
}

bool path_same_headers(const struct path_target *a, const struct path_target *b)
{
	return !memcmp(a->src, b->src, 16) && !memcmp(a->dst, b->dst, 16) &&
	       a->sport == b->sport && a->tclass == b->tclass && a->dqpn == b->dqpn;
}

static struct path_dist *dist_find(const struct path_dists *ds, const uint8_t dst[16])
{
	size_t i;

	for (i = 0; i < ds->n; i++)
		if (!memcmp(ds->d[i].dst, dst, 16))
			return &ds->d[i];
	return NULL;
}

unsigned int path_ttl_limit(const struct path_dists *ds, const uint8_t dst[16],
			    unsigned int max_hops)
{
	const struct path_dist *d = dist_find(ds, dst);

	if (!d || d->hops - 1 >= max_hops)
		return max_hops;
	return d->hops - 1;
}

int path_learn(struct path_dists *ds, const uint8_t dst[16], unsigned int ttl)
{
	struct path_dist *d = dist_find(ds, dst);

	if (!ttl)
		return 0;
	if (d) {
		/* The nearer silence bounds every later probe. */
		if (ttl < d->hops)
			d->hops = ttl;
		return 0;
	}
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? 2 * ds->cap : 8;
		struct path_dist *grown = realloc(ds->d, cap * sizeof(*grown));

		if (!grown)
			return -1;
		ds->d = grown;
		ds->cap = cap;
	}
	d = &ds->d[ds->n++];
	memcpy(d->dst, dst, 16);
	d->hops = ttl;
	return 0;
}

void path_dists_free(struct path_dists *ds)
{
	free(ds->d);
	memset(ds, 0, sizeof(*ds));
}

uint64_t path_pace_gap_ns(const struct path_pace *p, double jitter)
{
	unsigned int rate = p->rate ? p->rate : 1;
	unsigned int doublings = p->silent < 4 ? p->silent : 4;
	double gap = 1e9 / rate;

	if (jitter < 0)
		jitter = 0;
	if (jitter > 1)
		jitter = 1;
	/* Never shorter than 1 s / rate: the rate is a ceiling. */
	return (uint64_t)(gap * (1 + jitter / 2)) << doublings;
}

void path_pace_result(struct path_pace *p, bool answered)
{
	p->silent = answered ? 0 : p->silent + 1;
}
