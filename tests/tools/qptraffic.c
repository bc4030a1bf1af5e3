// SPDX-License-Identifier: GPL-2.0
/*
 * qptraffic - create RC queue pairs and move real traffic over them.
 *
 * A test helper for rocectl's guest scenarios: it makes QPs exist (and
 * disappear) on demand, moves a known number of messages so that packet
 * counters can be checked, and can hold its QPs open, or hand them to a
 * forked child, so that a test can look at them from the outside.
 *
 *   qptraffic pair  -d DEV [-D DEV2] [-g GIDIDX] [-n PAIRS] [-m MSGS]
 *                   [-s SIZE] [--op send|write] [--tos TOS]
 *                   [--hold | --fork-hold] [--start-after FILE]
 *                   [--connect-after FILE] [--create-after FILE] [-T SECONDS]
 *   qptraffic many  -d DEV -n COUNT [--state reset|init|rts] [-g GIDIDX]
 *                   [--hold] [-T SECONDS]
 *   qptraffic churn -d DEV -t SECONDS [-b BATCH]
 *   qptraffic rate  -d DEV -n COUNT
 *   qptraffic fail  -d DEV [-D DEV2] [-g GIDIDX] --how modify|retry
 *                   [--every-cpu] [--hold] [-T SECONDS]
 *
 * Every result is one JSON object on stdout. Exit status: 0 success,
 * 1 runtime failure, 2 bad command line (including an unknown device).
 * Nothing waits forever: the transfer has a deadline (-T, default 20 s);
 * only --hold and --fork-hold wait, by design, for SIGTERM or SIGINT (or,
 * with --hold, for EOF on a stdin that is a pipe, FIFO, socket or tty --
 * not /dev/null, which background jobs of a script get).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

#include <infiniband/verbs.h>

#define EXIT_RUNTIME	1
#define EXIT_USAGE	2

#define PORT		1	/* RoCE devices have one port */
#define PSN		0	/* start PSN of every QP: packet traces stay readable */
#define HOP_LIMIT	64
#define MAX_DEPTH	128	/* outstanding work requests per QP */
#define MAX_PAIRS	4096
#define MAX_MANY	65536	/* rxe's QP limit */
#define MAX_SIZE	(1U << 30)

enum op { OP_SEND, OP_WRITE };

/* The options of all subcommands; each subcommand accepts its own subset. */
struct opts {
	const char *dev;
	const char *dev2;
	unsigned int gid_index;
	unsigned int pairs;
	unsigned int msgs;
	unsigned int size;
	enum op op;
	unsigned int tos;
	bool hold;
	bool fork_hold;
	unsigned int count;
	enum ibv_qp_state state;
	unsigned int seconds;	/* churn: how long */
	unsigned int batch;
	unsigned int timeout;	/* -T: deadline for completions */
	const char *start_after;	/* pair: connected, wait for this file */
	const char *connect_after;	/* pair: the last pair in INIT until this file */
	const char *create_after;	/* pair: devices open, no QP until this file */
	const char *how;	/* fail: how the QP fails */
	bool every_cpu;		/* fail retry: a poller on each CPU */
	unsigned int retry_cnt;	/* RTS: transport retries (fail retry: 1) */
	unsigned int ack_timeout;	/* RTS: local ACK timeout exponent */
};

/* One end of the traffic: a device context with its own PD, CQ and MR. */
struct side {
	const char *name;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *chan;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;
	size_t buf_len;
	union ibv_gid gid;
	enum ibv_mtu mtu;
	uint32_t max_msg_sz;
	int max_qp_wr;
	int max_cqe;
};

/* One RC connection, A sends to B, with its progress. */
struct pair {
	struct ibv_qp *a;
	struct ibv_qp *b;
	unsigned int posted;		/* sends or writes posted on A */
	unsigned int acked;		/* ... and completed */
	unsigned int recv_posted;	/* receives posted on B (op send) */
	unsigned int recv_done;		/* ... and completed */
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))

static const char *prog = "qptraffic";

/* --- messages and exits --------------------------------------------------- */

static void __printf(1, 2) errmsg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* failed - report a verbs call's errno-style result @ret; true if nonzero. */
static bool failed(int ret, const char *dev, const char *what)
{
	if (ret)
		errmsg("%s: %s: %s", dev, what, strerror(ret));
	return ret;
}

static void __printf(1, 2) __noreturn usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try \"qptraffic --help\")\n");
	exit(EXIT_USAGE);
}

static void print_help(FILE *f)
{
	fputs("usage: qptraffic pair  -d DEV [-D DEV2] [-g GIDIDX] [-n PAIRS] [-m MSGS] [-s SIZE]\n"
	      "                       [--op send|write] [--tos TOS] [--hold | --fork-hold] [-T SECONDS]\n"
	      "                       [--start-after FILE] [--connect-after FILE]\n"
	      "                       [--create-after FILE]\n"
	      "       qptraffic many  -d DEV -n COUNT [--state reset|init|rts] [-g GIDIDX] [--hold]\n"
	      "                       [-T SECONDS]\n"
	      "       qptraffic churn -d DEV -t SECONDS [-b BATCH]\n"
	      "       qptraffic rate  -d DEV -n COUNT\n"
	      "       qptraffic fail  -d DEV [-D DEV2] [-g GIDIDX] --how modify|retry [--every-cpu]\n"
	      "                       [--hold] [-T SECONDS]\n"
	      "Defaults: -g 1, -n 1 pair, -m 100, -s 1024, --op send, --tos 0, --state rts,\n"
	      "-b 8, -T 20 (seconds for the whole transfer).\n"
	      "--hold: keep the QPs until SIGTERM/SIGINT, or EOF on a piped stdin.\n"
	      "--fork-hold: a child keeps them until SIGTERM/SIGINT; the creator exits.\n"
	      "--start-after FILE: the QPs connected, move nothing until FILE exists\n"
	      "(within -T), so that a test can act between the QPs' creation and their traffic.\n"
	      "--connect-after FILE: the last pair's QPs wait in INIT (no path yet) until FILE\n"
	      "exists (within -T), the others connected, then it connects and all move.\n"
	      "--create-after FILE: the devices open (PD, CQ, MR), no QP until FILE exists\n"
	      "(within -T).\n"
	      "fail: one connected pair whose first QP fails: --how modify moves it to ERR,\n"
	      "--how retry destroys its peer and writes to it with retry_cnt 1 until the\n"
	      "transport gives up (the completion's status is printed); then one more\n"
	      "modify to ERR of the failed QP. --every-cpu: one poller per CPU, pinned to it;\n"
	      "the first to see the completion makes that modify at once (the driver may hold\n"
	      "the CPU it completes on).\n"
	      "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n", f);
}

