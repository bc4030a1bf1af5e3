// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: observability and safety for RoCEv2 hosts.
 * Module entry: bring the netlink family up before the device registry so
 * that the first device's add notification has somewhere to go, and tear
 * them down in the opposite order.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <rocectl_version.h>
#include "rocectl.h"

static int __init rocectl_init(void)
{
	int err;

	err = rocectl_nl_init();
	if (err)
		return err;

	err = rocectl_devices_init();
	if (err) {
		rocectl_nl_exit();
		return err;
	}

	pr_info("version %s loaded, netlink family %s v%d\n",
		ROCECTL_VERSION, ROCECTL_GENL_NAME, ROCECTL_GENL_VERSION);
	return 0;
}

static void __exit rocectl_exit(void)
{
	rocectl_devices_exit();
	rocectl_nl_exit();
	pr_info("unloaded\n");
}

module_init(rocectl_init);
module_exit(rocectl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RoCE host observability and PFC storm watchdog");
MODULE_VERSION(ROCECTL_VERSION);
MODULE_ALIAS_GENL_FAMILY(ROCECTL_GENL_NAME);
