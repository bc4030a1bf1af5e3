// SPDX-License-Identifier: GPL-2.0
/*
 * A hardware QP's congestion counts (see qp_hw_cong.h). On ConnectX the
 * packets never reach the kernel: CE and CNP per QP exist only as mlx5's
 * optional counters bound to the QP's counter set, which the RDMA core
 * does from Linux 6.15 (manual binding asks for the port's enabled ones,
 * RDMA/core "Add support to optional-counters binding configuration").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/nl.h"
#include "lib/output.h"
#include "lib/rdma_stat.h"
#include "lib/utils.h"
#include "qp_hw_cong.h"

const struct qp_hw_cong_name qp_hw_cong_names[QP_HW_CONG_N] = {
	{ "cc_rx_ce_pkts", ROCECTL_A_QP_STAT_RX_ECN_CE },
	{ "cc_rx_cnp_pkts", ROCECTL_A_QP_STAT_RX_CNP },
	{ "cc_tx_cnp_pkts", ROCECTL_A_QP_STAT_TX_CNP },
};

bool qp_hw_cong_kernel_binds(const char *release)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (!release) {
		if (uname(&u))
			return false;
		release = u.release;
	}
	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 15);
}

unsigned int qp_hw_cong_values(const struct qpc_counter *c, uint64_t *v)
{
	unsigned int mask = 0;
	size_t i, j;

	if (!c)
		return 0;
	for (i = 0; i < QP_HW_CONG_N; i++) {
		for (j = 0; j < c->nhw; j++) {
			if (strcmp(c->hw[j].name, qp_hw_cong_names[i].hw))
				continue;
			v[qp_hw_cong_names[i].stat - QP_STAT_FIRST] = c->hw[j].value;
			mask |= 1u << i;
		}
	}
	return mask;
}

const char *qp_hw_cong_absent(const struct qpc_counter *c, bool kernel_binds)
{
	if (!c || (!c->id && c->waiting == QPC_WAIT_NONE))
		return "no hardware counter set bound: qp counters bind or follow gives one";
	if (c->waiting == QPC_WAIT_FULL)
		return "waiting for a counter set: the device has none left, and follow serves the QPs that rank before it first";
	if (c->waiting == QPC_WAIT_MAX)
		return "waiting for a counter set: its follow policy's max is reached";
	if (!kernel_binds)
		return "this kernel binds no optional counters to a QP's counter set (Linux 6.15 does): qp counters optional shows them per port";
	return "its counter set carries no congestion counters: the port's were off when it was bound (qp counters optional), or the driver counts them per port only";
}

int qp_hw_cong_enable(struct nl *rdma, uint32_t dev_index, uint32_t port,
		      char *enabled, size_t len, struct nl_error *e)
{
	uint32_t index[RDMA_OPT_MAX];
	struct rdma_opt_port p;
	size_t i, j, n = 0, off = 0;
	bool more = false;
	int err;

	enabled[0] = '\0';
	if (!qp_hw_cong_kernel_binds(NULL))
		return 0;
	err = rdma_opt_get(rdma, dev_index, port, &p, e);
	if (err)
		return err == -EOPNOTSUPP ? 0 : err;
	for (i = 0; i < p.n; i++) {
		bool cong = false;

		for (j = 0; j < QP_HW_CONG_N; j++)
			cong |= !strcmp(p.c[i].name, qp_hw_cong_names[j].hw);
		if (!p.c[i].enabled && !cong)
			continue;
		index[n++] = p.c[i].index;
		if (p.c[i].enabled)
			continue;
		more = true;
		off += snprintf(enabled + off, off < len ? len - off : 0, "%s%s",
				off ? "," : "", p.c[i].name);
	}
	if (!more)
		return 0;
	err = rdma_opt_set(rdma, dev_index, port, index, n, e);
	if (err)
		enabled[0] = '\0';
	return err;
}

void qp_hw_cong_print_absent(const char *why, const char *indent)
{
	out_str("counters_source", NULL, "none");
	out_str("counters_absent", NULL, why);
	out_text("%scounters none (not seen by the module; %s) ", indent, why);
}

void qp_hw_cong_print(const struct qpc_counter *c, bool kernel_binds, const char *indent)
{
	uint64_t v[QP_NSTATS];
	unsigned int mask = qp_hw_cong_values(c, v);
	size_t i;

	if (!mask) {
		qp_hw_cong_print_absent(qp_hw_cong_absent(c, kernel_binds), indent);
		return;
	}
	out_str("counters_source", NULL, QP_HW_CONG_SOURCE);
	out_open_object("counters");
	out_text("%scounters (%s): ", indent, QP_HW_CONG_SOURCE);
	for (i = 0; i < QP_HW_CONG_N; i++) {
		const char *name = qp_stat_name(qp_hw_cong_names[i].stat - QP_STAT_FIRST);

		if (!(mask & (1u << i)))
			continue;
		out_uint(name, NULL, v[qp_hw_cong_names[i].stat - QP_STAT_FIRST]);
		out_text("%s %" PRIu64 " ", name, v[qp_hw_cong_names[i].stat - QP_STAT_FIRST]);
	}
	out_close_object();
}
