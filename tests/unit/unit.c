// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the rocectl tool: argument parsing, the JSON writer, the
 * one printing path (a device message printed as text and as JSON), and
 * error sentences. Built and run under ASan/UBSan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#include "blast_print_test.h"
#include "bth_test.h"
#include "check_ecmp_test.h"
#include "check_test.h"
#include "dev/dev.h"
#include "follow_budget_test.h"
#include "lib/attrs.h"
#include "lib/json_writer.h"
#include "lib/nl.h"
#include "lib/optional_libs.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "metrics_owners_test.h"
#include "metrics_sums_test.h"
#include "metrics_workloads_test.h"
#include "mlx5/mlx5_test.h"
#include "prom_test.h"
#include "qp/qp_fields.h"
#include "qp_counters_test.h"
#include "qp_follow_test.h"
#include "qp_sport_test.h"
#include "path_links_test.h"
#include "path_plan_test.h"
#include "qp_type_test.h"
#include "web_config_test.h"
#include "wd_judge_test.h"
#include "workload_test.h"

static int failed;

static void report(const char *name, int ok, const char *got, const char *want)
{
	if (ok) {
		printf("ok - unit: %s\n", name);
		return;
	}
	failed++;
	printf("not ok - unit: %s # got [%s] want [%s]\n", name,
	       got ? got : "", want ? want : "");
}

static void check_str(const char *name, const char *got, const char *want)
{
	report(name, !strcmp(got, want), got, want);
}

/* Runs fn with the output redirected to a string. */
static char *capture(void (*fn)(void *), void *arg, int json, int pretty)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_init(f, json, pretty);
	fn(arg);
	fclose(f);
	return buf;
}

static void test_matches(void)
{
	report("matches: prefix of a keyword", matches("d", "dev") && matches("dev", "dev"), NULL, NULL);
	report("matches: longer or empty words do not", !matches("devx", "dev") && !matches("", "dev") && !matches("x", "dev"), NULL, NULL);
}

static void test_parse_u32(void)
{
	static const struct { const char *s; int err; uint32_t v; } cases[] = {
		{ "0", 0, 0 }, { "42", 0, 42 }, { "0x10", 0, 16 },
		{ "4294967295", 0, 4294967295U }, { "4294967296", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 }, { "-1", -EINVAL, 0 },
		{ "12a", -EINVAL, 0 }, { "", -EINVAL, 0 }, { " 1", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 }, { "026", 0, 26 }, { "048", 0, 48 }, { "0x", -EINVAL, 0 },
	};
	unsigned int i;
	int ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t v = 0;
		int err = parse_u32(cases[i].s, &v);

		if (err != cases[i].err || (!err && v != cases[i].v)) {
			printf("# parse_u32(\"%s\") = %d, %u\n", cases[i].s, err, v);
			ok = 0;
		}
	}
	report("parse_u32: bounds, bases, junk", ok, NULL, NULL);
}

static void json_doc(void *arg)
{
	(void)arg;
	out_begin_list();
	out_open_object(NULL);
	out_str("s", "s %s ", "a\"b\\c\n\t\x01");
	out_uint("n", "n %lu ", 18446744073709551615UL);
	out_int("i", "i %ld ", -5);
	out_bool("b", "b %s ", true);
	out_open_array("a");
	out_str(NULL, NULL, "x");
	out_uint(NULL, NULL, 1);
	out_close_array();
	out_open_object("o");
	out_close_object();
	out_close_object();
	out_nl();
	out_end_list();
}

static void test_json(void)
{
	check_str("json: compact document with escaping",
		  capture(json_doc, NULL, 1, 0),
		  "[{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"n\":18446744073709551615,"
		  "\"i\":-5,\"b\":true,\"a\":[\"x\",1],\"o\":{}}]\n");
	check_str("json: pretty document",
		  capture(json_doc, NULL, 1, 1),
		  "[\n    {\n        \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\",\n"
		  "        \"n\": 18446744073709551615,\n        \"i\": -5,\n"
		  "        \"b\": true,\n        \"a\": [\n            \"x\",\n"
		  "            1\n        ],\n        \"o\": {}\n    }\n]\n");
	/* Text escapes the string's control bytes (rocectl(8), OUTPUT). */
	check_str("text: the same calls print text",
		  capture(json_doc, NULL, 0, 0),
		  "s a\"b\\c\\x0a\\x09\\x01 n 18446744073709551615 i -5 b true \n");
}

