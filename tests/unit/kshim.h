/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types kernel/packet/bth.c and kernel/watchdog/wd_judge.c use, for compiling
 * them in user space.
 */
#ifndef ROCECTL_KSHIM_H
#define ROCECTL_KSHIM_H
#include <stdbool.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
