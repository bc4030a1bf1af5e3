// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: how findings are built from parts (results ranked,
 * evidence and fixes joined), printed as text and JSON, and how the
 * lossless priority is inferred from a DCB state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "check_test.h"
#include "lib/output.h"

static char *buf;

static const char *report_to_string(struct check_ctx *c, const struct finding *f, int json)
{
	size_t len;
	FILE *s;

	free(buf);
	buf = NULL;
	s = open_memstream(&buf, &len);
	out_init(s, json, 0);
	out_begin_list();
	check_report(c, "pfc", f);
	out_end_list();
	fclose(s);
	return buf;
}

static void check_eq(void (*report)(const char *, int, const char *, const char *),
		     const char *name, const char *got, const char *want)
{
	report(name, !strcmp(got, want), got, want);
}

/* write_file - a temporary policy file holding text; its path in path. */
static void write_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* The intent of port dev/port (netdev) after resolution, as "prio dscp mtu src src src". */
static const char *resolved(struct check_ctx *c, const struct check_decl *args,
			    const struct check_conf *conf, const char *dev,
			    uint32_t portno, const char *netdev)
{
	static char out[1200];
	struct check_port p = { .port = portno };

	snprintf(p.dev, sizeof(p.dev), "%s", dev);
	snprintf(p.netdev, sizeof(p.netdev), "%s", netdev);
	c->p = &p;
	check_resolve_intent(c, args, conf);
	snprintf(out, sizeof(out), "%d %d %u %s %s %s", c->want_prio, c->want_dscp,
		 c->want_mtu, *c->prio_src ? strrchr(c->prio_src, ':') : "-",
		 *c->dscp_src ? strrchr(c->dscp_src, ':') : "-",
		 *c->mtu_src ? strrchr(c->mtu_src, ':') : "-");
	c->p = NULL;
	return out;
}

static void check_conf_tests(void (*report)(const char *, int, const char *, const char *))
{
	char path[] = "/tmp/rocectl-check-conf.XXXXXX", bad[] = "/tmp/rocectl-check-bad.XXXXXX";
	struct check_decl none = { .prio = -1, .dscp = -1 }, args = none;
	struct check_conf conf = { 0 };
	struct check_ctx c = { 0 };
	char err[16];
	int ret;

	write_file(path,
		   "# policy\n"
		   "watchdog set dev sim0 prio 3\n"	/* not check's: skipped */
		   "check prio 4 mtu 1500\n"		/* 3: every port */
		   "  c dev sim0 prio 3   # abbreviated, a comment\n"	/* 4: sim0's device */
		   "check dev rxe0 port 1 dscp 24\n"	/* 5: rxe0 port 1 */
		   "check dev rxe0 prio 5\n"		/* 6: rxe0 (sim0), later than 4 */
		   "\n");
	ret = check_conf_read(&conf, path, true);
	snprintf(err, sizeof(err), "%d %zu", ret, conf.n);
	check_eq(report, "check conf: the four check lines read, the others left", err, "0 4");
	check_eq(report, "check conf: a port no line names takes the every-port line",
		 resolved(&c, &args, &conf, "rxe1", 1, "sim1"), "4 -1 1500 :3 - :3");
	check_eq(report, "check conf: dev by netdev or device, port closest, later of equals",
		 resolved(&c, &args, &conf, "rxe0", 1, "sim0"), "5 24 1500 :6 :5 :3");
	check_eq(report, "check conf: a line of another port does not apply",
		 resolved(&c, &args, &conf, "rxe0", 2, "sim0"), "5 -1 1500 :6 - :3");
	args.prio = 2;
	args.mtu = 9000;
	check_eq(report, "check conf: the command line wins, field by field",
		 resolved(&c, &args, &conf, "rxe0", 1, "sim0"), "2 24 9000 - :5 -");
	check_conf_free(&conf);
	unlink(path);

	write_file(bad, "check dev rxe0\ncheck dev rxe0 port 0\n");
	ret = check_conf_read(&conf, bad, true);
	snprintf(err, sizeof(err), "%d", ret);
	check_eq(report, "check conf: a bad check line fails the read (exit 2)", err, "2");
	check_conf_free(&conf);
	unlink(bad);
	snprintf(err, sizeof(err), "%d %d", check_conf_read(&conf, bad, false),
		 check_conf_read(&conf, bad, true));
	check_eq(report, "check conf: a missing default file is none, a missing named one an error",
		 err, "0 2");
	check_conf_free(&conf);
}

