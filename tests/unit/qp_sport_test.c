// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/qp_sport.c: the hardware's ports read from an RDMA netlink reply of
 * raw QP contexts (RDMA_NLDEV_ATTR_RES_QP, its entries, RES_RAW: entries
 * carry no QPN of their own, the context does), and each QP's port from
 * its best source -- the hardware's, the wire's, the rule's, the rule's
 * for want of CAP_NET_ADMIN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_netlink.h>

#include "qp/mlx5_raw.h"
#include "qp/qp_sport.h"
#include "qp_sport_test.h"

typedef void (*report_fn)(const char *, int, const char *, const char *);

/* A raw context as mlx5_raw.h lays it out: command and resource segments, terminate. */
static size_t raw_ctx(unsigned char *b, uint32_t qpn, uint16_t sport)
{
	size_t res = 20, len = res + MLX5_RAW_RES_PAYLOAD + 272 + 4;
	unsigned char *p;

	memset(b, 0, len);
	b[1] = 5;					/* command: 5 dwords */
	b[2] = MLX5_RAW_SEG_COMMAND >> 8;
	b[3] = MLX5_RAW_SEG_COMMAND & 0xff;
	b[MLX5_RAW_CMD_CALLED] = 0x40;			/* calls 0x4000 */
	p = b + res;
	p[1] = (MLX5_RAW_RES_PAYLOAD + 272) / 4;
	p[2] = 0x40;					/* resource 0x4000 */
	p[MLX5_RAW_RES_INDEX1 + 1] = qpn >> 16;
	p[MLX5_RAW_RES_INDEX1 + 2] = qpn >> 8;
	p[MLX5_RAW_RES_INDEX1 + 3] = qpn;
	p[MLX5_RAW_RES_PAYLOAD + MLX5_RAW_QP_OUT_UDP_SPORT] = sport >> 8;
	p[MLX5_RAW_RES_PAYLOAD + MLX5_RAW_QP_OUT_UDP_SPORT + 1] = sport & 0xff;
	p = b + len - 4;
	p[1] = 1;
	p[2] = MLX5_RAW_SEG_TERMINATE >> 8;
	p[3] = MLX5_RAW_SEG_TERMINATE & 0xff;
	return len;
}

static void parse(report_fn report, struct qp_sport_hw *h)
{
	static char buf[8192];
	unsigned char raw[512];
	struct nlattr *qps, *e;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	char got[128];
	size_t len;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	qps = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	len = raw_ctx(raw, 7, 50000);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_RAW, len, raw);
	mnl_attr_nest_end(nlh, e);
	/* A context that is not one (cut short): no entry. */
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_RAW, 40, raw);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
	len = raw_ctx(raw, 9, 0);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_RAW, len, raw);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, qps);

	memset(h, 0, sizeof(*h));
	snprintf(got, sizeof(got), "%d", qp_sport_hw_parse(nlh, 3, h));
	for (size_t i = 0; i < h->n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %u/%u:%u",
			 h->q[i].dev_index, h->q[i].qpn, h->q[i].sport);
	report("qp sport: raw QP contexts of an RDMA netlink reply, by the QPN they hold",
	       !strcmp(got, "0 3/7:50000 3/9:0"), got, "0 3/7:50000 3/9:0");
}

/* The module's attributes of one QP: device 3, qpn, rule's and wire's ports (0: none). */
static void qp_attrs(const struct nlattr **tb, char *buf, uint32_t dev, uint32_t qpn,
		     uint16_t rule, uint16_t wire)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	memset(tb, 0, (ROCECTL_A_MAX + 1) * sizeof(*tb));
	tb[ROCECTL_A_DEV_INDEX] = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, ROCECTL_A_DEV_INDEX, dev);
	tb[ROCECTL_A_QP_NUM] = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, ROCECTL_A_QP_NUM, qpn);
	if (rule) {
		tb[ROCECTL_A_QP_SPORT_RULE] = mnl_nlmsg_get_payload_tail(nlh);
		mnl_attr_put_u16(nlh, ROCECTL_A_QP_SPORT_RULE, rule);
	}
	if (wire) {
		tb[ROCECTL_A_QP_SPORT_WIRE] = mnl_nlmsg_get_payload_tail(nlh);
		mnl_attr_put_u16(nlh, ROCECTL_A_QP_SPORT_WIRE, wire);
	}
}

static void best(report_fn report, const struct qp_sport_hw *h, const char *name,
		 uint32_t dev, uint32_t qpn, uint16_t rule, uint16_t wire, const char *want)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	static char buf[1024];
	struct qp_sport s;
	char got[128];

	qp_attrs(tb, buf, dev, qpn, rule, wire);
	qp_sport_best(tb, h, &s);
	snprintf(got, sizeof(got), "%u %s rule %u wire %u hw %u", s.port,
		 qp_sport_source_name(s.source), s.rule, s.wire, s.hw);
	report(name, !strcmp(got, want), got, want);
}

void qp_sport_tests(report_fn report)
{
	struct qp_sport_hw h;
	uint32_t denied = 4;

	parse(report, &h);
	best(report, &h, "qp sport: the hardware's port wins over the rule's, both kept",
	     3, 7, 49458, 0, "50000 hardware rule 49458 wire 0 hw 50000");
	best(report, &h, "qp sport: a context without a port: the rule's",
	     3, 9, 49500, 0, "49500 rule rule 49500 wire 0 hw 0");
	best(report, &h, "qp sport: a QP the dump did not hold: the wire's, else the rule's",
	     3, 11, 49501, 49502, "49502 wire rule 49501 wire 49502 hw 0");
	best(report, &h, "qp sport: the same QPN on another device is not the dump's",
	     5, 7, 49503, 0, "49503 rule rule 49503 wire 0 hw 0");
	h.denied = &denied;
	h.ndenied = 1;
	best(report, &h, "qp sport: a device whose contexts were refused: the rule's, saying why",
	     4, 7, 49504, 0, "49504 rule-no-cap-net-admin rule 49504 wire 0 hw 0");
	best(report, NULL, "qp sport: no hardware read: as before, the wire's over the rule's",
	     3, 7, 49458, 49460, "49460 wire rule 49458 wire 49460 hw 0");
	h.denied = NULL;
	h.ndenied = 0;
	qp_sport_hw_free(&h);
}
