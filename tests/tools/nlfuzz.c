// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz - random and mutated generic netlink requests to the rocectl family.
 *
 * A test helper for rocectl's guest scenarios (fuzz.sh, races.sh,
 * faults.sh). Raw AF_NETLINK/NETLINK_GENERIC, no libmnl; the family id is
 * resolved with CTRL_CMD_GETFAMILY. Every reply is read (acks, errors, dump
 * parts up to NLMSG_DONE) so the socket never stalls, and checked: replies
 * must be well-formed netlink, every request asking for an ack gets an
 * answer.
 *
 *   nlfuzz fuzz   [-s SEED] [-n COUNT] [-x NETDEV]... [-v]
 *   nlfuzz unpriv [-s SEED] [-n COUNT] [-o] [-v]
 *   nlfuzz hammer -t SECONDS -r REQ[,REQ...] [-d NETDEV] [-s SEED]
 *   nlfuzz faults -r REQ [-d NETDEV] [-D RDMADEV] [-N MAXNTH]
 *   nlfuzz faultexec [-N MAXNTH] -- PROGRAM [ARG...]
 *
 * fuzz (phase A, as root): every command 0..MAX+2, doit and dump, valid
 *   templates, typed attributes with boundary values, random attributes of
 *   every type 0..MAX+5, nests with random and deep contents, mutations
 *   (bit flips, truncation, lying message and attribute lengths, trailing
 *   garbage, several messages in one datagram). Requests that could change
 *   state are guarded: before a datagram is sent it is walked as the kernel
 *   walks it (netlink_rcv_skb), and a command that needs CAP_NET_ADMIN
 *   (WD_SET, WD_DEL, WD_BRS_SET, CONG_SET) must name no netdev and no RDMA
 *   device that exists -- except the scratch netdevs given with -x --, and
 *   WD_BRS_SET must not carry a valid switch value; anything else is
 *   generated anew. Every message that reaches the family with another
 *   netlink type is generated anew too (a lying length can make garbage the
 *   header of a next message). A guarded admin request that is not refused
 *   is a violation.
 * unpriv (phase B, without CAP_NET_ADMIN; refuses to run with it): the same
 *   generator, unguarded and biased to valid requests naming real netdevs
 *   and devices; every admin request that reaches the family with a valid
 *   header must be refused with EPERM (or, asked as a dump, EOPNOTSUPP:
 *   since 6.2 generic netlink looks the operation up first). With -o (a
 *   reader whose pid namespace holds no QP's or storm process's owner,
 *   without CAP_NET_ADMIN anywhere: rocectl(8), PERMISSIONS), a reply that
 *   names a user owner -- a nonzero pid, a command name not a kernel QP's
 *   or kernel user's, a cgroup -- is a violation (foreign_owners).
 * hammer (races): the given requests in a tight loop for SECONDS, following
 *   the family through unloads and reloads (controller notifications; no
 *   module autoload). REQ: wd-set, wd-del (need -d), brs, qp-dump, dev-dump,
 *   wd-dump, dev-get, cong-get (need -D).
 * faults: with /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION), make the
 *   1st, 2nd, ... fault-injection point of one request fail in turn, until
 *   the request gets through without reaching the next one. After each
 *   step the outcome is checked: a dump is complete or reports an error, a
 *   refused wd-set left no watch, an accepted one left one (deleted again).
 *   REQ: dev-dump, qp-dump, wd-dump, dev-get, qp-get, wd-get, wd-set,
 *   cong-get.
 * faultexec: the same for a program's conversation with the kernel (the
 *   rocectl tool): it is run under ptrace, and fail-nth is set to 1, 2, ...
 *   in turn from its first socket() to its first write to stdout or stderr
 *   (or its exit): not in exec, the dynamic loader or the exit, whose
 *   failures say nothing about the program and, on the guest's 9p root, can
 *   take the file system away. The sweep ends with the first run whose
 *   conversation ended before its nth point. A run that exits 0 must print
 *   what the fault-free run printed; one that fails must say something on
 *   stderr; none may die of a signal.
 *
 * Output: one JSON object on stdout (counts by errno, replies, violations),
 * a summary line on stderr. Exit: 0, 1 violations or failure, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rocectl.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED 0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS 0x200
#endif
#define NLMSGERR_MSG	1
#define NLMSGERR_OFFS	2

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define MSG_MAX		6144	/* one generated message */
#define DGRAM_MAX	(4 * MSG_MAX)
#define BATCH_MAX	8	/* messages the kernel may see in one datagram */
#define RX_SIZE		(256 * 1024)
#define ERRNO_MAX	256
#define HDRS		(NLMSG_HDRLEN + GENL_HDRLEN)	/* first attribute */

static const char *prog = "nlfuzz";

static void __printf(1, 2) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __printf(1, 2) usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nusage: nlfuzz fuzz|unpriv [-s SEED] [-n COUNT] [-x NETDEV]... [-o] [-v]\n"
	      "       nlfuzz hammer -t SECONDS -r REQ[,REQ...] [-d NETDEV] [-D RDMADEV]\n"
	      "       nlfuzz faults -r REQ [-d NETDEV] [-D RDMADEV] [-N MAXNTH]\n"
	      "       nlfuzz faultexec [-N MAXNTH] -- PROGRAM [ARG...]\n", stderr);
	exit(2);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- randomness: xorshift64*, reproducible from the seed ------------------- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint32_t rnd(uint32_t n)		/* 0..n-1 */
{
	return n ? (uint32_t)((rnd64() >> 32) % n) : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

static void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd64();
}

/* --- what the family is: attribute types, nests, per-command policies ------ */

enum atype { T_ANY, T_U8, T_U16, T_U32, T_U64, T_STR, T_BIN16, T_NEST };

struct ainfo {
	uint8_t type;
	uint8_t nest;
};

struct nestinfo {
	const struct ainfo *a;
	int max;
};

/*
 * The family's attribute sets, each command's attributes, its admin flag
 * and its dump: generated from the netlink spec (include/netlink/).
 */
#include "nlfuzz_spec.h"

/* Values at and around the policies' and handlers' boundaries. */
static const uint64_t b_index[] = { 0, 1, 2, 3, 4, 5, 0x7fffffff, 0xffffffff };
static const uint64_t b_qpn[] = { 0, 1, 2, 17, 0xfffffe, 0xffffff, 0x1000000, 0xffffffff };
static const uint64_t b_qptype[] = { 0, 1, 2, 3, 4, 8, 9, 10, 0xfe, 0xff };
static const uint64_t b_qpstate[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0xff };
static const uint64_t b_port[] = { 0, 1, 2, 254, 255, 256, 0xffffffff };
static const uint64_t b_prios[] = { 0, 1, 0x08, 0x18, 0x80, 0xff };
static const uint64_t b_detect[] = { 0, 19, 20, 21, 100, 200, 9999, 10000, 10001, 0xffffffff };
static const uint64_t b_restore[] = { 0, 19, 20, 400, 59999, 60000, 60001, 0xffffffff };
static const uint64_t b_interval[] = { 0, 9, 10, 11, 100, 999, 1000, 1001, 0xffffffff };
static const uint64_t b_action[] = { 0, 1, 2, 0xff };
static const uint64_t b_dir[] = { 0, 1, 2, 3, 0xff };
static const uint64_t b_stall[] = { 0, 1, 79, 80, 81, 100, 7999, 8000, 8001, 0xfffe, 0xffff };
static const uint64_t b_brs[] = { 0, 1, 2, 0xff };
static const uint64_t b_u64[] = { 0, 1, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
				  0xffffffffffffffffULL, 0xffffffff, 0x100000000ULL };

struct bounds {
	const uint64_t *v;
	size_t n;
};

#define B(a) { a, ARRAY_SIZE(a) }

static struct bounds top_bounds(int type)
{
	switch (type) {
	case ROCECTL_A_DEV_INDEX:
	case ROCECTL_A_NETDEV_INDEX: return (struct bounds)B(b_index);
	case ROCECTL_A_QP_NUM:
	case ROCECTL_A_QP_DEST_QPN: return (struct bounds)B(b_qpn);
	case ROCECTL_A_QP_TYPE: return (struct bounds)B(b_qptype);
	case ROCECTL_A_QP_STATE: return (struct bounds)B(b_qpstate);
	case ROCECTL_A_QP_PORT:
	case ROCECTL_A_WD_PORT:
	case ROCECTL_A_CONG_PORT: return (struct bounds)B(b_port);
	case ROCECTL_A_WD_PRIOS: return (struct bounds)B(b_prios);
	case ROCECTL_A_WD_DETECT_MS: return (struct bounds)B(b_detect);
	case ROCECTL_A_WD_RESTORE_MS: return (struct bounds)B(b_restore);
	case ROCECTL_A_WD_INTERVAL_MS: return (struct bounds)B(b_interval);
	case ROCECTL_A_WD_ACTION: return (struct bounds)B(b_action);
	case ROCECTL_A_WD_DIRECTION: return (struct bounds)B(b_dir);
	case ROCECTL_A_WD_STALL_MS: return (struct bounds)B(b_stall);
	case ROCECTL_A_WD_BRS: return (struct bounds)B(b_brs);
	default: return (struct bounds){ NULL, 0 };
	}
}

/* --- the world as it is: netdevs, RDMA devices, QPs ------------------------ */

#define NAMES_MAX 64

struct rdev {
	uint32_t index;
	char name[64];
	int nports;
	int netdev[4];		/* ifindex behind ports 1..4, 0: none */
};

struct world {
	char netdev[NAMES_MAX][IF_NAMESIZE];
	int ifindex[NAMES_MAX];
	int nnetdev;
	char scratch[NAMES_MAX][IF_NAMESIZE];	/* -x: may change */
	int scratch_ifindex[NAMES_MAX];
	int nscratch;
	struct rdev rdev[NAMES_MAX];
	int nrdev;
	struct { uint32_t dev; uint32_t qpn; } qp[256];
	int nqp;
};

static struct world W;

static const char *const fake_names[] = {
	"nlfz0", "nosuch", "x", "rxe99", "sim99", "mlx5_99", "eth-nope",
	"aaaaaaaaaaaaaaa",			/* 15: longest netdev name */
	"aaaaaaaaaaaaaaaa",			/* 16: one too long */
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", /* 63 */
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", /* 64 */
	"%d", "../x", "a b", "\xff\xfe",
};

static const char *const cong_names[] = {
	"rp_gd", "rp_time_reset", "rp_byte_reset", "rp_threshold", "rp_ai_rate",
	"rp_hai_rate", "rp_min_rate", "rp_max_rate", "rp_rate_reduce_monitor_period",
	"rp_initial_alpha_value", "rp_dce_tcp_g", "rp_dce_tcp_rtt", "rp_clamp_tgt_rate",
	"rp_clamp_tgt_rate_after_time_inc", "np_min_time_between_cnps", "np_cnp_dscp",
	"np_cnp_prio_mode", "np_cnp_prio", "rp_enable", "np_enable", "nosuch", "",
};

static bool netdev_exists_name(const char *name)
{
	int i;

	for (i = 0; i < W.nnetdev; i++)
		if (!strcmp(W.netdev[i], name))
			return true;
	return false;
}

static bool scratch_name(const char *name)
{
	int i;

	for (i = 0; i < W.nscratch; i++)
		if (!strcmp(W.scratch[i], name))
			return true;
	return false;
}

static bool netdev_exists_index(uint32_t ifindex)
{
	int i;

	for (i = 0; i < W.nnetdev; i++)
		if ((uint32_t)W.ifindex[i] == ifindex)
			return true;
	return false;
}

static bool scratch_index(uint32_t ifindex)
{
	int i;

	for (i = 0; i < W.nscratch; i++)
		if ((uint32_t)W.scratch_ifindex[i] == ifindex)
			return true;
	return false;
}

