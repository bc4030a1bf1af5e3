// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl: observability and safety for RoCEv2 hosts.
 * Module entry: the QP entries' cache; the QP hooks, so that no QP created
 * while devices are scanned is missed; then the device registry, which
 * scans them; the packet path; the watchdog; the netlink family last, so
 * that no request reaches a part not set up yet (events sent before it
 * have no listener: nobody can subscribe to a family that does not exist).
 * The lower parts know no netlink: each is given its listener here, or
 * netlink subscribes to the registry's events.
 * Torn down in the opposite order: the family first --
 * genl_unregister_family() waits for the requests in progress -- so that
 * no request runs during the teardown. The hooks still run then: their
 * events stop before the family goes (rocectl_nl_exit() waits for the
 * multicasts in flight) and are dropped after.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <rocectl_version.h>
#include "devices/devices.h"
#include "netlink/dev_netlink.h"
#include "netlink/family.h"
#include "netlink/netlink_gen.h"
#include "netlink/qp_err_netlink.h"
#include "netlink/qp_netlink.h"
#include "qp/qp_devx.h"
#include "qp/qp_errors.h"
#include "qp/qp_events.h"
#include "qp/qp_hooks.h"
#include "qp/qps.h"
#include "packet/rxe_hooks.h"
#include "watchdog/watchdog.h"
#include "netlink/wd_netlink.h"

static int __init rocectl_init(void)
{
	int err;

	err = rocectl_devx_init();
	if (err)
		return err;
	err = rocectl_qp_errors_init(&rocectl_qp_err_nl_listener);
	if (err)
		goto err_devx;
	err = rocectl_qps_init(&rocectl_qp_nl_listener);
	if (err)
		goto err_errors;
	err = rocectl_qp_hooks_init();
	if (err)
		goto err_qps;
	err = rocectl_devices_init();
	if (err)
		goto err_hooks;
	err = rocectl_qp_events_init();
	if (err)
		goto err_devices;
	err = rocectl_rxe_hooks_init();
	if (err)
		goto err_events;
	err = rocectl_wd_init(&rocectl_wd_nl_listener);
	if (err)
		goto err_rxe;
	err = rocectl_dev_nl_init();
	if (err)
		goto err_wd;
	err = rocectl_nl_init(rocectl_nl_ops, ARRAY_SIZE(rocectl_nl_ops),
			      rocectl_nl_mcgrps, ARRAY_SIZE(rocectl_nl_mcgrps));
	if (err)
		goto err_dev_nl;

	pr_info("version %s loaded, netlink family %s v%d\n",
		ROCECTL_VERSION, ROCECTL_GENL_NAME, ROCECTL_GENL_VERSION);
	return 0;

err_dev_nl:
	rocectl_dev_nl_exit();
err_wd:
	rocectl_wd_exit();
err_rxe:
	rocectl_rxe_hooks_exit();
err_events:
	rocectl_qp_events_exit();
err_devices:
	rocectl_devices_exit();
err_hooks:
	rocectl_qp_hooks_exit();
err_qps:
	rocectl_qps_exit();
err_errors:
	rocectl_qp_errors_exit();
err_devx:
	rocectl_devx_exit();
	return err;
}

static void __exit rocectl_exit(void)
{
	/* No request after this; then PFC set back: nothing the watchdog changed outlives it. */
	rocectl_nl_exit();
	rocectl_dev_nl_exit();
	rocectl_wd_exit();
	rocectl_rxe_hooks_exit();
	rocectl_qp_events_exit();
	/* No handler runs once this returns; then the tables can go. */
	rocectl_qp_hooks_exit();
	rocectl_devx_missed_flush();	/* before the devices it marks go */
	rocectl_devices_exit();
	rocectl_devx_exit();
	rocectl_qps_exit();
	rocectl_qp_errors_exit();
	pr_info("unloaded\n");
}

module_init(rocectl_init);
module_exit(rocectl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RoCE host observability and PFC storm watchdog");
MODULE_VERSION(ROCECTL_VERSION);
MODULE_ALIAS_GENL_FAMILY(ROCECTL_GENL_NAME);
