/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing the module's messages: every attribute checked against its type. */
#ifndef ROCECTL_ATTRS_H
#define ROCECTL_ATTRS_H

#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The top-level attributes of one message; unknown (newer) and malformed
 * attributes are left out. Repeated attributes keep their first instance.
 */
int attrs_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);

/* The same for a nest of ports or QP counters. */
int attrs_parse_port(const struct nlattr *nest, const struct nlattr **tb);
int attrs_parse_qp_stats(const struct nlattr *nest, const struct nlattr **tb);
int attrs_parse_wd_prio(const struct nlattr *nest, const struct nlattr **tb);
int attrs_parse_wd_blast(const struct nlattr *nest, const struct nlattr **tb);

/* A name from a table, or "UNKNOWN". */
const char *name_of(const char *const *names, size_t n, unsigned int v);

#endif
