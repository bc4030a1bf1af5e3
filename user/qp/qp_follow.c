// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp counters follow: every QP a policy matches gets a hardware
 * counter of its own once it has reached RTR (RDMA_NLDEV_CMD_STAT_SET,
 * manual mode, a new counter), as "qp counters bind" gives one by hand.
 * When a device has no counter left, that is said once; the QPs left
 * waiting are bound as counters free up (a QP bound to one is destroyed:
 * the RDMA core releases its counter). QPs that exist when it starts are
 * bound then. It runs until interrupted; bindings stay until their QPs go.
 *
 * When a device has fewer counter sets than QPs that match, QPs are served
 * in follow_rank.h's order (policy, busy port, oldest), and a waiting QP
 * that comes before a bound one in it takes its set: the
 * bound QP's counts are read, its set released, and the counts kept as its
 * history, which qp stats and the exporter add to whatever set it has next
 * (the state file carries them while follow runs). Events that reach the
 * set between that read and the release are counted by the port (the
 * RDMA core adds a released set's counts to the port's), not the QP.
 *
 * Level-triggered: the module's QP events only say when to look. What to
 * bind is decided from the QPs (the module's dump) and the counters (the
 * RDMA core's dump) as they are, so a lost event (ENOBUFS) or a counter
 * freed by someone else costs a delay, never a wrong binding. While QPs
 * wait, it looks again every FOLLOW_RETRY_MS.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "follow_rank.h"
#include "lib/attrs.h"
#include "lib/conf.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp_fields.h"
#include "qp_follow.h"
#include "qp_hw_cong.h"

#define FOLLOW_RETRY_MS	2000
/* A port that showed congestion or retransmissions counts as busy this long. */
#define FOLLOW_BUSY_MS	60000
#define FOLLOW_MAX_POLICIES 64
/* A state file's line at most: a history line names every counter of a set. */
#define FOLLOW_LINE_MAX	8192
/* A task's comm is 15 characters; a kernel user's name may be longer. */
#define FOLLOW_COMM_MAX	63

/* A QP as the module's dump reports it. */
struct fqp {
	uint32_t dev_index;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t qpn, port, pid;
	uint8_t type, state;
	bool has_pid;
	char comm[FOLLOW_COMM_MAX + 1];
	uint64_t created;	/* ns, 0: unknown */
};

struct fqps {
	struct fqp *q;
	size_t n, cap;
};

/* A binding follow made, and which policy it counts against. */
struct fbound {
	uint32_t dev_index, port, qpn, counter;
	size_t policy;
	uint64_t created;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
};

/* The counts of the sets a QP was bound to and gave up, while it lives. */
struct fhist {
	uint32_t dev_index, port, qpn;
	uint64_t created;
	struct qpc_value *v;
	size_t n;
};

/* A QP that waits for a set, and why ("full": none left; "max": its policy's cap). */
struct fwait {
	uint32_t dev_index, port, qpn;
	const char *why;
};

/* What follow knows of a port between looks: whether it is busy. */
struct fport {
	uint32_t dev_index, port;
	struct qpc_value *last;	/* its counters at the last look */
	size_t n;
	uint64_t busy_until;	/* ms, CLOCK_MONOTONIC */
	bool busy;
};

/* What follow knows of a device (by index) between looks. */
struct fdev {
	uint32_t index;
	char name[ROCECTL_DEV_NAME_MAX + 1];
	size_t waiting;		/* its QPs left unbound at the last look */
	bool full;		/* it refused a counter in this look: no more asking */
	bool exhausted;		/* said: no counter left; QPs wait */
	bool refused;		/* said: its driver binds no QP (not retried) */
	uint64_t opt_ports;	/* bit N: port N's congestion counters seen to */
};

struct follow {
	struct rocectl *rc;
	struct follow_policy pol[FOLLOW_MAX_POLICIES];
	size_t npol;
	struct nl q;		/* QP dumps from the module */
	struct nl rdma;		/* the RDMA core: counters, binds */
	struct fbound *b;
	size_t nb, capb;
	struct fdev *d;
	size_t nd, capd;
	struct fhist *h;
	size_t nh;
	struct fwait *w;
	size_t nw;
	struct fport *ports;
	size_t nports;
	size_t waiting;		/* QPs matched and left unbound at the last look */
	char *lines[FOLLOW_MAX_POLICIES];	/* a policy file's lines, which pol[] points into */
	bool gone;		/* the module unloaded */
	bool look;		/* an event says: look again */
	int lock_fd;		/* FOLLOW_STATE's lock, held while it runs; -1: no state */
	bool state_changed;	/* bindings changed since the state was written */
	int fatal;		/* an exit code that ends follow */
};

static volatile sig_atomic_t follow_stop;

static void follow_on_signal(int sig)
{
	(void)sig;
	follow_stop = 1;
}

/* --- policies --------------------------------------------------------------- */

static int policy_type(const char *s, unsigned int *type)
{
	unsigned int t;

	for (t = 0; s && t <= ROCECTL_QPT_DRIVER; t++) {
		if (!strcasecmp(s, qp_type_name(t)) && strcmp(qp_type_name(t), "UNKNOWN")) {
			*type = t;
			return EXIT_OK;
		}
	}
	pr_err("Error: type \"%s\" is not a QP type (RC, UC, UD, GSI, XRC_INI, XRC_TGT, ...).\n",
	       s ? s : "");
	return EXIT_USAGE;
}

int follow_policy_parse(int argc, char **argv, struct follow_policy *p)
{
	const char *w, *v;
	int i, err = EXIT_OK;

	memset(p, 0, sizeof(*p));
	for (i = 0; !err && i < argc; i++) {
		w = argv[i];
		v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(w, "dev")) {
			err = check_dev_name(v, "an RDMA device");
			p->dev = v;
			i++;
		} else if (!strcmp(w, "port")) {
			err = parse_u32_range(w, v, 1, 255, &p->port);
			p->has_port = true;
			i++;
		} else if (!strcmp(w, "type")) {
			err = policy_type(v, &p->type);
			p->has_type = true;
			i++;
		} else if (!strcmp(w, "comm")) {
			if (!v || !*v || strlen(v) > FOLLOW_COMM_MAX) {
				pr_err("Error: comm needs a command name of 1 to %d characters.\n",
				       FOLLOW_COMM_MAX);
				err = EXIT_USAGE;
			}
			p->comm = v;
			i++;
		} else if (!strcmp(w, "pid")) {
			err = parse_u32_range(w, v, 1, INT32_MAX, &p->pid);
			p->has_pid = true;
			i++;
		} else if (!strcmp(w, "max")) {
			err = parse_u32_range(w, v, 1, UINT32_MAX, &p->max);
			i++;
		} else {
			pr_err("Error: unknown qp counters follow argument \"%s\": try \"rocectl qp counters help\".\n",
			       w);
			err = EXIT_USAGE;
		}
	}
	if (!err && p->has_port && !p->dev) {
		pr_err("Error: port N needs dev DEV, the RDMA device it belongs to.\n");
		err = EXIT_USAGE;
	}
	return err;
}

