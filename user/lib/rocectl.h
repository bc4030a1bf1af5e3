/* SPDX-License-Identifier: GPL-2.0 */
/* The tool's shared state and object entry points; exit codes in errors.h. */
#ifndef ROCECTL_TOOL_H
#define ROCECTL_TOOL_H

#include <stdbool.h>

#include "errors.h"
#include "nl.h"

struct rocectl {
	int argc;
	char **argv;
	bool json;
	bool pretty;
	bool details;
	struct nl nl;
};

struct cmd;

/* The object a (prefix of a) word names, or NULL. */
const struct cmd *rocectl_object(const char *word);

/* The object handlers: each consumes rc->argv and returns an exit code. */
int cmd_apply(struct rocectl *rc);
int cmd_check(struct rocectl *rc);
int cmd_exporter(struct rocectl *rc);
int cmd_dcqcn(struct rocectl *rc);
int cmd_dev(struct rocectl *rc);
int cmd_monitor(struct rocectl *rc);
int cmd_qp(struct rocectl *rc);
int cmd_watchdog(struct rocectl *rc);
int dev_stats(struct rocectl *rc);

/* Whether a watchdog verb (or its prefix) changes configuration. */
bool wd_changes_config(const char *verb);
bool dcqcn_changes_config(const char *verb);

#endif
