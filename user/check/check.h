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
#include <linux/netlink.h>
#include <linux/rocectl.h>

#include "dcb.h"
#include "lib/rocectl.h"

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

/* An intent declared on the command line or by a "check" line of rocectl.conf. */
struct check_decl {
	char dev[ROCECTL_DEV_NAME_MAX + 1];	/* "": every port */
	uint32_t port;				/* 0: every port of dev */
	int prio;				/* -1: not declared */
	int dscp;				/* -1: not declared */
	uint32_t mtu;				/* 0: not declared */
	unsigned int line;			/* in rocectl.conf; 0: the command line */
};

/* The "check" lines of one policy file, in file order. */
struct check_conf {
	const char *path;
	struct check_decl *decls;
	size_t n;
};

#define CHECK_SRC_LEN	320			/* "FILE:LINE" */

struct check_ctx {
	struct rocectl *rc;
	bool module;			/* the rocectl module answers */
	const char *ports_from;		/* where the port list was read */
	const char *sysfs;		/* "/sys", or ROCECTL_TEST_SYSFS */
	struct check_decl args;		/* the command line's intent */
	struct check_conf conf;		/* rocectl.conf's check lines */
	struct check_port *ports;
	size_t n;
	/*
	 * The port's declared intent (check_resolve_intent): from the command
	 * line ("" src), else from rocectl.conf (src "FILE:LINE"); what is not
	 * declared is inferred (check_infer_intent).
	 */
	int want_prio;			/* -1: not declared */
	int want_dscp;			/* -1: not declared */
	uint32_t want_mtu;		/* 0: not declared */
	char prio_src[CHECK_SRC_LEN];
	char dscp_src[CHECK_SRC_LEN];
	char mtu_src[CHECK_SRC_LEN];
	/* the port being checked */
	const struct check_port *p;
	struct dcb_state dcb;
	int dcb_err;			/* dcb_read's: 0, or -errno */
	int prio;			/* the lossless priority, -1 if none */
	char prio_why[CHECK_SRC_LEN + 96];
	unsigned int dscp;
	char dscp_why[CHECK_SRC_LEN + 32];
	enum check_result worst;
};

/* A check's finding, built from parts: evidence and fixes joined by "; ". */
struct finding {
	enum check_result result;
	bool any;
	char evidence[1024];
	char fix[512];
};

/* Add a part: its result, a fix command (NULL: none), its evidence (check_finding.c). */
void finding_add(struct finding *f, enum check_result r, const char *fix,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Append to the string in buf, after sep if it is not empty; truncated to len. */
void check_append(char *buf, size_t len, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "3" or "3,4" or "none": the priorities of a mask, in buf. */
const char *check_prio_list(uint8_t mask, char *buf, size_t len);

/*
 * Parse "[ dev DEV [ port N ] ] [ prio P ] [ dscp D ] [ mtu M ]" from rc's
 * words into d; conf non-NULL also takes "conf FILE" (the command line).
 * EXIT_OK, or EXIT_USAGE having said why.
 */
int check_decl_parse(struct rocectl *rc, struct check_decl *d, const char **conf);

/* Whether a policy file line (split into words) is a "check" line. */
bool check_conf_line(int n, char **words);

/* Parse a "check" line of a policy file (words[0] is "check"). */
int check_line_parse(int n, char **words, struct check_decl *d);

/*
 * Read the "check" lines of the policy file at path; a missing file is no
 * error unless named (given on the command line). A bad line is reported
 * as FILE:LINE and fails the read: EXIT_OK, EXIT_USAGE or EXIT_FAILED.
 */
int check_conf_read(struct check_conf *conf, const char *path, bool named);
void check_conf_free(struct check_conf *conf);

/*
 * The declared intent of the port c->p: each value from the command line
 * (args), else from the closest conf line that declares it (dev and port,
 * then dev, then none; the later of equals).
 */
void check_resolve_intent(struct check_ctx *c, const struct check_decl *args,
			  const struct check_conf *conf);

/* "given" for a src of "", else "declared at FILE:LINE" (in buf). */
const char *check_intent_source(const char *src, char *buf, size_t len);

/*
 * The port's intent from its declarations (want_*) and its DCB state:
 * c->prio, c->dscp and the sentences saying where they come from.
 */
void check_infer_intent(struct check_ctx *c);

/* Print the finding as one line (text) or one object (JSON). */
void check_report(struct check_ctx *c, const char *check, const struct finding *f);

/* Read a sysfs file under c->sysfs (path relative to it): its first line, or NULL. */
char *check_sysfs_read(const struct check_ctx *c, char *buf, size_t len,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The checks, by family, each reporting on the port c->p (check.c runs
 * them in this order): the port's state and GIDs (check_device.c); the
 * NIC's DCB and flow control (check_dcb.c); the MTU (check_mtu.c); the
 * watchdog and the NIC's stall prevention (check_watchdog.c); what the NIC
 * shows only in sysfs (check_sysfs.c); the QPs' ECMP entropy (check_ecmp.c).
 */
void check_device(struct check_ctx *c);
void check_pfc(struct check_ctx *c);
void check_trust(struct check_ctx *c);
void check_mtu(struct check_ctx *c);
void check_pause(struct check_ctx *c);
void check_watchdog(struct check_ctx *c);
void check_ecn(struct check_ctx *c);
void check_pcie(struct check_ctx *c);
void check_ecmp(struct check_ctx *c);

/* One live connected QP as the ecmp check weighs it (check_ecmp.c). */
struct ecmp_qp {
	unsigned char dgid[16];
	uint16_t sport;		/* the wire's, else the rule's */
	uint16_t rule;		/* the kernel's rule's, 0 unknown */
	bool wire;		/* sport was seen on the wire */
	bool hw;		/* sport is the hardware QP context's */
	uint32_t pid;		/* 0: a kernel QP, or an owner out of sight */
	char comm[32];		/* "": an owner out of sight */
};

/*
 * The ecmp check's finding on the n QPs of the port named where ("rxe0/1"):
 * WARN for QPs to one destination on one source port, or a process's many
 * QPs over a handful; else PASS with the count of distinct ports. Reorders q.
 */
void check_ecmp_judge(struct ecmp_qp *q, size_t n, const char *where, struct finding *f);

/* rocectl check: the object's handler. */
int cmd_check(struct rocectl *rc);

#endif
