/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl check: the state shared by the checks of one RDMA port, and
 * how a check reports what it found.
 */
#ifndef ROCECTL_CHECK_H
#define ROCECTL_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include <linux/rocectl.h>

#include "dcb.h"
#include "rocectl.h"

/* In rising order of weight: the result of a check is its worst part's. */
enum check_result { CHECK_SKIP, CHECK_PASS, CHECK_WARN, CHECK_FAIL };

struct check_port {
	char dev[ROCECTL_DEV_NAME_MAX + 1];
	uint32_t port;
	char netdev[IFNAMSIZ];		/* "" if none */
	int state;			/* IB port state (4: ACTIVE), -1 unknown */
	uint32_t active_mtu;		/* bytes, 0 unknown */
	uint32_t max_mtu;		/* bytes, 0 unknown */
	bool selected;			/* named by the command line */
};

struct check_ctx {
	struct rocectl *rc;
	bool module;			/* the rocectl module answers */
	const char *ports_from;		/* where the port list was read */
	const char *sysfs;		/* "/sys", or ROCECTL_TEST_SYSFS */
	struct check_port *ports;
	size_t n;
	/* the intent: from the command line, else inferred per port */
	int want_prio;			/* -1: not given */
	int want_dscp;			/* -1: not given */
	uint32_t want_mtu;		/* 0: not given */
	/* the port being checked */
	const struct check_port *p;
	struct dcb_state dcb;
	int dcb_err;			/* dcb_read's: 0, or -errno */
	int prio;			/* the lossless priority, -1 if none */
	char prio_why[128];
	unsigned int dscp;
	char dscp_why[64];
	enum check_result worst;
};

/* A check's finding, built from parts: evidence and fixes joined by "; ". */
struct finding {
	enum check_result result;
	bool any;
	char evidence[1024];
	char fix[512];
};

/* Add a part: its result, a fix command (NULL: none), its evidence. */
void finding_add(struct finding *f, enum check_result r, const char *fix,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The port's intent from the command line (want_*) and its DCB state:
 * c->prio, c->dscp and the sentences saying where they come from.
 */
void check_infer_intent(struct check_ctx *c);

/* Print the finding as one line (text) or one object (JSON). */
void check_report(struct check_ctx *c, const char *check, const struct finding *f);

/* Read a sysfs file under c->sysfs (path relative to it): its first line, or NULL. */
char *check_sysfs_read(const struct check_ctx *c, char *buf, size_t len,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The checks that read the NIC's own sysfs files (check_sysfs.c). */
void check_ecn(struct check_ctx *c);
void check_pcie(struct check_ctx *c);

#endif
