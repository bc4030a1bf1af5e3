/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_BTH_TEST_H
#define ROCECTL_BTH_TEST_H
int bth_tests(void (*report)(const char *, int));
#endif