static bool policy_matches(const struct follow_policy *p, const struct fqp *q)
{
	if (p->dev && strcmp(p->dev, q->dev))
		return false;
	if (p->has_port && p->port != q->port)
		return false;
	if (p->has_type && p->type != q->type)
		return false;
	if (p->comm && strcmp(p->comm, q->comm))
		return false;
	if (p->has_pid && (!q->has_pid || p->pid != q->pid))
		return false;
	return true;
}

/* The first policy that matches, or -1. */
static int policy_of(const struct follow *f, const struct fqp *q)
{
	size_t i;

	for (i = 0; i < f->npol; i++)
		if (policy_matches(&f->pol[i], q))
			return i;
	return -1;
}

/* --- what follow says ------------------------------------------------------- */

static void say_qp(const char *event, const char *dev, uint32_t port, uint32_t qpn,
		   uint32_t counter)
{
	out_open_object(NULL);
	out_str("event", "%s ", event);
	out_str("ifname", "link %s", dev);
	out_uint("port", "/%" PRIu64 " ", port);
	out_uint("lqpn", "lqpn %" PRIu64 " ", qpn);
	out_uint("counter", "counter %" PRIu64, counter);
	out_close_object();
	out_nl();
	out_flush();
}

static void say_dev(const char *event, const char *dev, size_t waiting, const char *why)
{
	out_open_object(NULL);
	out_str("event", "%s ", event);
	out_str("ifname", "dev %s ", dev);
	out_uint("waiting", "waiting %" PRIu64 " ", waiting);
	out_str("reason", "(%s)", why);
	out_close_object();
	out_nl();
	out_flush();
}

/* --- looking: the QPs and counters as they are ------------------------------ */