static void world_netdevs(void)
{
	struct if_nameindex *ni = if_nameindex(), *p;

	if (!ni)
		die("if_nameindex: %s", strerror(errno));
	for (p = ni; p->if_index && W.nnetdev < NAMES_MAX; p++) {
		snprintf(W.netdev[W.nnetdev], IF_NAMESIZE, "%s", p->if_name);
		W.ifindex[W.nnetdev++] = (int)p->if_index;
	}
	if_freenameindex(ni);
}

/* --- netlink ---------------------------------------------------------------- */

struct nl {
	int fd;
	uint16_t family;
	uint32_t seq;
	uint8_t *rx;
};

static int nl_open(struct nl *nl)
{
	int one = 1, big = 4 << 20;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	/* As root the buffer can be made large; else it stays at rmem_max. */
	if (setsockopt(nl->fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)))
		setsockopt(nl->fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(nl->fd);
		return -errno;
	}
	if (!nl->rx)
		nl->rx = malloc(RX_SIZE);
	if (!nl->rx)
		die("out of memory");
	return 0;
}

static void nl_close(struct nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
}

/* A message under construction. */
struct msg {
	uint8_t b[MSG_MAX];
	size_t len;
	bool full;
};

static void put(struct msg *m, const void *d, size_t n)
{
	if (m->len + n > sizeof(m->b)) {
		m->full = true;
		return;
	}
	if (d)
		memcpy(m->b + m->len, d, n);
	else
		memset(m->b + m->len, 0, n);
	m->len += n;
}

static void pad4(struct msg *m)
{
	while (m->len % 4 && !m->full)
		put(m, NULL, 1);
}

static size_t attr_begin(struct msg *m, uint16_t type)
{
	struct nlattr a = { .nla_len = 0, .nla_type = type };
	size_t off = m->len;

	put(m, &a, sizeof(a));
	return off;
}

static void attr_end(struct msg *m, size_t off)
{
	uint16_t len = (uint16_t)(m->len - off);

	if (off + 2 <= sizeof(m->b))
		memcpy(m->b + off, &len, 2);
	pad4(m);
}

static void put_attr(struct msg *m, uint16_t type, const void *d, size_t n)
{
	size_t off = attr_begin(m, type);

	put(m, d, n);
	attr_end(m, off);
}

static void put_u8(struct msg *m, uint16_t t, uint8_t v) { put_attr(m, t, &v, 1); }
static void put_u16(struct msg *m, uint16_t t, uint16_t v) { put_attr(m, t, &v, 2); }
static void put_u32(struct msg *m, uint16_t t, uint32_t v) { put_attr(m, t, &v, 4); }
static void put_u64(struct msg *m, uint16_t t, uint64_t v) { put_attr(m, t, &v, 8); }
static void put_str(struct msg *m, uint16_t t, const char *s) { put_attr(m, t, s, strlen(s) + 1); }

static void msg_begin(struct msg *m, uint16_t type, uint16_t flags, uint32_t seq,
		      uint8_t cmd, uint8_t version)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq };
	struct genlmsghdr g = { .cmd = cmd, .version = version };

	m->len = 0;
	m->full = false;
	put(m, &h, sizeof(h));
	put(m, &g, sizeof(g));
}

static void msg_end(struct msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->b, &len, 4);
}

