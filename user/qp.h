/* SPDX-License-Identifier: GPL-2.0 */
/* QPs: printing shared by `qp show`, `qp stats` and `monitor`. */
#ifndef ROCECTL_QP_H
#define ROCECTL_QP_H

#include <stdbool.h>
#include <libmnl/libmnl.h>

/* The identity fields of one QP message. */
void qp_print_fields(const struct nlattr **tb, bool details);
/* Its counters, labelled with where they come from. */
void qp_print_stats(const struct nlattr **tb);

const char *qp_type_name(unsigned int type);
const char *qp_state_name(unsigned int state);
/* A GID as an address: IPv4 for IPv4-mapped GIDs, IPv6 otherwise. */
void qp_format_gid(const unsigned char *gid, char *buf, size_t len);

#endif
