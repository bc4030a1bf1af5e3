/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl qp counters follow: a hardware counter for every QP a policy matches. */
#ifndef ROCECTL_QP_FOLLOW_H
#define ROCECTL_QP_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

struct rocectl;

/* Which QPs get a counter: each field set narrows; max 0: no cap. */
struct follow_policy {
	const char *dev;
	uint32_t port;
	bool has_port;
	unsigned int type;
	bool has_type;
	const char *comm;
	uint32_t pid;
	bool has_pid;
	uint32_t max;
};

/*
 * The words after "qp counters follow" (they must outlive p): EXIT_OK, or
 * EXIT_USAGE having said why. apply checks policy lines with it.
 */
int follow_policy_parse(int argc, char **argv, struct follow_policy *p);

/* rocectl qp counters follow [ POLICY | file FILE ] */
int qpc_follow(struct rocectl *rc);

/*
 * What a running follow bound, from its state file (FOLLOW_STATE): the
 * counters of l that it bound get followed = true. Nothing when no follow
 * runs. path NULL: FOLLOW_STATE.
 */
#define FOLLOW_STATE_DIR "/run/rocectl"
#define FOLLOW_STATE FOLLOW_STATE_DIR "/qp-follow"
struct qpc_list;
void follow_mark(struct qpc_list *l, const char *path);

/*
 * What a running follow says of QPs besides its bindings, into l (qp stats
 * and the exporter): the counts of sets a QP gave up (added to its
 * counter's, c->history; to a new entry of id 0 while it has none) and the
 * QPs that wait for a set (an entry of id 0 with c->waiting).
 */
void follow_fold(struct qpc_list *l, const char *path);

#endif
