// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: how findings are built from parts (results ranked,
 * evidence and fixes joined), printed as text and JSON, and how the
 * lossless priority is inferred from a DCB state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_test.h"
#include "output.h"

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
}
