// SPDX-License-Identifier: GPL-2.0
/*
 * simrdma: hardware counters, modelled on mlx5's Q counters.
 *
 * A QP's events (injected by the test, debugfs "inject") are counted by
 * the counter set it is bound to at that moment, else by the port's own
 * set (what get_hw_stats reports). The RDMA core adds the bound sets, and
 * the history of freed ones, to the port's: the port's totals hold every
 * event. Counter sets are allocated when the core binds a QP to a new
 * counter, up to counters_max (the device's limit: the core answers
 * ENOMEM when it is reached), and freed with the counter.
 * The optional counters (the congestion ones) count per port while
 * enabled; from 6.15, a counter bound with its optional counters
 * (manual binding always asks for them) counts those the port had
 * enabled, for its QPs, instead of the port.
 */
#include "simrdma.h"

const char * const simrdma_stat_names[SIMRDMA_NUM_STATS] = {
	[SIMRDMA_RX_WRITE_REQUESTS] = "rx_write_requests",
	[SIMRDMA_RX_READ_REQUESTS] = "rx_read_requests",
	[SIMRDMA_OUT_OF_BUFFER] = "out_of_buffer",
	[SIMRDMA_OUT_OF_SEQUENCE] = "out_of_sequence",
	[SIMRDMA_DUPLICATE_REQUEST] = "duplicate_request",
	[SIMRDMA_RNR_NAK_RETRY_ERR] = "rnr_nak_retry_err",
	[SIMRDMA_PACKET_SEQ_ERR] = "packet_seq_err",
	[SIMRDMA_IMPLIED_NAK_SEQ_ERR] = "implied_nak_seq_err",
	[SIMRDMA_LOCAL_ACK_TIMEOUT_ERR] = "local_ack_timeout_err",
	[SIMRDMA_CC_RX_CE_PKTS] = "cc_rx_ce_pkts",
	[SIMRDMA_CC_RX_CNP_PKTS] = "cc_rx_cnp_pkts",
	[SIMRDMA_CC_TX_CNP_PKTS] = "cc_tx_cnp_pkts",
};

int simrdma_stat_index(const char *name)
{
	int i;

	for (i = 0; i < SIMRDMA_NUM_PORT_STATS; i++)
		if (!strcmp(simrdma_stat_names[i], name))
			return i;
	return -EINVAL;
}

#ifdef SIMRDMA_STAT_NAMES
void simrdma_counters_init(void)
{
}

static struct rdma_hw_stats *simrdma_alloc_stats(void)
{
	return rdma_alloc_hw_stats_struct(simrdma_stat_names, SIMRDMA_NUM_Q,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}
#else
/* The names as descriptors, the optional ones flagged. */
static struct rdma_stat_desc simrdma_stat_descs[SIMRDMA_NUM_PORT_STATS];

void simrdma_counters_init(void)
{
	int i;

	for (i = 0; i < SIMRDMA_NUM_PORT_STATS; i++) {
		simrdma_stat_descs[i].name = simrdma_stat_names[i];
#ifdef SIMRDMA_OPTIONAL_COUNTERS
		if (i >= SIMRDMA_NUM_Q)
			simrdma_stat_descs[i].flags = IB_STAT_FLAG_OPTIONAL;
#endif
	}
}

/*
 * Port and counter stats share the descriptors, so that the core's sums
 * over both stay within each (get_running_counters_hwstat_sum); the
 * optional counters start disabled, as the core expects of a driver.
 */
static struct rdma_hw_stats *simrdma_alloc_stats(void)
{
	struct rdma_hw_stats *stats;

