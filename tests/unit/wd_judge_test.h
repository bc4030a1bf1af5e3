/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_WD_JUDGE_TEST_H
#define ROCECTL_WD_JUDGE_TEST_H
int wd_judge_tests(void (*report)(const char *, int));
#endif
