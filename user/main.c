// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: observe and protect RoCEv2 hosts through the rocectl kernel
 * module. Object-first grammar, as in iproute2: rocectl OBJECT COMMAND.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/rocectl.h>
#include <rocectl_version.h>

#include "apply/apply.h"
#include "check/check.h"
#include "dev/dcqcn.h"
#include "dev/dev.h"
#include "exporter/exporter.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "monitor/monitor.h"
#include "qp/qp.h"
#include "watchdog/watchdog.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"where  OBJECT := { dev | qp | watchdog | dcqcn | check | monitor | exporter | apply | version | help }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -d[etails] | -V[ersion] | -h[elp] }\n"
		"Exit status: 0 success, 1 a check found its condition, 2 usage error,\n"
		"             3 rocectl module not loaded, 4 request refused or failed.\n");
}

static int cmd_help(struct rocectl *rc)
{
	(void)rc;
	usage(stdout);
	return EXIT_OK;
}

/* Reads the loaded module's version; empty if it is not loaded. */
static void module_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/rocectl/version", "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static int cmd_version(struct rocectl *rc)
{
	char modver[64];
	int err = args_done(rc);

	if (err)
		return err;
	module_version(modver, sizeof(modver));

	out_open_object(NULL);
	out_str("version", "rocectl %s", ROCECTL_VERSION);
	out_uint("abi", " (netlink ABI %" PRIu64 ")\n", ROCECTL_GENL_VERSION);
	if (nl_open(&rc->nl, true) == EXIT_OK) {
		out_str("module_version", "module %s",
			*modver ? modver : "unknown");
		out_uint("module_abi", " (netlink ABI %" PRIu64 ")\n",
			 rc->nl.family_version);
		if (rc->nl.family_version < ROCECTL_GENL_VERSION)
			out_text("The module is older than the tool: newer commands will be refused.\n");
	} else {
		out_text("module not loaded\n");
	}
	out_close_object();
	return EXIT_OK;
}

static const struct cmd objects[] = {
	{ "help", cmd_help },
	{ "dev", cmd_dev },
	{ "qp", cmd_qp },
	{ "watchdog", cmd_watchdog },
	{ "monitor", cmd_monitor },
	{ "version", cmd_version },
	{ "apply", cmd_apply },
	{ "dcqcn", cmd_dcqcn },
	{ "check", cmd_check },
	{ "exporter", cmd_exporter },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "details", no_argument, NULL, 'd' },
		{ "Version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rocectl rc = { .objects = objects };
	const struct cmd *c;
	const char *object;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+jpdVh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			rc.json = true;
			break;
		case 'p':
			rc.pretty = true;
			break;
		case 'd':
			rc.details = true;
			break;
		case 'V':
			printf("rocectl %s\n", ROCECTL_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	/* -p implies JSON, as in iproute2. */
	if (rc.pretty)
		rc.json = true;
	rc.argc = argc - optind;
	rc.argv = argv + optind;
	out_init(stdout, rc.json, rc.pretty);

	object = arg_next(&rc);
	if (!object) {
		usage(stderr);
		return EXIT_USAGE;
	}
	c = cmd_find(objects, object);
	if (c) {
		ret = c->fn(&rc);
	} else {
		pr_err("Error: unknown object \"%s\": try \"rocectl help\".\n",
			object);
		ret = EXIT_USAGE;
	}
	nl_close(&rc.nl);
	return ret;
}