	stats = rdma_alloc_hw_stats_struct(simrdma_stat_descs,
					   SIMRDMA_NUM_PORT_STATS,
					   RDMA_HW_STATS_DEFAULT_LIFESPAN);
#ifdef SIMRDMA_OPTIONAL_COUNTERS
	if (stats)
		bitmap_set(stats->is_disabled, SIMRDMA_NUM_Q,
			   SIMRDMA_NUM_STATS - SIMRDMA_NUM_Q);
#endif
	return stats;
}
#endif

/* Port 0 is the device's own (before 5.15): it has none. */
static struct rdma_hw_stats *simrdma_alloc_port_stats(struct ib_device *ibdev,
						      simrdma_port_t port)
{
	return port ? simrdma_alloc_stats() : NULL;
}

static int simrdma_get_hw_stats(struct ib_device *ibdev,
				struct rdma_hw_stats *stats, simrdma_port_t port,
				int index)
{
	struct simrdma_dev *sd = to_sdev(ibdev);
	int i;

	if (!port)
		return -EINVAL;
	mutex_lock(&sd->lock);
	for (i = 0; i < SIMRDMA_NUM_Q; i++)
		stats->value[i] = sd->def.value[i];
	for (i = SIMRDMA_NUM_Q; i < SIMRDMA_NUM_PORT_STATS; i++)
		stats->value[i] = sd->opt[i - SIMRDMA_NUM_Q];
	mutex_unlock(&sd->lock);
	return SIMRDMA_NUM_PORT_STATS;
}

#ifdef SIMRDMA_OPTIONAL_COUNTERS
static int simrdma_modify_hw_stat(struct ib_device *ibdev, u32 port,
				  unsigned int index, bool enable)
{
	struct simrdma_dev *sd = to_sdev(ibdev);

	if (index < SIMRDMA_NUM_Q || index >= SIMRDMA_NUM_STATS)
		return -EINVAL;
	mutex_lock(&sd->lock);
	if (enable)
		__set_bit(index - SIMRDMA_NUM_Q, &sd->opt_enabled);
	else
		__clear_bit(index - SIMRDMA_NUM_Q, &sd->opt_enabled);
	mutex_unlock(&sd->lock);
	return 0;
}
#endif

static struct rdma_hw_stats *
simrdma_counter_alloc_stats(struct rdma_counter *counter)
{
	return simrdma_alloc_stats();
}

/* A new counter (id 0) gets a counter set of its own, if one is left. */
static int simrdma_counter_bind_qp(struct rdma_counter *counter,
				   SIMRDMA_COUNTER_QP_PARAMS)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);
	int err = 0;
	u32 i;

	mutex_lock(&sd->lock);
	if (!counter->id) {
		/* ENOMEM: what 6.1's core answers for any driver; 5.10 passes it on. */
		if (sd->counters_used >= sd->counters_max) {
			sd->bind_refused++;
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < SIMRDMA_COUNTERS_LIMIT && sd->hwc[i].used; i++)
			;
		if (i == SIMRDMA_COUNTERS_LIMIT) {
			err = -ENOMEM;
			goto out;
		}
		memset(&sd->hwc[i], 0, sizeof(sd->hwc[i]));
		sd->hwc[i].used = true;
		sd->counters_used++;
		counter->id = i + 1;
#ifdef SIMRDMA_DRIVER_OBJ_COUNTER
		/* The port's optional counters enabled now, as mlx5 binds them. */
		if (counter->mode.bind_opcnt)
			sd->hwc[i].opt_bound = sd->opt_enabled;
#endif
	}
	to_sqp(ibqp)->hwc = counter->id;
	/* The driver records the binding, as mlx5 does: the core reads it. */
	ibqp->counter = counter;
out:
	mutex_unlock(&sd->lock);
	return err;
}

static int simrdma_counter_unbind_qp(SIMRDMA_COUNTER_QP_PARAMS)
{
	struct simrdma_dev *sd = to_sdev(ibqp->device);

	mutex_lock(&sd->lock);
	to_sqp(ibqp)->hwc = 0;
	ibqp->counter = NULL;
	mutex_unlock(&sd->lock);
	return 0;
}

