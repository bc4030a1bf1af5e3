// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's QP sums across scrapes (metrics_sums.h): per-QP counters
 * are summed per (device, port, comm) -- a label per QP would make a
 * series per QP, unbounded as QPs come and go by the thousand -- and what
 * destroyed QPs counted stays in their group's sum.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "errors.h"
#include "metrics_read.h"
#include "metrics_sums.h"

/* Across scrapes: the event subscription, the retired counts, the last QPs seen. */
static struct {
	struct nl ev;
	uint32_t family_id;	/* of the subscription: another id is another module load */
	struct group *groups;
	size_t ngroups;
	struct qp *last;	/* the previous scrape's QPs, sorted */
	size_t nlast;
	uint64_t events_lost;
} st;

static struct group *group_of(const char *dev, uint32_t port, const char *comm)
{
	struct group *g;
	size_t i;

	for (i = 0; i < st.ngroups; i++) {
		g = &st.groups[i];
		if (g->port == port && !strcmp(g->dev, dev) && !strcmp(g->comm, comm))
			return g;
	}
	if (!metrics_grow((void **)&st.groups, st.ngroups, sizeof(*st.groups)))
		return NULL;
	g = &st.groups[st.ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->dev, sizeof(g->dev), "%s", dev);
	snprintf(g->comm, sizeof(g->comm), "%s", comm);
	g->port = port;
	return g;
}

struct drain {
	struct snapshot *s;	/* the QPs dumped so far, sorted, or NULL */
	bool gone;		/* the module went: a new subscription is needed */
};

/*
 * A destroyed QP's final counts go to its group's retired sums. Its group
 * is the one it was dumped in (this scrape's, else the previous one's);
 * a QP never dumped goes to its device and port with no comm, the event
 * carrying no owner.
 */
static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct drain *d = data;
	struct qp q, *seen = NULL;
	struct group *g;
	int i;

	if (nl_family_gone(&st.ev, nlh)) {
		d->gone = true;
		return MNL_CB_STOP;
	}
	if (nlh->nlmsg_type != st.ev.family_id || mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN ||
	    genl->cmd != ROCECTL_CMD_QP_DESTROY_NTF || !metrics_qp_parse(nlh, &q) || !q.counted)
		return MNL_CB_OK;
	if (d->s && d->s->nqps)
		seen = bsearch(&q, d->s->qps, d->s->nqps, sizeof(q), metrics_qp_cmp);
	if (seen)
		seen->gone = true;	/* its live counts leave with it */
	else if (st.nlast)
		seen = bsearch(&q, st.last, st.nlast, sizeof(q), metrics_qp_cmp);
	g = seen ? group_of(seen->dev, seen->port, seen->comm) : group_of(q.dev, q.port, "");
	if (!g)
		return MNL_CB_OK;
	g->counted = true;
	for (i = 0; i < QP_NSTATS; i++)
		g->retired[i] += q.v[i];
	return MNL_CB_OK;
}

/* Take every event already queued; false if the subscription is gone or broken. */
static bool drain_events(struct snapshot *s)
{
	struct drain d = { .s = s };
	int ret;

	if (!st.ev.sock)
		return false;
	for (;;) {
		ret = mnl_socket_recvfrom(st.ev.sock, st.ev.buf, 64 * 1024);
		if (ret < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return true;
			if (errno == ENOBUFS) {
				st.events_lost++;
				continue;
			}
			return false;
		}
		if (mnl_cb_run(st.ev.buf, ret, 0, 0, event_cb, &d) < 0 || d.gone)
			return false;
	}
}

/* Subscribe anew after a module load: what was retired counted the old one's QPs. */
static bool subscribe(uint32_t family_id)
{
	if (st.ev.sock && st.family_id == family_id)
		return true;
	nl_close(&st.ev);
	free(st.groups);
	free(st.last);
	st.groups = NULL;
	st.last = NULL;
	st.ngroups = st.nlast = 0;
	if (nl_open(&st.ev, true) != EXIT_OK)
		return false;
	if (nl_subscribe(&st.ev) != EXIT_OK ||
	    fcntl(mnl_socket_get_fd(st.ev.sock), F_SETFL, O_NONBLOCK) < 0) {
		nl_close(&st.ev);
		return false;
	}
	st.family_id = st.ev.family_id;
	return true;
}

bool sums_begin(uint32_t family_id)
{
	if (subscribe(family_id) && drain_events(NULL))
		return true;
	nl_close(&st.ev);
	return false;
}

bool sums_add(struct snapshot *s)
{
	bool ok = true;
	size_t i;
	unsigned int k;

	if (st.ev.sock && !drain_events(s)) {
		nl_close(&st.ev);
		ok = false;
	}
	/* Live QPs into their groups: the groups keep what their dead QPs counted. */
	for (i = 0; i < st.ngroups; i++) {
		memset(st.groups[i].qps, 0, sizeof(st.groups[i].qps));
		memset(st.groups[i].live, 0, sizeof(st.groups[i].live));
	}
	for (i = 0; i < s->nqps; i++) {
		const struct qp *q = &s->qps[i];
		struct group *g = group_of(q->dev, q->port, q->comm);

		if (!g)
			continue;
		if (q->state >= 0 && q->state < NQP_STATES && !q->gone)
			g->qps[q->state]++;
		if (!q->counted || q->gone)
			continue;
		g->counted = true;
		for (k = 0; k < QP_NSTATS; k++)
			g->live[k] += q->v[k];
	}
	return ok;
}

void sums_keep(struct snapshot *s)
{
	free(st.last);
	st.last = s->qps;
	st.nlast = s->nqps;
	s->qps = NULL;
}

const struct group *sums_groups(size_t *n)
{
	*n = st.ngroups;
	return st.groups;
}

uint64_t sums_events_lost(void)
{
	return st.events_lost;
}
