/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the "rocectl" system, for perf, ftrace and bpftrace:
 *
 *   rocectl:qp_create      dev qpn type pid comm kernel devx (1: made by
 *                          DevX firmware commands, qp_devx.c)
 *   rocectl:qp_modify      dev qpn old_state new_state port dest_qpn
 *                          sport (the kernel's rule's UDP source port, 0
 *                          where none) prio prio_src (the priority its
 *                          traffic maps to and whence: dscp, pcp,
 *                          default; -1 none where no netdev is known)
 *   rocectl:qp_destroy     dev qpn type pid comm lifetime_ns and the QP's
 *                          lifetime totals: tx/rx packets and bytes,
 *                          rx_ecn_ce, rx_cnp, rx_nak_seq, tx_retrans
 *                          (0 where the module counts nothing)
 *   rocectl:qp_congestion  dev qpn and the QP's totals when it fired: ce
 *                          cnp becn nak rnr retrans oos (two events'
 *                          difference is what happened between them). At
 *                          most one every 100 ms per QP.
 *
 *   rocectl:qp_error       dev qpn type pid comm sport_rule sport_wire
 *                          cause (enum rocectl_qp_error_cause) history
 *                          (the last four states, 4 bits each, newest
 *                          low) and the QP's counters then: tx/rx
 *                          packets, tx_retrans, rx_nak_seq, rx_rnr_nak
 *                          (0 where the module counts nothing). Once per
 *                          failure.
 *
 *   rocectl:pfc_storm_detect   netdev prio dir window_us pause_us frames
 *                              qps procs: the evidence the storm was
 *                              declared on, the QPs on that priority and
 *                              their processes
 *   rocectl:pfc_storm_restore  netdev prio dir storm_ms conflict (1: PFC
 *                              was changed by someone else, left as it is)
 *   rocectl:pfc_wd_action      netdev prio dir action err (0: applied)
 *
 * States, types, directions and actions are the numbers of
 * include/uapi/linux/rocectl.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rocectl

#if !defined(_ROCECTL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ROCECTL_TRACE_H

#include <linux/tracepoint.h>
#include "qp/qps.h"

TRACE_EVENT(qp_create,
	TP_PROTO(const char *dev, const struct rocectl_qp_info *qp),
	TP_ARGS(dev, qp),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u8, type)
		__field(u8, kernel)
		__field(u8, devx)
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u64, cgroup)
	),
	TP_fast_assign(
		rocectl_assign_str(dev, dev);
		__entry->qpn = qp->qpn;
		__entry->type = qp->type;
		__entry->kernel = qp->kernel;
		__entry->devx = qp->devx;
		__entry->pid = qp->pid;
		memcpy(__entry->comm, qp->comm, TASK_COMM_LEN);
		__entry->cgroup = qp->cgroup;
	),
	TP_printk("dev=%s qpn=%u type=%u pid=%d comm=%s kernel=%u devx=%u cgroup=%llu",
		  __get_str(dev), __entry->qpn, __entry->type, __entry->pid,
		  __entry->comm, __entry->kernel, __entry->devx, __entry->cgroup)
);

TRACE_EVENT(qp_modify,
	TP_PROTO(const char *dev, const struct rocectl_qp_info *qp, u8 old_state,
		 int prio, const char *prio_src),
	TP_ARGS(dev, qp, old_state, prio, prio_src),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u8, old_state)
		__field(u8, new_state)
		__field(u32, port)
		__field(u32, dest_qpn)
		__field(u16, sport)
		__field(int, prio)
		__string(prio_src, prio_src)
	),
	TP_fast_assign(
		rocectl_assign_str(dev, dev);
		__entry->qpn = qp->qpn;
		__entry->old_state = old_state;
		__entry->new_state = qp->state;
		__entry->port = qp->port;
		__entry->dest_qpn = qp->dest_qpn;
		__entry->sport = qp->sport_rule;
		__entry->prio = prio;
		rocectl_assign_str(prio_src, prio_src);
	),
	TP_printk("dev=%s qpn=%u old_state=%u new_state=%u port=%u dest_qpn=%u sport=%u prio=%d prio_src=%s",
		  __get_str(dev), __entry->qpn, __entry->old_state,
		  __entry->new_state, __entry->port, __entry->dest_qpn,
		  __entry->sport, __entry->prio, __get_str(prio_src))
);

