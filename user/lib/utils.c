// SPDX-License-Identifier: GPL-2.0
/* Command-line helpers shared by the objects. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <linux/rocectl.h>

#include "errors.h"
#include "rocectl.h"
#include "utils.h"

bool grow_array(void **arr, size_t n, size_t size)
{
	void *p;

	if (n & (n - 1) && n > 8)
		return true;	/* capacity doubles at powers of two */
	p = realloc(*arr, (n < 8 ? 8 : 2 * n) * size);
	if (!p)
		return false;
	*arr = p;
	return true;
}

bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len > 0 && len <= strlen(word) && !strncmp(arg, word, len);
}

int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long n;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	/* Decimal, or hex with 0x: a leading zero is no octal (DSCP 026 is 26). */
	n = strtoull(s, &end, strncmp(s, "0x", 2) && strncmp(s, "0X", 2) ? 10 : 16);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || n > UINT32_MAX)
		return -ERANGE;
	*v = n;
	return 0;
}

const char *arg_peek(const struct rocectl *rc)
{
	return rc->argc > 0 ? rc->argv[0] : NULL;
}

const char *arg_next(struct rocectl *rc)
{
	if (rc->argc <= 0)
		return NULL;
	rc->argc--;
	return *rc->argv++;
}

int parse_u32_range(const char *what, const char *s, uint32_t min, uint32_t max,
		    uint32_t *v)
{
	if (!s) {
		pr_err("Error: %s needs a value.\n", what);
		return EXIT_USAGE;
	}
	if (parse_u32(s, v) || *v < min || *v > max) {
		pr_err("Error: %s \"%s\" is not a number from %" PRIu32 " to %" PRIu32 ".\n",
		       what, s, min, max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int check_dev_name(const char *name, const char *what)
{
	if (!name) {
		pr_err("Error: dev needs %s name.\n", what);
		return EXIT_USAGE;
	}
	if (!*name) {
		pr_err("Error: the device name is empty.\n");
		return EXIT_USAGE;
	}
	if (strlen(name) > ROCECTL_DEV_NAME_MAX) {
		pr_err("Error: device name \"%.16s...\" is too long: at most %d characters.\n",
		       name, ROCECTL_DEV_NAME_MAX);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void stop_on_signals(void (*handler)(int sig))
{
	struct sigaction sa = { .sa_handler = handler };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int args_done(const struct rocectl *rc)
{
	if (rc->argc <= 0)
		return EXIT_OK;
	pr_err("Error: unexpected argument \"%s\".\n", rc->argv[0]);
	return EXIT_USAGE;
}

const struct cmd *cmd_find(const struct cmd *cmds, const char *word)
{
	const struct cmd *c;

	for (c = cmds; c->name; c++)
		if (matches(word, c->name))
			return c;
	return NULL;
}

int dispatch(struct rocectl *rc, const char *object, const struct cmd *cmds)
{
	const char *word = arg_peek(rc);
	const struct cmd *c;

	if (!word)
		return cmds[0].fn(rc);
	c = cmd_find(cmds, word);
	if (c) {
		arg_next(rc);
		return c->fn(rc);
	}
	pr_err("Error: unknown %s command \"%s\": try \"rocectl %s help\".\n",
		object, word, object);
	return EXIT_USAGE;
}

int rocectl_connect(struct rocectl *rc)
{
	if (rc->nl.sock)
		return EXIT_OK;
	return nl_open(&rc->nl, false);
}

int args_done_connect(struct rocectl *rc)
{
	int err = args_done(rc);

	return err ? err : rocectl_connect(rc);
}

int arg_dev_connect(struct rocectl *rc, const char **dev)
{
	int err;

	*dev = arg_next(rc);
	err = *dev ? check_dev_name(*dev, "an RDMA device") : EXIT_OK;
	return err ? err : args_done_connect(rc);
}
