/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_WORKLOAD_TEST_H
#define ROCECTL_WORKLOAD_TEST_H

/*
 * A cgroup path to its container and pod (user/qp/workload.c), for each
 * form a kubelet node or a plain container host writes, and a pod's UID
 * to its name through a kubelet log directory made for the test.
 */
void workload_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