/* The writer's own number formatting and its runs between escapes. */
static void test_json_writer(void)
{
	struct json_writer jw;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	jw_init(&jw, f, false);
	jw_start_array(&jw);
	jw_int(&jw, INT64_MIN);
	jw_int(&jw, INT64_MAX);
	jw_uint(&jw, 0);
	jw_int(&jw, 0);
	jw_string(&jw, "");
	jw_string(&jw, "plain run\x7fthen\r\x1f\"end\\");
	jw_end_array(&jw);
	jw_flush(&jw);
	fclose(f);
	check_str("json: numbers at their limits, escapes between runs", buf,
		  "[-9223372036854775808,9223372036854775807,0,0,\"\","
		  "\"plain run\\u007fthen\\r\\u001f\\\"end\\\\\"]");
	free(buf);
}

/* An interrupted dump's output is forgotten; the retry's is kept. */
static void capture_doc(void *arg)
{
	(void)arg;
	out_begin_list();
	out_capture_begin();
	out_open_object(NULL);
	out_uint("try", "try %lu", 1);
	out_close_object();
	out_nl();
	out_capture_end(false);
	out_capture_begin();
	out_open_object(NULL);
	out_uint("try", "try %lu", 2);
	out_close_object();
	out_nl();
	out_capture_end(true);
	out_end_list();
}

static void test_capture(void)
{
	check_str("capture: a discarded attempt leaves no trace (JSON)",
		  capture(capture_doc, NULL, 1, 0), "[{\"try\":2}]\n");
	check_str("capture: a discarded attempt leaves no trace (text)",
		  capture(capture_doc, NULL, 0, 0), "try 2\n");
}

/* A DEV_GET reply as the kernel builds it. */
static struct nlmsghdr *dev_msg(char *buf)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *port;

	g->cmd = ROCECTL_CMD_DEV_GET;
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, "rxe0");
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_DRIVER, ROCECTL_DRIVER_RXE);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_DRIVER_NAME, "rdma_rxe");
	mnl_attr_put_u64(nlh, ROCECTL_A_DEV_NODE_GUID, 0x505400fffe123456ULL);
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_NUM_PORTS, 1);
	port = mnl_attr_nest_start(nlh, ROCECTL_A_DEV_PORT);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_INDEX, 1);
	mnl_attr_put_u8(nlh, ROCECTL_A_PORT_STATE, ROCECTL_PORT_ACTIVE);
	mnl_attr_put_u8(nlh, ROCECTL_A_PORT_PHYS_STATE, ROCECTL_PORT_PHYS_LINK_UP);
	mnl_attr_put_u8(nlh, ROCECTL_A_PORT_LINK_LAYER, ROCECTL_LINK_LAYER_ETHERNET);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_ROCE, ROCECTL_ROCE_V2);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_GID_TYPES, ROCECTL_GID_TYPE_ROCE_V1 | ROCECTL_GID_TYPE_ROCE_V2);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_ACTIVE_MTU, 1024);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_MAX_MTU, 4096);
	mnl_attr_put_u32(nlh, ROCECTL_A_PORT_NETDEV_INDEX, 7);
	mnl_attr_put_strz(nlh, ROCECTL_A_PORT_NETDEV_NAME, "veth0");
	mnl_attr_nest_end(nlh, port);
	/* An attribute from a newer module is ignored, not an error. */
	mnl_attr_put_u32(nlh, ROCECTL_A_MAX + 10, 1);
	return nlh;
}

struct dev_arg {
	const struct nlmsghdr *nlh;
	bool details;
};

static void print_dev(void *arg)
{
	struct dev_arg *a = arg;
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (dev_parse(a->nlh, tb) < 0)
		return;
	out_begin_list();
	out_open_object(NULL);
	dev_print_fields(a->nlh, tb, a->details);
	out_close_object();
	out_nl();
	out_end_list();
}