/* Send a datagram. */
static int nl_send(struct nl *nl, const void *b, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(nl->fd, b, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return 0;
}

/* --- replies ------------------------------------------------------------------ */

struct stats {
	uint64_t messages;	/* generated netlink messages */
	uint64_t datagrams;
	uint64_t processed;	/* messages the kernel walked to */
	uint64_t dropped;	/* messages the kernel never saw (length lies) */
	uint64_t regenerated;	/* unsafe datagrams generated anew */
	uint64_t acks;		/* NLMSG_ERROR 0 */
	uint64_t err[ERRNO_MAX];	/* NLMSG_ERROR and NLMSG_DONE by errno */
	uint64_t replies;	/* data messages of the family */
	uint64_t dump_parts;	/* ... with NLM_F_MULTI */
	uint64_t dumps_done;	/* NLMSG_DONE */
	uint64_t dump_intr;
	uint64_t unmatched;	/* answers to no message we sent (split garbage) */
	uint64_t overruns;	/* ENOBUFS on receive */
	uint64_t recv_err;	/* other receive errors (faults mode) */
	uint64_t send_err[ERRNO_MAX];
	uint64_t extack_msgs;
	uint64_t admin_processed;
	uint64_t admin_eperm;
	uint64_t admin_nodump;	/* unpriv: admin asked as a dump, EOPNOTSUPP (6.2 on) */
	uint64_t admin_accepted_scratch;
	uint64_t bad_replies;	/* malformed netlink from the kernel */
	uint64_t no_answer;	/* an ack was asked for, nothing came */
	uint64_t violations;
	uint64_t foreign_owners;	/* -o: user owners named in replies */
	uint64_t model_mismatch;
	uint64_t per_cmd[256];
};

static struct stats S;
static bool verbose;
static bool opt_no_owner;	/* -o: no reply may name a user owner */

enum mode { M_FUZZ, M_UNPRIV, M_HAMMER, M_FAULTS, M_FAULTEXEC };
static enum mode mode;
static int shown;

static void hexdump(const char *why, const uint8_t *b, size_t len)
{
	size_t i;

	if (shown++ >= 20)
		return;
	fprintf(stderr, "%s: %s (%zu bytes):", prog, why, len);
	for (i = 0; i < len && i < 512; i++)
		fprintf(stderr, "%s%02x", i % 32 ? " " : "\n  ", b[i]);
	fputc('\n', stderr);
}

static void count_err(int e)
{
	S.err[e > 0 && e < ERRNO_MAX ? e : 0]++;
}

/* A sent message as the kernel walks it, and what came back for it. */
enum guard { G_IGNORED, G_READ, G_REFUSED, G_SCRATCH, G_UNSAFE };

struct sent {
	uint32_t seq;
	uint16_t flags;
	uint8_t cmd;
	bool to_family;		/* reaches genl_family_rcv_msg */
	bool hdr_ok;		/* ... and passes the length and header checks */
	bool want_answer;
	bool answered;		/* an error, an ack or NLMSG_DONE */
	bool got_data;		/* a reply of the family */
	enum guard g;
	int err;		/* answer: 0 ack, > 0 errno, -1 dump parts only */
	const uint8_t *p;
	size_t len;
};

struct batch {
	struct sent s[BATCH_MAX];
	int n;
};

/*
 * Whether a request may still get an answer: until its error, ack or
 * NLMSG_DONE; a request that asked for neither an ack nor a dump, until
 * its first reply.
 */
static bool sent_open(const struct sent *s)
{
	if (s->answered)
		return false;
	return !s->got_data || (s->flags & NLM_F_ACK) ||
	       (s->flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/*
 * The request an answer belongs to. Mutated messages may share a sequence
 * number, and the kernel answers a datagram's messages in order: the
 * first still open with that number, and for an error or ack, the first
 * whose header it echoes (echo: that header, or NULL).
 */
static struct sent *batch_find(struct batch *bt, uint32_t seq,
			       const struct nlmsghdr *echo)
{
	struct sent *first = NULL, *open = NULL;
	int i;

	for (i = 0; i < bt->n; i++) {
		struct sent *s = &bt->s[i];
		struct nlmsghdr h;

		if (s->seq != seq)
			continue;
		if (!first)
			first = s;
		if (!sent_open(s))
			continue;
		if (!echo)
			return s;
		memcpy(&h, s->p, sizeof(h));
		if (h.nlmsg_len == echo->nlmsg_len && h.nlmsg_type == echo->nlmsg_type &&
		    h.nlmsg_flags == echo->nlmsg_flags)
			return s;
		if (!open)
			open = s;
	}
	return open ? open : first;
}

/* Attributes must tile the payload exactly; nests of known kinds recursively. */
static bool attrs_wellformed(const uint8_t *p, size_t len, int kind, int depth)
{
	struct nlattr a;
	size_t off = 0, alen;

	while (off + NLA_HDRLEN <= len) {
		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			return false;
		alen = a.nla_len - NLA_HDRLEN;
		if (kind >= 0 && depth < 4) {
			int t = a.nla_type & NLA_TYPE_MASK;
			const struct nestinfo *ni = &nests[kind];

			if (t <= ni->max && ni->a[t].type == T_NEST &&
			    !attrs_wellformed(p + off + NLA_HDRLEN, alen, ni->a[t].nest, depth + 1))
				return false;
			if (t <= ni->max && ni->a[t].type == T_STR &&
			    (!alen || p[off + NLA_HDRLEN + alen - 1]))
				return false;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	return off >= len;
}

static void check_extack(const uint8_t *tlv, size_t len, uint32_t orig_len)
{
	struct nlattr a;
	size_t off = 0;
	uint32_t offs;

	while (off + NLA_HDRLEN <= len) {
		memcpy(&a, tlv + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len) {
			S.bad_replies++;
			return;
		}
		if (a.nla_type == NLMSGERR_MSG) {
			S.extack_msgs++;
			if (a.nla_len == NLA_HDRLEN || tlv[off + a.nla_len - 1])
				S.bad_replies++;	/* not a C string */
		} else if (a.nla_type == NLMSGERR_OFFS && a.nla_len >= NLA_HDRLEN + 4) {
			memcpy(&offs, tlv + off + NLA_HDRLEN, 4);
			if (offs < NLMSG_HDRLEN || offs >= orig_len)
				S.bad_replies++;
		}
		off += NLA_ALIGN(a.nla_len);
	}
}

/*
 * The user owners a well-formed reply names (-o): at the top (a QP, a
 * failure record, a group of destroyed QPs or failures) a nonzero pid, a
 * cgroup, a command name without the kernel-QP flag; in a priority's
 * storm processes, the same of a process whose pid is not 0 (a kernel
 * user's is 0, named by its kernel name to everyone).
 */
static unsigned int owners_named(const uint8_t *p, size_t len, int depth)
{
	bool comm = false, kernel = false, pid0 = false, pid = false, cgroup = false;
	unsigned int n = 0;
	struct nlattr a;
	size_t off = 0;
	uint32_t v;

	while (off + NLA_HDRLEN <= len) {
		const uint8_t *d = p + off + NLA_HDRLEN;
		int t;

		memcpy(&a, p + off, sizeof(a));
		t = a.nla_type & NLA_TYPE_MASK;
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			break;
		v = 0;
		if (a.nla_len >= NLA_HDRLEN + 4)
			memcpy(&v, d, 4);
		if (depth == 0) {
			if (t == ROCECTL_A_QP_PID)
				*(v ? &pid : &pid0) = true;
			else if (t == ROCECTL_A_QP_COMM)
				comm = true;
			else if (t == ROCECTL_A_QP_KERNEL)
				kernel = a.nla_len > NLA_HDRLEN && *d;
			else if (t == ROCECTL_A_QP_CGROUP)
				cgroup = true;
			else if (t == ROCECTL_A_WD_PRIO)
				n += owners_named(d, a.nla_len - NLA_HDRLEN, 1);
		} else if (depth == 1 && t == ROCECTL_A_WDP_BLAST_PROC) {
			n += owners_named(d, a.nla_len - NLA_HDRLEN, 2);
		} else if (depth == 2) {
			if (t == ROCECTL_A_WDB_PID)
				*(v ? &pid : &pid0) = true;
			else if (t == ROCECTL_A_WDB_COMM)
				comm = true;
			else if (t == ROCECTL_A_WDB_CGROUP)
				cgroup = true;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	if (depth == 1)
		return n;
	/* A kernel QP (flag) or kernel user (pid 0) is no user's. */
	if (depth == 2)
		kernel = pid0;
	return n + (pid || cgroup || (comm && !kernel));
}

/*
 * Read every reply waiting, continuing dumps (the kernel fills the next
 * part when we read), until nothing is left. Dumps are produced within
 * recvmsg and doit answers within sendmsg: when the socket is empty,
 * everything for what we sent has come. Returns the data messages seen.
 */
static uint64_t drain(struct nl *nl, struct batch *bt, bool block_first)
{
	uint64_t data = 0;
	bool first = true;
	int errs = 0;

	for (;;) {
		struct nlmsghdr h, echoed;
		const struct nlmsghdr *echo;
		ssize_t n;
		size_t off = 0;

		if (block_first && first) {
			struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };

			if (poll(&pfd, 1, 1000) <= 0)
				return data;
		}
		first = false;
		n = recv(nl->fd, nl->rx, RX_SIZE, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				S.overruns++;
				continue;
			}
			if (errno == EAGAIN)
				return data;
			/* Under fault injection copying to us may fail: EFAULT. */
			if (mode != M_FAULTS)
				die("recv: %s", strerror(errno));
			S.recv_err++;
			if (++errs > 3)
				return data;
			continue;
		}
		if (n > RX_SIZE) {
			S.bad_replies++;	/* truncated: larger than any reply should be */
			continue;
		}
		while (off + NLMSG_HDRLEN <= (size_t)n) {
			const uint8_t *p = nl->rx + off;
			const uint8_t *pl = p + NLMSG_HDRLEN;
			size_t plen;
			struct sent *s;
			int32_t e;

			memcpy(&h, p, sizeof(h));
			if (h.nlmsg_len < NLMSG_HDRLEN || off + h.nlmsg_len > (size_t)n) {
				S.bad_replies++;
				break;
			}
			plen = h.nlmsg_len - NLMSG_HDRLEN;
			echo = NULL;
			if (h.nlmsg_type == NLMSG_ERROR && plen >= 4 + NLMSG_HDRLEN) {
				memcpy(&echoed, pl + 4, sizeof(echoed));
				echo = &echoed;
			}
			s = bt ? batch_find(bt, h.nlmsg_seq, echo) : NULL;
			if (h.nlmsg_type == NLMSG_ERROR || h.nlmsg_type == NLMSG_DONE) {
				e = 0;
				if (plen >= 4)
					memcpy(&e, pl, 4);
				else if (h.nlmsg_type == NLMSG_ERROR)
					S.bad_replies++;
				if (h.nlmsg_type == NLMSG_DONE)
					S.dumps_done++;
				if (e > 0)
					S.bad_replies++;
				if (e == 0 && h.nlmsg_type == NLMSG_ERROR)
					S.acks++;
				else if (e < 0)
					count_err(-e);
				if (echo && (h.nlmsg_flags & NLM_F_ACK_TLVS)) {
					size_t tlv;

					tlv = 4 + (h.nlmsg_flags & NLM_F_CAPPED ? NLMSG_HDRLEN :
						   NLMSG_ALIGN(echo->nlmsg_len));
					if (tlv <= plen)
						check_extack(pl + tlv, plen - tlv, echo->nlmsg_len);
					else
						S.bad_replies++;
				} else if (h.nlmsg_type == NLMSG_DONE && (h.nlmsg_flags & NLM_F_ACK_TLVS) &&
					   plen >= 4) {
					check_extack(pl + 4, plen - 4, UINT32_MAX);
				}
				if (s) {
					s->answered = true;
					s->err = -e;
				} else if (bt) {
					S.unmatched++;
				}
			} else if (h.nlmsg_type == nl->family) {
				data++;
				S.replies++;
				if (h.nlmsg_flags & NLM_F_MULTI)
					S.dump_parts++;
				if (h.nlmsg_flags & NLM_F_DUMP_INTR)
					S.dump_intr++;
				if (plen < GENL_HDRLEN ||
				    !attrs_wellformed(pl + GENL_HDRLEN, plen - GENL_HDRLEN, N_NONE, 0)) {
					S.bad_replies++;
					hexdump("malformed reply", p, h.nlmsg_len);
				} else if (opt_no_owner &&
					   owners_named(pl + GENL_HDRLEN, plen - GENL_HDRLEN, 0)) {
					S.foreign_owners++;
					S.violations++;
					hexdump("a reply naming a user owner", p, h.nlmsg_len);
				}
				if (s)
					s->got_data = true;
			} else {
				S.bad_replies++;
				hexdump("reply of an unexpected type", p, h.nlmsg_len);
			}
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
	}
}

/* --- resolving the family ---------------------------------------------------- */

/* CTRL_CMD_GETFAMILY: 0 or -errno. dump: without module autoload. */
static int resolve_family(struct nl *nl, bool dump)
{
	struct msg m;
	int err;
	ssize_t n;

	msg_begin(&m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0),
		  ++nl->seq, CTRL_CMD_GETFAMILY, 1);
	if (!dump)
		put_str(&m, CTRL_ATTR_FAMILY_NAME, ROCECTL_GENL_NAME);
	msg_end(&m);
	err = nl_send(nl, m.b, m.len);
	if (err)
		return err;
	nl->family = 0;
	for (;;) {
		struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
		size_t off = 0;

		if (poll(&pfd, 1, 5000) <= 0)
			return -ETIMEDOUT;
		n = recv(nl->fd, nl->rx, RX_SIZE, 0);
		if (n < 0)
			return -errno;
		while (off + NLMSG_HDRLEN <= (size_t)n) {
			struct nlmsghdr h;
			int32_t e;

			memcpy(&h, nl->rx + off, sizeof(h));
			if (h.nlmsg_len < NLMSG_HDRLEN || off + h.nlmsg_len > (size_t)n)
				return -EPROTO;
			if (h.nlmsg_type == NLMSG_ERROR || h.nlmsg_type == NLMSG_DONE) {
				memcpy(&e, nl->rx + off + NLMSG_HDRLEN, 4);
				if (h.nlmsg_seq != nl->seq)
					goto next;
				if (e)
					return e;
				return nl->family ? 0 : -ENOENT;
			}
			if (h.nlmsg_type == GENL_ID_CTRL && h.nlmsg_seq == nl->seq) {
				const uint8_t *a = nl->rx + off + HDRS;
				size_t alen = h.nlmsg_len - HDRS, o = 0;
				uint16_t id = 0;
				bool mine = false;

				while (o + NLA_HDRLEN <= alen) {
					struct nlattr na;

					memcpy(&na, a + o, sizeof(na));
					if (na.nla_len < NLA_HDRLEN || o + na.nla_len > alen)
						break;
					if (na.nla_type == CTRL_ATTR_FAMILY_ID)
						memcpy(&id, a + o + NLA_HDRLEN, 2);
					if (na.nla_type == CTRL_ATTR_FAMILY_NAME &&
					    !strncmp((const char *)a + o + NLA_HDRLEN, ROCECTL_GENL_NAME,
						     na.nla_len - NLA_HDRLEN))
						mine = true;
					o += NLA_ALIGN(na.nla_len);
				}
				if (mine)
					nl->family = id;
				if (!dump && mine)
					return 0;	/* no ack after a reply */
			}
next:
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
	}
}

/* Dump a command's objects with a callback per reply (world discovery). */
static int dump_each(struct nl *nl, uint8_t cmd, void (*cb)(const uint8_t *attrs, size_t len))
{
	struct msg m;
	int err;

	msg_begin(&m, nl->family, NLM_F_REQUEST | NLM_F_DUMP, ++nl->seq, cmd, ROCECTL_GENL_VERSION);
	msg_end(&m);
	err = nl_send(nl, m.b, m.len);
	if (err)
		return err;
	for (;;) {
		struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
		size_t off = 0;
		ssize_t n;

		if (poll(&pfd, 1, 5000) <= 0)
			return -ETIMEDOUT;
		n = recv(nl->fd, nl->rx, RX_SIZE, 0);
		if (n < 0)
			return -errno;
		while (off + NLMSG_HDRLEN <= (size_t)n) {
			struct nlmsghdr h;
			int32_t e;

			memcpy(&h, nl->rx + off, sizeof(h));
			if (h.nlmsg_len < NLMSG_HDRLEN || off + h.nlmsg_len > (size_t)n)
				return -EPROTO;
			if (h.nlmsg_type == NLMSG_ERROR || h.nlmsg_type == NLMSG_DONE) {
				memcpy(&e, nl->rx + off + NLMSG_HDRLEN, 4);
				return e;
			}
			if (h.nlmsg_len >= HDRS && cb)
				cb(nl->rx + off + HDRS, h.nlmsg_len - HDRS);
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
	}
}

static const uint8_t *attr_find(const uint8_t *p, size_t len, int type, size_t *alen)
{
	size_t off = 0;
	struct nlattr a;

	while (off + NLA_HDRLEN <= len) {
		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			return NULL;
		if ((a.nla_type & NLA_TYPE_MASK) == type) {
			*alen = a.nla_len - NLA_HDRLEN;
			return p + off + NLA_HDRLEN;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	return NULL;
}

static uint32_t get_u32(const uint8_t *p, size_t len, int type, uint32_t def)
{
	size_t alen;
	const uint8_t *v = attr_find(p, len, type, &alen);
	uint32_t x;

	if (!v || alen < 4)
		return def;
	memcpy(&x, v, 4);
	return x;
}

static void world_dev_cb(const uint8_t *p, size_t len)
{
	struct rdev *d;
	size_t off = 0, alen;
	const uint8_t *name;
	struct nlattr a;

	if (W.nrdev >= NAMES_MAX)
		return;
	d = &W.rdev[W.nrdev++];
	memset(d, 0, sizeof(*d));
	d->index = get_u32(p, len, ROCECTL_A_DEV_INDEX, 0);
	name = attr_find(p, len, ROCECTL_A_DEV_NAME, &alen);
	if (name)
		snprintf(d->name, sizeof(d->name), "%.*s", (int)alen, (const char *)name);
	while (off + NLA_HDRLEN <= len) {
		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			break;
		if ((a.nla_type & NLA_TYPE_MASK) == ROCECTL_A_DEV_PORT) {
			const uint8_t *n = p + off + NLA_HDRLEN;
			size_t nl = a.nla_len - NLA_HDRLEN;
			uint32_t port = get_u32(n, nl, ROCECTL_A_PORT_INDEX, 0);

			if (port >= 1 && port <= 4) {
				d->netdev[port - 1] = (int)get_u32(n, nl, ROCECTL_A_PORT_NETDEV_INDEX, 0);
				if ((int)port > d->nports)
					d->nports = (int)port;
			}
		}
		off += NLA_ALIGN(a.nla_len);
	}
}

static void world_qp_cb(const uint8_t *p, size_t len)
{
	if (W.nqp >= (int)ARRAY_SIZE(W.qp))
		return;
	W.qp[W.nqp].dev = get_u32(p, len, ROCECTL_A_DEV_INDEX, 0);
	W.qp[W.nqp++].qpn = get_u32(p, len, ROCECTL_A_QP_NUM, 0);
}

static void world_discover(struct nl *nl)
{
	int i, j;

	world_netdevs();
	for (i = 0; i < W.nscratch; i++) {
		W.scratch_ifindex[i] = -1;
		for (j = 0; j < W.nnetdev; j++)
			if (!strcmp(W.netdev[j], W.scratch[i]))
				W.scratch_ifindex[i] = W.ifindex[j];
		if (W.scratch_ifindex[i] < 0)
			die("scratch netdev %s does not exist", W.scratch[i]);
	}
	if (dump_each(nl, ROCECTL_CMD_DEV_GET, world_dev_cb))
		die("cannot dump the RDMA devices");
	if (dump_each(nl, ROCECTL_CMD_QP_GET, world_qp_cb))
		die("cannot dump the QPs");
}

/* --- the guard and the model: what the kernel will do with a datagram ---------- */

static const struct rdev *rdev_by_index(uint32_t index)
{
	int i;

	for (i = 0; i < W.nrdev; i++)
		if (W.rdev[i].index == index)
			return &W.rdev[i];
	return NULL;
}

static const struct rdev *rdev_by_name(const char *name)
{
	int i;

	for (i = 0; i < W.nrdev; i++)
		if (!strcmp(W.rdev[i].name, name))
			return &W.rdev[i];
	return NULL;
}

/* Every netdev behind the device's ports is a scratch netdev. */
static bool rdev_scratch_only(const struct rdev *d)
{
	int p;

	for (p = 0; p < d->nports && p < 4; p++)
		if (d->netdev[p] && !scratch_index((uint32_t)d->netdev[p]))
			return false;
	return true;
}

/* The C string the kernel would use (NLA_NUL_STRING: up to the first NUL). */
static void attr_cstr(const struct nlattr *a, char *out, size_t outlen)
{
	size_t n = a->nla_len - NLA_HDRLEN, i;
	const char *d = (const char *)a + NLA_HDRLEN;

	for (i = 0; i < n && i + 1 < outlen && d[i]; i++)
		out[i] = d[i];
	out[i] = 0;
}

/*
 * An admin request as the kernel would take it if its attributes were
 * valid (the last of each type wins, as in nla_parse()). G_REFUSED: it
 * cannot change anything because what it names does not exist (or the
 * policy refuses it); G_SCRATCH: it names scratch netdevs only; G_UNSAFE:
 * it might change something else.
 */
static enum guard guard_admin(const uint8_t *p, uint32_t len, uint8_t cmd)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1 + 8] = { NULL };
	uint32_t off = HDRS;
	char name[80];

	while (off + NLA_HDRLEN <= len) {
		struct nlattr a;
		int t;

		memcpy(&a, p + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || off + a.nla_len > len)
			break;		/* the kernel stops here (strict: refuses) */
		t = a.nla_type & NLA_TYPE_MASK;
		if (t < (int)ARRAY_SIZE(tb))
			tb[t] = (const struct nlattr *)(p + off);
		off += NLA_ALIGN(a.nla_len);
	}

	if (cmd == ROCECTL_CMD_WD_BRS_SET) {
		const struct nlattr *a = tb[ROCECTL_A_WD_BRS];

		/* NLA_POLICY_MAX(NLA_U8, 1): exact length 1, value 0 or 1. */
		if (a && a->nla_len == NLA_HDRLEN + 1 && ((const uint8_t *)a)[NLA_HDRLEN] <= 1)
			return G_UNSAFE;
		return G_REFUSED;
	}

	if (cmd == ROCECTL_CMD_WD_SET || cmd == ROCECTL_CMD_WD_DEL) {
		const struct nlattr *nn = tb[ROCECTL_A_NETDEV_NAME];
		const struct nlattr *ni = tb[ROCECTL_A_NETDEV_INDEX];

		if (nn) {
			attr_cstr(nn, name, sizeof(name));
			if (scratch_name(name))
				return G_SCRATCH;
			return netdev_exists_name(name) ? G_UNSAFE : G_REFUSED;
		}
		if (ni) {
			uint32_t ifindex;

			if (ni->nla_len != NLA_HDRLEN + 4)
				return G_REFUSED;	/* NLA_U32: exact length */
			memcpy(&ifindex, (const uint8_t *)ni + NLA_HDRLEN, 4);
			if (scratch_index(ifindex))
				return G_SCRATCH;
			return netdev_exists_index(ifindex) ? G_UNSAFE : G_REFUSED;
		}
	}

	/* An RDMA device: WD_* through its port's netdev, CONG_SET itself. */
	{
		const struct nlattr *di = tb[ROCECTL_A_DEV_INDEX];
		const struct nlattr *dn = tb[ROCECTL_A_DEV_NAME];
		const struct rdev *d1 = NULL, *d2 = NULL;

		if (!di && !dn)
			return G_REFUSED;	/* "an RDMA device is required" */
		if (di && di->nla_len == NLA_HDRLEN + 4) {
			uint32_t index;

			memcpy(&index, (const uint8_t *)di + NLA_HDRLEN, 4);
			d1 = rdev_by_index(index);
		}
		if (dn) {
			attr_cstr(dn, name, sizeof(name));
			d2 = rdev_by_name(name);
		}
		if (!d1 && !d2)
			return G_REFUSED;
		if (cmd == ROCECTL_CMD_CONG_SET)
			return G_UNSAFE;
		if ((!d1 || rdev_scratch_only(d1)) && (!d2 || rdev_scratch_only(d2)))
			return G_SCRATCH;
		return G_UNSAFE;
	}
}

/*
 * genl_header_check() with resv_start_op 0: every command is checked (the
 * kernel does from 6.0 on; before, the module's pre_doit does the same for
 * requests that are not dumps, the only ones an admin command takes).
 */
static bool genl_header_ok(const uint8_t *p, uint16_t flags)
{
	struct genlmsghdr g;

	memcpy(&g, p + NLMSG_HDRLEN, sizeof(g));
	if (g.reserved)
		return false;
	if ((flags & NLM_F_DUMP) == NLM_F_DUMP)
		flags &= ~NLM_F_DUMP;
	return !(flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO));
}

/*
 * Walk a datagram as netlink_rcv_skb() does. Returns false when a message
 * the kernel would run is unsafe (guarded mode) or goes to another family.
 */
static bool walk(struct nl *nl, const uint8_t *b, size_t len, struct batch *bt, bool guarded)
{
	size_t off = 0;

	bt->n = 0;
	while (len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		struct sent *s;
		size_t msglen;

		memcpy(&h, b + off, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || len - off < h.nlmsg_len)
			break;		/* dropped, with everything after it */
		if (bt->n == BATCH_MAX)
			return false;
		s = &bt->s[bt->n++];
		memset(s, 0, sizeof(*s));
		s->seq = h.nlmsg_seq;
		s->flags = h.nlmsg_flags;
		s->p = b + off;
		s->len = h.nlmsg_len;
		s->want_answer = h.nlmsg_flags & NLM_F_ACK;
		s->g = G_IGNORED;
		if ((h.nlmsg_flags & NLM_F_REQUEST) && h.nlmsg_type >= NLMSG_MIN_TYPE) {
			/* Only ever our family: never another family's requests. */
			if (h.nlmsg_type != nl->family)
				return false;
			s->to_family = true;
			s->g = G_READ;
			if (h.nlmsg_len >= HDRS) {
				s->cmd = b[off + NLMSG_HDRLEN];
				s->hdr_ok = genl_header_ok(b + off, h.nlmsg_flags);
				/* Reads answer with a reply, DONE or an error; admin requests
				 * with an error, or an ack if asked. */
				s->want_answer = !cmd_admin(s->cmd) || (h.nlmsg_flags & NLM_F_ACK);
				if (cmd_admin(s->cmd)) {
					if ((h.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP || !s->hdr_ok)
						s->g = G_REFUSED;	/* no dumpit / bad header */
					else
						s->g = guard_admin(b + off, h.nlmsg_len, s->cmd);
					if (guarded && s->g == G_UNSAFE)
						return false;
				}
			} else {
				s->want_answer = true;	/* EINVAL */
			}
		}
		msglen = NLMSG_ALIGN(h.nlmsg_len);
		if (msglen > len - off)
			msglen = len - off;
		off += msglen;
	}
	return true;
}

/* --- generating messages -------------------------------------------------------- */

static const char *pick_netdev_name(bool real)
{
	if (W.nscratch && chance(mode == M_FUZZ ? 40 : 10))
		return W.scratch[rnd(W.nscratch)];
	if ((real || chance(30)) && W.nnetdev)
		return W.netdev[rnd(W.nnetdev)];
	return fake_names[rnd(ARRAY_SIZE(fake_names))];
}

static uint32_t pick_ifindex(bool real)
{
	if (W.nscratch && chance(mode == M_FUZZ ? 40 : 10))
		return (uint32_t)W.scratch_ifindex[rnd(W.nscratch)];
	if ((real || chance(30)) && W.nnetdev)
		return (uint32_t)W.ifindex[rnd(W.nnetdev)];
	return chance(50) ? 1000 + rnd(100000) : (uint32_t)b_index[rnd(ARRAY_SIZE(b_index))];
}

static const char *pick_rdev_name(bool real)
{
	if ((real || chance(50)) && W.nrdev)
		return W.rdev[rnd(W.nrdev)].name;
	return fake_names[rnd(ARRAY_SIZE(fake_names))];
}

static uint32_t pick_rdev_index(bool real)
{
	if ((real || chance(50)) && W.nrdev)
		return W.rdev[rnd(W.nrdev)].index;
	return chance(50) ? 100 + rnd(1000) : (uint32_t)b_index[rnd(ARRAY_SIZE(b_index))];
}

static uint64_t pick_value(int type, int bits)
{
	struct bounds b = top_bounds(type);
	uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;

	if (b.n && chance(70))
		return b.v[rnd((uint32_t)b.n)] & mask;
	switch (rnd(6)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mask;
	case 3: return mask >> 1;
	case 4: return (mask >> 1) + 1;
	default: return rnd64() & mask;
	}
}

static void put_random_string(struct msg *m, uint16_t type, bool nul)
{
	char s[300];
	size_t n = chance(50) ? rnd(20) : rnd(sizeof(s) - 1);
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = chance(90) ? (char)('a' + rnd(26)) : (char)rnd64();
	if (nul)
		s[n++] = 0;
	put_attr(m, type, s, n);
}

/* A name attribute: existing, scratch, fake, without its NUL, embedded NUL. */
static void put_name(struct msg *m, uint16_t type, const char *name)
{
	char s[128];
	size_t n = strlen(name);

	switch (rnd(20)) {
	case 0:			/* no NUL */
		put_attr(m, type, name, n);
		return;
	case 1:			/* NUL, then garbage */
		snprintf(s, sizeof(s), "%s", name);
		s[n] = 0;
		s[n + 1] = 'Z';
		put_attr(m, type, s, n + 2);
		return;
	case 2:			/* padded with NULs beyond the policy's length */
		memset(s, 0, sizeof(s));
		memcpy(s, name, n < 60 ? n : 60);
		put_attr(m, type, s, 64 + rnd(40));
		return;
	case 3:
		put_random_string(m, type, chance(80));
		return;
	default:
		put_str(m, type, name);
	}
}

static void put_nest(struct msg *m, uint16_t type, int kind, int depth);

/* One attribute of type t (any type, 0..max+5 or beyond) in nest kind. */
static void put_typed(struct msg *m, uint16_t t, int kind, int depth, bool real)
{
	const struct nestinfo *ni = &nests[kind];
	struct ainfo ai = { T_ANY, N_NONE };
	uint8_t junk[64];
	uint64_t v;
	uint16_t flags = 0;

	if (t <= ni->max)
		ai = ni->a[t];
	if (chance(3))
		flags = chance(50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
	/* A wrong length now and then: 0, short, long. */
	if (ai.type != T_NEST && ai.type != T_ANY && chance(8)) {
		static const uint8_t lens[] = { 0, 1, 2, 3, 5, 6, 7, 9, 12, 16, 17, 32 };

		rnd_bytes(junk, sizeof(junk));
		put_attr(m, t | flags, junk, lens[rnd(sizeof(lens))]);
		return;
	}
	switch (ai.type) {
	case T_U8:
		put_u8(m, t | flags, (uint8_t)pick_value(kind ? 0 : t, 8));
		break;
	case T_U16:
		put_u16(m, t | flags, (uint16_t)pick_value(kind ? 0 : t, 16));
		break;
	case T_U32:
		if (!kind && t == ROCECTL_A_DEV_INDEX)
			v = pick_rdev_index(real);
		else if (!kind && t == ROCECTL_A_NETDEV_INDEX)
			v = pick_ifindex(real);
		else if (!kind && t == ROCECTL_A_QP_NUM && W.nqp && chance(50))
			v = W.qp[rnd(W.nqp)].qpn;
		else if (!kind && t == ROCECTL_A_QP_PID && chance(30))
			v = (uint32_t)getpid();
		else
			v = pick_value(kind ? 0 : t, 32);
		put_u32(m, t | flags, (uint32_t)v);
		break;
	case T_U64:
		put_u64(m, t | flags, chance(50) ? b_u64[rnd(ARRAY_SIZE(b_u64))] : rnd64());
		break;
	case T_STR:
		if (!kind && (t == ROCECTL_A_DEV_NAME || t == ROCECTL_A_DEV_PREV_NAME))
			put_name(m, t | flags, pick_rdev_name(real));
		else if (!kind && t == ROCECTL_A_NETDEV_NAME)
			put_name(m, t | flags, pick_netdev_name(real));
		else if (kind == N_CONG && t == ROCECTL_A_CONG_NAME)
			put_name(m, t | flags, cong_names[rnd(ARRAY_SIZE(cong_names))]);
		else
			put_random_string(m, t | flags, chance(80));
		break;
	case T_BIN16:
		rnd_bytes(junk, 16);
		put_attr(m, t | flags, junk, 16);
		break;
	case T_NEST:
		put_nest(m, t, ai.nest, depth + 1);
		break;
	default:
		rnd_bytes(junk, sizeof(junk));
		put_attr(m, t | flags, junk, rnd(2) ? rnd(17) : rnd(sizeof(junk) + 1));
	}
}

/* A nest: its kind's attributes, random ones, and now and then deeper nests. */
static void put_nest(struct msg *m, uint16_t type, int kind, int depth)
{
	const struct nestinfo *ni = &nests[kind];
	size_t off = attr_begin(m, type | (chance(90) ? NLA_F_NESTED : 0));
	int i, n = rnd(6);

	for (i = 0; i < n && !m->full; i++) {
		if (depth < 40 && chance(15)) {
			/* Deep: a nest of any kind under any type. */
			put_nest(m, (uint16_t)rnd((uint32_t)ni->max + 4), (int)rnd(ARRAY_SIZE(nests)),
				 depth + 1);
			continue;
		}
		put_typed(m, (uint16_t)(chance(85) ? 1 + rnd((uint32_t)ni->max) :
					rnd((uint32_t)ni->max + 4)), kind, depth, false);
	}
	attr_end(m, off);
}

/* A deep nest chain: nests within nests, down to depth levels. */
static void put_deep(struct msg *m, uint16_t type, int levels)
{
	size_t offs[128];
	int i;

	if (levels > (int)ARRAY_SIZE(offs))
		levels = ARRAY_SIZE(offs);
	for (i = 0; i < levels; i++)
		offs[i] = attr_begin(m, (i ? (uint16_t)rnd(8) : type) | NLA_F_NESTED);
	if (chance(50))
		put_u32(m, ROCECTL_A_CONG_NAME, (uint32_t)rnd64());
	while (i--)
		attr_end(m, offs[i]);
}

static uint8_t pick_cmd(void)
{
	static const uint8_t real[] = {
		ROCECTL_CMD_DEV_GET, ROCECTL_CMD_QP_GET, ROCECTL_CMD_WD_SET, ROCECTL_CMD_WD_DEL,
		ROCECTL_CMD_WD_GET, ROCECTL_CMD_WD_BRS_SET, ROCECTL_CMD_CONG_GET,
		ROCECTL_CMD_CONG_SET,
	};

	if (chance(75))
		return real[rnd(ARRAY_SIZE(real))];
	if (chance(95))
		return (uint8_t)rnd(ROCECTL_CMD_MAX + 3);	/* 0..max+2 */
	return (uint8_t)rnd(256);
}

static uint16_t pick_flags(uint8_t cmd, bool *dump)
{
	uint16_t f = NLM_F_REQUEST;

	*dump = cmd_has_dump(cmd) ? chance(50) : chance(10);
	if (*dump)
		f |= NLM_F_DUMP;
	if (chance(60))
		f |= NLM_F_ACK;
	if (chance(5))
		f |= NLM_F_ECHO;
	if (chance(6))		/* ambiguous and reserved bits */
		f ^= (uint16_t)(1u << rnd(16));
	if (chance(2))
		f = (uint16_t)rnd64();
	return f;
}

/* A request that is valid (or nearly): what the tool would send. */
static void gen_template(struct msg *m, uint8_t cmd, bool dump, bool real)
{
	uint32_t detect, restore, interval;
	int i, n;

	switch (cmd) {
	case ROCECTL_CMD_DEV_GET:
		if (dump)
			break;
		if (chance(50))
			put_u32(m, ROCECTL_A_DEV_INDEX, pick_rdev_index(real));
		if (chance(70))
			put_str(m, ROCECTL_A_DEV_NAME, pick_rdev_name(real));
		break;
	case ROCECTL_CMD_QP_GET:
		if (!dump || chance(40)) {
			if (chance(60))
				put_str(m, ROCECTL_A_DEV_NAME, pick_rdev_name(real));
			else
				put_u32(m, ROCECTL_A_DEV_INDEX, pick_rdev_index(real));
		}
		if (!dump) {
			put_u32(m, ROCECTL_A_QP_NUM, W.nqp && chance(70) ? W.qp[rnd(W.nqp)].qpn :
				(uint32_t)pick_value(ROCECTL_A_QP_NUM, 32));
			break;
		}
		if (chance(30))
			put_u32(m, ROCECTL_A_QP_PORT, chance(80) ? 1 : 2);
		if (chance(30))
			put_u32(m, ROCECTL_A_QP_PID, chance(50) ? (uint32_t)getpid() : rnd(40000));
		if (chance(30))
			put_u8(m, ROCECTL_A_QP_TYPE, (uint8_t)b_qptype[rnd(ARRAY_SIZE(b_qptype))]);
		if (chance(30))
			put_u8(m, ROCECTL_A_QP_STATE, (uint8_t)rnd(7));
		break;
	case ROCECTL_CMD_WD_SET:
	case ROCECTL_CMD_WD_DEL:
	case ROCECTL_CMD_WD_GET:
		if (dump)
			break;
		switch (rnd(4)) {
		case 0:
			put_u32(m, ROCECTL_A_NETDEV_INDEX, pick_ifindex(real));
			break;
		case 1:
			put_str(m, ROCECTL_A_DEV_NAME, pick_rdev_name(real));
			if (chance(50))
				put_u32(m, ROCECTL_A_WD_PORT, chance(80) ? 1 : 2);
			break;
		default:
			put_str(m, ROCECTL_A_NETDEV_NAME, pick_netdev_name(real));
		}
		if (cmd == ROCECTL_CMD_WD_GET)
			break;
		if (cmd == ROCECTL_CMD_WD_DEL || chance(90))
			if (cmd == ROCECTL_CMD_WD_SET || chance(50))
				put_u8(m, ROCECTL_A_WD_PRIOS, (uint8_t)(1 + rnd(255)));
		if (cmd == ROCECTL_CMD_WD_DEL)
			break;
		detect = 20 + rnd(1000);
		restore = 20 + rnd(2000);
		interval = 10 + rnd(detect < restore ? detect - 9 : restore - 9);
		if (chance(70))
			put_u32(m, ROCECTL_A_WD_DETECT_MS, detect);
		if (chance(70))
			put_u32(m, ROCECTL_A_WD_RESTORE_MS, restore);
		if (chance(70))
			put_u32(m, ROCECTL_A_WD_INTERVAL_MS, chance(90) ? interval : 1000);
		if (chance(60))
			put_u8(m, ROCECTL_A_WD_ACTION, (uint8_t)rnd(2));
		if (chance(40))
			put_u8(m, ROCECTL_A_WD_DIRECTION, (uint8_t)rnd(3));
		if (chance(20))
			put_u16(m, ROCECTL_A_WD_STALL_MS, chance(50) ? (uint16_t)(80 + rnd(7921)) :
				(uint16_t)b_stall[rnd(ARRAY_SIZE(b_stall))]);
		break;
	case ROCECTL_CMD_WD_BRS_SET:
		put_u8(m, ROCECTL_A_WD_BRS, (uint8_t)rnd(2));
		break;
	case ROCECTL_CMD_CONG_GET:
	case ROCECTL_CMD_CONG_SET:
		if (chance(60))
			put_str(m, ROCECTL_A_DEV_NAME, pick_rdev_name(real));
		else
			put_u32(m, ROCECTL_A_DEV_INDEX, pick_rdev_index(real));
		if (chance(50))
			put_u32(m, ROCECTL_A_CONG_PORT, chance(80) ? 1 : 2);
		if (cmd == ROCECTL_CMD_CONG_GET)
			break;
		n = chance(10) ? 40 : 1 + rnd(4);	/* more than the kernel takes, now and then */
		for (i = 0; i < n && !m->full; i++) {
			size_t off = attr_begin(m, ROCECTL_A_CONG_PARAM | NLA_F_NESTED);

			put_str(m, ROCECTL_A_CONG_NAME, cong_names[rnd(ARRAY_SIZE(cong_names))]);
			put_u64(m, ROCECTL_A_CONG_VALUE, chance(70) ? rnd(1000) : rnd64());
			attr_end(m, off);
		}
		break;
	default:
		break;
	}
}

/* Attributes of the command's policy (and others), typed, with boundaries. */
static void gen_typed(struct msg *m, uint8_t cmd, bool real)
{
	const uint8_t *pol = cmd_policy(cmd);
	int i, n = rnd(8), np = 0;

	while (pol && pol[np])
		np++;
	for (i = 0; i < n && !m->full; i++) {
		uint16_t t;

		if (np && chance(80))
			t = pol[rnd(np)];
		else
			t = (uint16_t)rnd(ROCECTL_A_MAX + 6);	/* 0..max+5 */
		put_typed(m, t, N_NONE, 0, real);
	}
}

/* Attributes of any type with any length and contents. */
static void gen_random_attrs(struct msg *m)
{
	static const uint16_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65 };
	uint8_t junk[300];
	int i, n = rnd(11);

	for (i = 0; i < n && !m->full; i++) {
		uint16_t t = chance(95) ? (uint16_t)rnd(ROCECTL_A_MAX + 6) : (uint16_t)rnd64();
		size_t len = chance(70) ? lens[rnd(ARRAY_SIZE(lens))] : rnd(sizeof(junk));

		rnd_bytes(junk, len);
		if (chance(30))
			memset(junk, 0, len);
		put_attr(m, t, junk, len);
	}
}

/* Nests of every kind under their own and other types, and deep chains. */
static void gen_nested(struct msg *m, uint8_t cmd, bool real)
{
	static const uint16_t nest_types[] = {
		ROCECTL_A_DEV_PORT, ROCECTL_A_QP_STATS, ROCECTL_A_WD_PRIO, ROCECTL_A_CONG_PARAM,
		ROCECTL_A_CONG_STAT,
	};
	int i, n = 1 + rnd(4);

	if (chance(50))
		gen_template(m, cmd, false, real);
	for (i = 0; i < n && !m->full; i++) {
		uint16_t t = chance(80) ? nest_types[rnd(ARRAY_SIZE(nest_types))] :
					  (uint16_t)rnd(ROCECTL_A_MAX + 6);

		if (chance(15))
			put_deep(m, t, 2 + rnd(100));
		else
			put_nest(m, t, t <= ROCECTL_A_MAX && top_attrs[t].type == T_NEST ?
				 top_attrs[t].nest : (int)rnd(ARRAY_SIZE(nests)), 0);
	}
}

/* Offsets of the top-level attributes (for length lies). */
static int attr_offsets(const struct msg *m, size_t *offs, int max)
{
	size_t off = HDRS;
	int n = 0;

	while (off + NLA_HDRLEN <= m->len && n < max) {
		uint16_t len;

		memcpy(&len, m->b + off, 2);
		if (len < NLA_HDRLEN)
			break;
		offs[n++] = off;
		off += NLA_ALIGN(len);
	}
	return n;
}

/* Mutations of a built message; its nlmsg_len is set by the caller unless lying. */
static bool mutate(struct msg *m)
{
	size_t offs[64], pos;
	bool lie = false;
	int k, n, ops = 1 + rnd(3);
	uint16_t l16;
	uint32_t l32;

	for (k = 0; k < ops; k++) {
		switch (rnd(10)) {
		case 0:
		case 1:		/* bit flips in the generic netlink header and the attributes */
			n = 1 + rnd(8);
			while (n-- && m->len > NLMSG_HDRLEN) {
				pos = NLMSG_HDRLEN + rnd((uint32_t)(m->len - NLMSG_HDRLEN));
				m->b[pos] ^= (uint8_t)(1u << rnd(8));
			}
			break;
		case 2:		/* a byte set to a boundary value */
			if (m->len > NLMSG_HDRLEN) {
				static const uint8_t v[] = { 0, 0xff, 0x7f, 0x80, 0x01, 0x04 };

				pos = NLMSG_HDRLEN + rnd((uint32_t)(m->len - NLMSG_HDRLEN));
				m->b[pos] = v[rnd(sizeof(v))];
			}
			break;
		case 3:		/* truncated */
			if (m->len > NLMSG_HDRLEN)
				m->len = NLMSG_HDRLEN + rnd((uint32_t)(m->len - NLMSG_HDRLEN));
			break;
		case 4:		/* an attribute's length lies */
			n = attr_offsets(m, offs, ARRAY_SIZE(offs));
			if (n) {
				static const uint16_t v[] = { 0, 1, 3, 4, 5, 7, 0xffff, 0x8000 };

				pos = offs[rnd(n)];
				l16 = chance(50) ? v[rnd(ARRAY_SIZE(v))] :
					(uint16_t)(m->len - pos + 4 * rnd(4));
				memcpy(m->b + pos, &l16, 2);
			}
			break;
		case 5:		/* trailing garbage */
			n = 1 + rnd(7);
			while (n--)
				put(m, NULL, 1), m->b[m->len - 1] = (uint8_t)rnd64();
			break;
		case 6:		/* a duplicate of an attribute, at the end */
			n = attr_offsets(m, offs, ARRAY_SIZE(offs));
			if (n) {
				pos = offs[rnd(n)];
				memcpy(&l16, m->b + pos, 2);
				if (pos + l16 <= m->len && m->len + NLA_ALIGN(l16) <= sizeof(m->b)) {
					memmove(m->b + m->len, m->b + pos, l16);
					m->len += l16;
					pad4(m);
				}
			}
			break;
		case 7:		/* the command or the version changes */
			if (chance(50))
				m->b[NLMSG_HDRLEN] = pick_cmd();
			else
				m->b[NLMSG_HDRLEN + 1] = (uint8_t)rnd(4);
			break;
		case 8:		/* reserved field of the generic netlink header */
			m->b[NLMSG_HDRLEN + 2 + rnd(2)] = (uint8_t)(1 + rnd(255));
			break;
		default:	/* the message's own length lies */
			lie = true;
			break;
		}
	}
	l32 = (uint32_t)m->len;
	if (lie) {
		switch (rnd(4)) {
		case 0:		/* longer than sent: dropped */
			l32 += 1 + rnd(64);
			break;
		case 1:		/* shorter: the rest is read as a next message */
			l32 = NLMSG_HDRLEN + rnd((uint32_t)(m->len - NLMSG_HDRLEN + 1));
			break;
		case 2:		/* below a header */
			l32 = rnd(NLMSG_HDRLEN);
			break;
		default:
			l32 = (uint32_t)rnd64();
		}
	}
	memcpy(m->b, &l32, 4);
	return lie;
}

/* One message of the fuzz mix. */
static void gen_message(struct nl *nl, struct msg *m, bool real)
{
	uint8_t cmd = pick_cmd();
	bool dump;
	uint16_t flags = pick_flags(cmd, &dump);
	uint8_t version = chance(95) ? ROCECTL_GENL_VERSION : (uint8_t)rnd(256);
	unsigned int kind = rnd(100);

	S.per_cmd[cmd]++;
	msg_begin(m, nl->family, flags, ++nl->seq, cmd, version);
	if (chance(2))
		m->b[NLMSG_HDRLEN + 2] = (uint8_t)rnd64();	/* reserved */
	if (kind < 30)
		gen_template(m, cmd, dump, real);
	else if (kind < 55)
		gen_template(m, cmd, dump, real);	/* mutated below */
	else if (kind < 75)
		gen_typed(m, cmd, real);
	else if (kind < 87)
		gen_random_attrs(m);
	else
		gen_nested(m, cmd, real);
	if (m->full)
		m->len = MSG_MAX - 64;	/* cut: a broken attribute at the end */
	msg_end(m);
	if ((kind >= 30 && kind < 55) || (kind >= 55 && chance(30)))
		mutate(m);
}

/* --- fuzz and unpriv ----------------------------------------------------------- */

static bool has_cap_net_admin(void)
{
	char line[256];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return true;	/* cannot tell: assume the worst */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << 12);	/* CAP_NET_ADMIN */
}

static void check_batch(struct batch *bt, bool overrun)
{
	int i;

	for (i = 0; i < bt->n; i++) {
		struct sent *s = &bt->s[i];

		S.processed++;
		if (s->want_answer && !s->answered && !s->got_data && !overrun) {
			S.no_answer++;
			S.violations++;
			hexdump("no answer to a request that asked for one", s->p, s->len);
		}
		if (!s->to_family || !cmd_admin(s->cmd) || s->len < HDRS)
			continue;
		S.admin_processed++;
		if (s->answered && s->err == EPERM)
			S.admin_eperm++;
		if (mode == M_UNPRIV) {
			/*
			 * Without CAP_NET_ADMIN: EPERM once the header is right, never
			 * success. Asked as a dump, the admin commands (none has one)
			 * may be refused EOPNOTSUPP instead: since 6.2 generic netlink
			 * looks the operation up before it checks permissions.
			 */
			bool refused = s->answered && (s->err == EPERM ||
				(s->err == EOPNOTSUPP && (s->flags & NLM_F_DUMP) == NLM_F_DUMP));

			if (refused && s->err == EOPNOTSUPP)
				S.admin_nodump++;
			if (s->hdr_ok && !refused) {
				S.violations++;
				hexdump(s->answered && s->err <= 0 ?
					"admin request accepted without CAP_NET_ADMIN" :
					"admin request not refused with EPERM", s->p, s->len);
			} else if (!s->hdr_ok && (!s->answered || s->err <= 0)) {
				S.violations++;
				hexdump("admin request with a bad header accepted", s->p, s->len);
			}
		} else if (s->g == G_REFUSED && (!s->answered || s->err <= 0)) {
			/* Errors are always answered: no answer or 0 means it was taken. */
			S.violations++;
			hexdump("guarded admin request accepted", s->p, s->len);
		} else if (s->g == G_SCRATCH && (!s->answered || s->err <= 0)) {
			S.admin_accepted_scratch++;
		}
	}
}

static int run_fuzz(struct nl *nl, uint64_t count)
{
	static uint8_t dgram[DGRAM_MAX];
	struct msg m;
	struct batch bt;
	uint64_t sent = 0;

	while (sent < count) {
		size_t len = 0;
		int i, n = chance(85) ? 1 : 2 + rnd(3), tries;
		bool ok = false;
		bool real = mode == M_UNPRIV ? chance(70) : chance(20);

		for (tries = 0; tries < 100 && !ok; tries++) {
			len = 0;
			for (i = 0; i < n; i++) {
				gen_message(nl, &m, real);
				if (len + NLMSG_ALIGN(m.len) > sizeof(dgram))
					break;
				memcpy(dgram + len, m.b, m.len);
				len += m.len;
				if (i + 1 < n)	/* aligned for the next, as the kernel steps */
					while (len % 4)
						dgram[len++] = 0;
			}
			ok = walk(nl, dgram, len, &bt, mode == M_FUZZ);
			if (!ok)
				S.regenerated++;
		}
		if (!ok)
			die("could not generate a safe datagram in 100 tries");
		S.messages += (uint64_t)n;
		sent += (uint64_t)n;
		S.datagrams++;
		{
			int err = nl_send(nl, dgram, len);

			if (err) {
				S.send_err[-err < ERRNO_MAX ? -err : 0]++;
				continue;
			}
		}
		S.dropped += (uint64_t)(n > bt.n ? n - bt.n : 0);
		{
			uint64_t ov = S.overruns;

			drain(nl, &bt, false);
			check_batch(&bt, S.overruns != ov);
		}
	}
	return 0;
}

/* --- hammer: valid requests in a loop, through unloads and reloads ------------ */

enum req { R_WD_SET, R_WD_DEL, R_BRS, R_QP_DUMP, R_DEV_DUMP, R_WD_DUMP, R_DEV_GET,
	   R_QP_GET, R_WD_GET, R_CONG_GET, R_NREQ };

static const char *const req_names[R_NREQ] = {
	"wd-set", "wd-del", "brs", "qp-dump", "dev-dump", "wd-dump", "dev-get", "qp-get",
	"wd-get", "cong-get",
};

static const char *opt_netdev, *opt_rdev;

static void build_req(struct nl *nl, struct msg *m, enum req r)
{
	static const uint8_t cmds[R_NREQ] = {
		ROCECTL_CMD_WD_SET, ROCECTL_CMD_WD_DEL, ROCECTL_CMD_WD_BRS_SET,
		ROCECTL_CMD_QP_GET, ROCECTL_CMD_DEV_GET, ROCECTL_CMD_WD_GET,
		ROCECTL_CMD_DEV_GET, ROCECTL_CMD_QP_GET, ROCECTL_CMD_WD_GET,
		ROCECTL_CMD_CONG_GET,
	};
	bool dump = r == R_QP_DUMP || r == R_DEV_DUMP || r == R_WD_DUMP;

	msg_begin(m, nl->family, NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0),
		  ++nl->seq, cmds[r], ROCECTL_GENL_VERSION);
	switch (r) {
	case R_WD_SET:
		put_str(m, ROCECTL_A_NETDEV_NAME, opt_netdev);
		put_u8(m, ROCECTL_A_WD_PRIOS, 0x18);
		put_u32(m, ROCECTL_A_WD_DETECT_MS, 20);
		put_u32(m, ROCECTL_A_WD_RESTORE_MS, 40);
		put_u32(m, ROCECTL_A_WD_INTERVAL_MS, 10);
		put_u8(m, ROCECTL_A_WD_ACTION, ROCECTL_WD_ACTION_FORWARD);
		break;
	case R_WD_DEL:
	case R_WD_GET:
		put_str(m, ROCECTL_A_NETDEV_NAME, opt_netdev);
		break;
	case R_BRS:
		put_u8(m, ROCECTL_A_WD_BRS, (uint8_t)(nl->seq & 1));
		break;
	case R_DEV_GET:
	case R_CONG_GET:
		put_str(m, ROCECTL_A_DEV_NAME, opt_rdev);
		break;
	case R_QP_GET:
		put_str(m, ROCECTL_A_DEV_NAME, opt_rdev);
		put_u32(m, ROCECTL_A_QP_NUM, 1);
		break;
	default:
		break;
	}
	msg_end(m);
}

static int parse_reqs(const char *s, enum req *out, int max)
{
	char buf[256], *tok, *save;
	int n = 0, i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < R_NREQ; i++)
			if (!strcmp(tok, req_names[i]))
				break;
		if (i == R_NREQ)
			usage_error("unknown request \"%s\"", tok);
		if (n == max)
			usage_error("too many requests");
		if ((i == R_WD_SET || i == R_WD_DEL || i == R_WD_GET) && !opt_netdev)
			usage_error("%s needs -d NETDEV", tok);
		if ((i == R_DEV_GET || i == R_CONG_GET || i == R_QP_GET) && !opt_rdev)
			usage_error("%s needs -D RDMADEV", tok);
		out[n++] = i;
	}
	if (!n)
		usage_error("no request");
	return n;
}

/* A socket on the controller's "notify" group: families coming and going. */
static int ctrl_notify_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_GENERIC);
	int grp = GENL_ID_CTRL;	/* nlctrl's "notify" group has the controller's id */

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		die("controller notifications: %s", strerror(errno));
	return fd;
}

/*
 * Controller notifications about rocectl waiting: the id of a new family
 * (> 0), -1 if it went away, 0 if nothing about it.
 */
static int ctrl_notify_read(int fd, uint8_t *buf)
{
	int ret = 0;
	ssize_t n;

	while ((n = recv(fd, buf, RX_SIZE, 0)) > 0) {
		size_t off = 0;

		while (off + HDRS <= (size_t)n) {
			struct nlmsghdr h;
			const uint8_t *a, *name, *v;
			size_t alen, nlen;
			uint8_t cmd;
			uint16_t fid = 0;

			memcpy(&h, buf + off, sizeof(h));
			if (h.nlmsg_len < HDRS || off + h.nlmsg_len > (size_t)n)
				break;
			a = buf + off + HDRS;
			alen = h.nlmsg_len - HDRS;
			cmd = buf[off + NLMSG_HDRLEN];
			name = attr_find(a, alen, CTRL_ATTR_FAMILY_NAME, &nlen);
			if (name && !strncmp((const char *)name, ROCECTL_GENL_NAME, nlen)) {
				if (cmd == CTRL_CMD_NEWFAMILY) {
					v = attr_find(a, alen, CTRL_ATTR_FAMILY_ID, &nlen);
					if (v && nlen >= 2)
						memcpy(&fid, v, 2);
					ret = fid;
				} else if (cmd == CTRL_CMD_DELFAMILY) {
					ret = -1;
				}
			}
			off += NLMSG_ALIGN(h.nlmsg_len);
		}
	}
	return ret;
}

static int run_hammer(struct nl *nl, const enum req *reqs, int nreq, unsigned int seconds)
{
	uint64_t start = now_ms(), end = start + (uint64_t)seconds * 1000, next_resolve = 0;
	uint64_t per_req[R_NREQ] = { 0 }, per_req_ok[R_NREQ] = { 0 };
	uint64_t gone = 0, found = 0, absent_ms = 0, t0;
	int nfd = ctrl_notify_open();
	uint8_t *nbuf = malloc(RX_SIZE);
	struct msg m;
	struct batch bt;
	int i, k, ev;

	if (!nbuf)
		die("out of memory");
	nl->family = 0;
	while ((t0 = now_ms()) < end) {
		enum req r;

		ev = ctrl_notify_read(nfd, nbuf);
		if (ev > 0) {
			nl->family = (uint16_t)ev;
			found++;
		} else if (ev < 0 && nl->family) {
			nl->family = 0;
			gone++;
		}
		if (!nl->family) {
			struct pollfd pfd = { .fd = nfd, .events = POLLIN };

			if (t0 >= next_resolve) {
				/* The dump never loads a module (the doit would). */
				if (!resolve_family(nl, true))
					found++;
				next_resolve = now_ms() + 200;
			}
			if (!nl->family)
				poll(&pfd, 1, 5);
			absent_ms += now_ms() - t0;
			continue;
		}
		r = reqs[rnd((uint32_t)nreq)];
		build_req(nl, &m, r);
		per_req[r]++;
		S.messages++;
		S.datagrams++;
		if (nl_send(nl, m.b, m.len)) {
			S.send_err[0]++;
			continue;
		}
		walk(nl, m.b, m.len, &bt, false);
		drain(nl, &bt, false);
		S.processed++;
		if (bt.s[0].answered && bt.s[0].err <= 0)
			per_req_ok[r]++;
		if (!bt.s[0].answered && !S.overruns) {
			S.no_answer++;
			S.violations++;
		}
	}
	printf("{\"mode\":\"hammer\",\"seconds\":%u,\"requests\":{", seconds);
	for (i = 0, k = 0; i < R_NREQ; i++)
		if (per_req[i])
			printf("%s\"%s\":{\"sent\":%" PRIu64 ",\"ok\":%" PRIu64 "}", k++ ? "," : "",
			       req_names[i], per_req[i], per_req_ok[i]);
	printf("},\"family_gone\":%" PRIu64 ",\"family_found\":%" PRIu64 ",\"absent_ms\":%"
	       PRIu64 ",\"replies\":%" PRIu64 ",\"bad_replies\":%" PRIu64 ",\"no_answer\":%"
	       PRIu64 ",\"errors\":{", gone, found, absent_ms, S.replies, S.bad_replies,
	       S.no_answer);
	for (i = 1, k = 0; i < ERRNO_MAX; i++)
		if (S.err[i])
			printf("%s\"%s\":%" PRIu64, k++ ? "," : "", strerrorname_np(i) ?: "?", S.err[i]);
	printf("},\"violations\":%" PRIu64 "}\n", S.violations);
	fprintf(stderr, "%s hammer: %" PRIu64 " requests in %" PRIu64 " ms, family gone %" PRIu64
		" times, found %" PRIu64 " times, violations %" PRIu64 "\n", prog, S.messages,
		now_ms() - start, gone, found, S.violations);
	free(nbuf);
	close(nfd);
	return S.violations || S.bad_replies ? 1 : 0;
}

/* --- faults: fail-nth over one request ---------------------------------------- */

static int write_fail_nth(int fd, unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	if (pwrite(fd, s, (size_t)len, 0) != len)
		return -errno;
	return 0;
}

static int read_fail_nth(int fd)
{
	char s[16] = "";

	if (pread(fd, s, sizeof(s) - 1, 0) < 0)
		return -errno;
	return atoi(s);
}

/* Fault-free: how many objects a dump returns, or whether a netdev is watched. */
static int count_dump(struct nl *nl, enum req r)
{
	struct msg m;
	struct batch bt;
	uint64_t n;

	build_req(nl, &m, r);
	if (nl_send(nl, m.b, m.len))
		return -1;
	walk(nl, m.b, m.len, &bt, false);
	n = drain(nl, &bt, true);
	while (!bt.s[0].answered && drain(nl, &bt, true))
		;
	return bt.s[0].answered && bt.s[0].err <= 0 ? (int)n : -1;
}

static bool watched(struct nl *nl)
{
	struct msg m;
	struct batch bt;

	build_req(nl, &m, R_WD_GET);
	if (nl_send(nl, m.b, m.len))
		die("send");
	walk(nl, m.b, m.len, &bt, false);
	drain(nl, &bt, true);
	return bt.s[0].answered && bt.s[0].err <= 0;
}

static int run_faults(struct nl *nl, enum req r, unsigned int maxn)
{
	uint64_t outcome[ERRNO_MAX] = { 0 }, ok = 0, noans = 0, senderr = 0, incomplete = 0;
	uint64_t partial = 0, leftover = 0;
	struct nl fz = { .fd = -1, .family = nl->family };
	int base = -1, fd, i;
	unsigned int n;
	bool dump = r == R_QP_DUMP || r == R_DEV_DUMP || r == R_WD_DUMP;
	bool was_watched = false;

	fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("/proc/thread-self/fail-nth: %s (a kernel without CONFIG_FAULT_INJECTION?)",
		    strerror(errno));
	if (dump) {
		base = count_dump(nl, r);
		if (base < 0)
			die("the fault-free %s failed", req_names[r]);
	}
	if (r == R_WD_SET) {
		was_watched = watched(nl);
		if (was_watched)
			die("%s is watched already: the sweep needs it unwatched", opt_netdev);
	}
	for (n = 1; n <= maxn; n++) {
		struct msg m;
		struct batch bt;
		uint64_t got;
		int left, err;

		if (nl_open(&fz))
			die("socket: %s", strerror(errno));
		fz.family = nl->family;
		build_req(&fz, &m, r);
		walk(&fz, m.b, m.len, &bt, false);
		if (write_fail_nth(fd, n))
			die("fail-nth: %s", strerror(errno));
		err = nl_send(&fz, m.b, m.len);
		got = 0;
		if (!err) {
			got = drain(&fz, &bt, true);
			/* A dump part lost to a fault: what is left still comes on reading. */
			while (!bt.s[0].answered) {
				uint64_t more = drain(&fz, &bt, true);

				if (!more)
					break;
				got += more;
			}
		}
		left = read_fail_nth(fd);
		write_fail_nth(fd, 0);
		nl_close(&fz);
		S.messages++;
		if (err) {
			senderr++;
			outcome[-err < ERRNO_MAX ? -err : 0]++;
		} else if (!bt.s[0].answered) {
			noans++;	/* the answer itself was lost: checked by state below */
		} else if (bt.s[0].err > 0) {
			outcome[bt.s[0].err < ERRNO_MAX ? bt.s[0].err : 0]++;
			if (dump && got)
				partial++;	/* parts, then the error: reported */
		} else {
			ok++;
			if (dump && (int)got < base) {
				incomplete++;
				S.violations++;
				fprintf(stderr, "%s: fail-nth %u: %s said done after %" PRIu64
					" of %d objects\n", prog, n, req_names[r], got, base);
			}
		}
		if (r == R_WD_SET) {
			bool w = watched(nl);

			if (bt.s[0].answered && bt.s[0].err > 0 && w) {
				S.violations++;
				fprintf(stderr, "%s: fail-nth %u: wd-set failed with %s but left a watch\n",
					prog, n, strerror(bt.s[0].err));
			} else if (bt.s[0].answered && bt.s[0].err <= 0 && !w) {
				S.violations++;
				fprintf(stderr, "%s: fail-nth %u: wd-set succeeded but nothing is watched\n",
					prog, n);
			}
			if (w) {
				struct msg d;
				struct batch db;

				build_req(nl, &d, R_WD_DEL);
				nl_send(nl, d.b, d.len);
				walk(nl, d.b, d.len, &db, false);
				drain(nl, &db, true);
				if (!db.s[0].answered || db.s[0].err > 0)
					leftover++;
			}
		}
		if (left > 0)	/* the request needed fewer than n points: swept */
			break;
		if (left < 0)
			die("fail-nth: %s", strerror(-left));
	}
	close(fd);
	printf("{\"mode\":\"faults\",\"request\":\"%s\",\"points\":%u,\"ok\":%" PRIu64
	       ",\"no_answer\":%" PRIu64 ",\"send_errors\":%" PRIu64 ",\"partial_then_error\":%"
	       PRIu64 ",\"incomplete\":%" PRIu64 ",\"leftover_watch\":%" PRIu64 ",\"recv_errors\":%" PRIu64 ",\"base\":%d,"
	       "\"errors\":{", req_names[r], n > maxn ? maxn : n, ok, noans, senderr, partial,
	       incomplete, leftover, S.recv_err, base);
	for (i = 1, n = 0; i < ERRNO_MAX; i++)
		if (outcome[i])
			printf("%s\"%s\":%" PRIu64, n++ ? "," : "", strerrorname_np(i) ?: "?",
			       outcome[i]);
	printf("},\"complete\":%s,\"violations\":%" PRIu64 "}\n",
	       n > maxn ? "false" : "true", S.violations);
	(void)leftover;
	return S.violations || n > maxn ? 1 : 0;
}

/* --- faultexec: fail-nth over a whole program ---------------------------------------- */

struct run {
	int status;		/* waitpid() status */
	int left;		/* fail-nth when it exited: > 0 the point was not reached */
	char *out, *err;
	size_t outlen, errlen;
};

static char *slurp(int fd, size_t *len)
{
	struct stat st;
	char *b;

	if (fstat(fd, &st))
		die("fstat: %s", strerror(errno));
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		die("out of memory");
	*len = (size_t)pread(fd, b, (size_t)st.st_size, 0);
	if (*len > (size_t)st.st_size)
		*len = 0;
	b[*len] = 0;
	return b;
}

/* Run argv with its nth fault point failing (0: none). */
static void run_nth(char **argv, unsigned int nth, struct run *r)
{
	const char *tmp = getenv("TMPDIR") ?: "/tmp";
	char path[64], tmpl_o[4200], tmpl_e[4200];
	int fo, fe, st, fd;
	bool armed = false, done = false, in_call = false;
	pid_t pid;

	snprintf(tmpl_o, sizeof(tmpl_o), "%s/nlfuzz-out.XXXXXX", tmp);
	snprintf(tmpl_e, sizeof(tmpl_e), "%s/nlfuzz-err.XXXXXX", tmp);
	fo = mkstemp(tmpl_o);
	fe = mkstemp(tmpl_e);
	if (fo < 0 || fe < 0)
		die("mkstemp: %s", strerror(errno));
	unlink(tmpl_o);
	unlink(tmpl_e);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		dup2(fo, STDOUT_FILENO);
		dup2(fe, STDERR_FILENO);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	r->left = -1;
	/* Stopped after the exec: on to its first socket(), then arm fail-nth. */
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		die("%s did not stop at its exec", argv[0]);
	ptrace(PTRACE_SETOPTIONS, pid, NULL,
	       (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACESYSGOOD));
	snprintf(path, sizeof(path), "/proc/%d/fail-nth", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
	for (;;) {
		if (waitpid(pid, &st, 0) != pid)
			die("waitpid: %s", strerror(errno));
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		if (!WIFSTOPPED(st))
			continue;
		if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {		/* a system call */
			/* Stops alternate: entry, exit. At entries: arm, disarm. */
			if (!in_call) {
				long nr = ptrace(PTRACE_PEEKUSER, pid,
						 (void *)offsetof(struct user_regs_struct, orig_rax), NULL);
				long a0 = ptrace(PTRACE_PEEKUSER, pid,
						 (void *)offsetof(struct user_regs_struct, rdi), NULL);

				if (!armed && !done && nr == SYS_socket) {
					if (nth && write_fail_nth(fd, nth))
						die("%s: %s", path, strerror(errno));
					armed = true;
				} else if (armed && ((nr == SYS_write && (a0 == 1 || a0 == 2)) ||
						     nr == SYS_exit_group || nr == SYS_exit)) {
					r->left = read_fail_nth(fd);
					write_fail_nth(fd, 0);
					armed = false;
					done = true;
				}
			}
			in_call = !in_call;
			ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
		} else if (st >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			if (armed) {
				r->left = read_fail_nth(fd);
				armed = false;
				done = true;
			}
			ptrace(PTRACE_CONT, pid, NULL, NULL);
		} else {
			ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)WSTOPSIG(st));
		}
	}
	close(fd);
	r->status = st;
	r->out = slurp(fo, &r->outlen);
	r->err = slurp(fe, &r->errlen);
	close(fo);
	close(fe);
}