static int qps_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct fqps *l = data;
	struct fqp *q;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_DEV_NAME] ||
	    !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_QP_TYPE] || !tb[ROCECTL_A_QP_STATE])
		return MNL_CB_OK;
	/* The RDMA core knows no DevX QP: it cannot bind one to a set. */
	if (tb[ROCECTL_A_QP_DEVX])
		return MNL_CB_OK;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct fqp *grown = realloc(l->q, cap * sizeof(*grown));

		if (!grown) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		l->q = grown;
		l->cap = cap;
	}
	q = &l->q[l->n++];
	memset(q, 0, sizeof(*q));
	q->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	snprintf(q->dev, sizeof(q->dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	q->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	q->type = mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE]);
	q->state = mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]);
	if (tb[ROCECTL_A_QP_PORT])
		q->port = mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]);
	if (tb[ROCECTL_A_QP_PID]) {
		q->pid = mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]);
		q->has_pid = true;
	}
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(q->comm, sizeof(q->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	if (tb[ROCECTL_A_QP_CREATE_TIME])
		q->created = mnl_attr_get_u64(tb[ROCECTL_A_QP_CREATE_TIME]);
	return MNL_CB_OK;
}

static void qps_restart(void *data)
{
	((struct fqps *)data)->n = 0;
}

static struct fdev *dev_state(struct follow *f, uint32_t index)
{
	size_t i;

	for (i = 0; i < f->nd; i++)
		if (f->d[i].index == index)
			return &f->d[i];
	if (f->nd == f->capd) {
		size_t cap = f->capd ? 2 * f->capd : 8;
		struct fdev *grown = realloc(f->d, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		f->d = grown;
		f->capd = cap;
	}
	f->d[f->nd] = (struct fdev){ .index = index };
	return &f->d[f->nd++];
}

static size_t bound_by(const struct follow *f, size_t policy)
{
	size_t i, n = 0;

	for (i = 0; i < f->nb; i++)
		n += f->b[i].policy == policy;
	return n;
}

static int remember(struct follow *f, const struct fqp *q, uint32_t counter, size_t policy)
{
	if (f->nb == f->capb) {
		size_t cap = f->capb ? 2 * f->capb : 64;
		struct fbound *grown = realloc(f->b, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		f->b = grown;
		f->capb = cap;
	}
	f->b[f->nb] = (struct fbound){ q->dev_index, q->port, q->qpn, counter, policy, q->created, "" };
	snprintf(f->b[f->nb].dev, sizeof(f->b[f->nb].dev), "%s", q->dev);
	f->nb++;
	f->state_changed = true;
	return 0;
}

static void forget(struct follow *f, size_t i, bool say)
{
	if (say)
		say_qp("release", f->b[i].dev, f->b[i].port, f->b[i].qpn, f->b[i].counter);
	f->b[i] = f->b[--f->nb];
	f->state_changed = true;
}

/* Whether the QP has reached RTR and not left the states that send. */
static bool past_rtr(const struct fqp *q)
{
	return q->state == ROCECTL_QPS_RTR || q->state == ROCECTL_QPS_RTS ||
	       q->state == ROCECTL_QPS_SQD;
}

/* Counters of every device with a QP a policy matches, in one list. */
static int dump_devices_counters(struct follow *f, const struct fqps *qps, struct qpc_list *l)
{
	struct nl_error e;
	size_t i, j;
	bool seen;

	for (i = 0; i < qps->n; i++) {
		if (policy_of(f, &qps->q[i]) < 0)
			continue;
		/* Once a device: the first QP of it that a policy matches. */
		seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = qps->q[j].dev_index == qps->q[i].dev_index &&
			       policy_of(f, &qps->q[j]) >= 0;
		if (seen)
			continue;
		/* A device going away meanwhile has no counters left to give. */
		if (qpc_dump(&f->rdma, qps->q[i].dev_index, 0, l, &e) < 0 && e.err != ENODEV &&
		    e.err != ENOENT && e.err != EINVAL) {
			nl_report(&f->rdma, &e);
			return EXIT_FAILED;
		}
	}
	return EXIT_OK;
}

static bool dev_has_counters(const struct qpc_list *l, uint32_t dev_index)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->c[i].dev_index == dev_index)
			return true;
	return false;
}

/*
 * Before its first binding on a port: the port's congestion counters on,
 * so that the counter sets follow binds there carry them (6.15+); said.
 */
static void port_optional(struct follow *f, const struct fqp *q, struct fdev *d)
{
	char enabled[256];
	struct nl_error e;

	if (q->port >= 64 || (d->opt_ports & (1ull << q->port)))
		return;
	d->opt_ports |= 1ull << q->port;
	if (qp_hw_cong_enable(&f->rdma, q->dev_index, q->port, enabled, sizeof(enabled), &e) < 0) {
		say_dev("optional-refused", q->dev, 0, e.msg[0] ? e.msg : strerror(e.err));
		return;
	}
	if (!enabled[0])
		return;
	out_open_object(NULL);
	out_str("event", "%s ", "optional");
	out_str("ifname", "link %s", q->dev);
	out_uint("port", "/%" PRIu64 " ", q->port);
	out_str("enabled", "enabled %s", enabled);
	out_close_object();
	out_nl();
	out_flush();
}

/* Bind one QP; false when the device gave no counter (it waits). */
static bool bind_one(struct follow *f, const struct fqp *q, size_t policy,
		     const struct qpc_list *l, struct fdev *d)
{
	struct qpc_target t = { .dev_index = q->dev_index, .port = q->port, .qpn = q->qpn };
	struct qpc_why why = { .dev = q->dev, .port = q->port, .qpn = q->qpn };
	char buf[512];
	uint32_t counter;
	struct nl_error e;
	size_t i;

	if (!qpc_bind(&f->rdma, &t, &counter, &e)) {
		if (remember(f, q, counter, policy)) {
			f->fatal = EXIT_FAILED;
			pr_err("Error: out of memory.\n");
			return true;
		}
		say_qp("bind", q->dev, q->port, q->qpn, counter);
		return true;
	}
	switch (e.err) {
	case ENOENT:	/* the QP went meanwhile */
		return true;
	case ENOMEM:
	case ENOSPC:
		/*
		 * The kernel's answer both when the driver has no counter
		 * operations and when it has no counter left (before 6.1 the
		 * driver's own, ENOSPC for some): a device that never gave
		 * one, and has none bound, cannot bind QPs.
		 */
		for (i = 0; i < f->nb; i++)
			if (f->b[i].dev_index == q->dev_index)
				return false;
		if (dev_has_counters(l, q->dev_index))
			return false;
		break;
	case EPERM:
		nl_report(&f->rdma, &e);
		f->fatal = EXIT_FAILED;
		return true;
	default:
		/*
		 * A device that binds QPs refusing one: that QP's moment (it is
		 * being destroyed, say), not the device's; the next look tries
		 * it again.
		 */
		for (i = 0; i < f->nb; i++)
			if (f->b[i].dev_index == q->dev_index)
				return true;
		if (dev_has_counters(l, q->dev_index))
			return true;
		break;
	}
	if (!d->refused)
		say_dev("refused", q->dev, 0,
			qpc_explain(QPC_BIND, e.err, &why, buf, sizeof(buf)) ?:
			(e.msg[0] ? e.msg : strerror(e.err)));
	d->refused = true;
	return true;
}

/* --- the order of service, history, waiting -------------------------------- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Add n values to *v (by name): 0, or -ENOMEM with *v as it was. */
static int values_add(struct qpc_value **v, size_t *nv, const struct qpc_value *add, size_t n)
{
	struct qpc_value *grown;
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < *nv && strcmp((*v)[j].name, add[i].name); j++)
			;
		if (j < *nv) {
			(*v)[j].value += add[i].value;
			continue;
		}
		grown = realloc(*v, (*nv + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		*v = grown;
		grown[*nv].name = strdup(add[i].name);
		if (!grown[*nv].name)
			return -ENOMEM;
		grown[*nv].value = add[i].value;
		(*nv)++;
	}
	return 0;
}

static struct fport *port_of(struct follow *f, uint32_t dev_index, uint32_t port)
{
	struct fport *grown;
	size_t i;

	for (i = 0; i < f->nports; i++)
		if (f->ports[i].dev_index == dev_index && f->ports[i].port == port)
			return &f->ports[i];
	grown = realloc(f->ports, (f->nports + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	f->ports = grown;
	f->ports[f->nports] = (struct fport){ .dev_index = dev_index, .port = port };
	return &f->ports[f->nports++];
}

/* Once a look: whether the port showed congestion or retransmissions lately. */
static void port_update(struct follow *f, struct fport *p, uint64_t now)
{
	struct rdma_port_stats ps;
	struct nl_error e;

	if (!rdma_port_stats(&f->rdma, p->dev_index, p->port, &ps, &e)) {
		if (follow_port_busy(p->last, p->n, ps.hw, ps.nhw))
			p->busy_until = now + FOLLOW_BUSY_MS;
		qpc_values_free(p->last, p->n);
		p->last = ps.hw;	/* the list is the port's now */
		p->n = ps.nhw;
		ps.hw = NULL;
		ps.nhw = 0;
		rdma_port_stats_free(&ps);
	}
	p->busy = now < p->busy_until;
}

static bool port_busy(struct follow *f, uint32_t dev_index, uint32_t port)
{
	size_t i;

	for (i = 0; i < f->nports; i++)
		if (f->ports[i].dev_index == dev_index && f->ports[i].port == port)
			return f->ports[i].busy;
	return false;
}

static struct follow_rank rank_of(struct follow *f, const struct fqp *q, size_t policy)
{
	return (struct follow_rank){ policy, port_busy(f, q->dev_index, q->port), q->created, q->qpn };
}

static struct follow_rank bound_rank(struct follow *f, const struct fbound *b)
{
	return (struct follow_rank){ b->policy, port_busy(f, b->dev_index, b->port), b->created,
				     b->qpn };
}

static struct fhist *hist_of(struct follow *f, uint32_t dev_index, uint32_t qpn)
{
	size_t i;

	for (i = 0; i < f->nh; i++)
		if (f->h[i].dev_index == dev_index && f->h[i].qpn == qpn)
			return &f->h[i];
	return NULL;
}

/* The counts of a set QP b gave up, into its history. */
static int hist_add(struct follow *f, const struct fbound *b, const struct qpc_counter *c)
{
	struct fhist *h = hist_of(f, b->dev_index, b->qpn), *grown;

	if (!h) {
		grown = realloc(f->h, (f->nh + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		f->h = grown;
		h = &f->h[f->nh++];
		*h = (struct fhist){ b->dev_index, b->port, b->qpn, b->created, NULL, 0 };
	}
	f->state_changed = true;
	return values_add(&h->v, &h->n, c->hw, c->nhw);
}

/* Histories of QPs that are gone (or whose QPN a new QP has) go with them. */
static void hist_prune(struct follow *f, const struct fqps *qps)
{
	size_t i, j;
	bool live;

	for (i = 0; i < f->nh;) {
		live = false;
		for (j = 0; j < qps->n && !live; j++)
			live = qps->q[j].dev_index == f->h[i].dev_index &&
			       qps->q[j].qpn == f->h[i].qpn && qps->q[j].created == f->h[i].created;
		if (live) {
			i++;
			continue;
		}
		qpc_values_free(f->h[i].v, f->h[i].n);
		f->h[i] = f->h[--f->nh];
		f->state_changed = true;
	}
}

static void wait_add(struct follow *f, const struct fqp *q, const char *why, struct fdev *d)
{
	struct fwait *grown = realloc(f->w, (f->nw + 1) * sizeof(*grown));

	f->waiting++;
	d->waiting++;
	if (!grown)
		return;
	f->w = grown;
	f->w[f->nw++] = (struct fwait){ q->dev_index, q->port, q->qpn, why };
	f->state_changed = true;
}

/*
 * Device d has no set left: the bound QP that waiting QP q outranks most
 * gives up its set -- its counts read, the set released, the counts kept
 * as its history -- and q is bound. False when q outranks none.
 */
static bool take_set(struct follow *f, const struct fqp *q, size_t policy, struct fdev *d,
		     const struct qpc_list *l)
{
	struct follow_rank want = rank_of(f, q, policy), r, worst_r = { 0 };
	struct qpc_list fresh = { 0 };
	const struct qpc_counter *c;
	struct qpc_target t;
	struct nl_error e;
	char why[160];
	size_t i, victim = f->nb;

	for (i = 0; i < f->nb; i++) {
		if (f->b[i].dev_index != q->dev_index)
			continue;
		r = bound_rank(f, &f->b[i]);
		if (!follow_rank_outranks(&want, &r))
			continue;
		if (victim == f->nb || follow_rank_cmp(&r, &worst_r) > 0) {
			victim = i;
			worst_r = r;
		}
	}
	if (victim == f->nb)
		return false;
	/* Its counts as they are now: the dump this look took is older. */
	if (qpc_dump(&f->rdma, q->dev_index, f->b[victim].port, &fresh, &e) < 0) {
		qpc_list_free(&fresh);
		return false;
	}
	c = qpc_find(&fresh, f->b[victim].dev_index, f->b[victim].port, f->b[victim].qpn);
	if (!c || c->id != f->b[victim].counter) {
		qpc_list_free(&fresh);
		return false;	/* it changed meanwhile: the next look sees how */
	}
	t = (struct qpc_target){ .dev_index = f->b[victim].dev_index, .port = f->b[victim].port,
				 .qpn = f->b[victim].qpn, .has_counter = true,
				 .counter = f->b[victim].counter };
	if (qpc_unbind(&f->rdma, &t, &e) < 0) {
		qpc_list_free(&fresh);
		return false;
	}
	if (hist_add(f, &f->b[victim], c)) {
		pr_err("Error: out of memory.\n");
		f->fatal = EXIT_FAILED;
	}
	qpc_list_free(&fresh);
	snprintf(why, sizeof(why), "lqpn %" PRIu32 " outranks it: %s", q->qpn,
		 policy != f->b[victim].policy ? "an earlier policy" :
		 want.busy != worst_r.busy ? "its port is busy" : "it is older");
	out_open_object(NULL);
	out_str("event", "%s ", "yield");
	out_str("ifname", "link %s", f->b[victim].dev);
	out_uint("port", "/%" PRIu64 " ", f->b[victim].port);
	out_uint("lqpn", "lqpn %" PRIu64 " ", f->b[victim].qpn);
	out_uint("counter", "counter %" PRIu64 " ", f->b[victim].counter);
	out_uint("to", "to lqpn %" PRIu64 " ", q->qpn);
	out_str("reason", "(%s)", why);
	out_close_object();
	out_nl();
	out_flush();
	forget(f, victim, false);
	return bind_one(f, q, policy, l, d);
}

struct fcand {
	const struct fqp *q;
	size_t policy;
	struct follow_rank r;
};

static int cand_cmp(const void *a, const void *b)
{
	return follow_rank_cmp(&((const struct fcand *)a)->r, &((const struct fcand *)b)->r);
}

/* Look at the QPs and counters as they are, and bind what waits. */
static int look(struct follow *f)
{
	struct qpc_list l = { 0 };
	struct fqps qps = { 0 };
	struct fcand *cand = NULL;
	struct fwait *gone = NULL;
	size_t i, j, ncand = 0, ngone = 0;
	struct nl_error e;
	uint64_t now;
	struct fdev *d;
	int err, p;

	f->look = false;
	if (nl_run_quiet(&f->q, nl_request(&f->q, ROCECTL_CMD_QP_GET, NLM_F_DUMP), qps_cb, &qps,
			 qps_restart, &e) < 0) {
		/*
		 * The family went: generic netlink has no such family any more
		 * (ENOENT), or it is on its way out (EPROTONOSUPPORT, 5.10).
		 */
		if (e.err == ENOENT || e.err == EPROTONOSUPPORT)
			f->gone = true;
		err = f->gone ? EXIT_OK : nl_report(&f->q, &e);
		goto out;
	}
	err = dump_devices_counters(f, &qps, &l);
	if (err)
		goto out;

	/* The QPs that want a set, in the order they are served. */
	cand = calloc(qps.n ? qps.n : 1, sizeof(*cand));
	gone = calloc(f->nb ? f->nb : 1, sizeof(*gone));
	if (!cand || !gone) {
		pr_err("Error: out of memory.\n");
		err = EXIT_FAILED;
		goto out;
	}
	/*
	 * Bindings whose QP went (or that someone else undid) are released.
	 * Such a QP is not bound again in this look: it may be one the RDMA
	 * core is destroying, whose counter went first.
	 */
	for (i = 0; i < f->nb;) {
		const struct qpc_counter *c = qpc_find(&l, f->b[i].dev_index, f->b[i].port,
						       f->b[i].qpn);

		if (!c || c->id != f->b[i].counter) {
			gone[ngone++] = (struct fwait){ f->b[i].dev_index, f->b[i].port, f->b[i].qpn, NULL };
			forget(f, i, true);
		} else {
			i++;
		}
	}
	hist_prune(f, &qps);

	now = now_ms();
	for (i = 0; i < f->nports; i++)
		f->ports[i].busy = now < f->ports[i].busy_until;
	for (i = 0; i < qps.n; i++) {
		const struct fqp *q = &qps.q[i];
		struct fport *fp;

		p = policy_of(f, q);
		if (p < 0 || !past_rtr(q) || !q->port)
			continue;
		/* Each port's counters once a look: whether it is busy. */
		for (j = 0; j < i; j++)
			if (qps.q[j].dev_index == q->dev_index && qps.q[j].port == q->port &&
			    policy_of(f, &qps.q[j]) >= 0 && past_rtr(&qps.q[j]))
				break;
		if (j == i) {
			fp = port_of(f, q->dev_index, q->port);
			if (fp)
				port_update(f, fp, now);
		}
		if (qpc_find(&l, q->dev_index, 0, q->qpn))
			continue;
		for (j = 0; j < ngone; j++)
			if (gone[j].dev_index == q->dev_index && gone[j].qpn == q->qpn)
				break;
		if (j < ngone)
			continue;
		cand[ncand++] = (struct fcand){ q, p, { 0 } };
	}
	for (i = 0; i < ncand; i++)
		cand[i].r = rank_of(f, cand[i].q, cand[i].policy);
	qsort(cand, ncand, sizeof(*cand), cand_cmp);

	f->waiting = 0;
	f->nw = 0;
	for (i = 0; i < f->nd; i++) {
		f->d[i].waiting = 0;
		f->d[i].full = false;
	}
	for (i = 0; i < ncand && !f->fatal && !follow_stop; i++) {
		const struct fqp *q = cand[i].q;

		p = cand[i].policy;
		d = dev_state(f, q->dev_index);
		if (!d) {
			pr_err("Error: out of memory.\n");
			f->fatal = EXIT_FAILED;
			break;
		}
		snprintf(d->name, sizeof(d->name), "%s", q->dev);
		if (d->refused)
			continue;
		if (f->pol[p].max && bound_by(f, p) >= f->pol[p].max) {
			wait_add(f, q, "max", d);
			continue;
		}
		if (!d->full) {
			port_optional(f, q, d);
			if (bind_one(f, q, p, &l, d))
				continue;
			d->full = true;
		}
		if (!take_set(f, q, p, d, &l))
			wait_add(f, q, "full", d);
	}
	/* Running out, and having enough again, are said once each. */
	for (i = 0; i < f->nd && !f->fatal; i++) {
		d = &f->d[i];
		if (d->waiting && !d->exhausted) {
			d->exhausted = true;
			say_dev("exhausted", d->name, d->waiting,
				"no hardware counter left, or the policy's max reached: the QPs wait for one");
		} else if (!d->waiting && d->exhausted) {
			d->exhausted = false;
			say_dev("recovered", d->name, 0, "every QP that matches has a counter");
		}
	}
	err = f->fatal;
out:
	free(gone);
	free(cand);
	free(qps.q);
	qpc_list_free(&l);
	return err;
}

/* --- the state file: what qp stats and qp counters show mark as followed ------ */

/*
 * One follow a host: the lock is held while it runs. Where the state
 * cannot be kept (no permission: an unprivileged follow, which the kernel
 * refuses anyway), follow runs without it.
 */
static int state_open(struct follow *f)
{
	int fd;

	f->lock_fd = -1;
	if (mkdir(FOLLOW_STATE_DIR, 0755) && errno != EEXIST)
		return EXIT_OK;
	/* Only its owner (and root) may open it: no one else can hold it. */
	fd = open(FOLLOW_STATE ".lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return EXIT_OK;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		if (errno != EWOULDBLOCK)
			return EXIT_OK;
		pr_err("Error: another rocectl qp counters follow runs on this host (%s is locked).\n",
		       FOLLOW_STATE ".lock");
		return EXIT_FAILED;
	}
	f->lock_fd = fd;
	f->state_changed = true;
	return EXIT_OK;
}

/*
 * "rocectl qp-follow 1", "pid PID", then a line a binding: IFINDEX PORT
 * QPN COUNTER; a line a QP that waits: "wait IFINDEX PORT QPN full|max";
 * a line a QP's history: "history IFINDEX PORT QPN NAME=VALUE...".
 * Readers skip lines they do not know.
 */
static void state_save(struct follow *f)
{
	FILE *fp;
	size_t i, j;
	bool ok;

	if (f->lock_fd < 0 || !f->state_changed)
		return;
	f->state_changed = false;
	fp = fopen(FOLLOW_STATE ".tmp", "we");
	if (!fp)
		return;
	fprintf(fp, "rocectl qp-follow 1\npid %ld\n", (long)getpid());
	for (i = 0; i < f->nb; i++)
		fprintf(fp, "%" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n", f->b[i].dev_index,
			f->b[i].port, f->b[i].qpn, f->b[i].counter);
	for (i = 0; i < f->nw; i++)
		fprintf(fp, "wait %" PRIu32 " %" PRIu32 " %" PRIu32 " %s\n", f->w[i].dev_index,
			f->w[i].port, f->w[i].qpn, f->w[i].why);
	for (i = 0; i < f->nh; i++) {
		fprintf(fp, "history %" PRIu32 " %" PRIu32 " %" PRIu32, f->h[i].dev_index,
			f->h[i].port, f->h[i].qpn);
		for (j = 0; j < f->h[i].n; j++)
			fprintf(fp, " %s=%" PRIu64, f->h[i].v[j].name, f->h[i].v[j].value);
		fputc('\n', fp);
	}
	ok = !ferror(fp);
	ok = !fclose(fp) && ok;
	/* Readers see the old state or the new, never half of one. */
	if (!ok || rename(FOLLOW_STATE ".tmp", FOLLOW_STATE))
		unlink(FOLLOW_STATE ".tmp");
}

/* Follow stops: its bindings stay, but nothing follows them any more. */
static void state_close(struct follow *f)
{
	if (f->lock_fd < 0)
		return;
	unlink(FOLLOW_STATE);
	close(f->lock_fd);
	f->lock_fd = -1;
}

/* Whether pid is a running rocectl (a stale state file names a dead one). */
static bool follow_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	fp = fopen(path, "re");
	if (!fp)
		return false;
	if (!fgets(comm, sizeof(comm), fp))
		comm[0] = '\0';
	fclose(fp);
	return !strcmp(comm, "rocectl\n");
}

/* A live follow's state file, past its two header lines; NULL: none. */
static FILE *state_read(const char *path)
{
	FILE *fp = fopen(path ? path : FOLLOW_STATE, "re");
	char line[64];
	long pid = 0;

	if (!fp)
		return NULL;
	if (!fgets(line, sizeof(line), fp) || strcmp(line, "rocectl qp-follow 1\n") ||
	    !fgets(line, sizeof(line), fp) || sscanf(line, "pid %ld", &pid) != 1 ||
	    !follow_alive(pid)) {
		fclose(fp);
		return NULL;
	}
	return fp;
}

void follow_mark(struct qpc_list *l, const char *path)
{
	uint32_t dev, port, qpn, counter;
	char line[FOLLOW_LINE_MAX];
	size_t i;
	FILE *fp = state_read(path);

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		int end = 0;

		if (sscanf(line, "%" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32 "%n", &dev, &port,
			   &qpn, &counter, &end) != 4 || strcmp(line + end, "\n"))
			continue;
		for (i = 0; i < l->n; i++) {
			const struct qpc_counter *c = &l->c[i];

			if (c->dev_index == dev && c->port == port && c->id == counter &&
			    c->nqpns == 1 && c->qpns[0] == qpn)
				l->c[i].followed = true;
		}
	}
	fclose(fp);
}

/* A QP's entry in l for what follow says of it: its counter, else a new one (id 0). */
static struct qpc_counter *entry_for(struct qpc_list *l, uint32_t dev, uint32_t port, uint32_t qpn)
{
	struct qpc_counter *c = (struct qpc_counter *)qpc_find(l, dev, port, qpn);

	if (c)
		return c;
	c = qpc_list_slot(l);
	if (!c)
		return NULL;
	c->qpns = malloc(sizeof(*c->qpns));
	if (!c->qpns)
		return NULL;
	c->dev_index = dev;
	c->port = port;
	c->qpns[0] = qpn;
	c->nqpns = 1;
	c->mode = RDMA_COUNTER_MODE_MANUAL;
	l->n++;
	return c;
}

/* "NAME=VALUE NAME=VALUE..." added to c's counters. */
static void fold_values(struct qpc_counter *c, char *list)
{
	char *tok, *save = NULL, *eq, *end;
	struct qpc_value v;

	for (tok = strtok_r(list, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok)
			continue;
		*eq = '\0';
		errno = 0;
		v.value = strtoull(eq + 1, &end, 10);
		if (errno || *end)
			continue;
		v.name = tok;
		if (!values_add(&c->hw, &c->nhw, &v, 1))
			c->history = true;
	}
}

void follow_fold(struct qpc_list *l, const char *path)
{
	uint32_t dev, port, qpn;
	char line[FOLLOW_LINE_MAX], why[8];
	struct qpc_counter *c;
	int end;
	FILE *fp = state_read(path);

	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		end = 0;
		if (sscanf(line, "history %" SCNu32 " %" SCNu32 " %" SCNu32 "%n", &dev, &port, &qpn,
			   &end) == 3 && end) {
			c = entry_for(l, dev, port, qpn);
			if (c)
				fold_values(c, line + end);
		} else if (sscanf(line, "wait %" SCNu32 " %" SCNu32 " %" SCNu32 " %7s", &dev, &port,
				  &qpn, why) == 4) {
			c = entry_for(l, dev, port, qpn);
			if (c && !c->id)
				c->waiting = !strcmp(why, "max") ? QPC_WAIT_MAX : QPC_WAIT_FULL;
		}
	}
	fclose(fp);
}

/* --- events: when to look ----------------------------------------------------- */

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct follow *f = data;
	uint32_t dev, qpn;
	size_t i;

	if (nl_family_gone(&f->rc->nl, nlh)) {
		f->gone = true;
		return MNL_CB_STOP;
	}
	if (nlh->nlmsg_type != f->rc->nl.family_id || mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return MNL_CB_OK;
	if (genl->cmd != ROCECTL_CMD_QP_MODIFY_NTF && genl->cmd != ROCECTL_CMD_QP_DESTROY_NTF)
		return MNL_CB_OK;
	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	dev = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	if (genl->cmd == ROCECTL_CMD_QP_MODIFY_NTF) {
		/* Reaching RTR is the moment to bind. */
		if (tb[ROCECTL_A_QP_STATE] && mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]) == ROCECTL_QPS_RTR)
			f->look = true;
		return MNL_CB_OK;
	}
	/* Destroyed: the RDMA core released its counter; one may be free now. */
	for (i = 0; i < f->nb; i++) {
		if (f->b[i].dev_index == dev && f->b[i].qpn == qpn) {
			forget(f, i, true);
			if (f->waiting)
				f->look = true;
			break;
		}
	}
	return MNL_CB_OK;
}