void check_tests(void (*report)(const char *, int, const char *, const char *))
{
	struct check_port port = { .dev = "rxe0", .port = 1, .netdev = "sim0", .state = 4 };
	struct check_ctx c = { .p = &port, .want_prio = -1, .want_dscp = -1 };
	struct finding f = { .any = false };

	finding_add(&f, CHECK_SKIP, NULL, "a");
	finding_add(&f, CHECK_PASS, "never shown", "b");
	check_eq(report, "check: SKIP and PASS parts make a PASS, no fix",
			report_to_string(&c, &f, 0), "PASS pfc rxe0/1 sim0: a; b\n");
	finding_add(&f, CHECK_WARN, "dcb x", "c");
	finding_add(&f, CHECK_FAIL, "dcb y", "d");
	finding_add(&f, CHECK_WARN, "dcb x", "e");
	check_eq(report, "check: the worst part wins, fixes joined once each",
			report_to_string(&c, &f, 0),
			"FAIL pfc rxe0/1 sim0: a; b; c; d; e; fix: dcb x; dcb y\n");
	check_eq(report, "check: JSON object with fix",
			report_to_string(&c, &f, 1),
			"[{\"result\":\"FAIL\",\"check\":\"pfc\",\"dev\":\"rxe0\",\"port\":1,"
			"\"netdev\":\"sim0\",\"evidence\":\"a; b; c; d; e\",\"fix\":\"dcb x; dcb y\"}]\n");
	check_eq(report, "check: the worst result is remembered",
			c.worst == CHECK_FAIL ? "FAIL" : "other", "FAIL");

	/* Intent: one PFC priority; several, where the DSCP lands; none; given. */
	c.dcb.has_pfc = true;
	c.dcb.pfc_en = 1U << 3;
	check_infer_intent(&c);
	check_eq(report, "check: the only PFC-enabled priority is inferred",
			c.prio_why, "inferred: priority 3, the only PFC-enabled one");
	report("check: DSCP 26 by default", c.dscp == 26 && !strcmp(c.dscp_why, "DSCP 26 by default"),
		      c.dscp_why, "DSCP 26 by default");
	c.dcb.pfc_en = (1U << 3) | (1U << 5);
	c.dcb.dscp_prio[26] = 1U << 3;
	check_infer_intent(&c);
	check_eq(report, "check: of several, the one the DSCP maps to",
			c.prio_why, "inferred: priority 3, the PFC-enabled one DSCP 26 maps to");
	c.dcb.dscp_prio[26] = 0;
	check_infer_intent(&c);
	check_eq(report, "check: of several unmapped, the highest",
			c.prio_why, "inferred: priority 5, the highest of the PFC-enabled 3,5");
	c.dcb.pfc_en = 0;
	check_infer_intent(&c);
	report("check: none enabled, none inferred", c.prio == -1, c.prio_why, "");
	c.want_prio = 4;
	c.want_dscp = 24;
	check_infer_intent(&c);
	report("check: given prio and dscp win",
		      c.prio == 4 && c.dscp == 24 && !strcmp(c.prio_why, "priority 4 given") &&
		      !strcmp(c.dscp_why, "DSCP 24 given"), c.prio_why, "priority 4 given");
	free(buf);
	buf = NULL;
	check_conf_tests(report);
}
