// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: a simulated RoCE RDMA device, for tests only.
 *
 * This file: the module, the devices' life. A device is made over a netdev
 * of the test's choice (debugfs new_device) and registered with the RDMA
 * core as a RoCE v2 port on it; it goes on del_device, when its netdev
 * unregisters (as rdma_rxe's does), or on rmmod. Driver id
 * RDMA_DRIVER_UNKNOWN (RDMA_DRIVER_MLX5 with driver_mlx5=1): rmmod
 * unregisters every device of that id, which only this module registers
 * where it is used.
 */
#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include "simrdma.h"

/*
 * The tests of mlx5's raw QP context: the devices say they are mlx5's
 * (driver id RDMA_DRIVER_MLX5), which is how rocectl tells that a device's
 * raw context has mlx5's layout. Never where a real mlx5 device is: rmmod
 * unregisters every device of the driver id.
 */
static bool driver_mlx5;
module_param(driver_mlx5, bool, 0444);
MODULE_PARM_DESC(driver_mlx5, "devices take mlx5's driver id (tests of the raw QP context only)");

static void simrdma_dealloc_driver(struct ib_device *ibdev)
{
	struct simrdma_dev *sd = to_sdev(ibdev);

	simrdma_debugfs_dev_del(sd);
	mutex_lock(&sd->lock);
	if (sd->netdev)
		dev_put(sd->netdev);
	sd->netdev = NULL;
	mutex_unlock(&sd->lock);
	simrdma_devx_exit(sd);
	WARN_ON(!xa_empty(&sd->qps));
	xa_destroy(&sd->qps);
	xa_destroy(&sd->test_qps);
	ida_destroy(&sd->qpn_ida);
	kvfree(sd->hwc);
	mutex_destroy(&sd->test_lock);
	mutex_destroy(&sd->lock);
}

static const struct ib_device_ops simrdma_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = 1,
	.dealloc_driver = simrdma_dealloc_driver,
};

static bool simrdma_is_ours(struct ib_device *ibdev)
{
	return ibdev->ops.dealloc_driver == simrdma_dealloc_driver;
}

/* The RDMA core's client: the test's QPs go while the device still works. */
static int simrdma_client_add(struct ib_device *ibdev)
{
	return simrdma_is_ours(ibdev) ? 0 : -EOPNOTSUPP;
}

static void simrdma_client_remove(struct ib_device *ibdev, void *data)
{
	simrdma_test_qps_release(to_sdev(ibdev));
}

static struct ib_client simrdma_client = {
	.name = "simrdma",
	.add = simrdma_client_add,
	.remove = simrdma_client_remove,
};

int simrdma_dev_new(const char *name, const char *ifname)
{
	struct simrdma_dev *sd;
	struct net_device *ndev;
	struct ib_device *old;
	int err;

	if (!*name || strchr(name, '%') || strlen(name) >= IB_DEVICE_NAME_MAX)
		return -EINVAL;
	old = simrdma_device_get_by_name(name);
	if (old) {
		ib_device_put(old);
		return -EEXIST;
	}
	ndev = dev_get_by_name(&init_net, ifname);
	if (!ndev)
		return -ENODEV;
	if (ndev->type != ARPHRD_ETHER) {
		dev_put(ndev);
		return -EINVAL;
	}
	old = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (old) {
		ib_device_put(old);
		dev_put(ndev);
		return -EEXIST;
	}
	sd = ib_alloc_device(simrdma_dev, ibdev);
	if (!sd) {
		dev_put(ndev);
		return -ENOMEM;
	}
	/*
	 * From here ib_dealloc_device() undoes everything, dealloc_driver
	 * included (it drops the netdev reference dev_get_by_name took).
	 */
	mutex_init(&sd->lock);
	mutex_init(&sd->test_lock);
	xa_init(&sd->qps);
	xa_init(&sd->test_qps);
	ida_init(&sd->qpn_ida);
	sd->netdev = ndev;
	sd->counters_max = SIMRDMA_COUNTERS_DEFAULT;
	ib_set_device_ops(&sd->ibdev, &simrdma_dev_ops);
	ib_set_device_ops(&sd->ibdev, &simrdma_verbs_ops);
	ib_set_device_ops(&sd->ibdev, &simrdma_counter_ops);
	ib_set_device_ops(&sd->ibdev, &simrdma_raw_ops);
	if (driver_mlx5)
		ib_set_device_ops(&sd->ibdev, &simrdma_mlx5_id_ops);
	sd->hwc = kvcalloc(SIMRDMA_COUNTERS_LIMIT, sizeof(*sd->hwc),
			   GFP_KERNEL);
	if (!sd->hwc) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	sd->ibdev.node_type = RDMA_NODE_IB_CA;
	sd->ibdev.phys_port_cnt = 1;
	sd->ibdev.num_comp_vectors = 1;
	sd->ibdev.local_dma_lkey = 0;
	addrconf_addr_eui48((unsigned char *)&sd->ibdev.node_guid,
			    ndev->dev_addr);
	strscpy(sd->ibdev.node_desc, "simrdma", sizeof(sd->ibdev.node_desc));
	err = ib_device_set_netdev(&sd->ibdev, ndev, SIMRDMA_PORT);
	if (err)
		goto err_dealloc;
	err = simrdma_devx_init(sd, name);
	if (err)
		goto err_dealloc;
	/* Before registering: dealloc_driver, however soon, removes it. */
	simrdma_debugfs_dev_add(sd, name);
	err = ib_register_device(&sd->ibdev, name, NULL);
	if (err)
		goto err_dealloc;
	return 0;

err_dealloc:
	ib_dealloc_device(&sd->ibdev);
	return err;
}

int simrdma_dev_del(const char *name)
{
	struct ib_device *ibdev;

	ibdev = simrdma_device_get_by_name(name);
	if (!ibdev)
		return -ENODEV;
	ib_unregister_device_and_put(ibdev);
	return 0;
}

/* A device goes with its netdev, asynchronously: this runs under RTNL. */
static int simrdma_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct ib_device *ibdev;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return NOTIFY_DONE;
	if (simrdma_is_ours(ibdev)) {
		struct simrdma_dev *sd = to_sdev(ibdev);

		/* Let the netdev go now; the port reads as down meanwhile. */
		mutex_lock(&sd->lock);
		if (sd->netdev == ndev) {
			dev_put(ndev);
			sd->netdev = NULL;
		}
		mutex_unlock(&sd->lock);
		ib_unregister_device_queued(ibdev);
	}
	ib_device_put(ibdev);
	return NOTIFY_OK;
}

static struct notifier_block simrdma_netdev_nb = {
	.notifier_call = simrdma_netdev_event,
};

static int __init simrdma_init(void)
{
	int err;

	simrdma_counters_init();
	err = ib_register_client(&simrdma_client);
	if (err)
		return err;
	err = register_netdevice_notifier(&simrdma_netdev_nb);
	if (err) {
		ib_unregister_client(&simrdma_client);
		return err;
	}
	simrdma_debugfs_init();
	return 0;
}

static void __exit simrdma_exit(void)
{
	unregister_netdevice_notifier(&simrdma_netdev_nb);
	/* Also waits for the unregistrations the notifier queued. */
	ib_unregister_driver(driver_mlx5 ? RDMA_DRIVER_MLX5 : RDMA_DRIVER_UNKNOWN);
	ib_unregister_client(&simrdma_client);
	/* Last: each device's directory went with it. */
	simrdma_debugfs_exit();
}

module_init(simrdma_init);
module_exit(simrdma_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("simulated RoCE device with hardware counters, for rocectl's tests");
