/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_QP_TYPE_TEST_H
#define ROCECTL_QP_TYPE_TEST_H
void qp_type_tests(void (*report)(const char *, int));
#endif
