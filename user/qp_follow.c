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
#include <unistd.h>
#include <linux/genetlink.h>

#include "attrs.h"
#include "conf.h"
#include "errors.h"
#include "output.h"
#include "qp_fields.h"
#include "qp_follow.h"
#include "rdma_stat.h"
#include "rocectl.h"
#include "utils.h"

#define FOLLOW_RETRY_MS	2000
#define FOLLOW_MAX_POLICIES 64
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
};

struct fqps {
	struct fqp *q;
	size_t n, cap;
};

/* A binding follow made, and which policy it counts against. */
struct fbound {
	uint32_t dev_index, port, qpn, counter;
	size_t policy;
	char dev[ROCECTL_DEV_NAME_MAX + 1];
};

/* What follow knows of a device (by index) between looks. */
struct fdev {
	uint32_t index;
	char name[ROCECTL_DEV_NAME_MAX + 1];
	size_t waiting;		/* its QPs left unbound at the last look */
	bool full;		/* it refused a counter in this look: no more asking */
	bool exhausted;		/* said: no counter left; QPs wait */
	bool refused;		/* said: its driver binds no QP (not retried) */
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
	f->b[f->nb] = (struct fbound){ q->dev_index, q->port, q->qpn, counter, policy, "" };
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
		break;
	}
	if (!d->refused)
		say_dev("refused", q->dev, 0,
			qpc_explain(QPC_BIND, e.err, &why, buf, sizeof(buf)) ?:
			(e.msg[0] ? e.msg : strerror(e.err)));
	d->refused = true;
	return true;
}

/* Look at the QPs and counters as they are, and bind what waits. */
static int look(struct follow *f)
{
	struct qpc_list l = { 0 };
	struct fqps qps = { 0 };
	struct nl_error e;
	struct fdev *d;
	size_t i;
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

	/* Bindings whose QP went (or that someone else undid) are released. */
	for (i = 0; i < f->nb;) {
		const struct qpc_counter *c = qpc_find(&l, f->b[i].dev_index, f->b[i].port,
						       f->b[i].qpn);

		if (!c || c->id != f->b[i].counter)
			forget(f, i, true);
		else
			i++;
	}

	f->waiting = 0;
	for (i = 0; i < f->nd; i++) {
		f->d[i].waiting = 0;
		f->d[i].full = false;
	}
	for (i = 0; i < qps.n && !f->fatal && !follow_stop; i++) {
		const struct fqp *q = &qps.q[i];

		p = policy_of(f, q);
		if (p < 0 || !past_rtr(q) || !q->port || qpc_find(&l, q->dev_index, 0, q->qpn))
			continue;
		d = dev_state(f, q->dev_index);
		if (!d) {
			pr_err("Error: out of memory.\n");
			f->fatal = EXIT_FAILED;
			break;
		}
		snprintf(d->name, sizeof(d->name), "%s", q->dev);
		if (d->refused)
			continue;
		if (d->full || (f->pol[p].max && bound_by(f, p) >= f->pol[p].max)) {
			f->waiting++;
			d->waiting++;
		} else if (!bind_one(f, q, p, &l, d)) {
			d->full = true;
			f->waiting++;
			d->waiting++;
		}
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

/* "rocectl qp-follow 1", "pid PID", then a line a binding: IFINDEX PORT QPN COUNTER. */
static void state_save(struct follow *f)
{
	FILE *fp;
	size_t i;
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

void follow_mark(struct qpc_list *l, const char *path)
{
	uint32_t dev, port, qpn, counter;
	char line[128];
	long pid = 0;
	size_t i;
	FILE *fp = fopen(path ? path : FOLLOW_STATE, "re");

	if (!fp)
		return;
	if (!fgets(line, sizeof(line), fp) || strcmp(line, "rocectl qp-follow 1\n") ||
	    !fgets(line, sizeof(line), fp) || sscanf(line, "pid %ld", &pid) != 1 ||
	    !follow_alive(pid)) {
		fclose(fp);
		return;
	}
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
	free(f.b);
	free(f.d);
	nl_close(&f.q);
	nl_close(&f.rdma);
	return err;
}
