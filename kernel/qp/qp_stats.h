/* SPDX-License-Identifier: GPL-2.0 */
/* A QP's counters, indexed as their netlink attributes are. */
#ifndef _ROCECTL_QP_STATS_H
#define _ROCECTL_QP_STATS_H

#include <linux/rocectl.h>

#define ROCECTL_QP_NSTATS (ROCECTL_A_QP_STAT_MAX - ROCECTL_A_QP_STAT_TX_PACKETS + 1)
#define ROCECTL_STAT(attr) ((attr) - ROCECTL_A_QP_STAT_TX_PACKETS)

#endif /* _ROCECTL_QP_STATS_H */