static int run_faultexec(char **argv, unsigned int maxn)
{
	uint64_t ok = 0, reported = 0, codes[256] = { 0 }, sigs[65] = { 0 };
	struct run base, r;
	unsigned int n;
	int i, k;

	run_nth(argv, 0, &base);
	if (!WIFEXITED(base.status) || WEXITSTATUS(base.status))
		die("%s fails without faults: %s", argv[0], base.err);
	for (n = 1; n <= maxn; n++) {
		run_nth(argv, n, &r);
		S.messages++;
		if (WIFSIGNALED(r.status)) {
			sigs[WTERMSIG(r.status) & 63]++;
			S.violations++;
			fprintf(stderr, "%s: fail-nth %u: %s killed by signal %d\n", prog, n, argv[0],
				WTERMSIG(r.status));
		} else if (!WEXITSTATUS(r.status)) {
			ok++;
			if (r.outlen != base.outlen || memcmp(r.out, base.out, r.outlen)) {
				S.violations++;
				fprintf(stderr, "%s: fail-nth %u: exit 0 but another output (%zu bytes, not %zu)\n",
					prog, n, r.outlen, base.outlen);
			}
		} else {
			codes[WEXITSTATUS(r.status)]++;
			reported++;
			if (!r.errlen) {
				S.violations++;
				fprintf(stderr, "%s: fail-nth %u: exit %d and nothing said\n", prog, n,
					WEXITSTATUS(r.status));
			}
		}
		if (verbose) {
			/* Is the file system still there (the guest's root is 9p)? */
			int probe = open(argv[0], O_RDONLY | O_CLOEXEC);

			fprintf(stderr, "%s: fail-nth %u: status %#x, left %d, stderr: %.200s%s\n", prog,
				n, r.status, r.left, r.err, probe < 0 ? " -- the program's file cannot be opened now" : "");
			if (probe >= 0)
				close(probe);
		}
		free(r.out);
		free(r.err);
		if (r.left > 0)		/* ended before its nth point: all swept */
			break;
	}
	printf("{\"mode\":\"faultexec\",\"program\":\"%s\",\"points\":%u,\"complete\":%s,\"ok\":%" PRIu64
	       ",\"failed\":%" PRIu64 ",\"exit_codes\":{", argv[0], n > maxn ? maxn : n,
	       n > maxn ? "false" : "true", ok, reported);
	for (i = 1, k = 0; i < 256; i++)
		if (codes[i])
			printf("%s\"%d\":%" PRIu64, k++ ? "," : "", i, codes[i]);
	printf("},\"signals\":{");
	for (i = 1, k = 0; i < 65; i++)
		if (sigs[i])
			printf("%s\"%d\":%" PRIu64, k++ ? "," : "", i, sigs[i]);
	printf("},\"violations\":%" PRIu64 "}\n", S.violations);
	return S.violations || n > maxn ? 1 : 0;
}

