/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the objects: the command line's, and a growing array. */
#ifndef ROCECTL_UTILS_H
#define ROCECTL_UTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rocectl;

/*
 * Room for one more in the array *arr of n elements of size bytes, its
 * capacity implied by n (8, then doubling at powers of two): false, *arr
 * untouched, if there is none.
 */
bool grow_array(void **arr, size_t n, size_t size);

/* iproute2-style keyword match: arg is a non-empty prefix of word. */
bool matches(const char *arg, const char *word);

/* Whole-string unsigned parse (decimal, or 0x hex; never octal): 0, -EINVAL or -ERANGE. */
int parse_u32(const char *s, uint32_t *v);

/*
 * The value s of the keyword what, a number from min to max: EXIT_OK, or
 * EXIT_USAGE saying why (no value, not a number, out of range).
 */
int parse_u32_range(const char *what, const char *s, uint32_t min, uint32_t max,
		    uint32_t *v);

/* The current argument, or NULL at the end; and advancing past it. */
const char *arg_peek(const struct rocectl *rc);
const char *arg_next(struct rocectl *rc);

/*
 * A device name from the command line (what: "an RDMA device", "a netdev
 * or RDMA device"): EXIT_OK, or EXIT_USAGE saying why -- missing, empty,
 * or longer than the kernel takes.
 */
int check_dev_name(const char *name, const char *what);

/*
 * handler for SIGINT and SIGTERM, without SA_RESTART: a signal ends the
 * wait (poll, recv) of a command that runs until interrupted.
 */
void stop_on_signals(void (*handler)(int sig));

/* Refuse leftover arguments: EXIT_OK, or EXIT_USAGE with a message. */
int args_done(const struct rocectl *rc);

/* Open the netlink socket on first use; prints the error and returns an exit code. */
int rocectl_connect(struct rocectl *rc);

/*
 * The prologue of a command that has read its arguments: refuse leftover
 * ones, then connect. An exit code, the error said.
 */
int args_done_connect(struct rocectl *rc);

/*
 * The same for a command whose only argument is an optional RDMA device
 * name: *dev is it (NULL: none), checked by check_dev_name().
 */
int arg_dev_connect(struct rocectl *rc, const char **dev);

/* One entry of a command table: keyword, handler, one line of help. */
struct cmd {
	const char *name;
	int (*fn)(struct rocectl *rc);
};

/* The entry of cmds that a (prefix of a) word names, the first such, or NULL. */
const struct cmd *cmd_find(const struct cmd *cmds, const char *word);

/*
 * Run the command the next argument names (the first entry without one),
 * or complain in terms of the object.
 */
int dispatch(struct rocectl *rc, const char *object, const struct cmd *cmds);

#endif
