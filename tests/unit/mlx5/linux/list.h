/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/backend/backend.h includes <linux/list.h> for struct list_head only. User
 * space has no such header; without this one the -idirafter to the kernel
 * headers would find the kernel's, which does not compile here.
 */
#ifndef ROCECTL_SHIM_LINUX_LIST_H
#define ROCECTL_SHIM_LINUX_LIST_H

struct list_head {
	struct list_head *next, *prev;
};

#endif
