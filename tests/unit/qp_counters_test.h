/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests of rocectl qp counters (user/lib/rdma_stat.c, user/qp/qp_counters.c):
 * the STAT_SET and STAT_DEL requests read back with libmnl, a STAT_GET
 * reply built byte by byte parsed, the join of QPs with their counters,
 * text and JSON, and the sentences for the kernel's refusals.
 */
#ifndef ROCECTL_QP_COUNTERS_TEST_H
#define ROCECTL_QP_COUNTERS_TEST_H

/* Prints "ok - unit: qp counters: ..." lines; returns the number of failures. */
int qp_counters_tests(void);

#endif
