// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl_mlx5: the ConnectX backend of rocectl.ko. It claims the mlx5e
 * netdevs of PCI functions driven by mlx5_core and gives the watchdog
 * live per-priority pause counters (PPCNT, not the cached values
 * mlx5e's ieee_getpfc returns) and PFC per direction (PFCC), so that
 * "forward" stops honouring received pause without stopping our own and
 * without the link toggle mlx5e's ieee_setpfc does.
 *
 * A separate module because the firmware access it needs is exported by
 * mlx5_core only to modules that link against it.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/mlx5/driver.h>
#include <rocectl_version.h>
#include "../backend.h"
#include "port.h"

struct rm5_priv {
	struct rm5_port port;
	struct mlx5_core_dev *mdev;
};

static int rm5_access_reg(void *ctx, u32 *in, int inlen, u32 *out, int outlen,
			  u16 reg_id, bool write)
{
	return mlx5_core_access_reg(ctx, in, inlen, out, outlen, reg_id, 0, write);
}

/*
 * mlx5e gives its netdev the PCI function's device as parent, and
 * mlx5_core keeps its mlx5_core_dev as that device's driver data.
 */
static struct mlx5_core_dev *rm5_mdev(struct net_device *ndev)
{
	struct device *parent = ndev->dev.parent;

	if (!parent || !dev_is_pci(parent) || !parent->driver ||
	    strcmp(parent->driver->name, "mlx5_core"))
		return NULL;
	return pci_get_drvdata(to_pci_dev(parent));
}

static void *rm5_attach(struct net_device *ndev)
{
	struct mlx5_core_dev *mdev = rm5_mdev(ndev);
	struct rm5_priv *priv;

	if (!mdev || !ndev->dcbnl_ops)
		return NULL;
	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return NULL;
	priv->mdev = mdev;
	priv->port.access_reg = rm5_access_reg;
	priv->port.ctx = mdev;
	priv->port.local_port = 1;	/* each port is a PCI function of its own */
	/* As mlx5e decides: without PCAM, PPCNT is there. */
	priv->port.ppcnt = !MLX5_CAP_GEN(mdev, pcam_reg) ||
			   MLX5_CAP_PCAM_REG(mdev, ppcnt);
	priv->port.pfcc_mask = MLX5_CAP_GEN(mdev, pcam_reg) &&
			       MLX5_CAP_PCAM_FEATURE(mdev, pfcc_mask);
	/* As mlx5e reports the stall events: both capabilities. */
	priv->port.stall_detect = priv->port.pfcc_mask &&
				  MLX5_CAP_DEBUG(mdev, stall_detect);
	if (!priv->port.ppcnt) {
		/* No live counters: the generic view is all there is. */
		netdev_info(ndev, "rocectl_mlx5: no PPCNT register, not claimed\n");
		kfree(priv);
		return NULL;
	}
	return priv;
}

static void rm5_detach(void *priv)
{
	kfree(priv);
}

static int rm5_be_read(void *priv, struct rocectl_be_sample *s)
{
	return rm5_read(&((struct rm5_priv *)priv)->port, s);
}

static int rm5_be_get_pfc(void *priv, u8 en[2])
{
	return rm5_get_pfc(&((struct rm5_priv *)priv)->port, en);
}

static int rm5_be_set_pfc(void *priv, const u8 en[2], const u8 mask[2])
{
	return rm5_set_pfc(&((struct rm5_priv *)priv)->port, en, mask);
}

static struct rocectl_backend rm5_backend = {
	.name = "mlx5",
	.owner = THIS_MODULE,
	.attach = rm5_attach,
	.detach = rm5_detach,
	.read = rm5_be_read,
	.get_pfc = rm5_be_get_pfc,
	.set_pfc = rm5_be_set_pfc,
};

static int __init rm5_init(void)
{
	return rocectl_backend_register(&rm5_backend);
}

static void __exit rm5_exit(void)
{
	rocectl_backend_unregister(&rm5_backend);
}

module_init(rm5_init);
module_exit(rm5_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocectl backend for mlx5 (ConnectX) NICs");
MODULE_VERSION(ROCECTL_VERSION);