static void test_dev_print(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct dev_arg a = { dev_msg(buf), false };

	check_str("dev: text",
		  capture(print_dev, &a, 0, 0),
		  "3: rxe0: driver rdma_rxe node_guid 5054:00ff:fe12:3456 ports 1 \n"
		  "    port 1 state ACTIVE physical_state LINK_UP link_layer ethernet "
		  "roce v2 mtu 1024 netdev veth0 \n");
	check_str("dev: JSON carries the same fields",
		  capture(print_dev, &a, 1, 0),
		  "[{\"ifindex\":3,\"ifname\":\"rxe0\",\"driver\":\"rdma_rxe\","
		  "\"node_guid\":\"5054:00ff:fe12:3456\",\"num_ports\":1,\"ports\":[{"
		  "\"port\":1,\"state\":\"ACTIVE\",\"physical_state\":\"LINK_UP\","
		  "\"link_layer\":\"ethernet\",\"roce\":[\"v2\"],\"mtu\":1024,"
		  "\"netdev\":\"veth0\"}]}]\n");
	a.details = true;
	check_str("dev: details in text",
		  capture(print_dev, &a, 0, 0),
		  "3: rxe0: driver rdma_rxe node_guid 5054:00ff:fe12:3456 backend rxe ports 1 \n"
		  "    port 1 state ACTIVE physical_state LINK_UP link_layer ethernet "
		  "roce v2 mtu 1024 netdev veth0 netdev_index 7 max_mtu 4096 "
		  "gid_types RoCEv1,RoCEv2 \n");
}

/* A QP failure record's own fields: cause, the last states, number, id. */
static void print_qp_error(void *arg)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];

	if (attrs_parse(arg, tb) < 0)
		return;
	out_open_object(NULL);
	qp_print_error(tb);
	out_close_object();
}

static struct nlmsghdr *qp_error_msg(char *buf, uint8_t cause, uint16_t history)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->cmd = ROCECTL_CMD_QP_ERROR_GET;
	mnl_attr_put_u64(nlh, ROCECTL_A_QP_ERROR_SEQ, 7);
	mnl_attr_put_u8(nlh, ROCECTL_A_QP_ERROR_CAUSE, cause);
	mnl_attr_put_u16(nlh, ROCECTL_A_QP_HISTORY, history);
	mnl_attr_put_u64(nlh, ROCECTL_A_QP_ID, 42);
	return nlh;
}

static void test_qp_error_print(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	/* INIT, RTR, RTS, ERR: the history's nibbles, newest low. */
	check_str("qp errors: text, oldest state first",
		  capture(print_qp_error, qp_error_msg(buf, ROCECTL_QP_ERROR_CAUSE_DRIVER, 0x1236), 0, 0),
		  "#7 cause driver history INIT>RTR>RTS>ERR ");
	check_str("qp errors: JSON",
		  capture(print_qp_error, qp_error_msg(buf, ROCECTL_QP_ERROR_CAUSE_REQ_ERR, 0x1236), 1, 0),
		  "{\"seq\":7,\"cause\":\"req-err\",\"history\":[\"INIT\",\"RTR\",\"RTS\",\"ERR\"],\"id\":42}\n");
	/* Fewer than four states since creation: 0xf is none. */
	check_str("qp errors: a short history",
		  capture(print_qp_error, qp_error_msg(buf, ROCECTL_QP_ERROR_CAUSE_FATAL, 0xff06), 0, 0),
		  "#7 cause fatal history RESET>ERR ");
	/* A cause or state from a newer module: named as unknown, not read past the tables. */
	check_str("qp errors: unknown cause and state",
		  capture(print_qp_error, qp_error_msg(buf, 200, 0xfff9), 1, 0),
		  "{\"seq\":7,\"cause\":\"UNKNOWN\",\"history\":[\"UNKNOWN\"],\"id\":42}\n");
}