/* Every event waiting in the socket, without blocking. */
static int drain(struct follow *f)
{
	struct nl *nl = &f->rc->nl;
	int ret;

	for (;;) {
		ret = recv(mnl_socket_get_fd(nl->sock), nl->buf, NL_BUF_SIZE, MSG_DONTWAIT);
		if (ret < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return EXIT_OK;
			if (errno == ENOBUFS) {	/* events lost: look at everything */
				f->look = true;
				continue;
			}
			pr_err("Error: receiving events: %s.\n", strerror(errno));
			return EXIT_FAILED;
		}
		ret = mnl_cb_run(nl->buf, ret, 0, 0, event_cb, f);
		if (ret < 0) {
			pr_err("Error: a malformed event: %s.\n", strerror(errno));
			return EXIT_FAILED;
		}
		if (f->gone)
			return EXIT_OK;
	}
}

static int follow_run(struct follow *f)
{
	struct pollfd pfd;
	int err;

	err = state_open(f);
	if (err)
		return err;
	/* Events first, so that nothing between the first look and them is missed. */
	if (!err)
		err = rocectl_connect(f->rc);
	if (!err)
		err = nl_subscribe(&f->rc->nl);
	if (!err)
		err = nl_open(&f->q, false);
	if (!err)
		err = nl_open_rdma(&f->rdma);
	if (!err)
		err = look(f);
	state_save(f);
	pfd.fd = mnl_socket_get_fd(f->rc->nl.sock);
	pfd.events = POLLIN;
	while (!err && !follow_stop && !f->gone) {
		int n = poll(&pfd, 1, f->waiting ? FOLLOW_RETRY_MS : -1);

		if (n < 0 && errno != EINTR) {
			pr_err("Error: waiting for events: %s.\n", strerror(errno));
			err = EXIT_FAILED;
			break;
		}
		if (n > 0)
			err = drain(f);
		else if (n == 0)
			f->look = true;	/* QPs wait: counters may have been freed */
		if (!err && f->look && !f->gone && !follow_stop)
			err = look(f);
		state_save(f);
	}
	state_close(f);
	if (!err && f->gone) {
		pr_err("Error: the rocectl kernel module was unloaded: no more QP events.\n");
		err = EXIT_NO_MODULE;
	}
	return err;
}

