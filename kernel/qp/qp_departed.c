// SPDX-License-Identifier: GPL-2.0
/*
 * The QPs a counting device destroyed last, with their final bytes.
 *
 * A record is added from the entry's RCU free, as the retired groups are
 * (qp_retired.c: its counts are final then), in softirq context, into a
 * ring allocated with the device: adding never allocates and never fails.
 * A reader keeps its own position; records overwritten before it read
 * them are reported as lost, never silently skipped.
 */
#include <linux/slab.h>
#include "qp_departed.h"

int rocectl_departed_init(struct rocectl_departed *d)
{
	spin_lock_init(&d->lock);
	d->head = 0;
	d->ring = kvcalloc(ROCECTL_QP_DEPARTED_KEPT, sizeof(*d->ring),
			   GFP_KERNEL);
	return d->ring ? 0 : -ENOMEM;
}

/* After every entry's RCU free has run (rcu_barrier()). */
void rocectl_departed_free(struct rocectl_departed *d)
{
	kvfree(d->ring);
	d->ring = NULL;
}

void rocectl_departed_add(struct rocectl_departed *d,
			  const struct rocectl_qp_departed *r)
{
	unsigned long flags;

	if (!d->ring)
		return;
	spin_lock_irqsave(&d->lock, flags);
	d->ring[d->head % ROCECTL_QP_DEPARTED_KEPT] = *r;
	d->head++;
	spin_unlock_irqrestore(&d->lock, flags);
}

/* The position a reader starting now begins at. */
u64 rocectl_departed_head(struct rocectl_departed *d)
{
	unsigned long flags;
	u64 head;

	spin_lock_irqsave(&d->lock, flags);
	head = d->head;
	spin_unlock_irqrestore(&d->lock, flags);
	return head;
}

/*
 * Up to n records from *from on, oldest first, into out; *from moves past
 * them, and *lost grows by the records overwritten before this read.
 */
unsigned int rocectl_departed_read(struct rocectl_departed *d, u64 *from,
				   struct rocectl_qp_departed *out,
				   unsigned int n, u64 *lost)
{
	unsigned long flags;
	unsigned int i = 0;

	if (!d->ring)
		return 0;
	spin_lock_irqsave(&d->lock, flags);
	if (*from > d->head)
		*from = d->head;	/* another device's position */
	if (d->head - *from > ROCECTL_QP_DEPARTED_KEPT) {
		*lost += d->head - ROCECTL_QP_DEPARTED_KEPT - *from;
		*from = d->head - ROCECTL_QP_DEPARTED_KEPT;
	}
	for (; i < n && *from < d->head; i++, (*from)++)
		out[i] = d->ring[*from % ROCECTL_QP_DEPARTED_KEPT];
	spin_unlock_irqrestore(&d->lock, flags);
	return i;
}
