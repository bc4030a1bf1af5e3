/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_PATH_PLAN_TEST_H
#define ROCECTL_PATH_PLAN_TEST_H

/* qp path's plan (user/qp/path_plan.c), each case reported through report. */
void path_plan_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
