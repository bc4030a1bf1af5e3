/* SPDX-License-Identifier: GPL-2.0 */
/* RDMA devices: printing shared by `dev show` and `monitor`. */
#ifndef ROCECTL_DEV_H
#define ROCECTL_DEV_H

#include <stdbool.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

/* The top-level attributes of one message, validated by type. */
int dev_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);

/* The fields of one device (inside an object the caller opened). */
void dev_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		      bool details);

struct rocectl;

/* rocectl dev: the object's handler; dev stats, its counters. */
int cmd_dev(struct rocectl *rc);
int dev_stats(struct rocectl *rc);

/* Value names as rdma(8) prints them. */
const char *dev_port_state_name(unsigned int state);
const char *dev_port_phys_state_name(unsigned int state);

#endif
