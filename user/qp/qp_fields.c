// SPDX-License-Identifier: GPL-2.0
/*
 * A QP as users read it: the names of its types, states and counters,
 * and the printing of its fields and counters, shared by the qp commands,
 * qp counters, monitor, dev stats and the exporter.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/attrs.h"
#include "lib/output.h"
#include "qp_fields.h"
#include "qp_sport.h"
#include "workload.h"

const char *const qp_type_names[ROCECTL_QPT_DRIVER + 1] = {
	[0] = "SMI", [1] = "GSI", [2] = "RC", [3] = "UC", [4] = "UD",
	[8] = "RAW_PACKET", [9] = "XRC_INI", [10] = "XRC_TGT",
	[ROCECTL_QPT_DRIVER] = "DRIVER",
};

const char *const qp_state_names[ROCECTL_QPS_ERR + 1] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};

/* Counter names, by attribute, as users read them. */
const char *const qp_stat_names[ROCECTL_A_QP_STAT_MAX + 1] = {
	[ROCECTL_A_QP_STAT_TX_PACKETS] = "tx_packets",
	[ROCECTL_A_QP_STAT_TX_BYTES] = "tx_bytes",
	[ROCECTL_A_QP_STAT_RX_PACKETS] = "rx_packets",
	[ROCECTL_A_QP_STAT_RX_BYTES] = "rx_bytes",
	[ROCECTL_A_QP_STAT_RX_ECN_CE] = "rx_ecn_ce",
	[ROCECTL_A_QP_STAT_RX_CNP] = "rx_cnp",
	[ROCECTL_A_QP_STAT_TX_CNP] = "tx_cnp",
	[ROCECTL_A_QP_STAT_RX_BECN] = "rx_becn",
	[ROCECTL_A_QP_STAT_RX_NAK_SEQ] = "rx_nak_seq",
	[ROCECTL_A_QP_STAT_TX_NAK_SEQ] = "tx_nak_seq",
	[ROCECTL_A_QP_STAT_RX_RNR_NAK] = "rx_rnr_nak",
	[ROCECTL_A_QP_STAT_TX_RNR_NAK] = "tx_rnr_nak",
	[ROCECTL_A_QP_STAT_TX_RETRANS] = "tx_retrans",
	[ROCECTL_A_QP_STAT_RX_DUP] = "rx_dup",
	[ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ] = "rx_out_of_seq",
};


const char *const qp_error_cause_names[ROCECTL_QP_ERROR_CAUSE_DRIVER + 1] = {
	[ROCECTL_QP_ERROR_CAUSE_MODIFY] = "modify",
	[ROCECTL_QP_ERROR_CAUSE_FATAL] = "fatal",
	[ROCECTL_QP_ERROR_CAUSE_REQ_ERR] = "req-err",
	[ROCECTL_QP_ERROR_CAUSE_ACCESS_ERR] = "access-err",
	[ROCECTL_QP_ERROR_CAUSE_DRIVER] = "driver",
};

const char *qp_error_cause_name(unsigned int cause)
{
	return name_of(qp_error_cause_names, ARRAY_SIZE(qp_error_cause_names), cause);
}

const char *qp_type_name(unsigned int type)
{
	return name_of(qp_type_names, ARRAY_SIZE(qp_type_names), type);
}

const char *qp_state_name(unsigned int state)
{
	return name_of(qp_state_names, ARRAY_SIZE(qp_state_names), state);
}

bool qp_live_on(const struct nlattr *const *tb, uint32_t port)
{
	unsigned int state = tb[ROCECTL_A_QP_STATE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]) : 0;

	if (state < ROCECTL_QPS_RTR || state > ROCECTL_QPS_SQE)
		return false;
	return !tb[ROCECTL_A_QP_PORT] || mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]) == port;
}

void qp_format_gid(const unsigned char *gid, char *buf, size_t len)
{
	static const unsigned char v4_prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	if (!memcmp(gid, v4_prefix, sizeof(v4_prefix)))
		inet_ntop(AF_INET, gid + 12, buf, len);
	else
		inet_ntop(AF_INET6, gid, buf, len);
}

