// SPDX-License-Identifier: GPL-2.0
/*
 * The printing of a storm's blast radius (user/watchdog/watchdog.c) and of a QP's
 * priority (user/qp/qp_fields.c), from messages built as the module builds
 * them: text and JSON, a sent-pause storm's likely slow receivers, and a
 * truncated process nest skipped without reading past it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#include "blast_print_test.h"
#include "lib/attrs.h"
#include "lib/output.h"
#include "qp/qp_fields.h"
#include "watchdog/watchdog.h"

static void (*rep)(const char *name, int ok, const char *got, const char *want);

static void check(const char *name, const char *got, const char *want)
{
	rep(name, !strcmp(got, want), got, want);
}

static char *capture(void (*fn)(const struct nlmsghdr *), const struct nlmsghdr *nlh, int json)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_init(f, json, 0);
	fn(nlh);
	fclose(f);
	return buf;
}

static void put_proc(struct nlmsghdr *nlh, uint32_t pid, const char *comm, uint32_t qps,
		     uint64_t bytes)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, ROCECTL_A_WDP_BLAST_PROC);

	mnl_attr_put_u32(nlh, ROCECTL_A_WDB_PID, pid);
	mnl_attr_put_strz(nlh, ROCECTL_A_WDB_COMM, comm);
	mnl_attr_put_u32(nlh, ROCECTL_A_WDB_QPS, qps);
	mnl_attr_put_u64(nlh, ROCECTL_A_WDB_BYTES, bytes);
	mnl_attr_nest_end(nlh, n);
}

/* A detect event of sim0's priority prio in direction dir, two processes. */
static struct nlmsghdr *event_msg(char *buf, uint8_t dir, bool truncated)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *p, *bad;

	g->cmd = ROCECTL_CMD_WD_EVENT_NTF;
	mnl_attr_put_u32(nlh, ROCECTL_A_NETDEV_INDEX, 5);
	mnl_attr_put_strz(nlh, ROCECTL_A_NETDEV_NAME, "sim0");
	mnl_attr_put_u8(nlh, ROCECTL_A_WD_EVENT, ROCECTL_WD_EV_DETECT);
	p = mnl_attr_nest_start(nlh, ROCECTL_A_WD_PRIO);
	mnl_attr_put_u8(nlh, ROCECTL_A_WDP_PRIO, 3);
	mnl_attr_put_u8(nlh, ROCECTL_A_WDP_DIRECTION, dir);
	mnl_attr_put_u8(nlh, ROCECTL_A_WDP_STATE, ROCECTL_WD_STORM);
	mnl_attr_put_u64(nlh, ROCECTL_A_WDP_STORMS, 1);
	mnl_attr_put_u64(nlh, ROCECTL_A_WDP_RESTORES, 0);
	mnl_attr_put_u32(nlh, ROCECTL_A_WDP_BLAST_QPS, 3);
	mnl_attr_put_u32(nlh, ROCECTL_A_WDP_BLAST_PROCS, 2);
	put_proc(nlh, 42, "trainer", 2, 8192);
	if (truncated) {
		/* A process nest holding half a u32: skipped, never read past. */
		bad = mnl_attr_nest_start(nlh, ROCECTL_A_WDP_BLAST_PROC);
		mnl_attr_put(nlh, ROCECTL_A_WDB_PID, 2, "\x01\x02");
		mnl_attr_nest_end(nlh, bad);
	}
	put_proc(nlh, 43, "loader", 1, 0);
	mnl_attr_nest_end(nlh, p);
	return nlh;
}

static void print_wd(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (attrs_parse(nlh, tb) < 0)
		return;
	out_open_object(NULL);
	wd_print_fields(nlh, tb, false);
	out_close_object();
}

static struct nlmsghdr *qp_msg(char *buf, bool with_prio)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = ROCECTL_CMD_QP_GET;
	mnl_attr_put_u32(nlh, ROCECTL_A_QP_NUM, 17);
	mnl_attr_put_u8(nlh, ROCECTL_A_QP_TCLASS, 104);
	if (with_prio) {
		mnl_attr_put_u8(nlh, ROCECTL_A_QP_PRIO, 3);
		mnl_attr_put_u8(nlh, ROCECTL_A_QP_PRIO_SOURCE, ROCECTL_QP_PRIO_SOURCE_DSCP);
	}
	return nlh;
}

static void print_qp(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (attrs_parse(nlh, tb) < 0)
		return;
	out_open_object(NULL);
	qp_print_fields(tb, false);
	out_close_object();
}

void blast_print_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	rep = report;
	check("blast: a received-pause storm, text",
	      capture(print_wd, event_msg(buf, ROCECTL_WD_DIR_RX, false), 0),
	      "sim0: detect \n    prio 3 rx state storm storms 1 restores 0 \n"
	      "        affected: qps 3 procs 2 (bytes sent)\n"
	      "          pid 42 comm trainer qps 2 bytes 8192 \n"
	      "          pid 43 comm loader qps 1 bytes 0 ");
	check("blast: a received-pause storm, JSON",
	      capture(print_wd, event_msg(buf, ROCECTL_WD_DIR_RX, false), 1),
	      "{\"ifindex\":5,\"ifname\":\"sim0\",\"event\":\"detect\",\"prios\":[{\"prio\":3,"
	      "\"direction\":\"rx\",\"state\":\"storm\",\"storms\":1,\"restores\":0,"
	      "\"affected_qps\":3,\"affected_procs\":2,\"bytes_counted\":\"sent\",\"affected\":["
	      "{\"pid\":42,\"comm\":\"trainer\",\"qps\":2,\"bytes\":8192},"
	      "{\"pid\":43,\"comm\":\"loader\",\"qps\":1,\"bytes\":0}]}]}\n");
	check("blast: a sent-pause storm names the likely slow receivers",
	      capture(print_wd, event_msg(buf, ROCECTL_WD_DIR_TX, false), 0),
	      "sim0: detect \n    prio 3 tx state storm storms 1 restores 0 \n"
	      "        affected: qps 3 procs 2 (bytes received; likely slow receivers)\n"
	      "          pid 42 comm trainer qps 2 bytes 8192 \n"
	      "          pid 43 comm loader qps 1 bytes 0 ");
	check("blast: a truncated process nest is skipped",
	      capture(print_wd, event_msg(buf, ROCECTL_WD_DIR_RX, true), 0),
	      "sim0: detect \n    prio 3 rx state storm storms 1 restores 0 \n"
	      "        affected: qps 3 procs 2 (bytes sent)\n"
	      "          pid 42 comm trainer qps 2 bytes 8192 \n"
	      "          pid 43 comm loader qps 1 bytes 0 ");
	check("qp prio: text", capture(print_qp, qp_msg(buf, true), 0),
	      "lqpn 17 dscp 26 ecn 0 prio 3 (dscp) ");
	check("qp prio: JSON", capture(print_qp, qp_msg(buf, true), 1),
	      "{\"lqpn\":17,\"dscp\":26,\"ecn\":0,\"prio\":3,\"prio_source\":\"dscp\"}\n");
	check("qp prio: absent where the module knows none",
	      capture(print_qp, qp_msg(buf, false), 0), "lqpn 17 dscp 26 ecn 0 ");
}
