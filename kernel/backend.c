// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of hardware backends (see backend.h). The list and every
 * watch's backend change under rtnl_lock, which every backend call holds.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include "watchdog.h"

static LIST_HEAD(rocectl_backends);

/* A watch is created: the first backend that claims its netdev drives it. */
void rocectl_wd_backend_attach(struct rocectl_wd *w)
{
	struct rocectl_backend *be;
	void *priv;

	ASSERT_RTNL();
	list_for_each_entry(be, &rocectl_backends, list) {
		priv = be->attach(w->ndev);
		if (IS_ERR_OR_NULL(priv))
			continue;
		w->be = be;
		w->be_priv = priv;
		/* Backends read pause time and data frames per priority. */
		w->layout.duration = true;
		w->layout.pkts_known = true;
		return;
	}
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
	    !be->get_pfc || !be->set_pfc)
		return -EINVAL;
	rtnl_lock();
	list_add_tail(&be->list, &rocectl_backends);
	rocectl_wd_backend_switch(be, true);
	rtnl_unlock();
	pr_info("backend %s registered\n", be->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rocectl_backend_register);

void rocectl_backend_unregister(struct rocectl_backend *be)
{
	rtnl_lock();
	list_del(&be->list);
	rocectl_wd_backend_switch(be, false);
	rtnl_unlock();
	pr_info("backend %s unregistered\n", be->name);
}
EXPORT_SYMBOL_GPL(rocectl_backend_unregister);
