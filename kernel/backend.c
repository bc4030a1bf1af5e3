// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of hardware backends (see backend.h). The list is guarded
 * by its own mutex, held across the congestion calls (which run without
 * rtnl_lock: the driver's LAG code takes it); a watch's backend changes
 * under rtnl_lock, which every watchdog call holds. Order: rtnl_lock,
 * then rocectl_backends_lock; rocectl_devs_lock, then it.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include "watchdog.h"

static LIST_HEAD(rocectl_backends);
static DEFINE_MUTEX(rocectl_backends_lock);

/* A watch is created: the first backend that claims its netdev drives it. */
void rocectl_wd_backend_attach(struct rocectl_wd *w)
{
	struct rocectl_backend *be;
	void *priv;

	ASSERT_RTNL();
	mutex_lock(&rocectl_backends_lock);
	list_for_each_entry(be, &rocectl_backends, list) {
		priv = be->attach(w->ndev);
		if (IS_ERR_OR_NULL(priv))
			continue;
		w->be = be;
		w->be_priv = priv;
		/* Backends read pause time and data frames per priority. */
		w->layout.duration = true;
		w->layout.pkts_known = true;
		break;
	}
	mutex_unlock(&rocectl_backends_lock);
}

void rocectl_wd_backend_detach(struct rocectl_wd *w)
{
	ASSERT_RTNL();
	if (!w->be)
		return;
	w->be->detach(w->be_priv);
	w->be = NULL;
	w->be_priv = NULL;
}

int rocectl_backend_register(struct rocectl_backend *be)
{
	if (!be->name || !be->attach || !be->detach || !be->read ||
	    !be->get_pfc || !be->set_pfc ||
	    (be->ib_claims && (!be->cong_get || !be->cong_set)))
		return -EINVAL;
	mutex_lock(&rocectl_backends_lock);
	list_add_tail(&be->list, &rocectl_backends);
	mutex_unlock(&rocectl_backends_lock);
	rtnl_lock();
	rocectl_wd_backend_switch(be, true);
	rtnl_unlock();
	pr_info("backend %s registered\n", be->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rocectl_backend_register);

void rocectl_backend_unregister(struct rocectl_backend *be)
{
	/* Waits for a congestion call in flight. */
	mutex_lock(&rocectl_backends_lock);
	list_del(&be->list);
	mutex_unlock(&rocectl_backends_lock);
	rtnl_lock();
	rocectl_wd_backend_switch(be, false);
	rtnl_unlock();
	pr_info("backend %s unregistered\n", be->name);
}
EXPORT_SYMBOL_GPL(rocectl_backend_unregister);

/* The backend of an RDMA device's congestion control, with the lock held. */
static struct rocectl_backend *rocectl_cong_backend(struct ib_device *ibdev)
{
	struct rocectl_backend *be;

	lockdep_assert_held(&rocectl_backends_lock);
	list_for_each_entry(be, &rocectl_backends, list)
		if (be->ib_claims && be->ib_claims(ibdev))
			return be;
	return NULL;
}

int rocectl_cong_get(struct ib_device *ibdev, u32 port,
		     struct rocectl_cong_info *c, const char **backend)
{
	struct rocectl_backend *be;
	int err = -EOPNOTSUPP;

	mutex_lock(&rocectl_backends_lock);
	be = rocectl_cong_backend(ibdev);
	if (be) {
		*backend = be->name;
		err = be->cong_get(ibdev, port, c);
	}
	mutex_unlock(&rocectl_backends_lock);
	return err;
}

int rocectl_cong_set(struct ib_device *ibdev, u32 port,
		     const struct rocectl_cong_value *v, int n,
		     int *bad, int *why)
{
	struct rocectl_backend *be;
	int err = -EOPNOTSUPP;

	*bad = -1;
	*why = ROCECTL_CONG_WHY_NONE;
	mutex_lock(&rocectl_backends_lock);
	be = rocectl_cong_backend(ibdev);
	if (be)
		err = be->cong_set(ibdev, port, v, n, bad, why);
	mutex_unlock(&rocectl_backends_lock);
	return err;
}