static void print_gid(const struct nlattr *a, const char *key, const char *fmt)
{
	char buf[INET6_ADDRSTRLEN];

	if (!a)
		return;
	qp_format_gid(mnl_attr_get_payload(a), buf, sizeof(buf));
	out_str(key, fmt, buf);
}

static const struct qp_sport_hw *sport_hw;

void qp_fields_sport_hw(const struct qp_sport_hw *h)
{
	sport_hw = h;
}

/*
 * The UDP source port, the one field of the RoCEv2 5-tuple that varies per
 * QP, from its best source (qp_sport.h): the hardware's QP context, else
 * the wire's, else the kernel's rule's; each source's in JSON. Text names
 * the rule's too where the port differs from it.
 */
static void print_sport(const struct nlattr **tb)
{
	struct qp_sport s;

	qp_sport_best(tb, sport_hw, &s);
	if (s.source == QP_SPORT_NONE)
		return;
	out_uint("sport", NULL, s.port);
	out_str("sport_source", NULL, qp_sport_source_name(s.source));
	if (s.rule)
		out_uint("sport_rule", NULL, s.rule);
	if (s.wire)
		out_uint("sport_wire", NULL, s.wire);
	if (s.hw)
		out_uint("sport_hw", NULL, s.hw);
	if (s.source == QP_SPORT_HW && s.rule && s.hw != s.rule)
		out_text("sport %u (hardware; rule %u: changed behind the kernel, mlx5dv or DevX) ",
			 s.port, s.rule);
	else if (s.source == QP_SPORT_WIRE && s.rule && s.wire != s.rule)
		out_text("sport %u (wire; rule %u) ", s.port, s.rule);
	else
		out_text("sport %u (%s) ", s.port,
			 s.source == QP_SPORT_RULE_NO_PERMISSION ? "rule" : qp_sport_source_name(s.source));
}

const char *qp_prio_source_name(unsigned int source)
{
	static const char *const names[] = { "default", "dscp", "pcp" };

	return name_of(names, ARRAY_SIZE(names), source);
}

/* The priority the QP's traffic maps to on its netdev now, and whence. */
/*
 * Whose job the QP is: its creator's cgroup, and the container, pod or
 * Slurm job the cgroup's path names (workload.c). Nothing for the root
 * cgroup.
 */
void qp_print_workload(uint64_t id)
{
	struct workload_view v;

	workload_view(id, &v);
	if (v.root)
		return;
	out_uint("cgroup_id", NULL, id);
	if (!v.known) {
		/* Gone since, or outside this reader's cgroup namespace. */
		out_uint(NULL, "cgroup-id %" PRIu64 " ", id);
		return;
	}
	out_str("cgroup", "cgroup %s ", v.path);
	if (v.w.pod_uid[0]) {
		out_str("pod_uid", NULL, v.w.pod_uid);
		out_str("pod_qos", NULL, v.w.qos);
		if (v.named) {
			/* Through out_str: the text escapes them as names. */
			out_str("namespace", "pod %s/", v.ns);
			out_str("pod", "%s ", v.pod);
		} else {
			out_str("pod_name_missing", NULL, v.why);
			out_text("pod-uid %s (%s) ", v.w.pod_uid, v.why);
		}
	}
	/* A Slurm job's: its id, and the step where the path names one. */
	if (v.w.job[0]) {
		out_uint("job", "job %" PRIu64 " ", strtoull(v.w.job, NULL, 10));
		if (v.w.step[0])
			out_str("step", "step %s ", v.w.step);
	}
	if (v.w.container[0]) {
		out_str("container", "container %.12s ", v.w.container);
		if (v.w.runtime[0])
			out_str("container_runtime", NULL, v.w.runtime);
	}
}

static void print_prio(const struct nlattr **tb)
{
	const char *src;

	if (!tb[ROCECTL_A_QP_PRIO])
		return;
	src = qp_prio_source_name(tb[ROCECTL_A_QP_PRIO_SOURCE] ?
				  mnl_attr_get_u8(tb[ROCECTL_A_QP_PRIO_SOURCE]) : 0);
	out_uint("prio", NULL, mnl_attr_get_u8(tb[ROCECTL_A_QP_PRIO]));
	out_str("prio_source", NULL, src);
	out_text("prio %u (%s) ", mnl_attr_get_u8(tb[ROCECTL_A_QP_PRIO]), src);
}