TRACE_EVENT(qp_destroy,
	TP_PROTO(const char *dev, const struct rocectl_qp_info *qp,
		 const u64 *stats, u64 lifetime),
	TP_ARGS(dev, qp, stats, lifetime),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u8, type)
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u64, lifetime_ns)
		__field(u64, tx_packets)
		__field(u64, rx_packets)
		__field(u64, tx_bytes)
		__field(u64, rx_bytes)
		__field(u64, rx_ecn_ce)
		__field(u64, rx_cnp)
		__field(u64, rx_nak_seq)
		__field(u64, tx_retrans)
	),
	TP_fast_assign(
		rocectl_assign_str(dev, dev);
		__entry->qpn = qp->qpn;
		__entry->type = qp->type;
		__entry->pid = qp->pid;
		memcpy(__entry->comm, qp->comm, TASK_COMM_LEN);
		__entry->lifetime_ns = lifetime;
		__entry->tx_packets = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_PACKETS)];
		__entry->rx_packets = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_PACKETS)];
		__entry->tx_bytes = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_BYTES)];
		__entry->rx_bytes = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_BYTES)];
		__entry->rx_ecn_ce = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_ECN_CE)];
		__entry->rx_cnp = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_CNP)];
		__entry->rx_nak_seq = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_NAK_SEQ)];
		__entry->tx_retrans = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_RETRANS)];
	),
	TP_printk("dev=%s qpn=%u type=%u pid=%d comm=%s lifetime_ns=%llu tx_packets=%llu rx_packets=%llu tx_bytes=%llu rx_bytes=%llu rx_ecn_ce=%llu rx_cnp=%llu rx_nak_seq=%llu tx_retrans=%llu",
		  __get_str(dev), __entry->qpn, __entry->type, __entry->pid,
		  __entry->comm, __entry->lifetime_ns, __entry->tx_packets,
		  __entry->rx_packets, __entry->tx_bytes, __entry->rx_bytes,
		  __entry->rx_ecn_ce, __entry->rx_cnp, __entry->rx_nak_seq,
		  __entry->tx_retrans)
);

TRACE_EVENT(qp_congestion,
	TP_PROTO(const char *dev, u32 qpn, const u64 *stats),
	TP_ARGS(dev, qpn, stats),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u64, ce)
		__field(u64, cnp)
		__field(u64, becn)
		__field(u64, nak)
		__field(u64, rnr)
		__field(u64, retrans)
		__field(u64, oos)
	),
	TP_fast_assign(
		rocectl_assign_str(dev, dev);
		__entry->qpn = qpn;
		__entry->ce = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_ECN_CE)];
		__entry->cnp = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_CNP)];
		__entry->becn = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_BECN)];
		__entry->nak = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_NAK_SEQ)];
		__entry->rnr = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_RNR_NAK)];
		/* a retransmission seen leaving, or arriving twice */
		__entry->retrans = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_RETRANS)] +
				   stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_DUP)];
		__entry->oos = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ)];
	),
	TP_printk("dev=%s qpn=%u ce=%llu cnp=%llu becn=%llu nak=%llu rnr=%llu retrans=%llu oos=%llu",
		  __get_str(dev), __entry->qpn, __entry->ce, __entry->cnp,
		  __entry->becn, __entry->nak, __entry->rnr, __entry->retrans,
		  __entry->oos)
);

