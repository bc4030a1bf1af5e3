// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rocectl qp counters (user/lib/rdma_stat.c, the RDMA core's side,
 * and user/qp/qp_counters.c, the printing), without a socket:
 * the requests bind, unbind and the dump send, read back attribute by
 * attribute with libmnl; a STAT_GET reply as nldev.c builds it, written
 * here byte by byte (nests, padding, the u64 values), parsed; the join of a
 * QP with its counter and the printing in text and JSON; the sentences for
 * the kernel's refusals.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "lib/nl.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "qp/qp_counters.h"
#include "qp_counters_test.h"

static int failed;

static void report(const char *name, int ok, const char *got, const char *want)
{
	if (ok) {
		printf("ok - unit: qp counters: %s\n", name);
		return;
	}
	failed++;
	printf("not ok - unit: qp counters: %s # got [%s] want [%s]\n", name,
	       got ? got : "", want ? want : "");
}

static void check_str(const char *name, const char *got, const char *want)
{
	report(name, got && !strcmp(got, want), got, want);
}

/* Runs fn with the output redirected to a string. */
static char *capture(void (*fn)(const void *), const void *arg, int json)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_init(f, json, 0);
	fn(arg);
	fclose(f);
	return buf;
}

/* --- requests, read back ---------------------------------------------------- */

struct req_attrs {
	unsigned int n, bad;		/* attributes; those not a u32 */
	int64_t v[RDMA_NLDEV_ATTR_MAX];	/* -1: absent */
};

static int req_attr_cb(const struct nlattr *a, void *data)
{
	struct req_attrs *r = data;
	unsigned int type = mnl_attr_get_type(a);

	r->n++;
	if (type >= RDMA_NLDEV_ATTR_MAX || mnl_attr_validate(a, MNL_TYPE_U32) < 0) {
		r->bad++;
		return MNL_CB_OK;
	}
	r->v[type] = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static void read_back(const struct nlmsghdr *nlh, struct req_attrs *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < RDMA_NLDEV_ATTR_MAX; i++)
		r->v[i] = -1;
	if (mnl_attr_parse(nlh, 0, req_attr_cb, r) < 0)
		r->bad++;
}

static void test_requests(void)
{
	static char buf[8192] __attribute__((aligned(8)));
	struct nl nl = { .buf = buf, .seq = 41 };
	struct qpc_target t = { .dev_index = 3, .port = 1, .qpn = 178 };
	const struct nlmsghdr *nlh;
	struct req_attrs r;
	char why[256] = "";

	nlh = qpc_bind_request(&nl, &t);
	read_back(nlh, &r);
	if (nlh->nlmsg_type != RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_SET))
		snprintf(why, sizeof(why), "type %u", nlh->nlmsg_type);
	else if (nlh->nlmsg_flags != (NLM_F_REQUEST | NLM_F_ACK) || nlh->nlmsg_seq != 42)
		snprintf(why, sizeof(why), "flags 0x%x seq %u", nlh->nlmsg_flags, nlh->nlmsg_seq);
	else if (r.n != 5 || r.bad)
		snprintf(why, sizeof(why), "%u attributes, %u not u32", r.n, r.bad);
	else if (r.v[RDMA_NLDEV_ATTR_DEV_INDEX] != 3 || r.v[RDMA_NLDEV_ATTR_PORT_INDEX] != 1 ||
		 r.v[RDMA_NLDEV_ATTR_STAT_RES] != RDMA_NLDEV_ATTR_RES_QP ||
		 r.v[RDMA_NLDEV_ATTR_STAT_MODE] != RDMA_COUNTER_MODE_MANUAL ||
		 r.v[RDMA_NLDEV_ATTR_RES_LQPN] != 178 || r.v[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] != -1)
		snprintf(why, sizeof(why), "values");
	report("bind: STAT_SET with dev, port, STAT_RES QP, mode manual, LQPN; no counter id",
	       !why[0], why, "");

	t.has_counter = true;
	t.counter = 4;
	nlh = qpc_bind_request(&nl, &t);
	read_back(nlh, &r);
	report("bind to counter 4: the same and STAT_COUNTER_ID 4",
	       r.n == 6 && !r.bad && r.v[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] == 4 &&
	       r.v[RDMA_NLDEV_ATTR_RES_LQPN] == 178 && nlh->nlmsg_seq == 43, NULL, NULL);

	t.port = 2;
	nlh = qpc_unbind_request(&nl, &t);
	read_back(nlh, &r);
	report("unbind: STAT_DEL with dev, port, STAT_RES QP, mode, LQPN and the counter id",
	       nlh->nlmsg_type == RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_DEL) &&
	       nlh->nlmsg_flags == (NLM_F_REQUEST | NLM_F_ACK) && r.n == 6 && !r.bad &&
	       r.v[RDMA_NLDEV_ATTR_DEV_INDEX] == 3 && r.v[RDMA_NLDEV_ATTR_PORT_INDEX] == 2 &&
	       r.v[RDMA_NLDEV_ATTR_STAT_RES] == RDMA_NLDEV_ATTR_RES_QP &&
	       r.v[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] == 4 && r.v[RDMA_NLDEV_ATTR_RES_LQPN] == 178,
	       NULL, NULL);

	nlh = qpc_dump_request(&nl, 3, 0);
	read_back(nlh, &r);
	report("dump: STAT_GET dump of a device's QP counters, every port",
	       nlh->nlmsg_type == RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET) &&
	       nlh->nlmsg_flags == (NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP) && r.n == 2 &&
	       !r.bad && r.v[RDMA_NLDEV_ATTR_DEV_INDEX] == 3 &&
	       r.v[RDMA_NLDEV_ATTR_STAT_RES] == RDMA_NLDEV_ATTR_RES_QP &&
	       r.v[RDMA_NLDEV_ATTR_PORT_INDEX] == -1, NULL, NULL);
	nlh = qpc_dump_request(&nl, 3, 1);
	read_back(nlh, &r);
	report("dump of one port: PORT_INDEX", r.n == 3 && r.v[RDMA_NLDEV_ATTR_PORT_INDEX] == 1,
	       NULL, NULL);
}

