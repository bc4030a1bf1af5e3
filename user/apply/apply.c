// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl apply: the persistent policy. Each line of the file is a command
 * line without the leading "rocectl"; only commands that configure
 * (watchdog set/del/big-red-switch, dcqcn set) are allowed, and "check"
 * lines, the intent rocectl check audits against, and "qp counters follow"
 * lines, the policies rocectl-qp-follow.service runs, and "workload"
 * lines, the roots qp show and the exporter attribute QPs under: apply
 * only checks their grammar. A bad line is reported as FILE:LINE and the next one is tried
 * anyway, so one typo cannot leave a fleet unprotected.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "check/check.h"
#include "dev/dcqcn.h"
#include "lib/conf.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp/qp_follow.h"
#include "qp/workload_conf.h"
#include "watchdog/watchdog.h"

struct apply_count {
	unsigned int applied, failed, skipped;
	unsigned int declared;	/* check lines: intent for rocectl check, nothing to apply */
	unsigned int follow;	/* qp counters follow lines: rocectl-qp-follow.service's */
	unsigned int workload;	/* workload lines: the roots the views read */
	int status;	/* exit status of the first failing line */
};

/* A "qp counters follow" line: a policy rocectl-qp-follow.service runs. */
static bool follow_conf_line(int n, char **words)
{
	return n >= 3 && !strcmp(words[0], "qp") && !strcmp(words[1], "counters") &&
	       !strcmp(words[2], "follow");
}

/* The dev argument of a policy line, or NULL. */
static const char *line_dev(int n, char **words)
{
	int i;

	for (i = 2; i + 1 < n; i++)
		if (!strcmp(words[i], "dev"))
			return words[i + 1];
	return NULL;
}

static int run_line(struct rocectl *rc, int n, char **words)
{
	const struct cmd *obj = n ? cmd_find(rc->objects, words[0]) : NULL;
	int saved_argc = rc->argc, ret;
	char **saved_argv = rc->argv;

	if (!obj || n < 2 ||
	    !((obj->fn == cmd_watchdog && wd_changes_config(words[1])) ||
	      (obj->fn == cmd_dcqcn && dcqcn_changes_config(words[1])))) {
		pr_err("Error: only \"watchdog set\", \"watchdog del\", \"watchdog big-red-switch\", \"dcqcn set\", \"check\" and \"qp counters follow\" may appear in a policy file, beside \"workload\" lines.\n");
		return EXIT_USAGE;
	}
	rc->argc = n;
	rc->argv = words;
	arg_next(rc);
	ret = obj->fn(rc);
	rc->argc = saved_argc;
	rc->argv = saved_argv;
	return ret;
}

static int apply_file(struct rocectl *rc, const char *path, FILE *f,
		      const char *only_dev, struct apply_count *cnt)
{
	char *line = NULL, *words[CONF_MAX_WORDS], where[512];
	struct follow_policy policy;
	struct check_decl decl;
	struct workload_roots roots = { 0 };
	unsigned int lineno = 0;
	size_t cap = 0;
	int n, ret;

	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		err_where = where;
		n = conf_split_words(line, words);
		if (n == 0)
			continue;
		if (n < 0) {
			pr_err("Error: more than %d words on one line.\n", CONF_MAX_WORDS);
			ret = EXIT_USAGE;
		} else if (check_conf_line(n, words)) {
			ret = check_line_parse(n, words, &decl);
			if (ret == EXIT_OK) {
				cnt->declared++;
				continue;
			}
		} else if (follow_conf_line(n, words)) {
			/* rocectl-qp-follow.service runs them: only the grammar here. */
			ret = follow_policy_parse(n - 3, words + 3, &policy);
			if (ret == EXIT_OK) {
				cnt->follow++;
				continue;
			}
		} else if (workload_conf_line(n, words)) {
			/* Read by each qp show and exporter: only the grammar here. */
			ret = workload_conf_parse(n, words, &roots);
			if (ret == EXIT_OK) {
				cnt->workload++;
				continue;
			}
		} else if (only_dev && (!line_dev(n, words) ||
					strcmp(line_dev(n, words), only_dev))) {
			cnt->skipped++;
			continue;
		} else {
			ret = run_line(rc, n, words);
		}
		if (ret == EXIT_OK) {
			cnt->applied++;
			continue;
		}
		cnt->failed++;
		if (!cnt->status)
			cnt->status = ret;
		/* Without the module no later line can succeed: say it once. */
		if (ret == EXIT_NO_MODULE)
			break;
	}
	err_where = NULL;
	free(line);
	if (ferror(f)) {
		pr_err("Error: reading %s: %s.\n", path, strerror(errno));
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

static int apply_help(void)
{
	printf("Usage: rocectl apply [ FILE ] [ dev DEV ]\n"
	       "Runs each line of FILE (default " POLICY_FILE ") as a rocectl\n"
	       "command: watchdog set, watchdog del, watchdog big-red-switch or\n"
	       "dcqcn set; '#' comments. \"check\" lines declare what rocectl check\n"
	       "audits against, \"qp counters follow\" lines the QPs\n"
	       "rocectl-qp-follow.service gives hardware counters, \"workload\" lines\n"
	       "the roots pods and Slurm jobs are read under: apply only checks\n"
	       "them. dev DEV applies only the\n"
	       "lines naming DEV (hot-plug).\n"
	       "A failing line does not stop the others (a missing module does).\n"
	       "Exits with the status of the first failing line.\n");
	return EXIT_OK;
}

int cmd_apply(struct rocectl *rc)
{
	const char *path = POLICY_FILE, *only_dev = NULL, *w;
	struct apply_count cnt = { 0 };
	FILE *f;
	int err;

	w = arg_peek(rc);
	if (w && !strcmp(w, "help"))
		return apply_help();
	if (w && strcmp(w, "dev")) {
		path = arg_next(rc);
		w = arg_peek(rc);
	}
	if (w && !strcmp(w, "dev")) {
		arg_next(rc);
		only_dev = arg_next(rc);
		if (!only_dev || !*only_dev) {
			pr_err("Error: dev needs a netdev or RDMA device name.\n");
			return EXIT_USAGE;
		}
	}
	err = args_done(rc);
	if (err)
		return err;

	f = fopen(path, "r");
	if (!f) {
		pr_err("Error: cannot open the policy file %s: %s.\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	err = apply_file(rc, path, f, only_dev, &cnt);
	fclose(f);

	out_open_object(NULL);
	out_str("file", "%s: ", path);
	out_uint("applied", "%" PRIu64 " applied, ", cnt.applied);
	out_uint("failed", "%" PRIu64 " failed", cnt.failed);
	if (cnt.declared)
		out_uint("check_lines", ", %" PRIu64 " check lines (rocectl check's intent)",
			 cnt.declared);
	if (cnt.follow)
		out_uint("follow_lines", ", %" PRIu64 " follow lines (rocectl-qp-follow.service's)",
			 cnt.follow);
	if (cnt.workload)
		out_uint("workload_lines", ", %" PRIu64 " workload lines (roots of pods and jobs)",
			 cnt.workload);
	if (only_dev) {
		out_str("dev", " (lines naming %s", only_dev);
		out_uint("skipped", "; %" PRIu64 " others skipped)", cnt.skipped);
	}
	out_text("\n");
	out_close_object();
	return err ? err : cnt.status;
}
