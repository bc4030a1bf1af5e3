// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of hardware backends (see backend.h).
 *
 * Readers of the list -- a watch looking for its backend, the congestion
 * calls, which are firmware commands of milliseconds each -- walk it
 * under SRCU and hold no lock across the backend's calls; the mutex only
 * serializes changes to the list. Unregistering waits for the readers
 * (synchronize_srcu) before it hands the backend's watches back, so no
 * call reaches a backend that has returned from unregistering.
 *
 * Lock order: rtnl_lock, then a watch's be_lock, then
 * rocectl_backends_lock (taken with nothing under it); a device's
 * congestion set lock, then the backends' SRCU; rocectl_devs_lock
 * is never taken under rtnl_lock. The congestion calls run without
 * rtnl_lock because nothing in them needs it (6.1's
 * mlx5_lag_query_cong_counters takes only its own lag_lock spinlock to
 * find the LAG's devices), and holding it across firmware commands would
 * stall every other rtnl user.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include "backend.h"
#include "be_registry.h"

static LIST_HEAD(rocectl_backends);
static DEFINE_MUTEX(rocectl_backends_lock);
DEFINE_STATIC_SRCU(rocectl_backends_srcu);

/* Told of every backend that comes or goes (the watchdog), under rtnl_lock. */
static void (*rocectl_backends_changed)(struct rocectl_backend *be, bool added);

void rocectl_backends_listen(void (*changed)(struct rocectl_backend *be,
					     bool added))
{
	rocectl_backends_changed = changed;
}

/*
 * The first backend that claims a netdev, and its private data for it;
 * NULL if none does. Under rtnl_lock: a backend unregistering takes it
 * before it hands its netdevs back (rocectl_backends_changed).
 */
struct rocectl_backend *rocectl_backend_claim(struct net_device *ndev,
					      void **priv)
{
	struct rocectl_backend *be, *found = NULL;
	void *p;
	int idx;

	ASSERT_RTNL();
	idx = srcu_read_lock(&rocectl_backends_srcu);
	list_for_each_entry_srcu(be, &rocectl_backends, list,
				 srcu_read_lock_held(&rocectl_backends_srcu)) {
		p = be->attach(ndev);
		if (IS_ERR_OR_NULL(p))
			continue;
		found = be;
		*priv = p;
		break;
	}
	srcu_read_unlock(&rocectl_backends_srcu, idx);
	return found;
}

int rocectl_backend_register(struct rocectl_backend *be)
{
	if (!be->name || !be->attach || !be->detach || !be->read ||
	    !be->get_pfc || !be->set_pfc ||
	    (be->ib_claims && (!be->cong_get || !be->cong_set)))
		return -EINVAL;
	mutex_lock(&rocectl_backends_lock);
	list_add_tail_rcu(&be->list, &rocectl_backends);
	mutex_unlock(&rocectl_backends_lock);
	rtnl_lock();
	if (rocectl_backends_changed)
		rocectl_backends_changed(be, true);
	rtnl_unlock();
	pr_info("backend %s registered\n", be->name);
	return 0;
}
EXPORT_SYMBOL_GPL(rocectl_backend_register);

void rocectl_backend_unregister(struct rocectl_backend *be)
{
	mutex_lock(&rocectl_backends_lock);
	list_del_rcu(&be->list);
	mutex_unlock(&rocectl_backends_lock);
	/* No congestion call or attach is in flight through it after this. */
	synchronize_srcu(&rocectl_backends_srcu);
	rtnl_lock();
	if (rocectl_backends_changed)
		rocectl_backends_changed(be, false);
	rtnl_unlock();
	pr_info("backend %s unregistered\n", be->name);
}
EXPORT_SYMBOL_GPL(rocectl_backend_unregister);

/* The backend of an RDMA device's congestion control, in an SRCU section. */
static struct rocectl_backend *rocectl_cong_backend(struct ib_device *ibdev)
{
	struct rocectl_backend *be;

	list_for_each_entry_srcu(be, &rocectl_backends, list,
				 srcu_read_lock_held(&rocectl_backends_srcu))
		if (be->ib_claims && be->ib_claims(ibdev))
			return be;
	return NULL;
}

/* The backend's name is copied out: it may unload once the call is done. */
int rocectl_cong_get(struct ib_device *ibdev, u32 port,
		     struct rocectl_cong_info *c, char *backend, size_t len)
{
	struct rocectl_backend *be;
	int err = -EOPNOTSUPP;
	int idx;

	idx = srcu_read_lock(&rocectl_backends_srcu);
	be = rocectl_cong_backend(ibdev);
	if (be) {
		strscpy(backend, be->name, len);
		err = be->cong_get(ibdev, port, c);
	}
	srcu_read_unlock(&rocectl_backends_srcu, idx);
	return err;
}

/*
 * A device's congestion control sets, one at a time. A set reads the
 * firmware's parameters and writes them back changed (mlx5: a QUERY, then
 * a MODIFY of the whole node), so two at once could each write back what
 * the other replaced. One lock per device, not one for all: a firmware
 * that takes its time (60 s before mlx5 gives up on a command) holds up
 * the sets of its own device only. Reads are not serialized. An entry
 * lives while a set holds or waits for it; the caller's reference on the
 * ib_device keeps its address from being reused meanwhile.
 */
struct rocectl_cong_lock {
	struct list_head list;
	const struct ib_device *ibdev;
	unsigned int users;	/* under rocectl_cong_locks_lock */
	struct mutex lock;
};

static LIST_HEAD(rocectl_cong_locks);
static DEFINE_MUTEX(rocectl_cong_locks_lock);

static struct rocectl_cong_lock *rocectl_cong_lock(const struct ib_device *ibdev)
{
	struct rocectl_cong_lock *l, *found = NULL;

	mutex_lock(&rocectl_cong_locks_lock);
	list_for_each_entry(l, &rocectl_cong_locks, list) {
		if (l->ibdev == ibdev) {
			found = l;
			break;
		}
	}
	if (!found) {
		found = kzalloc(sizeof(*found), GFP_KERNEL);
		if (found) {
			found->ibdev = ibdev;
			mutex_init(&found->lock);
			list_add(&found->list, &rocectl_cong_locks);
		}
	}
	if (found)
		found->users++;
	mutex_unlock(&rocectl_cong_locks_lock);
	if (found)
		mutex_lock(&found->lock);
	return found;
}

static void rocectl_cong_unlock(struct rocectl_cong_lock *l)
{
	mutex_unlock(&l->lock);
	mutex_lock(&rocectl_cong_locks_lock);
	if (!--l->users) {
		list_del(&l->list);
		mutex_destroy(&l->lock);
		kfree(l);
	}
	mutex_unlock(&rocectl_cong_locks_lock);
}

/*
 * The device's lock is taken before the SRCU section, so that a set
 * waiting for another does not hold up a backend's unregistering.
 */
int rocectl_cong_set(struct ib_device *ibdev, u32 port,
		     const struct rocectl_cong_value *v, int n,
		     int *bad, int *why)
{
	struct rocectl_backend *be;
	struct rocectl_cong_lock *l;
	int err = -EOPNOTSUPP;
	int idx;

	*bad = -1;
	*why = ROCECTL_CONG_WHY_NONE;
	l = rocectl_cong_lock(ibdev);
	if (!l)
		return -ENOMEM;
	idx = srcu_read_lock(&rocectl_backends_srcu);
	be = rocectl_cong_backend(ibdev);
	if (be)
		err = be->cong_set(ibdev, port, v, n, bad, why);
	srcu_read_unlock(&rocectl_backends_srcu, idx);
	rocectl_cong_unlock(l);
	return err;
}