/* A truncated port nest must not be read past its end. */
static void test_dev_malformed(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct dev_arg a = { nlh, true };

	g->cmd = ROCECTL_CMD_DEV_GET;
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, 1);
	mnl_attr_put_u16(nlh, ROCECTL_A_DEV_NUM_PORTS, 1);	/* wrong size */
	mnl_attr_put(nlh, ROCECTL_A_DEV_NAME, 4, "rxe0");	/* no NUL */
	check_str("dev: attributes of the wrong size or type are skipped",
		  capture(print_dev, &a, 0, 0), "1: \n");
}

/*
 * Text escapes what a name or path holds that a terminal would obey (JSON
 * escapes its own way): each case's bytes, and what text prints.
 */
static void test_text_escape(void)
{
	static const struct {
		const char *name, *in, *want;
	} cases[] = {
		{ "printable ASCII as it is", "mlx5_0 /kubepods.slice", "mlx5_0 /kubepods.slice" },
		{ "a backslash as it is (systemd's escapes read as they are)",
		  "/system.slice/dev-disk-by\\x2duuid.swap", "/system.slice/dev-disk-by\\x2duuid.swap" },
		{ "ESC and BEL of a terminal title sequence", "a\x1b]0;pwned\x07z", "a\\x1b]0;pwned\\x07z" },
		{ "newline, tab, carriage return", "a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd" },
		{ "DEL", "a\x7f", "a\\x7f" },
		{ "a raw byte", "a\xff", "a\\xff" },
		{ "a stray continuation byte", "a\x80z", "a\\x80z" },
		{ "a truncated sequence at the end", "a\xe8\xae", "a\\xe8\\xae" },
		{ "an overlong '/'", "a\xc0\xafz", "a\\xc0\\xafz" },
		{ "a C1 control (CSI) in UTF-8", "a\xc2\x9b" "2Jz", "a\\xc2\\x9b" "2Jz" },
		{ "a surrogate", "a\xed\xa0\x80", "a\\xed\\xa0\\x80" },
		{ "printable UTF-8 as it is", "caf\xc3\xa9 \xe8\xae\xad \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xe8\xae\xad \xf0\x9f\x98\x80" },
		{ "the empty string", "", "" },
	};
	char name[160], *e;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e = out_text_escape(cases[i].in);
		snprintf(name, sizeof(name), "text escape: %s", cases[i].name);
		check_str(name, e ? e : "(null)", cases[i].want);
		free(e);
	}
}

static void print_named(void *arg)
{
	out_open_object(NULL);
	out_str("comm", "comm %-8s|", arg);
	out_close_object();
	out_nl();
}

/* A device whose name came from the kernel with bytes in it. */
static void test_text_escape_printed(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct dev_arg a = { nlh, false };

	g->cmd = ROCECTL_CMD_DEV_GET;
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, 1);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, "rxe\x1b[2J0");
	check_str("text escape: a device name in dev show's text",
		  capture(print_dev, &a, 0, 0), "1: rxe\\x1b[2J0: \n");
	check_str("text escape: JSON unchanged, its own escape",
		  capture(print_dev, &a, 1, 0), "[{\"ifindex\":1,\"ifname\":\"rxe\\u001b[2J0\"}]\n");
	check_str("text escape: a field's width counts the escaped text",
		  capture(print_named, "a\tb", 0, 0), "comm a\\x09b  |\n");
	check_str("text escape: a plain value's width as before",
		  capture(print_named, "ab", 0, 0), "comm ab      |\n");
}

struct err_arg {
	int err;
	const char *msg, *attr, *missing;
};

static char *capture_error(const struct err_arg *e)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	nl_print_error(f, e->err, e->msg, e->attr, e->missing);
	fclose(f);
	return buf;
}

