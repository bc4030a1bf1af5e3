/* SPDX-License-Identifier: GPL-2.0 */
/*
 * simnic: the kernel's differences between the versions it builds for.
 * Built and run here on 5.10, 6.1, 6.12 and 7.2; the versions in between
 * are where the kernel's history puts each change.
 */
#ifndef SIMNIC_COMPAT_H
#define SIMNIC_COMPAT_H

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/version.h>

/*
 * 6.13 initializes an hrtimer and sets its function in one call,
 * hrtimer_setup(); 6.15 removed hrtimer_init().
 */
static inline void
simnic_hrtimer_setup(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *),
		     clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * 6.14 renames a debugfs entry in its directory with debugfs_change_name()
 * (an errno back) and removed debugfs_rename() (a dentry or an error).
 * 0 or a negative errno.
 */
static inline int simnic_debugfs_rename(struct dentry *dir, struct dentry *d,
					const char *name)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
	return debugfs_change_name(d, "%s", name);
#else
	return PTR_ERR_OR_ZERO(debugfs_rename(dir, d, dir, name));
#endif
}

#endif
