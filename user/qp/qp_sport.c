// SPDX-License-Identifier: GPL-2.0
/* Each QP's UDP source port from its best source (see qp_sport.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/utils.h"
#include "mlx5_raw.h"
#include "qp_sport.h"

/* --- the hardware's: mlx5's raw QP contexts ------------------------------------ */

/* One entry's raw context: its QPN and port into h->q. */
static int hw_entry(const struct nlattr *entry, uint32_t dev_index, struct qp_sport_hw *h)
{
	const struct nlattr *a;
	uint32_t qpn;
	uint16_t sport;

	mnl_attr_for_each_nested(a, entry) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_RES_RAW ||
		    mlx5_raw_qp_sport(mnl_attr_get_payload(a), mnl_attr_get_payload_len(a),
				      &qpn, &sport))
			continue;
		if (!grow_array((void **)&h->q, h->n, sizeof(*h->q)))
			return -ENOMEM;
		h->q[h->n++] = (struct qp_sport_hw_qp){ dev_index, qpn, sport };
		return 0;
	}
	return 0;
}

int qp_sport_hw_parse(const struct nlmsghdr *nlh, uint32_t dev_index,
		      struct qp_sport_hw *h)
{
	const struct nlattr *a, *e;
	int err;

	mnl_attr_for_each(a, nlh, 0) {
		if (mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_RES_QP)
			continue;
		mnl_attr_for_each_nested(e, a) {
			if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
				continue;
			err = hw_entry(e, dev_index, h);
			if (err)
				return err;
		}
	}
	return 0;
}

struct hw_dump {
	struct qp_sport_hw *h;
	uint32_t dev_index;
	size_t first;		/* the device's first entry in h->q */
};

static int hw_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct hw_dump *d = data;

	if (qp_sport_hw_parse(nlh, d->dev_index, d->h)) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static void hw_dump_restart(void *data)
{
	struct hw_dump *d = data;

	d->h->n = d->first;
}

/* The devices whose raw QP context has mlx5's layout: the module's word. */
struct hw_devs {
	uint32_t *index;
	size_t n;
};

static int hw_devs_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct hw_devs *d = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_INDEX] || !tb[ROCECTL_A_DEV_DRIVER] ||
	    mnl_attr_get_u32(tb[ROCECTL_A_DEV_DRIVER]) != ROCECTL_DRIVER_MLX5)
		return MNL_CB_OK;
	if (!grow_array((void **)&d->index, d->n, sizeof(*d->index))) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	d->index[d->n++] = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	return MNL_CB_OK;
}

static void hw_devs_restart(void *data)
{
	((struct hw_devs *)data)->n = 0;
}

static int hw_cmp(const void *a, const void *b)
{
	const struct qp_sport_hw_qp *x = a, *y = b;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return (x->qpn > y->qpn) - (x->qpn < y->qpn);
}

void qp_sport_hw_read(struct nl *genl, struct qp_sport_hw *h)
{
	struct hw_devs devs = { NULL, 0 };
	struct nlmsghdr *nlh;
	struct nl_error e;
	struct nl rdma;
	size_t i;

	memset(h, 0, sizeof(*h));
	nlh = nl_request(genl, ROCECTL_CMD_DEV_GET, NLM_F_DUMP);
	if (nl_run_quiet(genl, nlh, hw_devs_cb, &devs, hw_devs_restart, &e) < 0 || !devs.n ||
	    nl_open_rdma(&rdma) != EXIT_OK) {
		free(devs.index);
		return;
	}
	for (i = 0; i < devs.n; i++) {
		struct hw_dump d = { h, devs.index[i], h->n };

		nlh = nl_request_rdma(&rdma, RDMA_NLDEV_CMD_RES_QP_GET_RAW, NLM_F_DUMP);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, devs.index[i]);
		if (!nl_run_quiet(&rdma, nlh, hw_dump_cb, &d, hw_dump_restart, &e))
			continue;
		/* All of a device, or nothing. */
		h->n = d.first;
		if (e.err == EPERM && grow_array((void **)&h->denied, h->ndenied, sizeof(*h->denied)))
			h->denied[h->ndenied++] = devs.index[i];
	}
	nl_close(&rdma);
	free(devs.index);
	qsort(h->q, h->n, sizeof(*h->q), hw_cmp);
}

void qp_sport_hw_free(struct qp_sport_hw *h)
{
	free(h->q);
	free(h->denied);
	memset(h, 0, sizeof(*h));
}

/* --- the best source ------------------------------------------------------------ */

void qp_sport_best(const struct nlattr **tb, const struct qp_sport_hw *h,
		   struct qp_sport *s)
{
	struct qp_sport_hw_qp key, *hw = NULL;
	bool denied = false;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (tb[ROCECTL_A_QP_SPORT_RULE])
		s->rule = mnl_attr_get_u16(tb[ROCECTL_A_QP_SPORT_RULE]);
	if (tb[ROCECTL_A_QP_SPORT_WIRE])
		s->wire = mnl_attr_get_u16(tb[ROCECTL_A_QP_SPORT_WIRE]);
	if (h && tb[ROCECTL_A_DEV_INDEX] && tb[ROCECTL_A_QP_NUM]) {
		key.dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
		key.qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
		if (h->n)
			hw = bsearch(&key, h->q, h->n, sizeof(*h->q), hw_cmp);
		if (hw)
			s->hw = hw->sport;
		for (i = 0; i < h->ndenied; i++)
			denied |= h->denied[i] == key.dev_index;
	}
	if (s->hw) {
		s->port = s->hw;
		s->source = QP_SPORT_HW;
	} else if (s->wire) {
		s->port = s->wire;
		s->source = QP_SPORT_WIRE;
	} else if (s->rule) {
		s->port = s->rule;
		s->source = denied ? QP_SPORT_RULE_NO_PERMISSION : QP_SPORT_RULE;
	}
}

const char *qp_sport_source_name(enum qp_sport_source s)
{
	switch (s) {
	case QP_SPORT_HW:
		return "hardware";
	case QP_SPORT_WIRE:
		return "wire";
	case QP_SPORT_RULE:
		return "rule";
	case QP_SPORT_RULE_NO_PERMISSION:
		return "rule-no-cap-net-admin";
	default:
		return "none";
	}
}
