// SPDX-License-Identifier: GPL-2.0
/*
 * Objects made ready in process context for the QP hooks, which must not
 * allocate: an entry handler runs in NMI context when its probe is a
 * breakpoint (int3), not an ftrace call. Taking is lock-free (xchg) and
 * so NMI-safe; a taker kicks the refill through irq_work (the NMI-safe
 * way to reach a workqueue), and the refill allocates with GFP_KERNEL.
 */
#include <linux/atomic.h>
#include <linux/workqueue.h>
#include "pool.h"

static void rocectl_pool_refill(struct work_struct *work)
{
	struct rocectl_pool *p = container_of(work, struct rocectl_pool, refill);
	void *obj;
	int i;

	for (i = 0; i < ROCECTL_POOL_SIZE; i++) {
		if (READ_ONCE(p->slot[i]))
			continue;
		obj = p->alloc(GFP_KERNEL);
		if (!obj)
			return;		/* the takers fall back; retried at the next take */
		/* Full barrier: the object is ready before a taker sees it. */
		if (cmpxchg(&p->slot[i], NULL, obj))
			p->free(obj);
	}
}

static void rocectl_pool_kick(struct irq_work *work)
{
	struct rocectl_pool *p = container_of(work, struct rocectl_pool, kick);

	schedule_work(&p->refill);
}

/* An object, or NULL when the pool ran dry. Any context, NMI included. */
void *rocectl_pool_take(struct rocectl_pool *p)
{
	void *obj = NULL;
	int i;

	for (i = 0; i < ROCECTL_POOL_SIZE && !obj; i++)
		if (READ_ONCE(p->slot[i]))
			obj = xchg(&p->slot[i], NULL);
	/*
	 * Takers empty the pool from its first slot: refill once a quarter of
	 * it is gone, in one batch, not with a work item for every take.
	 */
	if (!obj || i > ROCECTL_POOL_SIZE / 4)
		irq_work_queue(&p->kick);
	return obj;
}

int rocectl_pool_init(struct rocectl_pool *p, void *(*alloc)(gfp_t gfp),
		      void (*free)(void *obj))
{
	int i;

	p->alloc = alloc;
	p->free = free;
	init_irq_work(&p->kick, rocectl_pool_kick);
	INIT_WORK(&p->refill, rocectl_pool_refill);
	for (i = 0; i < ROCECTL_POOL_SIZE; i++) {
		p->slot[i] = alloc(GFP_KERNEL);
		if (!p->slot[i]) {
			rocectl_pool_exit(p);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Once no taker is left (the hooks are unregistered). */
void rocectl_pool_exit(struct rocectl_pool *p)
{
	int i;

	irq_work_sync(&p->kick);
	cancel_work_sync(&p->refill);
	for (i = 0; i < ROCECTL_POOL_SIZE; i++) {
		if (p->slot[i])
			p->free(p->slot[i]);
		p->slot[i] = NULL;
	}
}