static int simrdma_counter_dealloc(struct rdma_counter *counter)
{
	struct simrdma_dev *sd = to_sdev(counter->device);

	if (!counter->id || counter->id > SIMRDMA_COUNTERS_LIMIT)
		return 0;
	mutex_lock(&sd->lock);
	if (sd->hwc[counter->id - 1].used) {
		sd->hwc[counter->id - 1].used = false;
		sd->counters_used--;
	}
	mutex_unlock(&sd->lock);
	return 0;
}

static int simrdma_counter_update_stats(struct rdma_counter *counter)
{
	struct simrdma_dev *sd = to_sdev(counter->device);
	struct simrdma_hwc *hwc;
	int i;

	if (!counter->id || counter->id > SIMRDMA_COUNTERS_LIMIT)
		return -EINVAL;
	hwc = &sd->hwc[counter->id - 1];
	mutex_lock(&sd->lock);
	for (i = 0; i < SIMRDMA_NUM_Q; i++)
		counter->stats->value[i] = hwc->value[i];
#ifdef SIMRDMA_OPTIONAL_COUNTERS
	/* Bound optional counters are shown, as mlx5 shows them: enabled. */
	for (i = 0; i < SIMRDMA_NUM_OPT; i++) {
		if (!test_bit(i, &hwc->opt_bound))
			continue;
		counter->stats->value[SIMRDMA_NUM_Q + i] = hwc->opt[i];
		clear_bit(SIMRDMA_NUM_Q + i, counter->stats->is_disabled);
	}
#endif
	mutex_unlock(&sd->lock);
	return 0;
}

/* N events of STAT on QP QPN, counted where the hardware would. */
int simrdma_inject(struct simrdma_dev *sd, u32 qpn, int stat, u64 n)
{
	struct simrdma_qp *sq;
	int err = 0;

	if (stat < 0 || stat >= SIMRDMA_NUM_PORT_STATS)
		return -EINVAL;
	mutex_lock(&sd->lock);
	sq = xa_load(&sd->qps, qpn);
	if (!sq) {
		err = -ENOENT;
	} else if (stat >= SIMRDMA_NUM_Q) {
		int o = stat - SIMRDMA_NUM_Q;

		/* The QP's own rule first (6.15+), else the port's. */
		if (sq->hwc && test_bit(o, &sd->hwc[sq->hwc - 1].opt_bound))
			sd->hwc[sq->hwc - 1].opt[o] += n;
		else if (test_bit(o, &sd->opt_enabled))
			sd->opt[o] += n;
	} else if (sq->hwc) {
		sd->hwc[sq->hwc - 1].value[stat] += n;
	} else {
		sd->def.value[stat] += n;
	}
	mutex_unlock(&sd->lock);
	return err;
}

#ifdef SIMRDMA_DRIVER_OBJ_COUNTER
/* The RDMA core's counter, with nothing of simrdma's to set up. */
struct simrdma_counter {
	struct rdma_counter rdma_counter;
};

static void simrdma_counter_init(struct rdma_counter *counter)
{
}
#endif

const struct ib_device_ops simrdma_counter_ops = {
#ifdef SIMRDMA_STAT_NAMES
	.alloc_hw_stats = simrdma_alloc_port_stats,
#else
	.alloc_hw_port_stats = simrdma_alloc_port_stats,
#endif
	.get_hw_stats = simrdma_get_hw_stats,
#ifdef SIMRDMA_OPTIONAL_COUNTERS
	.modify_hw_stat = simrdma_modify_hw_stat,
#endif
	.counter_bind_qp = simrdma_counter_bind_qp,
	.counter_unbind_qp = simrdma_counter_unbind_qp,
	.counter_dealloc = simrdma_counter_dealloc,
	.counter_alloc_stats = simrdma_counter_alloc_stats,
	.counter_update_stats = simrdma_counter_update_stats,
#ifdef SIMRDMA_DRIVER_OBJ_COUNTER
	.counter_init = simrdma_counter_init,
	INIT_RDMA_OBJ_SIZE(rdma_counter, simrdma_counter, rdma_counter),
#endif
};