/* --- main ------------------------------------------------------------------------- */

static void print_summary(const char *modename, uint64_t seed, uint64_t ms)
{
	int i, k;

	printf("{\"mode\":\"%s\",\"seed\":%" PRIu64 ",\"messages\":%" PRIu64 ",\"datagrams\":%"
	       PRIu64 ",\"processed\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"regenerated\":%" PRIu64
	       ",\"acks\":%" PRIu64 ",\"replies\":%" PRIu64 ",\"dump_parts\":%" PRIu64
	       ",\"dumps_done\":%" PRIu64 ",\"dump_intr\":%" PRIu64 ",\"unmatched\":%" PRIu64
	       ",\"overruns\":%" PRIu64 ",\"extack_msgs\":%" PRIu64 ",\"admin_processed\":%" PRIu64
	       ",\"admin_eperm\":%" PRIu64 ",\"admin_nodump\":%" PRIu64
	       ",\"admin_accepted_scratch\":%" PRIu64
	       ",\"bad_replies\":%" PRIu64 ",\"no_answer\":%" PRIu64 ",\"violations\":%" PRIu64
	       ",\"foreign_owners\":%" PRIu64 ",\"elapsed_ms\":%" PRIu64 ",\"errors\":{",
	       modename, seed, S.messages, S.datagrams, S.processed, S.dropped, S.regenerated,
	       S.acks, S.replies, S.dump_parts, S.dumps_done, S.dump_intr, S.unmatched,
	       S.overruns, S.extack_msgs, S.admin_processed, S.admin_eperm, S.admin_nodump,
	       S.admin_accepted_scratch, S.bad_replies, S.no_answer, S.violations,
	       S.foreign_owners, ms);
	for (i = 0, k = 0; i < ERRNO_MAX; i++)
		if (S.err[i])
			printf("%s\"%s\":%" PRIu64, k++ ? "," : "",
			       i ? strerrorname_np(i) ?: "?" : "other", S.err[i]);
	printf("},\"send_errors\":{");
	for (i = 0, k = 0; i < ERRNO_MAX; i++)
		if (S.send_err[i])
			printf("%s\"%s\":%" PRIu64, k++ ? "," : "",
			       i ? strerrorname_np(i) ?: "?" : "other", S.send_err[i]);
	printf("},\"commands\":{");
	for (i = 0, k = 0; i < 256; i++)
		if (S.per_cmd[i])
			printf("%s\"%d\":%" PRIu64, k++ ? "," : "", i, S.per_cmd[i]);
	printf("}}\n");
	fprintf(stderr, "%s %s: seed %" PRIu64 ": %" PRIu64 " messages in %" PRIu64 " datagrams, %"
		PRIu64 " processed, %" PRIu64 " dropped; %" PRIu64 " acks, %" PRIu64 " replies (%"
		PRIu64 " dump parts, %" PRIu64 " dumps done); admin %" PRIu64 " (EPERM %" PRIu64
		"); bad replies %" PRIu64 ", no answer %" PRIu64 ", violations %" PRIu64
		"; %" PRIu64 " ms\n", prog, modename, seed, S.messages, S.datagrams, S.processed,
		S.dropped, S.acks, S.replies, S.dump_parts, S.dumps_done, S.admin_processed,
		S.admin_eperm, S.bad_replies, S.no_answer, S.violations, ms);
}

