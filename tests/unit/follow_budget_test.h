/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FOLLOW_BUDGET_TEST_H
#define FOLLOW_BUDGET_TEST_H

/*
 * The tests of follow's order of service (user/qp/follow_rank.c), of the
 * state file's waiting and history lines (follow_fold) and of a hardware
 * QP's congestion counts (user/qp/qp_hw_cong.c); returns the failures.
 */
int follow_budget_tests(void);

#endif