static uint64_t clock_us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}

/* parse_uint - a decimal number in [min, max], or a usage error. */
static unsigned int parse_uint(const char *s, unsigned int min, unsigned int max,
			       const char *what)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || s[0] == '+' || v < min || v > max)
		usage_error("bad %s \"%s\": a number from %u to %u", what, s, min, max);
	return v;
}

/* --- devices ------------------------------------------------------------------ */

/*
 * open_device - open a context on the RDMA device called @name. An unknown
 * name is a usage error; the name is checked before anything is created.
 */
static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list) {
		errmsg("ibv_get_device_list: %s", strerror(errno));
		exit(EXIT_RUNTIME);
	}
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			break;
	if (i == n) {
		ibv_free_device_list(list);
		usage_error("no RDMA device is called \"%s\"", name);
	}
	ctx = ibv_open_device(list[i]);
	if (!ctx)
		errmsg("%s: ibv_open_device: %s", name, strerror(errno));
	ibv_free_device_list(list);
	return ctx;
}

/*
 * query_side - the port's active MTU, the GID at @gid_index and the device
 * limits. A GID index outside the table is a usage error; an empty entry
 * (no IP address behind it) is a runtime failure.
 */
static int query_side(struct side *s, unsigned int gid_index, bool want_gid)
{
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	int ret;

	ret = ibv_query_device(s->ctx, &dattr);
	if (ret) {
		errmsg("%s: ibv_query_device: %s", s->name, strerror(ret));
		return -1;
	}
	ret = ibv_query_port(s->ctx, PORT, &pattr);
	if (ret) {
		errmsg("%s: ibv_query_port: %s", s->name, strerror(ret));
		return -1;
	}
	s->mtu = pattr.active_mtu;
	s->max_msg_sz = pattr.max_msg_sz;
	s->max_qp_wr = dattr.max_qp_wr;
	s->max_cqe = dattr.max_cqe;
	if (!want_gid)
		return 0;
	if (gid_index >= (unsigned int)pattr.gid_tbl_len)
		usage_error("%s: GID index %u out of range: the port has %d entries",
			    s->name, gid_index, pattr.gid_tbl_len);
	ret = ibv_query_gid(s->ctx, PORT, gid_index, &s->gid);
	if (ret) {
		errmsg("%s: ibv_query_gid %u: %s", s->name, gid_index, strerror(errno));
		return -1;
	}
	if (!s->gid.global.subnet_prefix && !s->gid.global.interface_id) {
		errmsg("%s: GID index %u is empty (no IP address on the netdev?)",
		       s->name, gid_index);
		return -1;
	}
	return 0;
}

static int mtu_bytes(enum ibv_mtu mtu)
{
	return 128 << mtu;	/* IBV_MTU_256 is 1 */
}

/* --- QP state transitions ------------------------------------------------------ */

static struct ibv_qp *create_qp(const char *dev, struct ibv_pd *pd, struct ibv_cq *cq,
				unsigned int send_wr, unsigned int recv_wr)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = send_wr,
			.max_recv_wr = recv_wr,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp *qp;

	qp = ibv_create_qp(pd, &attr);
	if (!qp)
		errmsg("%s: ibv_create_qp: %s", dev, strerror(errno));
	return qp;
}

static int qp_to_init(const char *dev, struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = PORT,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
	};
	int ret;

	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret)
		errmsg("%s: QP %u to INIT: %s", dev, qp->qp_num, strerror(ret));
	return ret ? -1 : 0;
}

/* qp_to_rtr - point @qp at @dqpn behind @dgid, over RoCEv2 (GRH). */
static int qp_to_rtr(const char *dev, struct ibv_qp *qp, uint32_t dqpn,
		     const union ibv_gid *dgid, unsigned int gid_index,
		     unsigned int tos, enum ibv_mtu mtu)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = dqpn,
		.rq_psn = PSN,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.grh = {
				.dgid = *dgid,
				.sgid_index = gid_index,
				.hop_limit = HOP_LIMIT,
				.traffic_class = tos,
			},
			.port_num = PORT,
		},
	};
	int ret;

	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		errmsg("%s: QP %u to RTR: %s", dev, qp->qp_num, strerror(ret));
	return ret ? -1 : 0;
}

static int qp_to_rts(const char *dev, struct ibv_qp *qp, const struct opts *o)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.timeout = o->ack_timeout,
		.retry_cnt = o->retry_cnt,
		.rnr_retry = 7,
		.sq_psn = PSN,
		.max_rd_atomic = 1,
	};
	int ret;

	ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			    IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			    IBV_QP_MAX_QP_RD_ATOMIC);
	if (ret)
		errmsg("%s: QP %u to RTS: %s", dev, qp->qp_num, strerror(ret));
	return ret ? -1 : 0;
}

/* connect_qp - INIT, RTR towards @dqpn at @dgid, RTS. */
static int connect_qp(const char *dev, struct ibv_qp *qp, uint32_t dqpn,
		      const union ibv_gid *dgid, const struct opts *o, enum ibv_mtu mtu)
{
	if (qp_to_init(dev, qp) ||
	    qp_to_rtr(dev, qp, dqpn, dgid, o->gid_index, o->tos, mtu) ||
	    qp_to_rts(dev, qp, o))
		return -1;
	return 0;
}

static int destroy_qp(const char *dev, struct ibv_qp *qp)
{
	uint32_t qpn = qp->qp_num;
	int ret;

	ret = ibv_destroy_qp(qp);
	if (ret)
		errmsg("%s: destroying QP %u: %s", dev, qpn, strerror(ret));
	return ret ? -1 : 0;
}

/* --- holding ----------------------------------------------------------------------- */

/*
 * block_release_signals - from here on SIGTERM and SIGINT are taken through
 * a signalfd, so that they end a hold cleanly instead of killing us.
 */
static int block_release_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	if (sigprocmask(SIG_BLOCK, set, NULL)) {
		errmsg("sigprocmask: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Only a stream someone can close counts as "stdin EOF": not /dev/null. */
static bool stdin_is_stream(void)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st))
		return false;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || isatty(STDIN_FILENO);
}

/*
 * wait_release - sleep until SIGTERM/SIGINT, or (with @watch_stdin) until
 * stdin reaches EOF. The signals must already be blocked.
 */
