/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QP failures (qp_errors.c): a bounded ring of records kept after their
 * QPs go, and counts per device, command name and cause that never go back.
 */
#ifndef _ROCECTL_QP_ERRORS_H
#define _ROCECTL_QP_ERRORS_H

#include <linux/pid.h>
#include <rdma/ib_verbs.h>
#include "qp_owner.h"
#include "qp_stats.h"
#include "qps.h"

struct rocectl_dev;

/* One failure: the QP as it was at that moment. */
struct rocectl_qp_err_rec {
	u64 seq;		/* from 1; 0: an empty slot */
	u64 time;
	u64 id;
	struct pid *owner;	/* user QPs: numbered per reader */
	u32 dev_index;
	char dev[IB_DEVICE_NAME_MAX];
	u8 cause;
	bool has_stats;
	struct rocectl_qp_info info;
	u64 stats[ROCECTL_QP_NSTATS];
};

/* One count: failures of a device, command name and cause. */
struct rocectl_qp_err_group {
	u32 dev_index;
	char dev[IB_DEVICE_NAME_MAX];
	char comm[TASK_COMM_LEN];
	u8 cause;
	bool other;		/* past the bound: any device and name */
	struct rocectl_owner_ns owners;	/* who may see its name */
	u64 count;
};

/*
 * Who hears of each record once, given at init (qp_err_netlink.c: the
 * event group): the ring knows no netlink. Process context.
 */
struct rocectl_qp_err_listener {
	void (*record)(const struct rocectl_qp_err_rec *rec);
};

int rocectl_qp_errors_init(const struct rocectl_qp_err_listener *l);
void rocectl_qp_errors_exit(void);
void rocectl_qp_errors_add(struct rocectl_dev *rdev, struct pid *owner,
			   u64 id, const struct rocectl_qp_info *info,
			   const u64 *stats, u8 cause);
bool rocectl_qp_errors_get(u64 seq, struct rocectl_qp_err_rec *rec);
u64 rocectl_qp_errors_first(void);
u64 rocectl_qp_errors_overwritten(void);
bool rocectl_qp_errors_group(unsigned long *pos,
			     struct rocectl_qp_err_group *g);

#endif /* _ROCECTL_QP_ERRORS_H */
