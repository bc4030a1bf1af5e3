// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl_mlx5: the ConnectX backend of rocectl.ko. It claims the mlx5e
 * netdevs of PCI functions driven by mlx5_core and gives the watchdog
 * live per-priority pause counters (PPCNT, not the cached values
 * mlx5e's ieee_getpfc returns) and PFC per direction (PFCC), so that
 * "forward" stops honouring received pause without stopping our own and
 * without the link toggle mlx5e's ieee_setpfc does. For mlx5 RDMA devices
 * it reads and sets DCQCN (cong.c).
 *
 * A separate module because the firmware access it needs is exported by
 * mlx5_core only to modules that link against it.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/mlx5/driver.h>
#include <rdma/ib_verbs.h>
#include <rocectl_version.h>
#include "backend/backend.h"
#include "cong.h"
#include "devx.h"
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
 * mlx5e and mlx5_ib give their netdev and ib_device the PCI function's
 * device as parent, and mlx5_core keeps its mlx5_core_dev as that
 * device's driver data.
 */
static struct mlx5_core_dev *rm5_parent_mdev(struct device *parent)
{
	if (!parent || !dev_is_pci(parent) || !parent->driver ||
	    strcmp(parent->driver->name, "mlx5_core"))
		return NULL;
	return pci_get_drvdata(to_pci_dev(parent));
}

static struct mlx5_core_dev *rm5_mdev(struct net_device *ndev)
{
	return rm5_parent_mdev(ndev->dev.parent);
}

static struct mlx5_core_dev *rm5_ib_mdev(struct ib_device *ibdev)
{
	if (ibdev->ops.driver_id != RDMA_DRIVER_MLX5)
		return NULL;
	return rm5_parent_mdev(ibdev->dev.parent);
}

static int rm5_exec(void *ctx, void *in, int inlen, void *out, int outlen)
{
	return mlx5_cmd_exec(ctx, in, inlen, out, outlen);
}

static int rm5_lag_cong_stats(void *ctx, u64 *values, int n, size_t *offsets)
{
	return mlx5_lag_query_cong_counters(ctx, values, n, offsets);
}

static void rm5_cong_dev(struct mlx5_core_dev *mdev, struct rm5_cong_dev *d)
{
	d->exec = rm5_exec;
	d->stats = rm5_lag_cong_stats;
	d->ctx = mdev;
	d->query_allowed = MLX5_CAP_GEN(mdev, cc_query_allowed);
	d->modify_allowed = MLX5_CAP_GEN(mdev, cc_modify_allowed);
}

static bool rm5_ib_claims(struct ib_device *ibdev)
{
	return rm5_ib_mdev(ibdev);
}

/* Each port of a ConnectX is a PCI function of its own: port 1. */
static int rm5_be_cong_get(struct ib_device *ibdev, u32 port,
			   struct rocectl_cong_info *c)
{
	struct mlx5_core_dev *mdev = rm5_ib_mdev(ibdev);
	struct rm5_cong_dev d;

	if (!mdev || port != 1)
		return -EOPNOTSUPP;
	rm5_cong_dev(mdev, &d);
	return rm5_cong_get(&d, c);
}

static int rm5_be_cong_set(struct ib_device *ibdev, u32 port,
			   const struct rocectl_cong_value *v, int n,
			   int *bad, int *why)
{
	struct mlx5_core_dev *mdev = rm5_ib_mdev(ibdev);
	struct rm5_cong_dev d;
	int err;

	*bad = -1;
	*why = ROCECTL_CONG_WHY_PORT;
	if (!mdev || port != 1)
		return -EOPNOTSUPP;
	rm5_cong_dev(mdev, &d);
	d.buf = kzalloc(sizeof(*d.buf), GFP_KERNEL);
	if (!d.buf)
		return -ENOMEM;
	err = rm5_cong_set(&d, v, n, bad, why);
	kfree(d.buf);
	return err;
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
	.ib_claims = rm5_ib_claims,
	.cong_get = rm5_be_cong_get,
	.cong_set = rm5_be_cong_set,
};

static int __init rm5_init(void)
{
	int err = rm5_devx_init();

	if (err)
		return err;
	err = rocectl_backend_register(&rm5_backend);
	if (err)
		rm5_devx_exit();
	return err;
}

static void __exit rm5_exit(void)
{
	rocectl_backend_unregister(&rm5_backend);
	rm5_devx_exit();
}

module_init(rm5_init);
module_exit(rm5_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocectl backend for mlx5 (ConnectX) NICs");
MODULE_VERSION(ROCECTL_VERSION);