void qp_print_fields(const struct nlattr **tb, bool details)
{
	uint8_t tclass;

	if (tb[ROCECTL_A_DEV_INDEX])
		out_uint("ifindex", NULL, mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]));
	if (tb[ROCECTL_A_DEV_NAME])
		out_str("ifname", "link %s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_PORT])
		out_uint("port", "/%" PRIu64 " ", mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]));
	if (tb[ROCECTL_A_QP_NUM])
		out_uint("lqpn", "lqpn %" PRIu64 " ", mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]));
	if (tb[ROCECTL_A_QP_DEST_QPN])
		out_uint("rqpn", "rqpn %" PRIu64 " ", mnl_attr_get_u32(tb[ROCECTL_A_QP_DEST_QPN]));
	if (tb[ROCECTL_A_QP_TYPE])
		out_str("type", "type %s ", qp_type_name(mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE])));
	if (tb[ROCECTL_A_QP_STATE])
		out_str("state", "state %s ", qp_state_name(mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE])));
	/* Made by DevX firmware commands: what they said is all there is. */
	if (tb[ROCECTL_A_QP_DEVX])
		out_bool("devx", "devx ", true);
	if (tb[ROCECTL_A_QP_COUNTER_SET])
		out_uint("counter_set", "counter-set %" PRIu64 " ",
			 mnl_attr_get_u32(tb[ROCECTL_A_QP_COUNTER_SET]));
	if (tb[ROCECTL_A_QP_PREV_STATE])
		out_str("prev_state", "prev_state %s ",
			qp_state_name(mnl_attr_get_u8(tb[ROCECTL_A_QP_PREV_STATE])));
	/* A QP verb call was missed while it lived: what follows may be stale. */
	if (tb[ROCECTL_A_QP_INCOMPLETE])
		out_bool("incomplete", "incomplete ", true);
	if (tb[ROCECTL_A_QP_KERNEL] && mnl_attr_get_u8(tb[ROCECTL_A_QP_KERNEL])) {
		out_bool("kernel", NULL, true);
		if (tb[ROCECTL_A_QP_COMM])
			out_str("comm", "comm [%s] ", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	} else {
		if (tb[ROCECTL_A_QP_PID])
			out_uint("pid", "pid %" PRIu64 " ", mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]));
		if (tb[ROCECTL_A_QP_COMM])
			out_str("comm", "comm %s ", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	}
	print_gid(tb[ROCECTL_A_QP_SGID], "sgid", "src %s ");
	print_gid(tb[ROCECTL_A_QP_DGID], "dgid", "dst %s ");
	if (tb[ROCECTL_A_QP_TCLASS]) {
		tclass = mnl_attr_get_u8(tb[ROCECTL_A_QP_TCLASS]);
		out_uint("dscp", "dscp %" PRIu64 " ", tclass >> 2);
		out_uint("ecn", "ecn %" PRIu64 " ", tclass & 3);
	}
	if (tb[ROCECTL_A_QP_SL])
		out_uint("sl", "sl %" PRIu64 " ", mnl_attr_get_u8(tb[ROCECTL_A_QP_SL]));
	print_sport(tb);
	print_prio(tb);
	if (tb[ROCECTL_A_QP_PATH_MTU])
		out_uint("mtu", "mtu %" PRIu64 " ", mnl_attr_get_u32(tb[ROCECTL_A_QP_PATH_MTU]));
	if (tb[ROCECTL_A_QP_LIFETIME]) {
		uint64_t ns = mnl_attr_get_u64(tb[ROCECTL_A_QP_LIFETIME]);

		out_uint("lifetime_ns", NULL, ns);
		out_text("lifetime %.3fs ", ns / 1e9);
	}
	if (tb[ROCECTL_A_QP_CGROUP])
		qp_print_workload(mnl_attr_get_u64(tb[ROCECTL_A_QP_CGROUP]));
	if (!details)
		return;
	if (tb[ROCECTL_A_QP_TIMEOUT])
		out_uint("timeout", "timeout %" PRIu64 " ", mnl_attr_get_u8(tb[ROCECTL_A_QP_TIMEOUT]));
	if (tb[ROCECTL_A_QP_RETRY_CNT])
		out_uint("retry_cnt", "retry_cnt %" PRIu64 " ",
			 mnl_attr_get_u8(tb[ROCECTL_A_QP_RETRY_CNT]));
	if (tb[ROCECTL_A_QP_RNR_RETRY])
		out_uint("rnr_retry", "rnr_retry %" PRIu64 " ",
			 mnl_attr_get_u8(tb[ROCECTL_A_QP_RNR_RETRY]));
	if (tb[ROCECTL_A_QP_CREATE_TIME])
		out_time("create_time_ns", "created", "%Y-%m-%dT%H:%M:%S",
			 mnl_attr_get_u64(tb[ROCECTL_A_QP_CREATE_TIME]));
	if (tb[ROCECTL_A_QP_STATE_TIME])
		out_time("state_time_ns", "state_changed", "%Y-%m-%dT%H:%M:%S",
			 mnl_attr_get_u64(tb[ROCECTL_A_QP_STATE_TIME]));
}

