/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tool's shared state, handed to every object's handler; exit codes in
 * errors.h. Each object declares its handler in its own folder's header.
 */
#ifndef ROCECTL_TOOL_H
#define ROCECTL_TOOL_H

#include <stdbool.h>

#include "errors.h"
#include "nl.h"

struct cmd;

struct rocectl {
	int argc;
	char **argv;
	bool json;
	bool pretty;
	bool details;
	struct nl nl;
	/* The tool's objects, main's table: what a policy line may name. */
	const struct cmd *objects;
};

#endif