/* --- a STAT_GET reply, byte by byte ----------------------------------------------- */

struct msg {
	unsigned char b[4096] __attribute__((aligned(8)));
	size_t len;
	size_t open[8];
	int depth;
};

/* An attribute header: length and type in host order, as netlink has them. */
static void put_hdr(struct msg *m, size_t at, uint16_t len, uint16_t type)
{
	memcpy(m->b + at, &len, 2);
	memcpy(m->b + at + 2, &type, 2);
}

static void put(struct msg *m, uint16_t type, const void *data, size_t n)
{
	put_hdr(m, m->len, 4 + n, type);
	if (n)
		memcpy(m->b + m->len + 4, data, n);
	m->len += 4 + n;
	while (m->len % 4)		/* NLA_ALIGN: zero padding */
		m->b[m->len++] = 0;
}

static void put_u8(struct msg *m, uint16_t type, uint8_t v)
{
	put(m, type, &v, 1);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, 4);
}

/* nla_put_u64_64bit: an empty PAD attribute first where the u64 would be unaligned. */
static void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	if ((m->len + 4) % 8)
		put(m, RDMA_NLDEV_ATTR_PAD, NULL, 0);
	put(m, type, &v, 8);
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

/* nla_nest_start sets NLA_F_NESTED; nla_nest_start_noflag does not. */
static void nest(struct msg *m, uint16_t type, int flag)
{
	m->open[m->depth++] = m->len;
	put_hdr(m, m->len, 0, type | (flag ? NLA_F_NESTED : 0));
	m->len += 4;
}

static void end(struct msg *m)
{
	size_t at = m->open[--m->depth];
	uint16_t len = m->len - at, type;

	memcpy(&type, m->b + at + 2, 2);
	put_hdr(m, at, len, type);
}