TRACE_EVENT(qp_error,
	TP_PROTO(const char *dev, const struct rocectl_qp_info *qp, u8 cause,
		 const u64 *stats),
	TP_ARGS(dev, qp, cause, stats),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, qpn)
		__field(u8, type)
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u16, sport_rule)
		__field(u16, sport_wire)
		__field(u8, cause)
		__field(u16, history)
		__field(u64, tx_packets)
		__field(u64, rx_packets)
		__field(u64, tx_retrans)
		__field(u64, rx_nak_seq)
		__field(u64, rx_rnr_nak)
	),
	TP_fast_assign(
		rocectl_assign_str(dev, dev);
		__entry->qpn = qp->qpn;
		__entry->type = qp->type;
		__entry->pid = qp->pid;
		memcpy(__entry->comm, qp->comm, TASK_COMM_LEN);
		__entry->sport_rule = qp->sport_rule;
		__entry->sport_wire = qp->sport_wire;
		__entry->cause = cause;
		__entry->history = qp->history;
		__entry->tx_packets = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_PACKETS)];
		__entry->rx_packets = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_PACKETS)];
		__entry->tx_retrans = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_RETRANS)];
		__entry->rx_nak_seq = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_NAK_SEQ)];
		__entry->rx_rnr_nak = stats[ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_RNR_NAK)];
	),
	TP_printk("dev=%s qpn=%u type=%u pid=%d comm=%s sport_rule=%u sport_wire=%u cause=%u history=0x%04x tx_packets=%llu rx_packets=%llu tx_retrans=%llu rx_nak_seq=%llu rx_rnr_nak=%llu",
		  __get_str(dev), __entry->qpn, __entry->type, __entry->pid,
		  __entry->comm, __entry->sport_rule, __entry->sport_wire,
		  __entry->cause, __entry->history, __entry->tx_packets,
		  __entry->rx_packets, __entry->tx_retrans, __entry->rx_nak_seq,
		  __entry->rx_rnr_nak)
);

TRACE_EVENT(pfc_storm_detect,
	TP_PROTO(const char *netdev, int prio, int dir, u64 window_us,
		 u64 pause_us, u64 frames, u32 qps, u32 procs),
	TP_ARGS(netdev, prio, dir, window_us, pause_us, frames, qps, procs),
	TP_STRUCT__entry(
		__string(netdev, netdev)
		__field(u8, prio)
		__field(u8, dir)
		__field(u64, window_us)
		__field(u64, pause_us)
		__field(u64, frames)
		__field(u32, qps)
		__field(u32, procs)
	),
	TP_fast_assign(
		rocectl_assign_str(netdev, netdev);
		__entry->prio = prio;
		__entry->dir = dir;
		__entry->window_us = window_us;
		__entry->pause_us = pause_us;
		__entry->frames = frames;
		__entry->qps = qps;
		__entry->procs = procs;
	),
	TP_printk("netdev=%s prio=%u dir=%u window_us=%llu pause_us=%llu frames=%llu qps=%u procs=%u",
		  __get_str(netdev), __entry->prio, __entry->dir,
		  __entry->window_us, __entry->pause_us, __entry->frames,
		  __entry->qps, __entry->procs)
);

TRACE_EVENT(pfc_storm_restore,
	TP_PROTO(const char *netdev, int prio, int dir, u64 storm_ms, bool conflict),
	TP_ARGS(netdev, prio, dir, storm_ms, conflict),
	TP_STRUCT__entry(
		__string(netdev, netdev)
		__field(u8, prio)
		__field(u8, dir)
		__field(u64, storm_ms)
		__field(u8, conflict)
	),
	TP_fast_assign(
		rocectl_assign_str(netdev, netdev);
		__entry->prio = prio;
		__entry->dir = dir;
		__entry->storm_ms = storm_ms;
		__entry->conflict = conflict;
	),
	TP_printk("netdev=%s prio=%u dir=%u storm_ms=%llu conflict=%u",
		  __get_str(netdev), __entry->prio, __entry->dir,
		  __entry->storm_ms, __entry->conflict)
);

TRACE_EVENT(pfc_wd_action,
	TP_PROTO(const char *netdev, int prio, int dir, int action, int err),
	TP_ARGS(netdev, prio, dir, action, err),
	TP_STRUCT__entry(
		__string(netdev, netdev)
		__field(u8, prio)
		__field(u8, dir)
		__field(u8, action)
		__field(int, err)
	),
	TP_fast_assign(
		rocectl_assign_str(netdev, netdev);
		__entry->prio = prio;
		__entry->dir = dir;
		__entry->action = action;
		__entry->err = err;
	),
	TP_printk("netdev=%s prio=%u dir=%u action=%u err=%d",
		  __get_str(netdev), __entry->prio, __entry->dir,
		  __entry->action, __entry->err)
);

#endif /* _ROCECTL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
