/* SPDX-License-Identifier: GPL-2.0 */
#ifndef QP_FOLLOW_TEST_H
#define QP_FOLLOW_TEST_H

/* The tests of user/qp/qp_follow.c's policy grammar; returns the failures. */
int qp_follow_tests(void);

#endif