/* The QP's last states, oldest first: "RTS>ERR" from the history's nibbles. */
static void print_history(uint16_t h)
{
	char buf[64] = "";
	size_t len = 0;
	int i;

	out_open_array("history");
	for (i = 3; i >= 0; i--) {
		unsigned int st = (h >> (4 * i)) & 0xf;

		if (st == 0xf)
			continue;
		out_str(NULL, NULL, qp_state_name(st));
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				len ? ">" : "", qp_state_name(st));
	}
	out_close_array();
	out_text("history %s ", buf);
}

void qp_print_error(const struct nlattr **tb)
{
	if (tb[ROCECTL_A_QP_ERROR_SEQ])
		out_uint("seq", "#%" PRIu64 " ", mnl_attr_get_u64(tb[ROCECTL_A_QP_ERROR_SEQ]));
	if (tb[ROCECTL_A_QP_ERROR_CAUSE])
		out_str("cause", "cause %s ",
			qp_error_cause_name(mnl_attr_get_u8(tb[ROCECTL_A_QP_ERROR_CAUSE])));
	if (tb[ROCECTL_A_QP_ERROR_TIME])
		out_time("time_ns", "at", "%Y-%m-%dT%H:%M:%S",
			 mnl_attr_get_u64(tb[ROCECTL_A_QP_ERROR_TIME]));
	if (tb[ROCECTL_A_QP_HISTORY])
		print_history(mnl_attr_get_u16(tb[ROCECTL_A_QP_HISTORY]));
	if (tb[ROCECTL_A_QP_ID])
		out_uint("id", NULL, mnl_attr_get_u64(tb[ROCECTL_A_QP_ID]));
}

void qp_print_counters(const uint64_t *v, const char *indent)
{
	int i;

	out_str("counters_source", NULL, QP_SOURCE);
	out_open_object("counters");
	out_text("%scounters (%s): ", indent, QP_SOURCE);
	for (i = 0; i < QP_NSTATS; i++)
		out_uint(qp_stat_names[QP_STAT_FIRST + i], NULL, v[i]);
	for (i = 0; i < QP_NSTATS; i++)
		out_text("%s %" PRIu64 " ", qp_stat_names[QP_STAT_FIRST + i], v[i]);
	out_close_object();
}

const char *qp_stat_name(unsigned int i)
{
	return i < QP_NSTATS ? qp_stat_names[QP_STAT_FIRST + i] : "UNKNOWN";
}

bool qp_stat_values(const struct nlattr *nest, uint64_t *v)
{
	const struct nlattr *st[ROCECTL_A_QP_STAT_MAX + 1];
	int i;

	if (!nest || attrs_parse_qp_stats(nest, st) < 0)
		return false;
	for (i = 0; i < QP_NSTATS; i++)
		v[i] = st[QP_STAT_FIRST + i] ? mnl_attr_get_u64(st[QP_STAT_FIRST + i]) : 0;
	return true;
}

void qp_print_stats(const struct nlattr **tb)
{
	uint64_t v[QP_NSTATS];

	if (!qp_stat_values(tb[ROCECTL_A_QP_STATS], v)) {
		/* Hardware QPs: the module does not see their packets. */
		out_str("counters_source", "\n    counters none (not seen by the module) ", "none");
		return;
	}
	qp_print_counters(v, "\n    ");
}
