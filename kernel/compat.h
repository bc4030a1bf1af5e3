/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels rocectl builds against lives here,
 * force-included before any other header. Tested: Linux 6.1 (Debian 12)
 * and 6.12 (Debian 12 backports).
 */
#ifndef _ROCECTL_COMPAT_H
#define _ROCECTL_COMPAT_H

#include <linux/netlink.h>
#include <linux/version.h>

/* Probed, not versioned: missing-attribute extack arrived in 6.0. */
#ifndef NL_SET_ERR_ATTR_MISS
#error "rocectl needs Linux 6.1 or newer"
#endif

/* __assign_str() lost its source argument in 6.10: no feature to probe. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define rocectl_assign_str(dst, src) __assign_str(dst)
#else
#define rocectl_assign_str(dst, src) __assign_str(dst, src)
#endif

/* A dump's parsed attributes moved into a struct genl_info of its own in 6.2. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define rocectl_dump_attrs(cb) (genl_dumpit_info(cb)->info.attrs)
#else
#define rocectl_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

#endif /* _ROCECTL_COMPAT_H */