static void test_errors(void)
{
	struct err_arg e1 = { ENODEV, "rocectl: no RDMA device has this name", "dev-name", "" };
	struct err_arg e2 = { EINVAL, "rocectl: an RDMA device is required: give its index or name", "", "dev-name" };
	struct err_arg e3 = { ENODEV, "", "", "" };
	struct err_arg e4 = { EPERM, "", "", "" };
	struct err_arg e5 = { EOPNOTSUPP, "", "", "" };

	check_str("error: extack message and attribute", capture_error(&e1),
		  "Error: rocectl: no RDMA device has this name (attribute dev-name).\n");
	check_str("error: missing attribute", capture_error(&e2),
		  "Error: rocectl: an RDMA device is required: give its index or name (missing attribute dev-name).\n");
	check_str("error: errno only", capture_error(&e3),
		  "Error: kernel answers: No such device.\n");
	check_str("error: permission", capture_error(&e4),
		  "Error: permission denied: this needs CAP_NET_ADMIN (run as root).\n");
	check_str("error: unknown command means an older module", capture_error(&e5),
		  "Error: the loaded rocectl module does not know this command: it is older than this tool.\n");
	check_str("error: attribute names", nl_attr_name(ROCECTL_A_DEV_INDEX), "dev-index");
	report("error: unknown attribute has no name", nl_attr_name(999) == NULL, NULL, NULL);
}

static int called;

static int cmd_a(struct rocectl *rc)
{
	(void)rc;
	called = 1;
	return EXIT_OK;
}

static int cmd_b(struct rocectl *rc)
{
	called = 2;
	return args_done(rc);
}

static void test_dispatch(void)
{
	static const struct cmd cmds[] = { { "show", cmd_a }, { "set", cmd_b }, { NULL, NULL } };
	char *v1[] = { "s" }, *v2[] = { "set", "x" }, *v3[] = { "bogus" };
	struct rocectl rc = { .argc = 0 };
	int ret;

	called = 0;
	ret = dispatch(&rc, "obj", cmds);
	report("dispatch: no command runs the first", ret == EXIT_OK && called == 1, NULL, NULL);
	rc.argc = 1, rc.argv = v1, called = 0;
	ret = dispatch(&rc, "obj", cmds);
	report("dispatch: a prefix picks the first match in order", ret == EXIT_OK && called == 1, NULL, NULL);
	rc.argc = 2, rc.argv = v2, called = 0;
	ret = dispatch(&rc, "obj", cmds);
	report("dispatch: leftover arguments are a usage error", ret == EXIT_USAGE && called == 2, NULL, NULL);
	rc.argc = 1, rc.argv = v3, called = 0;
	ret = dispatch(&rc, "obj", cmds);
	report("dispatch: unknown command is a usage error", ret == EXIT_USAGE && called == 0, NULL, NULL);
}

/*
 * The libraries the exporter and monitor journal open: every symbol
 * resolves (a name misspelt in optional_libs.c would fail only at run
 * time), and a second load reuses the first.
 */
static void test_optional_libs(void)
{
	const void *const *p;
	size_t i;
	int ok;

	ok = !mhd_load() && !mhd_load();
	for (p = (const void *const *)&mhd, i = 0; ok && i < sizeof(mhd) / sizeof(*p); i++)
		ok = p[i] != NULL;
	report("optional libraries: libmicrohttpd opens, every MHD symbol resolves", ok, NULL, NULL);
	ok = !journal_lib_load() && journal_lib.sendv;
	report("optional libraries: libsystemd opens, sd_journal_sendv resolves", ok, NULL, NULL);
}

static void report_bool(const char *name, int ok)
{
	report(name, ok, NULL, NULL);
}

int main(void)
{
	bth_tests(report_bool);
	wd_judge_tests(report_bool);
	qp_type_tests(report_bool);
	test_matches();
	test_parse_u32();
	test_json();
	test_json_writer();
	test_capture();
	test_dev_print();
	test_dev_malformed();
	test_text_escape();
	test_text_escape_printed();
	test_qp_error_print();
	test_errors();
	test_dispatch();
	test_optional_libs();
	check_tests(report);
	check_ecmp_tests(report);
	blast_print_tests(report);
	workload_tests(report);
	metrics_workloads_tests(report);
	qp_sport_tests(report);
	path_plan_tests(report);
	path_links_tests(report);
	prom_tests(report);
	metrics_sums_tests(report);
	metrics_owners_tests(report);
	web_config_tests(report);
	failed += mlx5_tests();
	failed += qp_counters_tests();
	failed += qp_follow_tests();
	failed += follow_budget_tests();
	return failed ? 1 : 0;
}
