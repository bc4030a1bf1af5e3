// SPDX-License-Identifier: GPL-2.0
/* qp path's localization of the marks to a link (see path_links.h). */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "path_links.h"

bool links_qp_marked(const struct links_qp *q)
{
	return q->ce || q->cnp;
}

bool path_links_loopback(const char *a)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, a, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127 || !a4.s_addr;
	if (inet_pton(AF_INET6, a, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6) || IN6_IS_ADDR_UNSPECIFIED(&a6) ||
		       (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127);
	return false;
}

const char *path_links_verdict_name(enum links_verdict v)
{
	static const char *const names[] = {
		[LINKS_LOCALIZED] = "localized",
		[LINKS_NO_MARKS] = "no-marks",
		[LINKS_PER_PACKET] = "per-packet",
		[LINKS_ROUTERS] = "routers",
		[LINKS_INDISTINCT] = "indistinct",
		[LINKS_NONE_EXPLAINS] = "none-explains",
	};

	return (unsigned int)v < sizeof(names) / sizeof(names[0]) ? names[v] : "unknown";
}

/* The previous hop of TTL t + 1 on q's path: its source for the first. */
static const char *prev_of(const struct links_qp *q, unsigned int t)
{
	return t ? q->hops[t - 1] : q->src;
}

static struct links_link *find(struct links_result *r, const char *addr)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->l[i].addr, addr))
			return &r->l[i];
	return NULL;
}