static void hw(struct msg *m, const char *name, uint64_t v)
{
	nest(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, 1);
	put_str(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	put_u64(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	end(m);
}

static void qp(struct msg *m, uint32_t qpn)
{
	nest(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY, 1);
	put_u32(m, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	end(m);
}

/*
 * mlx5_0 (index 3): counter 4 (manual, QPs 178 and 179, with mlx5's
 * port-scope congestion counters that a counter set lists at 0), counter 5
 * (auto by type and pid, QP 200), and malformed entries to be skipped.
 */
static struct nlmsghdr *stat_get_reply(struct msg *m)
{
	struct nlmsghdr h = {
		.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET),
		.nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = 7,
	};
	uint32_t short_value = 9;

	memset(m, 0, sizeof(*m));
	m->len = sizeof(h);
	put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	put_str(m, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	nest(m, RDMA_NLDEV_ATTR_STAT_COUNTER, 0);

	nest(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY, 0);
	put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	put_u32(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4);
	put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	nest(m, RDMA_NLDEV_ATTR_RES_QP, 1);
	qp(m, 178);
	qp(m, 179);
	nest(m, RDMA_NLDEV_ATTR_RES_QP_ENTRY, 1);	/* no LQPN: skipped */
	end(m);
	end(m);
	nest(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, 1);
	hw(m, "rx_write_requests", 10);
	hw(m, "rp_cnp_handled", 0);
	hw(m, "out_of_sequence", 2);
	hw(m, "np_cnp_sent", 0);
	nest(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, 1);	/* a u32 value: skipped */
	put_str(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "bogus");
	put(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, &short_value, 4);
	end(m);
	end(m);
	end(m);

	nest(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY, 0);	/* no counter id: skipped */
	put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	end(m);

	nest(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY, 0);
	put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	put_u32(m, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 5);
	put_u32(m, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	put_u8(m, RDMA_NLDEV_ATTR_RES_TYPE, 2);		/* IB_QPT_RC */
	put_u32(m, RDMA_NLDEV_ATTR_RES_PID, 1234);
	nest(m, RDMA_NLDEV_ATTR_RES_QP, 1);
	qp(m, 200);
	end(m);
	nest(m, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, 1);
	hw(m, "rx_write_requests", 7);
	end(m);
	end(m);

	end(m);
	h.nlmsg_len = m->len;
	memcpy(m->b, &h, sizeof(h));
	return (struct nlmsghdr *)m->b;
}

static struct qpc_list parsed;

static void test_parse(void)
{
	static struct msg m;
	struct nlmsghdr *nlh = stat_get_reply(&m);
	const struct qpc_counter *c = parsed.c;
	char why[256] = "";
	int ret;

	ret = qpc_parse(nlh, &parsed);
	c = parsed.c;
	if (ret != MNL_CB_OK || parsed.n != 2)
		snprintf(why, sizeof(why), "ret %d, %zu counters", ret, parsed.n);
	else if (c[0].dev_index != 3 || strcmp(c[0].ifname, "mlx5_0") || c[0].port != 1 ||
		 c[0].id != 4 || c[0].mode != RDMA_COUNTER_MODE_MANUAL || c[0].has_type ||
		 c[0].has_pid)
		snprintf(why, sizeof(why), "counter 4: dev %u %s port %u id %u mode %u",
			 c[0].dev_index, c[0].ifname, c[0].port, c[0].id, c[0].mode);
	else if (c[0].nqpns != 2 || c[0].qpns[0] != 178 || c[0].qpns[1] != 179)
		snprintf(why, sizeof(why), "counter 4: %zu QPs", c[0].nqpns);
	else if (c[0].nhw != 4 || strcmp(c[0].hw[0].name, "rx_write_requests") ||
		 c[0].hw[0].value != 10 || strcmp(c[0].hw[2].name, "out_of_sequence") ||
		 c[0].hw[2].value != 2)
		snprintf(why, sizeof(why), "counter 4: %zu hw counters", c[0].nhw);
	else if (c[1].id != 5 || c[1].mode != RDMA_COUNTER_MODE_AUTO || !c[1].has_type ||
		 c[1].type != 2 || !c[1].has_pid || c[1].pid != 1234 || c[1].nqpns != 1 ||
		 c[1].qpns[0] != 200 || c[1].nhw != 1 || c[1].hw[0].value != 7)
		snprintf(why, sizeof(why), "counter 5");
	report("parse: nested STAT_COUNTER entries, RES_QP LQPNs, HWCOUNTERS names and u64 values behind PAD; malformed entries skipped",
	       !why[0], why, "");

	report("port scope: mlx5's congestion counters, not the Q counters",
	       qpc_port_scope("rp_cnp_handled") && qpc_port_scope("np_cnp_sent") &&
	       qpc_port_scope("rp_cnp_ignored") && qpc_port_scope("np_ecn_marked_roce_packets") &&
	       !qpc_port_scope("rx_write_requests") && !qpc_port_scope("out_of_sequence"),
	       NULL, NULL);
}

/* A message cut short: the parser stays inside it (ASan watches). */
static void test_truncated(void)
{
	static struct msg m;
	struct nlmsghdr *nlh = stat_get_reply(&m);
	struct qpc_list l = { 0 };
	uint32_t len;
	size_t ok = 1;

	for (len = sizeof(*nlh); len < nlh->nlmsg_len; len += 4) {
		static unsigned char cut[4096] __attribute__((aligned(8)));

		memcpy(cut, m.b, len);
		((struct nlmsghdr *)cut)->nlmsg_len = len;
		if (qpc_parse((struct nlmsghdr *)cut, &l) != MNL_CB_OK)
			ok = 0;
		qpc_list_reset(&l);
	}
	qpc_list_free(&l);
	report("parse: every truncation of the reply is read within its bounds", ok, NULL, NULL);
}

static void show_all(const void *arg)
{
	const struct qpc_list *l = arg;
	size_t i;

	out_begin_list();
	for (i = 0; i < l->n; i++)
		qpc_print_counter(&l->c[i]);
	out_end_list();
}

static void test_show(void)
{
	static const struct qpc_list empty;

	check_str("show: text, port-scope counters left out",
		  capture(show_all, &parsed, 0),
		  "link mlx5_0/1 counter 4 mode manual lqpn 178,179 source driver\n"
		  "    rx_write_requests 10 out_of_sequence 2 \n"
		  "link mlx5_0/1 counter 5 mode auto type RC pid 1234 lqpn 200 source driver\n"
		  "    rx_write_requests 7 \n");
	check_str("show: JSON",
		  capture(show_all, &parsed, 1),
		  "[{\"ifindex\":3,\"ifname\":\"mlx5_0\",\"port\":1,\"counter\":4,\"mode\":\"manual\","
		  "\"lqpns\":[178,179],\"source\":\"driver\","
		  "\"counters\":{\"rx_write_requests\":10,\"out_of_sequence\":2}},"
		  "{\"ifindex\":3,\"ifname\":\"mlx5_0\",\"port\":1,\"counter\":5,\"mode\":\"auto\","
		  "\"type\":\"RC\",\"pid\":1234,\"lqpns\":[200],\"source\":\"driver\","
		  "\"counters\":{\"rx_write_requests\":7}}]\n");
	check_str("show: no counter is an empty list (JSON)", capture(show_all, &empty, 1), "[]\n");
	check_str("show: no counter prints nothing (text)", capture(show_all, &empty, 0), "");
}

/* A QP record of qp stats, reduced to its key, with what the join adds. */
struct row {
	uint32_t dev, port, qpn;
};

static void stats_row(const void *arg)
{
	const struct row *r = arg;

	out_begin_list();
	out_open_object(NULL);
	out_uint("lqpn", "lqpn %" PRIu64, r->qpn);
	qpc_print_for_qp(&parsed, r->dev, r->port, r->qpn);
	out_close_object();
	out_nl();
	out_end_list();
}

static void test_join(void)
{
	const struct row bound = { 3, 1, 179 }, unbound = { 3, 1, 180 }, other_dev = { 4, 1, 178 };
	const struct qpc_counter *c;

	c = qpc_find(&parsed, 3, 1, 178);
	report("join: (dev, port, lqpn) finds the QP's counter", c && c->id == 4, NULL, NULL);
	c = qpc_find(&parsed, 3, 0, 200);
	report("join: port 0 (a QP not yet on a port) matches any port", c && c->id == 5, NULL, NULL);
	report("join: another port, another device, another QP: none",
	       !qpc_find(&parsed, 3, 2, 178) && !qpc_find(&parsed, 4, 1, 178) &&
	       !qpc_find(&parsed, 3, 1, 201), NULL, NULL);

	check_str("qp stats: a bound QP shows its hw counter, labelled (text)",
		  capture(stats_row, &bound, 0),
		  "lqpn 179\n    hw counter 4 (driver): rx_write_requests 10 out_of_sequence 2 \n");
	check_str("qp stats: a bound QP has hw_counters (JSON)",
		  capture(stats_row, &bound, 1),
		  "[{\"lqpn\":179,\"hw_counters\":{\"counter\":4,\"mode\":\"manual\",\"source\":\"driver\","
		  "\"counters\":{\"rx_write_requests\":10,\"out_of_sequence\":2}}}]\n");
	check_str("qp stats: an unbound QP gets nothing (text)", capture(stats_row, &unbound, 0),
		  "lqpn 180\n");
	check_str("qp stats: an unbound QP has no hw_counters key (JSON)",
		  capture(stats_row, &other_dev, 1), "[{\"lqpn\":178}]\n");
}

static char *error_text(int err, const char *msg)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	nl_print_rdma_error(f, err, msg, "", "");
	fclose(f);
	return buf;
}

static void test_explain(void)
{
	struct qpc_why w = { .dev = "rxe0", .port = 1, .qpn = 17, .driver = "rdma_rxe", .rxe = true };
	char buf[512];
	const char *s;

	s = qpc_explain(QPC_BIND, ENOMEM, &w, buf, sizeof(buf));
	check_str("refusal: ENOMEM from a driver without counter operations (rxe)", s,
		  "the driver of rxe0 (rdma_rxe) does not support binding QPs to hardware counters: "
		  "the kernel answers ENOMEM (\"Cannot allocate memory\") when a driver has no counter operations.");
	w.driver = NULL;
	w.rxe = false;
	s = qpc_explain(QPC_BIND, ENOMEM, &w, buf, sizeof(buf));
	report("refusal: ENOMEM, driver unknown: says both causes",
	       s && strstr(s, "the driver of rxe0 does not support binding QPs to counters") &&
	       strstr(s, "ran out"), s, "");
	w.driver = "bnxt_re";
	s = qpc_explain(QPC_BIND, ENOMEM, &w, buf, sizeof(buf));
	report("refusal: ENOMEM, another driver: names it, says both causes",
	       s && strstr(s, "the driver of rxe0 (bnxt_re) does not support") && strstr(s, "ran out"), s, "");
	w.driver = "mlx5_ib";
	w.mlx5 = true;
	s = qpc_explain(QPC_BIND, ENOMEM, &w, buf, sizeof(buf));
	report("refusal: ENOMEM on mlx5: counters ran out",
	       s && strstr(s, "mlx5 could not give QP 17 of rxe0 a hardware counter on port 1"), s, "");
	s = qpc_explain(QPC_BIND, ENOENT, &w, buf, sizeof(buf));
	check_str("refusal: ENOENT", s, "rxe0 has no QP 17.");
	w.qpn = 1;
	s = qpc_explain(QPC_BIND, ENOENT, &w, buf, sizeof(buf));
	check_str("refusal: ENOENT for QP1, filed under another number by the RDMA core", s,
		  "QP 1 of rxe0 is the port's GSI QP, which the RDMA core cannot bind to counters: "
		  "it does not find QP0 and QP1 by their number.");
	w.qpn = 17;
	w.auto_mode = true;
	s = qpc_explain(QPC_UNBIND, EINVAL, &w, buf, sizeof(buf));
	report("refusal: EINVAL in auto mode", s && strstr(s, "auto mode") &&
	       strstr(s, "rdma statistic qp set link rxe0/1 auto off"), s, "");
	report("refusal: permission is the kernel's own answer",
	       !qpc_explain(QPC_BIND, EPERM, &w, buf, sizeof(buf)), NULL, NULL);
	check_str("refusal: EPERM over RDMA netlink", error_text(EPERM, ""),
		  "Error: permission denied: this needs CAP_NET_ADMIN (run as root).\n");
	check_str("refusal: EOPNOTSUPP over RDMA netlink is not about the rocectl module",
		  error_text(EOPNOTSUPP, ""),
		  "Error: the RDMA core or the device's driver does not support this request (kernel answers: Operation not supported).\n");
	check_str("refusal: an extack message is printed as the kernel wrote it",
		  error_text(EBUSY, "Modifying auto mode is not allowed when there is a bound QP"),
		  "Error: Modifying auto mode is not allowed when there is a bound QP.\n");
	report("RDMA attribute names for extack offsets",
	       !strcmp(nl_rdma_attr_name(RDMA_NLDEV_ATTR_STAT_COUNTER_ID), "RDMA_NLDEV_ATTR_STAT_COUNTER_ID") &&
	       !nl_rdma_attr_name(RDMA_NLDEV_ATTR_MAX + 5), NULL, NULL);
}

int qp_counters_tests(void)
{
	test_requests();
	test_parse();
	test_truncated();
	test_show();
	test_join();
	test_explain();
	qpc_list_free(&parsed);
	return failed;
}
