/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel/backend/backend.h takes u8, u64 and bool from <linux/types.h>, as in the
 * kernel; user space's (uapi) one has only __u8..__u64. This adds the
 * kernel names on top of it.
 */
#ifndef ROCECTL_SHIM_LINUX_TYPES_H
#define ROCECTL_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#endif
