/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl qp path: each selected connected RC or UC QP's hops through the
 * fabric, from probes carrying its headers (path_probe.h) paced and
 * bounded by path_plan.h, printed beside its congestion counters.
 */
#ifndef ROCECTL_QP_PATH_H
#define ROCECTL_QP_PATH_H

#include <libmnl/libmnl.h>
#include <stdbool.h>

struct rocectl;
struct qp_sport_hw;

/* The keywords' values: the fabric's safety, settable. */
struct qp_path_opts {
	unsigned int rate;	/* probes a second from this host */
	unsigned int max_hops;
	unsigned int wait_ms;	/* for each hop's reply */
	bool links;		/* localize the marks to a link (path_links.h) */
	unsigned int window_s;	/* links' window; 0: since each QP's creation */
};

void qp_path_opts_default(struct qp_path_opts *o);
/*
 * Whether w is one of qp path's own keywords: -1 if not, else EXIT_OK or
 * EXIT_USAGE once its value is read from rc.
 */
int qp_path_keyword(struct rocectl *rc, const char *w, struct qp_path_opts *o);

struct qp_path;

struct qp_path *qp_path_new(const struct qp_path_opts *o);
/* One QP of the dump (its attributes tb); those it cannot trace say why. */
int qp_path_add(struct qp_path *p, const struct nlattr **tb, const struct qp_sport_hw *hw);
/*
 * With links: any QP of the dump, unfiltered, that may be the destination
 * of a QP added (its CE counts the marks on that QP's path).
 */
int qp_path_add_peer(struct qp_path *p, const struct nlattr **tb);
/* Traces every QP added, in order. */
int qp_path_run(struct qp_path *p);
/*
 * With links and a window: sleeps until the window since qp_path_new is
 * over and returns true; the caller then dumps again, QPs and peers,
 * through qp_path_update. False: nothing to wait for.
 */
bool qp_path_wait(struct qp_path *p);
/* A QP of the second dump: its counters at the window's end. */
void qp_path_update(struct qp_path *p, const struct nlattr **tb);
/* Prints each QP and its hops, or with links the links and the verdict. */
void qp_path_print(const struct qp_path *p);
void qp_path_free(struct qp_path *p);

#endif