int main(int argc, char **argv)
{
	uint64_t seed = 0, count = 100000, start;
	unsigned int seconds = 0, maxn = 5000;
	const char *reqs = NULL, *modename;
	enum req rl[16];
	struct nl nl = { .fd = -1 };
	bool have_seed = false;
	int c, err, nreq = 0;
	char *end;

	if (argc < 2)
		usage_error("missing mode: fuzz, unpriv, hammer or faults");
	modename = argv[1];
	if (!strcmp(modename, "fuzz"))
		mode = M_FUZZ;
	else if (!strcmp(modename, "unpriv"))
		mode = M_UNPRIV;
	else if (!strcmp(modename, "hammer"))
		mode = M_HAMMER;
	else if (!strcmp(modename, "faults"))
		mode = M_FAULTS;
	else if (!strcmp(modename, "faultexec"))
		mode = M_FAULTEXEC;
	else
		usage_error("unknown mode \"%s\"", modename);
	optind = 2;
	while ((c = getopt(argc, argv, "s:n:x:t:r:d:D:N:ovh")) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end)
				usage_error("bad seed \"%s\"", optarg);
			have_seed = true;
			break;
		case 'n':
			count = strtoull(optarg, &end, 0);
			if (*end || !count)
				usage_error("bad count \"%s\"", optarg);
			break;
		case 'x':
			if (W.nscratch == NAMES_MAX || strlen(optarg) >= IF_NAMESIZE)
				usage_error("bad scratch netdev \"%s\"", optarg);
			snprintf(W.scratch[W.nscratch++], IF_NAMESIZE, "%s", optarg);
			break;
		case 't':
			seconds = (unsigned int)strtoul(optarg, &end, 0);
			if (*end || !seconds)
				usage_error("bad seconds \"%s\"", optarg);
			break;
		case 'r':
			reqs = optarg;
			break;
		case 'd':
			opt_netdev = optarg;
			break;
		case 'D':
			opt_rdev = optarg;
			break;
		case 'N':
			maxn = (unsigned int)strtoul(optarg, &end, 0);
			if (*end || !maxn)
				usage_error("bad -N \"%s\"", optarg);
			break;
		case 'o':
			opt_no_owner = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			usage_error("bad option");
		}
	}
	if (mode == M_FAULTEXEC) {
		if (optind >= argc)
			usage_error("faultexec needs a program");
		return run_faultexec(argv + optind, maxn);
	}
	if (optind != argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	rng_state = seed * 2654435761ULL + 0x9E3779B97F4A7C15ULL;
	if (!rng_state)
		rng_state = 1;

	if (mode == M_UNPRIV && has_cap_net_admin())
		die("unpriv mode must run without CAP_NET_ADMIN (as nobody): refusing");
	if (mode == M_FUZZ && !has_cap_net_admin())
		fprintf(stderr, "%s: note: fuzz without CAP_NET_ADMIN: admin requests get EPERM\n", prog);
	if ((mode == M_HAMMER || mode == M_FAULTS) && !reqs)
		usage_error("%s needs -r REQ", modename);
	if (mode == M_HAMMER && !seconds)
		usage_error("hammer needs -t SECONDS");
	if (reqs)
		nreq = parse_reqs(reqs, rl, ARRAY_SIZE(rl));
	if (mode == M_FAULTS && nreq != 1)
		usage_error("faults takes one request");

	err = nl_open(&nl);
	if (err)
		die("socket: %s", strerror(-err));
	if (mode == M_HAMMER)
		return run_hammer(&nl, rl, nreq, seconds);
	err = resolve_family(&nl, false);
	if (err)
		die("generic netlink family %s: %s", ROCECTL_GENL_NAME, strerror(-err));
	if (mode == M_FAULTS)
		return run_faults(&nl, rl[0], maxn);

	world_discover(&nl);
	fprintf(stderr, "%s %s: seed %" PRIu64 ", %" PRIu64 " messages; %d netdevs (%d scratch), "
		"%d RDMA devices, %d QPs\n", prog, modename, seed, count, W.nnetdev, W.nscratch,
		W.nrdev, W.nqp);
	start = now_ms();
	run_fuzz(&nl, count);
	print_summary(modename, seed, now_ms() - start);
	return S.violations || S.bad_replies ? 1 : 0;
}