static int add_prev(struct links_link *l, const char *prev)
{
	const char **grown;
	size_t i;

	for (i = 0; i < l->nprev; i++)
		if (!strcmp(l->prev[i], prev))
			return 0;
	grown = realloc(l->prev, (l->nprev + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	l->prev = grown;
	l->prev[l->nprev++] = prev;
	return 0;
}

/* QP i crosses the link into hop t (0-based) of its path. */
static int cross(struct links_result *r, const struct links_qp *q, size_t i, unsigned int t,
		 size_t *cap)
{
	struct links_link *l = find(r, q[i].hops[t]);
	size_t *grown;

	if (!l) {
		if (r->n == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct links_link *g = realloc(r->l, c * sizeof(*g));

			if (!g)
				return -1;
			r->l = g;
			*cap = c;
		}
		l = &r->l[r->n++];
		memset(l, 0, sizeof(*l));
		l->addr = q[i].hops[t];
		l->ttl = t + 1;
	}
	if (t + 1 < l->ttl)
		l->ttl = t + 1;
	if (add_prev(l, prev_of(&q[i], t)))
		return -1;
	/* A QP crosses a link once, even on a path that loops. */
	if (l->nqps && l->qps[l->nqps - 1] == i)
		return 0;
	grown = realloc(l->qps, (l->nqps + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	l->qps = grown;
	l->qps[l->nqps++] = i;
	l->marked += links_qp_marked(&q[i]);
	l->ce += q[i].ce;
	l->cnp += q[i].cnp;
	l->retrans += q[i].retrans;
	return 0;
}

/* Most marked QPs, then fewest unmarked, most marks, nearest, by address. */
static int rank_cmp(const void *pa, const void *pb)
{
	const struct links_link *a = pa, *b = pb;

	if (a->marked != b->marked)
		return a->marked > b->marked ? -1 : 1;
	if (a->nqps - a->marked != b->nqps - b->marked)
		return a->nqps - a->marked < b->nqps - b->marked ? -1 : 1;
	if (a->ce + a->cnp != b->ce + b->cnp)
		return a->ce + a->cnp > b->ce + b->cnp ? -1 : 1;
	if (a->ttl != b->ttl)
		return a->ttl < b->ttl ? -1 : 1;
	return strcmp(a->addr, b->addr);
}

/* A second probe of the same headers and TTL answered from elsewhere. */
static bool per_packet(const struct links_qp *q, size_t n, struct links_result *r)
{
	unsigned int t;
	size_t i;

	for (i = 0; i < n; i++)
		for (t = 0; q[i].again && t < q[i].nhops; t++)
			if (*q[i].hops[t] && *q[i].again[t] && strcmp(q[i].hops[t], q[i].again[t])) {
				r->addr = q[i].hops[t];
				r->addr2 = q[i].again[t];
				r->qpn = q[i].qpn;
				return true;
			}
	return false;
}

/*
 * A hop that names a router, not a link, on a marked QP's path: a loopback
 * address, or one reached from two different hops that both follow one
 * same hop (two ways out of a router that meet again at one address: the
 * router answers from its own address, not the link's).
 */
static bool router_hop(const struct links_qp *q, size_t n, size_t i, unsigned int t,
		       struct links_result *r)
{
	const char *h = q[i].hops[t];
	unsigned int u;
	size_t j;

	if (path_links_loopback(h)) {
		r->addr = h;
		return true;
	}
	if (!t)
		return false;
	for (j = 0; j < n; j++)
		for (u = 1; u < q[j].nhops; u++) {
			if (!*q[j].hops[u] || strcmp(q[j].hops[u], h) ||
			    !*q[j].hops[u - 1] || !strcmp(q[j].hops[u - 1], q[i].hops[t - 1]))
				continue;
			if (!strcmp(prev_of(&q[j], u - 1), prev_of(&q[i], t - 1))) {
				r->addr = h;
				r->addr2 = q[i].hops[t - 1];
				r->addr3 = q[j].hops[u - 1];
				r->via = prev_of(&q[i], t - 1);
				return true;
			}
		}
	return false;
}

static bool routers(const struct links_qp *q, size_t n, struct links_result *r)
{
	unsigned int t;
	size_t i;

	for (i = 0; i < n; i++)
		for (t = 0; links_qp_marked(&q[i]) && t < q[i].nhops; t++)
			if (*q[i].hops[t] && router_hop(q, n, i, t, r))
				return true;
	return false;
}

/* Every marked QP crosses it, and at least 3 of every 4 QPs crossing it are marked. */
static bool explains(const struct links_link *l, size_t nmarked)
{
	return l->marked == nmarked && 4 * (l->nqps - l->marked) <= l->nqps;
}

int path_links_localize(const struct links_qp *q, size_t n, struct links_result *r)
{
	size_t i, cap = 0;
	unsigned int t;

	memset(r, 0, sizeof(*r));
	r->nqps = n;
	for (i = 0; i < n; i++) {
		r->nmarked += links_qp_marked(&q[i]);
		for (t = 0; t < q[i].nhops; t++)
			if (*q[i].hops[t] && cross(r, q, i, t, &cap))
				return -1;
	}
	if (r->n)
		qsort(r->l, r->n, sizeof(*r->l), rank_cmp);
	if (!r->nmarked)
		r->verdict = LINKS_NO_MARKS;
	else if (per_packet(q, n, r))
		r->verdict = LINKS_PER_PACKET;
	else if (routers(q, n, r))
		r->verdict = LINKS_ROUTERS;
	else if (!r->n || !explains(&r->l[0], r->nmarked))
		r->verdict = LINKS_NONE_EXPLAINS;
	else {
		/* Ranked first: the others as good as it are tied with it. */
		for (r->ntied = 1; r->ntied < r->n; r->ntied++)
			if (r->l[r->ntied].marked != r->l[0].marked ||
			    r->l[r->ntied].nqps != r->l[0].nqps)
				break;
		r->verdict = r->ntied > 1 ? LINKS_INDISTINCT : LINKS_LOCALIZED;
		if (r->ntied == 1)
			r->ntied = 0;
		r->link = 0;
	}
	return 0;
}

void path_links_free(struct links_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->l[i].prev);
		free(r->l[i].qps);
	}
	free(r->l);
	memset(r, 0, sizeof(*r));
}
