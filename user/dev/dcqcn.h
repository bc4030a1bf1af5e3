/* SPDX-License-Identifier: GPL-2.0 */
/* DCQCN: the congestion control a hardware backend reads and sets. */
#ifndef ROCECTL_DCQCN_H
#define ROCECTL_DCQCN_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/rocectl.h>

struct rocectl;

/* rocectl dcqcn: the object's handler; whether a verb (or its prefix) configures. */
int cmd_dcqcn(struct rocectl *rc);
bool dcqcn_changes_config(const char *verb);

/*
 * Print, inside the current object, an RDMA port's DCQCN parameters and
 * enables (params) or its congestion counters (stats, as an object of
 * its own in a list). A device no backend serves prints nothing.
 */
int cong_print_params(struct rocectl *rc, const char *dev, uint32_t port);
int cong_print_stats(struct rocectl *rc, const char *dev, uint32_t port);

struct nlattr;

/*
 * One ROCECTL_A_CONG_PARAM or ROCECTL_A_CONG_STAT nest of a CONG_GET
 * reply: its name and value, or false when it is malformed.
 */
bool cong_entry(const struct nlattr *nest, const char **name, uint64_t *value);

/* The module's RDMA devices: names and numbers of ports. */
struct dev_list {
	char (*names)[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t *ports;
	size_t n;
};

int dev_list_get(struct rocectl *rc, struct dev_list *l);
void dev_list_free(struct dev_list *l);

#endif