/* The policies of FILE's "qp counters follow" lines. */
static int follow_file(struct follow *f, const char *path)
{
	char *line = NULL, *words[CONF_MAX_WORDS];
	unsigned int lineno = 0;
	size_t cap = 0;
	int n, err = EXIT_OK;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		pr_err("Error: cannot read %s: %s.\n", path, strerror(errno));
		return EXIT_FAILED;
	}
	while (!err && getline(&line, &cap, fp) >= 0) {
		lineno++;
		if (f->npol == FOLLOW_MAX_POLICIES) {
			pr_err("Error: %s:%u: more than %d follow policies.\n", path, lineno,
			       FOLLOW_MAX_POLICIES);
			err = EXIT_USAGE;
			break;
		}
		/* The policy points into its line: each line a copy of its own. */
		f->lines[f->npol] = strdup(line);
		if (!f->lines[f->npol]) {
			pr_err("Error: out of memory.\n");
			err = EXIT_FAILED;
			break;
		}
		n = conf_split_words(f->lines[f->npol], words);
		if (n < 3 || strcmp(words[0], "qp") || strcmp(words[1], "counters") ||
		    strcmp(words[2], "follow")) {
			free(f->lines[f->npol]);
			f->lines[f->npol] = NULL;
			continue;
		}
		err = follow_policy_parse(n - 3, words + 3, &f->pol[f->npol]);
		if (err)
			pr_err("Error: %s:%u: the follow policy above is not valid.\n", path, lineno);
		else
			f->npol++;
	}
	free(line);
	fclose(fp);
	if (!err && !f->npol) {
		pr_err("Error: %s has no \"qp counters follow\" line.\n", path);
		err = EXIT_USAGE;
	}
	return err;
}

int qpc_follow(struct rocectl *rc)
{
	struct follow f = { .rc = rc };
	int err;

	if (arg_peek(rc) && !strcmp(arg_peek(rc), "file")) {
		arg_next(rc);
		if (!arg_peek(rc)) {
			pr_err("Error: file needs the policy file's path.\n");
			return EXIT_USAGE;
		}
		err = follow_file(&f, arg_next(rc));
		if (!err)
			err = args_done(rc);
	} else {
		err = follow_policy_parse(rc->argc, rc->argv, &f.pol[0]);
		f.npol = 1;
		rc->argc = 0;
	}
	if (err)
		goto out;

	stop_on_signals(follow_on_signal);

	err = follow_run(&f);
out:
	for (size_t i = 0; i < FOLLOW_MAX_POLICIES; i++)
		free(f.lines[i]);
	for (size_t i = 0; i < f.nh; i++)
		qpc_values_free(f.h[i].v, f.h[i].n);
	for (size_t i = 0; i < f.nports; i++)
		qpc_values_free(f.ports[i].last, f.ports[i].n);
	free(f.h);
	free(f.w);
	free(f.ports);
	free(f.b);
	free(f.d);
	nl_close(&f.q);
	nl_close(&f.rdma);
	return err;
}
