/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels rocectl builds against lives here,
 * force-included before any other header. Tested: Linux 6.1 (Debian 12).
 */
#ifndef _ROCECTL_COMPAT_H
#define _ROCECTL_COMPAT_H

#include <linux/netlink.h>

/* Probed, not versioned: missing-attribute extack arrived in 6.0. */
#ifndef NL_SET_ERR_ATTR_MISS
#error "rocectl needs Linux 6.1 or newer"
#endif

#endif /* _ROCECTL_COMPAT_H */