static int wait_release(const sigset_t *set, bool watch_stdin)
{
	struct pollfd fds[2];
	int sfd, nfds = 1, ret = -1;
	char buf[256];

	sfd = signalfd(-1, set, SFD_CLOEXEC);
	if (sfd < 0) {
		errmsg("signalfd: %s", strerror(errno));
		return -1;
	}
	fds[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	if (watch_stdin)
		fds[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };

	for (;;) {
		if (poll(fds, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			errmsg("poll: %s", strerror(errno));
			break;
		}
		if (fds[0].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				ret = 0;
				break;
			}
		}
		if (nfds > 1 && fds[1].revents) {
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

			if (n > 0 || (n < 0 && errno == EINTR))
				continue;
			ret = 0;	/* EOF (or a dead stdin): release */
			break;
		}
	}
	close(sfd);
	return ret;
}

/* --- pair ------------------------------------------------------------------------------ */

struct traffic {
	const struct opts *o;
	struct side a, b;
	struct pair *pairs;
	unsigned int depth;	/* outstanding WRs per QP */
	enum ibv_mtu mtu;
};

static int side_setup(struct side *s, unsigned int cqe, size_t buf_len, int access)
{
	s->pd = ibv_alloc_pd(s->ctx);
	if (!s->pd) {
		errmsg("%s: ibv_alloc_pd: %s", s->name, strerror(errno));
		return -1;
	}
	s->chan = ibv_create_comp_channel(s->ctx);
	if (!s->chan) {
		errmsg("%s: ibv_create_comp_channel: %s", s->name, strerror(errno));
		return -1;
	}
	if (fcntl(s->chan->fd, F_SETFL, fcntl(s->chan->fd, F_GETFL) | O_NONBLOCK)) {
		errmsg("%s: completion channel: O_NONBLOCK: %s", s->name, strerror(errno));
		return -1;
	}
	s->cq = ibv_create_cq(s->ctx, cqe, NULL, s->chan, 0);
	if (!s->cq) {
		errmsg("%s: ibv_create_cq (%u entries): %s", s->name, cqe, strerror(errno));
		return -1;
	}
	if (!buf_len)
		return 0;
	s->buf_len = buf_len;
	if (posix_memalign((void **)&s->buf, 4096, buf_len)) {
		s->buf = NULL;
		errmsg("%s: cannot allocate %zu bytes", s->name, buf_len);
		return -1;
	}
	memset(s->buf, 0, buf_len);
	s->mr = ibv_reg_mr(s->pd, s->buf, buf_len, access);
	if (!s->mr) {
		errmsg("%s: ibv_reg_mr (%zu bytes): %s", s->name, buf_len, strerror(errno));
		return -1;
	}
	return 0;
}

/* side_teardown - release what side_setup (and open_device) made, in reverse. */
static int side_teardown(struct side *s)
{
	int err = 0;

	if (s->mr && failed(ibv_dereg_mr(s->mr), s->name, "ibv_dereg_mr"))
		err = -1;
	if (s->cq && failed(ibv_destroy_cq(s->cq), s->name, "ibv_destroy_cq"))
		err = -1;
	if (s->chan &&
	    failed(ibv_destroy_comp_channel(s->chan), s->name, "ibv_destroy_comp_channel"))
		err = -1;
	if (s->pd && failed(ibv_dealloc_pd(s->pd), s->name, "ibv_dealloc_pd"))
		err = -1;
	if (s->ctx && failed(ibv_close_device(s->ctx), s->name, "ibv_close_device"))
		err = -1;
	free(s->buf);
	memset(s, 0, sizeof(*s));
	return err;
}

static int traffic_teardown(struct traffic *t)
{
	unsigned int i;
	int err = 0;

	for (i = 0; t->pairs && i < t->o->pairs; i++) {
		if (t->pairs[i].a && destroy_qp(t->a.name, t->pairs[i].a))
			err = -1;
		if (t->pairs[i].b && destroy_qp(t->b.name, t->pairs[i].b))
			err = -1;
	}
	free(t->pairs);
	t->pairs = NULL;
	if (side_teardown(&t->a))
		err = -1;
	if (side_teardown(&t->b))
		err = -1;
	return err;
}

static int post_recv(struct traffic *t, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)t->b.buf + (size_t)i * t->o->size,
		.length = t->o->size,
		.lkey = t->b.mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = i,
		.sg_list = &sge,
		.num_sge = t->o->size ? 1 : 0,
	}, *bad;
	int ret;

	ret = ibv_post_recv(t->pairs[i].b, &wr, &bad);
	if (ret) {
		errmsg("%s: QP %u: ibv_post_recv: %s", t->b.name,
		       t->pairs[i].b->qp_num, strerror(ret));
		return -1;
	}
	t->pairs[i].recv_posted++;
	return 0;
}

