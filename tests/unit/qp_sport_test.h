/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_QP_SPORT_TEST_H
#define ROCECTL_QP_SPORT_TEST_H

/* Each QP's best source port (user/qp/qp_sport.c), each case reported through report. */
void qp_sport_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
