// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of qp counters follow's counter-set budget and of hardware
 * QPs' congestion counts: the order QPs are served in and which bound QP
 * yields to which (follow_rank.c); which port counters make a port busy;
 * the state file's "wait" and "history" lines as qp stats reads them
 * (follow_fold: counts kept from released sets added to a QP's current
 * set, or standing alone); the kernel releases that bind optional counters
 * per QP; and the optional congestion counters' places in the module's
 * counter fields (qp_hw_cong.c), with the reason when a QP has none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "follow_budget_test.h"
#include "lib/rdma_stat.h"
#include "qp/follow_rank.h"
#include "qp/qp_follow.h"
#include "qp/qp_hw_cong.h"

static int failed;

static void report(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("ok - unit: follow budget: %s\n", name);
		return;
	}
	failed++;
	printf("not ok - unit: follow budget: %s # %s\n", name, why);
}

static void rank_tests(void)
{
	struct follow_rank pol0 = { 0, false, 500, 20 }, pol1_busy = { 1, true, 100, 17 },
			   pol1_old = { 1, false, 100, 18 }, pol1_young = { 1, false, 900, 16 },
			   pol1_tie = { 1, false, 100, 19 };
	struct follow_rank order[] = { pol1_young, pol1_tie, pol0, pol1_old, pol1_busy };
	char got[64] = "";
	size_t i, j;

	/* A sort by follow_rank_cmp: the served order, by QPN. */
	for (i = 0; i < 5; i++)
		for (j = i + 1; j < 5; j++)
			if (follow_rank_cmp(&order[j], &order[i]) < 0) {
				struct follow_rank t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
	for (i = 0; i < 5; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%u ", order[i].qpn);
	report("served: the first policy, then a busy port, then the oldest, then the QPN",
	       !strcmp(got, "20 17 18 19 16 "), got);
	report("an earlier policy takes a later one's set", follow_rank_outranks(&pol0, &pol1_busy), "");
	report("a later policy never takes an earlier one's, busy or not",
	       !follow_rank_outranks(&pol1_busy, &pol0), "");
	report("a busy port's QP takes a quiet one's set, same policy",
	       follow_rank_outranks(&pol1_busy, &pol1_young), "");
	report("an older QP takes a younger one's set, never the reverse",
	       follow_rank_outranks(&pol1_old, &pol1_young) && !follow_rank_outranks(&pol1_young, &pol1_old),
	       "");
	report("the same age: the lower QPN first, never the reverse",
	       follow_rank_outranks(&pol1_old, &pol1_tie) && !follow_rank_outranks(&pol1_tie, &pol1_old), "");
	report("a QP does not outrank itself", !follow_rank_outranks(&pol1_busy, &pol1_busy), "");
	report("the same QP compares equal", follow_rank_cmp(&pol1_tie, &pol1_tie) == 0, "");
}

static void busy_tests(void)
{
	struct qpc_value old[] = { { "out_of_sequence", 5 }, { "rx_write_requests", 10 },
				   { "cc_rx_ce_pkts", 3 } };
	struct qpc_value same[] = { { "out_of_sequence", 5 }, { "rx_write_requests", 99 },
				    { "cc_rx_ce_pkts", 3 } };
	struct qpc_value retrans[] = { { "out_of_sequence", 6 }, { "cc_rx_ce_pkts", 3 } };
	struct qpc_value ce[] = { { "cc_rx_ce_pkts", 4 } };
	struct qpc_value cnp[] = { { "np_cnp_sent", 1 } };
	struct qpc_value zero[] = { { "local_ack_timeout_err", 0 } };

	report("busy: traffic alone is not", !follow_port_busy(old, 3, same, 3), "");
	report("busy: a sequence error is", follow_port_busy(old, 3, retrans, 2), "");
	report("busy: a CE-marked packet is", follow_port_busy(old, 3, ce, 1), "");
	report("busy: a counter first seen counts from 0", follow_port_busy(old, 3, cnp, 1), "");
	report("busy: a counter at 0 is not", !follow_port_busy(NULL, 0, zero, 1), "");
	report("busy: a counter that went down is not (a reset)", !follow_port_busy(retrans, 2, old, 1),
	       "");
}

/* One bound counter (device 3, port 1, QPN 16, id 7) with two values. */
static void one_counter(struct qpc_list *l)
{
	struct qpc_counter *c = calloc(1, sizeof(*c));

	c->dev_index = 3;
	c->port = 1;
	c->id = 7;
	c->qpns = malloc(sizeof(*c->qpns));
	c->qpns[0] = 16;
	c->nqpns = 1;
	c->hw = calloc(2, sizeof(*c->hw));
	c->hw[0] = (struct qpc_value){ strdup("out_of_sequence"), 5 };
	c->hw[1] = (struct qpc_value){ strdup("cc_rx_ce_pkts"), 2 };
	c->nhw = 2;
	l->c = c;
	l->n = l->cap = 1;
}

static uint64_t value_of(const struct qpc_counter *c, const char *name)
{
	size_t i;

	for (i = 0; c && i < c->nhw; i++)
		if (!strcmp(c->hw[i].name, name))
			return c->hw[i].value;
	return (uint64_t)-1;
}

static void fold(struct qpc_list *l, const char *lines)
{
	char path[] = "/tmp/rocectl-unit-fold.XXXXXX", state[1024], comm[32] = "";
	int fd = mkstemp(path);

	snprintf(state, sizeof(state), "rocectl qp-follow 1\npid %ld\n%s", (long)getpid(), lines);
	if (fd < 0 || write(fd, state, strlen(state)) != (ssize_t)strlen(state)) {
		report("fold: the state file", 0, "cannot write it");
		return;
	}
	close(fd);
	prctl(PR_GET_NAME, comm);
	prctl(PR_SET_NAME, "rocectl");
	follow_fold(l, path);
	prctl(PR_SET_NAME, comm);
	unlink(path);
}

static void fold_tests(void)
{
	const struct qpc_counter *c;
	struct qpc_list l = { 0 };
	char why[256];

	one_counter(&l);
	fold(&l, "3 1 16 7\nhistory 3 1 16 out_of_sequence=40 cc_rx_ce_pkts=1 rnr_nak_retry_err=3\n"
		 "wait 3 1 18 full\nwait 3 1 19 max\nhistory 3 1 18 out_of_sequence=9\n"
		 "history 3 1 20 bogus out_of_sequence=x =3 cc_rx_ce_pkts=4\nwait 3 1 21 later\n");
	c = qpc_find(&l, 3, 1, 16);
	snprintf(why, sizeof(why), "id %u history %d oos %llu ce %llu rnr %llu", c ? c->id : 0,
		 c ? c->history : -1, (unsigned long long)value_of(c, "out_of_sequence"),
		 (unsigned long long)value_of(c, "cc_rx_ce_pkts"),
		 (unsigned long long)value_of(c, "rnr_nak_retry_err"));
	report("fold: a bound QP's history is added to its set's counts",
	       c && c->id == 7 && c->history && value_of(c, "out_of_sequence") == 45 &&
	       value_of(c, "cc_rx_ce_pkts") == 3 && value_of(c, "rnr_nak_retry_err") == 3, why);
	c = qpc_find(&l, 3, 1, 18);
	report("fold: a waiting QP with history: no set, its counts, why it waits",
	       c && !c->id && c->history && c->waiting == QPC_WAIT_FULL &&
	       value_of(c, "out_of_sequence") == 9, "");
	c = qpc_find(&l, 3, 1, 19);
	report("fold: a QP held back by its policy's max", c && !c->id && !c->nhw && c->waiting == QPC_WAIT_MAX,
	       "");
	c = qpc_find(&l, 3, 1, 20);
	report("fold: malformed values are skipped, good ones kept",
	       c && c->nhw == 1 && value_of(c, "cc_rx_ce_pkts") == 4, "");
	c = qpc_find(&l, 3, 1, 21);
	report("fold: an unknown reason is a wait for a set", c && c->waiting == QPC_WAIT_FULL, "");
	report("fold: nothing else", l.n == 5, "");
	qpc_list_free(&l);

	one_counter(&l);
	fold(&l, "");
	report("fold: a state without lines changes nothing", l.n == 1 && !l.c[0].history &&
	       value_of(&l.c[0], "out_of_sequence") == 5, "");
	qpc_list_free(&l);
}

static void cong_tests(void)
{
	uint64_t v[QP_NSTATS] = { 0 };
	struct qpc_list l = { 0 };
	struct qpc_counter none = { .id = 3 };
	unsigned int mask;

	report("6.15 binds optional counters per QP", qp_hw_cong_kernel_binds("6.15.0-rc1"), "");
	report("7.2 does", qp_hw_cong_kernel_binds("7.2.12+deb13-amd64"), "");
	report("6.14 does not", !qp_hw_cong_kernel_binds("6.14.11"), "");
	report("6.1 does not", !qp_hw_cong_kernel_binds("6.1.0-57-amd64"), "");
	report("5.10 does not", !qp_hw_cong_kernel_binds("5.10.0-32-amd64"), "");
	report("a release that is no version does not", !qp_hw_cong_kernel_binds("linux"), "");

	one_counter(&l);
	mask = qp_hw_cong_values(&l.c[0], v);
	report("cc_rx_ce_pkts fills rx_ecn_ce, and only it",
	       mask == 1 && v[ROCECTL_A_QP_STAT_RX_ECN_CE - QP_STAT_FIRST] == 2 &&
	       !v[ROCECTL_A_QP_STAT_RX_CNP - QP_STAT_FIRST], "");
	report("no set: nothing", !qp_hw_cong_values(NULL, v), "");
	report("why: no set", !strncmp(qp_hw_cong_absent(NULL, true), "no hardware counter set bound", 29), "");
	report("why: a set before 6.15",
	       !strncmp(qp_hw_cong_absent(&none, false), "this kernel binds no optional counters", 38), "");
	report("why: a set without them on 6.15+",
	       !strncmp(qp_hw_cong_absent(&none, true), "its counter set carries no congestion counters", 46),
	       "");
	none.id = 0;
	none.waiting = QPC_WAIT_FULL;
	report("why: waiting for a set", !strncmp(qp_hw_cong_absent(&none, true), "waiting for a counter set", 25),
	       "");
	qpc_list_free(&l);
}

int follow_budget_tests(void)
{
	rank_tests();
	busy_tests();
	fold_tests();
	cong_tests();
	return failed;
}