static int post_send(struct traffic *t, unsigned int i)
{
	size_t off = (size_t)i * t->o->size;
	struct ibv_sge sge = {
		.addr = (uintptr_t)t->a.buf + off,
		.length = t->o->size,
		.lkey = t->a.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = i,
		.sg_list = &sge,
		.num_sge = t->o->size ? 1 : 0,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	int ret;

	if (t->o->op == OP_WRITE) {
		wr.opcode = IBV_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = (uintptr_t)t->b.buf + off;
		wr.wr.rdma.rkey = t->b.mr->rkey;
	} else {
		wr.opcode = IBV_WR_SEND;
	}
	ret = ibv_post_send(t->pairs[i].a, &wr, &bad);
	if (ret) {
		errmsg("%s: QP %u: ibv_post_send: %s", t->a.name,
		       t->pairs[i].a->qp_num, strerror(ret));
		return -1;
	}
	t->pairs[i].posted++;
	return 0;
}

/*
 * pump - post what pair @i may post now. A send is only posted once B has a
 * receive waiting for it, so there are never RNR NAKs (and never packets
 * beyond the ones the messages need).
 */
static int pump(struct traffic *t, unsigned int i)
{
	struct pair *p = &t->pairs[i];
	unsigned int m = t->o->msgs;

	if (t->o->op == OP_SEND)
		while (p->recv_posted < m && p->recv_posted - p->recv_done < t->depth)
			if (post_recv(t, i))
				return -1;
	while (p->posted < m && p->posted - p->acked < t->depth &&
	       (t->o->op == OP_WRITE || p->posted < p->recv_posted))
		if (post_send(t, i))
			return -1;
	return 0;
}

/* check_wc - one completion: its status, opcode and length. */
static int check_wc(struct traffic *t, const struct side *s, const struct ibv_wc *wc,
		    enum ibv_wc_opcode want)
{
	if (wc->wr_id >= t->o->pairs) {
		errmsg("%s: completion with unknown wr_id %" PRIu64, s->name, wc->wr_id);
		return -1;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		errmsg("%s: QP %u: completion error: %s (status %d, vendor error 0x%x)",
		       s->name, wc->qp_num, ibv_wc_status_str(wc->status),
		       wc->status, wc->vendor_err);
		return -1;
	}
	if (wc->opcode != want) {
		errmsg("%s: QP %u: completion opcode %d, expected %d",
		       s->name, wc->qp_num, wc->opcode, want);
		return -1;
	}
	if (want == IBV_WC_RECV && wc->byte_len != t->o->size) {
		errmsg("%s: QP %u: received %u bytes, expected %u",
		       s->name, wc->qp_num, wc->byte_len, t->o->size);
		return -1;
	}
	return 0;
}

/* drain - poll one CQ empty; returns the completions seen, or -1. */
static int drain(struct traffic *t, struct side *s, bool is_a)
{
	enum ibv_wc_opcode want = is_a ?
		(t->o->op == OP_WRITE ? IBV_WC_RDMA_WRITE : IBV_WC_SEND) : IBV_WC_RECV;
	struct ibv_wc wc[32];
	int n, k, seen = 0;

	do {
		n = ibv_poll_cq(s->cq, 32, wc);
		if (n < 0) {
			errmsg("%s: ibv_poll_cq failed", s->name);
			return -1;
		}
		for (k = 0; k < n; k++) {
			struct pair *p;

			if (check_wc(t, s, &wc[k], want))
				return -1;
			p = &t->pairs[wc[k].wr_id];
			if (is_a)
				p->acked++;
			else
				p->recv_done++;
			if (pump(t, wc[k].wr_id))
				return -1;
		}
		seen += n;
	} while (n);
	return seen;
}

/*
 * await_event - sleep on both completion channels, at most until @deadline.
 * Returns 0 when woken (or interrupted), 1 at the deadline, -1 on error.
 */
static int await_event(struct traffic *t, uint64_t deadline)
{
	struct side *sides[2] = { &t->a, &t->b };
	struct pollfd fds[2];
	uint64_t now = now_us();
	int i, ret;

	if (now >= deadline)
		return 1;
	for (i = 0; i < 2; i++)
		fds[i] = (struct pollfd){ .fd = sides[i]->chan->fd, .events = POLLIN };
	ret = poll(fds, 2, (deadline - now + 999) / 1000);
	if (ret < 0) {
		if (errno == EINTR)
			return 0;
		errmsg("poll: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < 2 && ret > 0; i++) {
		struct ibv_cq *cq;
		void *cq_ctx;

		if (!fds[i].revents)
			continue;
		if (ibv_get_cq_event(sides[i]->chan, &cq, &cq_ctx)) {
			if (errno == EAGAIN)
				continue;
			errmsg("%s: ibv_get_cq_event: %s", sides[i]->name, strerror(errno));
			return -1;
		}
		ibv_ack_cq_events(cq, 1);
	}
	return 0;
}

/* Say how far each unfinished pair got when time ran out. */
static void report_timeout(const struct traffic *t, uint64_t got, uint64_t want)
{
	const struct opts *o = t->o;
	const struct pair *p;
	unsigned int i;

	errmsg("timed out after %u s with %" PRIu64 " of %" PRIu64 " completions",
	       o->timeout, got, want);
	for (i = 0; i < o->pairs; i++) {
		p = &t->pairs[i];
		if (o->op == OP_WRITE && p->acked < o->msgs)
			errmsg("pair %u (QP %u -> %u): %u of %u written",
			       i, p->a->qp_num, p->b->qp_num, p->acked, o->msgs);
		else if (o->op == OP_SEND && (p->acked < o->msgs || p->recv_done < o->msgs))
			errmsg("pair %u (QP %u -> %u): %u of %u sent, %u received",
			       i, p->a->qp_num, p->b->qp_num, p->acked, o->msgs, p->recv_done);
	}
}

/* drain_both - poll A's and B's CQs empty; the completions seen, or -1. */
static int drain_both(struct traffic *t)
{
	int n, m;

	n = drain(t, &t->a, true);
	if (n < 0)
		return -1;
	m = drain(t, &t->b, false);
	if (m < 0)
		return -1;
	return n + m;
}

/*
 * run_traffic - move o->msgs messages on every pair and wait for all their
 * completions; the whole transfer gets at most o->timeout seconds.
 */
static int run_traffic(struct traffic *t)
{
	const struct opts *o = t->o;
	uint64_t deadline = now_us() + (uint64_t)o->timeout * 1000000;
	uint64_t want, got = 0;
	unsigned int i;
	int n;

	want = (uint64_t)o->pairs * o->msgs * (o->op == OP_SEND ? 2 : 1);
	for (i = 0; i < o->pairs; i++)
		if (pump(t, i))
			return -1;

	while (got < want) {
		if (now_us() >= deadline) {
			report_timeout(t, got, want);
			return -1;
		}
		n = drain_both(t);
		if (n < 0)
			return -1;
		got += n;
		if (n || got >= want)
			continue;
		/* Arm, then look again: completions may have beaten the arming. */
		if (ibv_req_notify_cq(t->a.cq, 0) || ibv_req_notify_cq(t->b.cq, 0)) {
			errmsg("ibv_req_notify_cq failed");
			return -1;
		}
		n = drain_both(t);
		if (n < 0)
			return -1;
		got += n;
		if (n)
			continue;
		n = await_event(t, deadline);
		if (n < 0)
			return -1;
		if (n > 0) {
			report_timeout(t, got, want);
			return -1;
		}
	}
	return 0;
}

/* Every pair's slot of B's buffer now holds its slot of A's pattern. */
static int verify_data(struct traffic *t)
{
	size_t off;
	unsigned int i;

	if (!t->o->msgs)
		return 0;
	for (i = 0; i < t->o->pairs; i++) {
		off = (size_t)i * t->o->size;
		if (memcmp(t->a.buf + off, t->b.buf + off, t->o->size)) {
			errmsg("pair %u: data received differs from data sent", i);
			return -1;
		}
	}
	return 0;
}

static void print_pair_json(const struct traffic *t, uint64_t elapsed, pid_t holder)
{
	const struct opts *o = t->o;
	unsigned int i;

	printf("{\"pid\":%d,", (int)getpid());
	if (holder)
		printf("\"holder_pid\":%d,", (int)holder);
	printf("\"a_dev\":\"%s\",\"b_dev\":\"%s\",\"mtu\":%d,\"tos\":%u,\"pairs\":[",
	       t->a.name, t->b.name, mtu_bytes(t->mtu), o->tos);
	for (i = 0; i < o->pairs; i++)
		printf("%s{\"a_qpn\":%u,\"b_qpn\":%u}", i ? "," : "",
		       t->pairs[i].a->qp_num, t->pairs[i].b->qp_num);
	printf("],\"messages\":%u,\"size\":%u,\"op\":\"%s\",\"bytes\":%" PRIu64
	       ",\"elapsed_us\":%" PRIu64 "}\n",
	       o->msgs, o->size, o->op == OP_SEND ? "send" : "write",
	       (uint64_t)o->pairs * o->msgs * o->size, elapsed);
}

/*
 * fork_hold - hand the QPs to a child that keeps them until SIGTERM/SIGINT.
 * The parent, their creator, prints the JSON (with the child's pid) and
 * exits at once without touching them: the child shares the verbs file
 * descriptors, so the kernel objects live on. Only the child returns.
 */
static int fork_hold(struct traffic *t, uint64_t elapsed)
{
	sigset_t set;
	pid_t pid;
	int fd;

	if (block_release_signals(&set))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		errmsg("fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		print_pair_json(t, elapsed, pid);
		_exit(fflush(stdout) ? EXIT_RUNTIME : 0);
	}
	/* Do not keep the caller's pipes open: $(qptraffic ...) must return. */
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	return wait_release(&set, false);
}

/* wait_for_file - until path exists, at most seconds; 0 once it does. */
static int wait_for_file(const char *path, unsigned int seconds)
{
	uint64_t end = now_us() + (uint64_t)seconds * 1000000;

	while (access(path, F_OK)) {
		if (now_us() > end) {
			errmsg("%s did not appear within %u s", path, seconds);
			return -1;
		}
		usleep(10000);
	}
	return 0;
}

static int cmd_pair(const struct opts *o)
{
	struct traffic t = { .o = o };
	size_t buf_len = (size_t)o->pairs * o->size;
	uint64_t start, elapsed;
	unsigned int i, cqe;
	sigset_t set;
	size_t j;
	int ret = -1;

	if (!buf_len)
		buf_len = 64;	/* zero-byte messages: an MR is still needed */
	t.a.name = o->dev;
	t.b.name = o->dev2 ? o->dev2 : o->dev;
	/* Both names are checked (usage errors) before any work. */
	t.a.ctx = open_device(t.a.name);
	t.b.ctx = t.a.ctx ? open_device(t.b.name) : NULL;
	if (!t.a.ctx || !t.b.ctx)
		goto out;
	if (query_side(&t.a, o->gid_index, true) || query_side(&t.b, o->gid_index, true))
		goto out;
	t.mtu = t.a.mtu < t.b.mtu ? t.a.mtu : t.b.mtu;
	if (o->size > t.a.max_msg_sz || o->size > t.b.max_msg_sz) {
		errmsg("message size %u exceeds the port's maximum %u", o->size,
		       t.a.max_msg_sz < t.b.max_msg_sz ? t.a.max_msg_sz : t.b.max_msg_sz);
		goto out;
	}

	/* Queue depth: bounded by the device's QP and CQ sizes. */
	t.depth = o->msgs < MAX_DEPTH ? (o->msgs ? o->msgs : 1) : MAX_DEPTH;
	t.depth = t.depth < (unsigned int)t.a.max_qp_wr ? t.depth : (unsigned int)t.a.max_qp_wr;
	t.depth = t.depth < (unsigned int)t.b.max_qp_wr ? t.depth : (unsigned int)t.b.max_qp_wr;
	i = (unsigned int)(t.a.max_cqe < t.b.max_cqe ? t.a.max_cqe : t.b.max_cqe) / o->pairs;
	if (!i) {
		errmsg("%u pairs do not fit in a CQ of at most %d entries", o->pairs,
		       t.a.max_cqe < t.b.max_cqe ? t.a.max_cqe : t.b.max_cqe);
		goto out;
	}
	t.depth = t.depth < i ? t.depth : i;
	cqe = o->pairs * t.depth;

	if (side_setup(&t.a, cqe, buf_len, IBV_ACCESS_LOCAL_WRITE) ||
	    side_setup(&t.b, cqe, buf_len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE))
		goto out;
	for (j = 0; j < buf_len; j++)
		t.a.buf[j] = (char)(j * 7 + j / 251 + 1);

	t.pairs = calloc(o->pairs, sizeof(*t.pairs));
	if (!t.pairs) {
		errmsg("out of memory");
		goto out;
	}
	if (o->create_after && wait_for_file(o->create_after, o->timeout))
		goto out;
	for (i = 0; i < o->pairs; i++) {
		struct pair *p = &t.pairs[i];

		p->a = create_qp(t.a.name, t.a.pd, t.a.cq, t.depth, 1);
		if (!p->a)
			goto out;
		p->b = create_qp(t.b.name, t.b.pd, t.b.cq, 1, t.depth);
		if (!p->b)
			goto out;
		if (o->connect_after && i == o->pairs - 1) {
			/* INIT, its path set once the file exists. */
			if (qp_to_init(t.a.name, p->a) || qp_to_init(t.b.name, p->b) ||
			    wait_for_file(o->connect_after, o->timeout) ||
			    qp_to_rtr(t.a.name, p->a, p->b->qp_num, &t.b.gid, o->gid_index,
				      o->tos, t.mtu) ||
			    qp_to_rtr(t.b.name, p->b, p->a->qp_num, &t.a.gid, o->gid_index,
				      o->tos, t.mtu) ||
			    qp_to_rts(t.a.name, p->a, o) || qp_to_rts(t.b.name, p->b, o))
				goto out;
			continue;
		}
		if (connect_qp(t.a.name, p->a, p->b->qp_num, &t.b.gid, o, t.mtu) ||
		    connect_qp(t.b.name, p->b, p->a->qp_num, &t.a.gid, o, t.mtu))
			goto out;
	}

	if (o->start_after && wait_for_file(o->start_after, o->timeout))
		goto out;
	start = now_us();
	if (run_traffic(&t))
		goto out;
	elapsed = now_us() - start;
	if (verify_data(&t))
		goto out;

	if (o->fork_hold) {
		if (fork_hold(&t, elapsed))	/* returns in the child only */
			goto out;
	} else {
		if (o->hold && block_release_signals(&set))
			goto out;
		print_pair_json(&t, elapsed, 0);
		if (fflush(stdout)) {
			errmsg("writing the result: %s", strerror(errno));
			goto out;
		}
		if (o->hold && wait_release(&set, stdin_is_stream()))
			goto out;
	}
	ret = 0;
out:
	if (traffic_teardown(&t))
		ret = -1;
	return ret ? EXIT_RUNTIME : 0;
}

/* --- fail: a QP that fails ---------------------------------------------------------- */

/* The first completion on @s's CQ, polled until the deadline: 0, else -1. */
static int await_wc(struct side *s, unsigned int seconds, struct ibv_wc *wc)
{
	uint64_t deadline = now_us() + (uint64_t)seconds * 1000000;
	int n;

	while ((n = ibv_poll_cq(s->cq, 1, wc)) == 0 && now_us() < deadline)
		usleep(1000);
	if (n < 0)
		errmsg("%s: ibv_poll_cq: %d", s->name, n);
	else if (!n)
		errmsg("%s: no completion within %u s", s->name, seconds);
	return n == 1 ? 0 : -1;
}

/*
 * --every-cpu: whichever CPU the driver holds while it completes (a
 * softirq or a kernel worker that does not yield), a poller pinned to
 * another sees the completion and answers with the modify to ERR at once.
 */
struct poller {
	pthread_t thread;
	int cpu;
	struct side *s;
	struct ibv_qp *qp;
	uint64_t deadline;
};

static atomic_int poll_taken;		/* a poller took the completion */
static struct ibv_wc poll_wc;		/* its completion, its modify's result */
static int poll_second;

static void *poll_one_cpu(void *arg)
{
	struct ibv_qp_attr err_attr = { .qp_state = IBV_QPS_ERR };
	struct poller *p = arg;
	struct ibv_wc wc;
	cpu_set_t set;
	int n;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;	/* the others poll */
	while (!atomic_load(&poll_taken) && now_us() < p->deadline) {
		n = ibv_poll_cq(p->s->cq, 1, &wc);
		if (n < 0)
			break;
		if (n == 1) {
			if (!atomic_exchange(&poll_taken, 1)) {
				poll_second = ibv_modify_qp(p->qp, &err_attr, IBV_QP_STATE);
				poll_wc = wc;
			}
			break;
		}
		usleep(200);
	}
	return NULL;
}

/* The completion on @s's CQ, and the modify to ERR of @qp, from any CPU. */
static int await_wc_every_cpu(struct side *s, struct ibv_qp *qp, unsigned int seconds,
			      struct ibv_wc *wc, int *second)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct poller *p;
	long i, started = 0;

	if (ncpu < 1)
		ncpu = 1;
	p = calloc(ncpu, sizeof(*p));
	if (!p) {
		errmsg("out of memory");
		return -1;
	}
	for (i = 0; i < ncpu; i++) {
		p[i] = (struct poller){ .cpu = i, .s = s, .qp = qp,
					.deadline = now_us() + (uint64_t)seconds * 1000000 };
		if (pthread_create(&p[i].thread, NULL, poll_one_cpu, &p[i]))
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(p[i].thread, NULL);
	free(p);
	if (!atomic_load(&poll_taken)) {
		errmsg("%s: no completion within %u s (%ld pollers)", s->name, seconds, started);
		return -1;
	}
	*wc = poll_wc;
	*second = poll_second;
	return 0;
}

static int cmd_fail(const struct opts *o)
{
	struct traffic t = { .o = o };
	struct ibv_qp_attr err_attr = { .qp_state = IBV_QPS_ERR };
	struct opts ao = *o;
	struct ibv_sge sge;
	struct ibv_send_wr wr, *bad;
	struct ibv_wc wc = { .status = IBV_WC_SUCCESS };
	bool retry = !strcmp(o->how, "retry");
	uint32_t peer = 0;
	int second = -1, ret = -1;
	sigset_t set;

	t.a.name = o->dev;
	t.b.name = o->dev2 ? o->dev2 : o->dev;
	t.a.ctx = open_device(t.a.name);
	t.b.ctx = t.a.ctx ? open_device(t.b.name) : NULL;
	if (!t.a.ctx || !t.b.ctx)
		goto out;
	if (query_side(&t.a, o->gid_index, true) || query_side(&t.b, o->gid_index, true))
		goto out;
	t.mtu = t.a.mtu < t.b.mtu ? t.a.mtu : t.b.mtu;
	if (side_setup(&t.a, 4, 4096, IBV_ACCESS_LOCAL_WRITE) ||
	    side_setup(&t.b, 4, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE))
		goto out;
	t.pairs = calloc(1, sizeof(*t.pairs));
	if (!t.pairs) {
		errmsg("out of memory");
		goto out;
	}
	t.pairs->a = create_qp(t.a.name, t.a.pd, t.a.cq, 2, 1);
	t.pairs->b = t.pairs->a ? create_qp(t.b.name, t.b.pd, t.b.cq, 1, 2) : NULL;
	if (!t.pairs->b)
		goto out;
	/* Retry: one retry of a 4 ms timeout, so that the transport gives up at once. */
	if (retry) {
		ao.retry_cnt = 1;
		ao.ack_timeout = 10;
	}
	if (connect_qp(t.a.name, t.pairs->a, t.pairs->b->qp_num, &t.b.gid, &ao, t.mtu) ||
	    connect_qp(t.b.name, t.pairs->b, t.pairs->a->qp_num, &t.a.gid, o, t.mtu))
		goto out;

	if (retry) {
		/* The peer vanishes: its device drops what comes for its QPN. */
		peer = t.pairs->b->qp_num;
		if (destroy_qp(t.b.name, t.pairs->b))
			goto out;
		t.pairs->b = NULL;
		sge = (struct ibv_sge){ (uintptr_t)t.a.buf, 64, t.a.mr->lkey };
		wr = (struct ibv_send_wr){
			.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
		};
		wr.wr.rdma.remote_addr = (uintptr_t)t.b.buf;
		wr.wr.rdma.rkey = t.b.mr->rkey;
		if (failed(ibv_post_send(t.pairs->a, &wr, &bad), t.a.name, "ibv_post_send"))
			goto out;
		if (o->every_cpu) {
			if (await_wc_every_cpu(&t.a, t.pairs->a, o->timeout, &wc, &second))
				goto out;
		} else if (await_wc(&t.a, o->timeout, &wc)) {
			goto out;
		}
	} else if (failed(ibv_modify_qp(t.pairs->a, &err_attr, IBV_QP_STATE), t.a.name,
			  "modify to ERR")) {
		goto out;
	}
	/* What an application does next: a second move to ERR, not a second failure. */
	if (!retry || !o->every_cpu)
		second = ibv_modify_qp(t.pairs->a, &err_attr, IBV_QP_STATE);

	if (o->hold && block_release_signals(&set))
		goto out;
	printf("{\"pid\":%d,\"dev\":\"%s\",\"qpn\":%u,\"peer_qpn\":%u,\"how\":\"%s\","
	       "\"wc_status\":\"%s\",\"wc_status_code\":%d,\"second_modify\":%d}\n",
	       (int)getpid(), t.a.name, t.pairs->a->qp_num, peer ? peer : t.pairs->b->qp_num,
	       o->how, ibv_wc_status_str(wc.status), (int)wc.status, second);
	if (fflush(stdout)) {
		errmsg("writing the result: %s", strerror(errno));
		goto out;
	}
	if (o->hold && wait_release(&set, stdin_is_stream()))
		goto out;
	ret = 0;
out:
	if (traffic_teardown(&t))
		ret = -1;
	return ret ? EXIT_RUNTIME : 0;
}

/* --- many, churn, rate: QPs without traffic ------------------------------------------ */

/* A device with one PD and one small CQ, enough to create RC QPs. */
struct qp_home {
	const char *name;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
};

static int home_open(struct qp_home *h, const char *name)
{
	h->name = name;
	h->ctx = open_device(name);
	if (!h->ctx)
		return -1;
	h->pd = ibv_alloc_pd(h->ctx);
	if (!h->pd) {
		errmsg("%s: ibv_alloc_pd: %s", name, strerror(errno));
		return -1;
	}
	h->cq = ibv_create_cq(h->ctx, 16, NULL, NULL, 0);
	if (!h->cq) {
		errmsg("%s: ibv_create_cq: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

static int home_close(struct qp_home *h)
{
	int err = 0;

	if (h->cq && failed(ibv_destroy_cq(h->cq), h->name, "ibv_destroy_cq"))
		err = -1;
	if (h->pd && failed(ibv_dealloc_pd(h->pd), h->name, "ibv_dealloc_pd"))
		err = -1;
	if (h->ctx && failed(ibv_close_device(h->ctx), h->name, "ibv_close_device"))
		err = -1;
	return err;
}

/* One QP the cheapest way: a single WR each way, no MR. */
static struct ibv_qp *home_qp(struct qp_home *h)
{
	return create_qp(h->name, h->pd, h->cq, 1, 1);
}

static int cmd_many(const struct opts *o)
{
	struct qp_home h = { 0 };
	struct side s = { .name = o->dev };
	struct ibv_qp **qps;
	unsigned int i, n = 0;
	sigset_t set;
	int ret = -1;

	qps = calloc(o->count, sizeof(*qps));
	if (!qps) {
		errmsg("out of memory");
		return EXIT_RUNTIME;
	}
	if (home_open(&h, o->dev))
		goto out;
	s.ctx = h.ctx;
	if (query_side(&s, o->gid_index, o->state == IBV_QPS_RTS))
		goto out;

	for (n = 0; n < o->count; n++) {
		qps[n] = home_qp(&h);
		if (!qps[n]) {
			errmsg("created %u of %u QPs", n, o->count);
			goto out;
		}
		if (o->state != IBV_QPS_RESET && qp_to_init(h.name, qps[n])) {
			n++;
			goto out;
		}
	}
	/* RTS: QPs 2k and 2k+1 connected to each other (an odd last one to itself). */
	for (i = 0; o->state == IBV_QPS_RTS && i < n; i += 2) {
		struct ibv_qp *x = qps[i], *y = i + 1 < n ? qps[i + 1] : qps[i];

		if (qp_to_rtr(h.name, x, y->qp_num, &s.gid, o->gid_index, o->tos, s.mtu) ||
		    qp_to_rts(h.name, x, o))
			goto out;
		if (y != x &&
		    (qp_to_rtr(h.name, y, x->qp_num, &s.gid, o->gid_index, o->tos, s.mtu) ||
		     qp_to_rts(h.name, y, o)))
			goto out;
	}

	if (o->hold && block_release_signals(&set))
		goto out;
	printf("{\"pid\":%d,\"state\":\"%s\",\"qpns\":[", (int)getpid(),
	       o->state == IBV_QPS_RESET ? "reset" : o->state == IBV_QPS_INIT ? "init" : "rts");
	for (i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", qps[i]->qp_num);
	printf("]}\n");
	if (fflush(stdout)) {
		errmsg("writing the result: %s", strerror(errno));
		goto out;
	}
	if (o->hold && wait_release(&set, stdin_is_stream()))
		goto out;
	ret = 0;
out:
	for (i = 0; i < n; i++)
		if (qps[i] && destroy_qp(h.name, qps[i]))
			ret = -1;
	free(qps);
	if (home_close(&h))
		ret = -1;
	return ret ? EXIT_RUNTIME : 0;
}

static int cmd_churn(const struct opts *o)
{
	struct qp_home h = { 0 };
	struct ibv_qp **qps;
	uint64_t created = 0, destroyed = 0, start, end;
	unsigned int i, n;
	int err = 0;

	qps = calloc(o->batch, sizeof(*qps));
	if (!qps) {
		errmsg("out of memory");
		return EXIT_RUNTIME;
	}
	if (home_open(&h, o->dev)) {
		home_close(&h);
		free(qps);
		return EXIT_RUNTIME;
	}
	start = now_us();
	end = start + (uint64_t)o->seconds * 1000000;
	while (!err && now_us() < end) {
		for (n = 0; n < o->batch; n++) {
			qps[n] = home_qp(&h);
			if (!qps[n]) {
				err = -1;
				break;
			}
			created++;
		}
		for (i = 0; i < n && !err; i++)
			if (qp_to_init(h.name, qps[i]))
				err = -1;
		for (i = 0; i < n; i++) {
			if (destroy_qp(h.name, qps[i]))
				err = -1;
			else
				destroyed++;
		}
	}
	printf("{\"created\":%" PRIu64 ",\"destroyed\":%" PRIu64 ",\"elapsed_us\":%" PRIu64 "}\n",
	       created, destroyed, now_us() - start);
	if (fflush(stdout))
		err = -1;
	if (created != destroyed)
		errmsg("created %" PRIu64 " QPs but destroyed %" PRIu64, created, destroyed);
	free(qps);
	if (home_close(&h))
		err = -1;
	return err || created != destroyed ? EXIT_RUNTIME : 0;
}

static int cmd_rate(const struct opts *o)
{
	struct qp_home h = { 0 };
	struct ibv_qp *qp;
	uint64_t start, elapsed, cpu_start, cpu;
	unsigned int i;
	int err = 0;

	if (home_open(&h, o->dev)) {
		home_close(&h);
		return EXIT_RUNTIME;
	}
	/*
	 * Elapsed and this thread's CPU time: the kernel's work for the verbs
	 * runs in it, work they hand to kernel threads (workqueues) does not.
	 */
	start = now_us();
	cpu_start = clock_us(CLOCK_THREAD_CPUTIME_ID);
	for (i = 0; i < o->count && !err; i++) {
		qp = home_qp(&h);
		if (!qp) {
			err = -1;
			break;
		}
		if (qp_to_init(h.name, qp))
			err = -1;
		if (destroy_qp(h.name, qp))
			err = -1;
	}
	cpu = clock_us(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
	elapsed = now_us() - start;
	if (!err) {
		printf("{\"count\":%u,\"elapsed_us\":%" PRIu64 ",\"per_second\":%.1f,"
		       "\"cpu_us\":%" PRIu64 ",\"per_cpu_second\":%.1f}\n",
		       o->count, elapsed, elapsed ? o->count * 1e6 / elapsed : 0.0,
		       cpu, cpu ? o->count * 1e6 / cpu : 0.0);
		if (fflush(stdout))
			err = -1;
	}
	if (home_close(&h))
		err = -1;
	return err ? EXIT_RUNTIME : 0;
}

/* --- command line -------------------------------------------------------------------- */

enum { OPT_OP = 256, OPT_TOS, OPT_HOLD, OPT_FORK_HOLD, OPT_STATE, OPT_START_AFTER, OPT_HOW,
       OPT_EVERY_CPU, OPT_CONNECT_AFTER, OPT_CREATE_AFTER };

static const struct option pair_lopts[] = {
	{ "op", required_argument, NULL, OPT_OP },
	{ "tos", required_argument, NULL, OPT_TOS },
	{ "hold", no_argument, NULL, OPT_HOLD },
	{ "fork-hold", no_argument, NULL, OPT_FORK_HOLD },
	{ "start-after", required_argument, NULL, OPT_START_AFTER },
	{ "connect-after", required_argument, NULL, OPT_CONNECT_AFTER },
	{ "create-after", required_argument, NULL, OPT_CREATE_AFTER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct option many_lopts[] = {
	{ "state", required_argument, NULL, OPT_STATE },
	{ "hold", no_argument, NULL, OPT_HOLD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct option fail_lopts[] = {
	{ "how", required_argument, NULL, OPT_HOW },
	{ "every-cpu", no_argument, NULL, OPT_EVERY_CPU },
	{ "hold", no_argument, NULL, OPT_HOLD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct option plain_lopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct command {
	const char *name;
	const char *sopts;
	const struct option *lopts;
	int (*run)(const struct opts *o);
};

static const struct command commands[] = {
	{ "pair", "d:D:g:n:m:s:T:h", pair_lopts, cmd_pair },
	{ "many", "d:n:g:T:h", many_lopts, cmd_many },
	{ "churn", "d:t:b:T:h", plain_lopts, cmd_churn },
	{ "rate", "d:n:T:h", plain_lopts, cmd_rate },
	{ "fail", "d:D:g:T:h", fail_lopts, cmd_fail },
};

int main(int argc, char **argv)
{
	struct opts o = {
		.gid_index = 1,
		.pairs = 1,
		.msgs = 100,
		.size = 1024,
		.op = OP_SEND,
		.state = IBV_QPS_RTS,
		.batch = 8,
		.timeout = 20,
		.retry_cnt = 7,
		.ack_timeout = 14,
	};
	const struct command *cmd = NULL;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	bool have_n = false, have_t = false;
	unsigned int i;
	int c;

	if (argc < 2)
		usage_error("missing subcommand: pair, many, churn, rate or fail");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		print_help(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			cmd = &commands[i];
	if (!cmd)
		usage_error("unknown subcommand \"%s\"", argv[1]);

	/* getopt's own messages then read "qptraffic: unrecognized option ...". */
	argv[1] = (char *)prog;
	while ((c = getopt_long(argc - 1, argv + 1, cmd->sopts, cmd->lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.dev = optarg;
			break;
		case 'D':
			o.dev2 = optarg;
			break;
		case 'g':
			o.gid_index = parse_uint(optarg, 0, 65535, "GID index");
			break;
		case 'n':
			have_n = true;
			if (cmd->run == cmd_pair)
				o.pairs = parse_uint(optarg, 1, MAX_PAIRS, "pair count");
			else if (cmd->run == cmd_many)
				o.count = parse_uint(optarg, 1, MAX_MANY, "QP count");
			else
				o.count = parse_uint(optarg, 1, 100000000, "QP count");
			break;
		case 'm':
			o.msgs = parse_uint(optarg, 0, 100000000, "message count");
			break;
		case 's':
			o.size = parse_uint(optarg, 0, MAX_SIZE, "message size");
			break;
		case 't':
			have_t = true;
			o.seconds = parse_uint(optarg, 1, 86400, "duration");
			break;
		case 'b':
			o.batch = parse_uint(optarg, 1, 4096, "batch size");
			break;
		case 'T':
			o.timeout = parse_uint(optarg, 1, 86400, "timeout");
			break;
		case OPT_OP:
			if (!strcmp(optarg, "send"))
				o.op = OP_SEND;
			else if (!strcmp(optarg, "write"))
				o.op = OP_WRITE;
			else
				usage_error("bad --op \"%s\": send or write", optarg);
			break;
		case OPT_TOS:
			o.tos = parse_uint(optarg, 0, 255, "TOS");
			break;
		case OPT_HOLD:
			o.hold = true;
			break;
		case OPT_EVERY_CPU:
			o.every_cpu = true;
			break;
		case OPT_START_AFTER:
			o.start_after = optarg;
			break;
		case OPT_CONNECT_AFTER:
			o.connect_after = optarg;
			break;
		case OPT_CREATE_AFTER:
			o.create_after = optarg;
			break;
		case OPT_FORK_HOLD:
			o.fork_hold = true;
			break;
		case OPT_STATE:
			if (!strcmp(optarg, "reset"))
				o.state = IBV_QPS_RESET;
			else if (!strcmp(optarg, "init"))
				o.state = IBV_QPS_INIT;
			else if (!strcmp(optarg, "rts"))
				o.state = IBV_QPS_RTS;
			else
				usage_error("bad --state \"%s\": reset, init or rts", optarg);
			break;
		case OPT_HOW:
			if (strcmp(optarg, "modify") && strcmp(optarg, "retry"))
				usage_error("bad --how \"%s\": modify or retry", optarg);
			o.how = optarg;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:	/* getopt said what was wrong */
			usage_error("bad command line for \"%s\"", cmd->name);
		}
	}
	if (optind + 1 < argc)
		usage_error("unexpected argument \"%s\"", argv[optind + 1]);
	if (!o.dev)
		usage_error("%s: -d DEV is required", cmd->name);
	if ((cmd->run == cmd_many || cmd->run == cmd_rate) && !have_n)
		usage_error("%s: -n COUNT is required", cmd->name);
	if (cmd->run == cmd_fail && !o.how)
		usage_error("fail: --how modify|retry is required");
	if (o.every_cpu && strcmp(o.how, "retry"))
		usage_error("fail: --every-cpu goes with --how retry");
	if (cmd->run == cmd_churn && !have_t)
		usage_error("churn: -t SECONDS is required");
	if (o.hold && o.fork_hold)
		usage_error("--hold and --fork-hold exclude each other");
	if ((uint64_t)o.pairs * o.size > SIZE_MAX / 2)
		usage_error("%u pairs of %u-byte buffers are too much", o.pairs, o.size);

	/* Registered memory and rxe's queues count against RLIMIT_MEMLOCK. */
	setrlimit(RLIMIT_MEMLOCK, &rl);
	return cmd->run(&o);
}
