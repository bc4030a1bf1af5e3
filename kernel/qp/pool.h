/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_POOL_H
#define _ROCECTL_POOL_H

#include <linux/irq_work.h>
#include <linux/workqueue.h>

/*
 * pool.c: objects the QP hooks take instead of allocating. Large enough
 * for a burst of QP creates or moves to RTR between two refills.
 */
#define ROCECTL_POOL_SIZE 64

struct rocectl_pool {
	void *slot[ROCECTL_POOL_SIZE];	/* NULL: taken */
	void *(*alloc)(gfp_t gfp);
	void (*free)(void *obj);
	struct irq_work kick;
	struct work_struct refill;
};

int rocectl_pool_init(struct rocectl_pool *p, void *(*alloc)(gfp_t gfp),
		      void (*free)(void *obj));
void rocectl_pool_exit(struct rocectl_pool *p);
void *rocectl_pool_take(struct rocectl_pool *p);

#endif /* _ROCECTL_POOL_H */
