/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/* Do not edit directly, auto-generated from: */
/*	include/netlink/specs/rocectl.yaml */
/* YNL-GEN uapi header */

/*
 * The generic netlink interface between rocectl.ko and the rocectl tool. This
 * file is the whole kernel/user ABI; nothing else is.
 *
 * Requests are validated strictly against a policy per command: an attribute a
 * command does not take, a wrong length or an out-of-range value is refused
 * with an extack message and the offending attribute marked. New attributes
 * and commands are only ever appended.
 *
 * Who sees which QP: anyone may read every QP, as with rdma resource show (the
 * RDMA core's resource dumps: every QP of the devices in the reader's network
 * namespace, no field reserved to CAP_NET_ADMIN). The owner is told as the
 * reader's pid namespace knows it (task_pid_vnr): its pid there, and no pid
 * and no command name for an owner outside it; a qp-pid filter is a pid of the
 * reader's namespace. Kernel QPs carry their kernel user's name for everyone.
 * Notifications go to every listener at once, whatever its pid namespace: they
 * carry no owner (neither qp-pid nor qp-comm) of a user QP; a listener asks
 * qp-get, which numbers it for the listener.
 *
 * Commands and notifications (their attributes, each one's type and
 * meaning: include/netlink/specs/rocectl.yaml):
 *
 * ROCECTL_CMD_DEV_GET
 *   RDMA devices. Request, do: dev-index and/or dev-name (one is required;
 *   if both are given they must name the same device). Request, dump: no
 *   attribute. Reply: one message per RDMA device. Where the module counts
 *   packets (soft-RoCE), dev-qps-gone and dev-unattributed hold the device's
 *   share of them that no live QP's counters hold, so that the live QPs'
 *   sums plus these equal every packet the packet path saw since the device
 *   was tracked.
 *
 * ROCECTL_CMD_DEV_ADD_NTF
 *   An RDMA device appeared. Same attributes as a dev-get reply.
 *
 * ROCECTL_CMD_DEV_DEL_NTF
 *   An RDMA device is going away. Not sent when rocectl.ko itself is
 *   unloaded.
 *
 * ROCECTL_CMD_DEV_RENAME_NTF
 *   An RDMA device was renamed (dev-name the new name).
 *
 * ROCECTL_CMD_QP_GET
 *   QPs (anyone; see "Who sees which QP"). Request, do: the device
 *   (dev-index or dev-name) and qp-num, all required. Request, dump:
 *   optional filters, each narrowing the result: the device, qp-port,
 *   qp-pid, qp-type, qp-state. Reply: one message per QP. Attributes that
 *   are not known yet (no path before RTR) are absent.
 *
 * ROCECTL_CMD_QP_CREATE_NTF
 *   A QP was created: the attributes of a qp-get reply known at creation
 *   (without a user QP's owner).
 *
 * ROCECTL_CMD_QP_MODIFY_NTF
 *   A QP changed state, a qp-get reply plus qp-prev-state.
 *
 * ROCECTL_CMD_QP_DESTROY_NTF
 *   A QP was destroyed, a qp-get reply with its lifetime counters and
 *   qp-lifetime.
 *
 * ROCECTL_CMD_WD_SET
 *   Watch priorities of a netdev for PFC pause storms, or change how
 *   (CAP_NET_ADMIN). The netdev: netdev-name or netdev-index, or an RDMA
 *   port: dev-name (or dev-index) and wd-port. wd-prios is required for a
 *   new watch. Omitted values keep their current setting on an existing
 *   watch. wd-stall-ms is the whole port's, set back to what it was when the
 *   watch is deleted or the module unloaded.
 *
 * ROCECTL_CMD_WD_DEL
 *   Stop watching (CAP_NET_ADMIN): the netdev as for wd-set, wd-prios
 *   (default all). Every PFC bit the watchdog cleared is set back first.
 *
 * ROCECTL_CMD_WD_GET
 *   Watches. Request: the netdev (do), nothing (dump). Reply, one per
 *   netdev: the wd-set settings, the counters' kind, the big red switch, the
 *   NIC's stall prevention (when it has one), the hardware backend (when one
 *   drives the netdev: PFC then changes per direction, counters are read
 *   live from the NIC), wd-netdev-gone, and one wd-prio nest per watched
 *   priority and direction (and per priority of a direction no longer
 *   watched that still holds its PFC bit, until it is set back).
 *
 * ROCECTL_CMD_WD_BRS_SET
 *   The big red switch (CAP_NET_ADMIN), wd-brs required: 1 applies the
 *   forward action to every watched priority now and suspends detection; 0
 *   sets back what it cleared and resumes detection.
 *
 * ROCECTL_CMD_WD_EVENT_NTF
 *   The watchdog acted: the priority's wd-prio nest and the evidence.
 *   stall-warning and stall-error concern the whole port (no priority nest).
 *
 * ROCECTL_CMD_CONG_GET
 *   Congestion control of an RDMA device's port, where a hardware backend
 *   knows the device (rocectl_mlx5, DCQCN); -EOPNOTSUPP elsewhere. All or
 *   nothing: -EOPNOTSUPP when the firmware does not allow queries, an error
 *   when one of the queries fails.
 *
 * ROCECTL_CMD_CONG_SET
 *   Set congestion control parameters (CAP_NET_ADMIN): the device and port
 *   as for cong-get, one or more cong-param nests. All are checked (known
 *   name, value in range) before any is written; an unknown name or a value
 *   out of range is refused with the nest pointed at.
 *
 * ROCECTL_CMD_QP_RETIRED_GET
 *   The final counts of destroyed QPs, summed per device, port, owner's
 *   command name and owner's cgroup (qp-cgroup, absent for the root cgroup)
 *   (soft-RoCE, where the module counts packets), so that a reader's
 *   per-group sums -- these plus the live QPs' -- never depend on catching a
 *   qp-destroy-ntf. Groups are never removed while their device lives; past
 *   the device's bound (retired_groups) a destroyed QP is added to one
 *   qp-retired-other group. Request, do: the device (dev-index and/or
 *   dev-name), qp-port, qp-comm and qp-cgroup (absent: the root cgroup) of
 *   one group (-ENOENT if it has none). Request, dump: any of these, to
 *   select; nothing for every group. Reply: one message per group.
 *
 * ROCECTL_CMD_QP_ERROR_GET
 *   The last QP failures (anyone), oldest first: a bounded ring of records
 *   kept after their QPs are destroyed (module parameter error_records), one
 *   per failure -- a QP has one record from the failure that moves it to ERR
 *   until a modify to RESET; a second event, or a modify to ERR of a QP
 *   already in ERR, adds none. Request, do: qp-error-seq, one record
 *   (-ENOENT once the ring lost it). Request, dump: the device (dev-index or
 *   dev-name) to select, or nothing. Reply: one message per record: the QP
 *   as qp-get shows it at that moment (the owner numbered for the reader),
 *   qp-id, qp-history, qp-error-cause, qp-error-time, qp-error-seq,
 *   qp-error-overwritten and its counters where the module counts packets.
 *
 * ROCECTL_CMD_QP_ERROR_NTF
 *   A QP failed: the record qp-error-get will show (without a user QP's
 *   owner, as every notification).
 *
 * ROCECTL_CMD_QP_ERROR_COUNT_GET
 *   QP failures counted per device, owner's command name and cause since
 *   load (anyone): counts that never go back, which the ring alone cannot
 *   give. Past the bound on groups (error_groups) a failure is added to the
 *   qp-error-other count of its cause, which names no device (a dump
 *   selecting a device leaves it out). Request, do: the device, qp-comm and
 *   qp-error-cause of one group (-ENOENT if it has none). Request, dump: the
 *   device to select, or nothing. Reply: one message per group.
 */
#ifndef _UAPI_LINUX_ROCECTL_H
#define _UAPI_LINUX_ROCECTL_H

#define ROCECTL_GENL_NAME	"rocectl"
#define ROCECTL_GENL_VERSION	1

#define ROCECTL_DEV_NAME_MAX	63

/**
 * enum rocectl_wd_action
 * @ROCECTL_WD_ACTION_ALERT: events, tracepoints, counters; nothing changed
 * @ROCECTL_WD_ACTION_FORWARD: the priority stops being lossless; PFC off on it
 */
enum rocectl_wd_action {
	ROCECTL_WD_ACTION_ALERT,
	ROCECTL_WD_ACTION_FORWARD,
};

/**
 * enum rocectl_wd_direction
 * @ROCECTL_WD_DIR_RX: we are paused; received-pause storm
 * @ROCECTL_WD_DIR_TX: we pause the peer; sent-pause storm
 * @ROCECTL_WD_DIR_BOTH: wd-set only; both directions
 */
enum rocectl_wd_direction {
	ROCECTL_WD_DIR_RX,
	ROCECTL_WD_DIR_TX,
	ROCECTL_WD_DIR_BOTH,
};

/**
 * enum rocectl_wd_state
 * @ROCECTL_WD_STORM: detected; the action is applied
 * @ROCECTL_WD_PFC_OFF: PFC is off on it (not by us); nothing to watch
 * @ROCECTL_WD_SUSPENDED: big red switch
 */
enum rocectl_wd_state {
	ROCECTL_WD_MONITORING,
	ROCECTL_WD_STORM,
	ROCECTL_WD_PFC_OFF,
	ROCECTL_WD_SUSPENDED,
	ROCECTL_WD_LINK_DOWN,
};

/**
 * enum rocectl_wd_counters - Where the watchdog's evidence comes from on a
 *   netdev.
 * @ROCECTL_WD_COUNTERS_DURATION: per-priority pause time (and frames)
 * @ROCECTL_WD_COUNTERS_FRAMES: IEEE PFC frame counters only
 */
enum rocectl_wd_counters {
	ROCECTL_WD_COUNTERS_DURATION,
	ROCECTL_WD_COUNTERS_FRAMES,
};

/**
 * enum rocectl_wd_event
 * @ROCECTL_WD_EV_CONFLICT: PFC changed by someone else; left as it is
 * @ROCECTL_WD_EV_GONE: the netdev went away
 * @ROCECTL_WD_EV_STALL_WARNING: the NIC's stall prevention warned
 * @ROCECTL_WD_EV_STALL_ERROR: ... and stopped sending pause
 */
enum rocectl_wd_event {
	ROCECTL_WD_EV_DETECT,
	ROCECTL_WD_EV_ACTION,
	ROCECTL_WD_EV_ACTION_FAILED,
	ROCECTL_WD_EV_RESTORE,
	ROCECTL_WD_EV_CONFLICT,
	ROCECTL_WD_EV_GONE,
	ROCECTL_WD_EV_STALL_WARNING,
	ROCECTL_WD_EV_STALL_ERROR,
};

/**
 * enum rocectl_qp_type - QP types, numbered as the RDMA core numbers them.
 *   DRIVER: every other type -- a driver's own (IB_QPT_DRIVER; mlx5's UMR, DCI
 *   and DCT QPs, numbered from 0x1000 in the kernel) or one no driver creates.
 */
enum rocectl_qp_type {
	ROCECTL_QPT_SMI,
	ROCECTL_QPT_GSI,
	ROCECTL_QPT_RC,
	ROCECTL_QPT_UC,
	ROCECTL_QPT_UD,
	ROCECTL_QPT_RAW_PACKET = 8,
	ROCECTL_QPT_XRC_INI,
	ROCECTL_QPT_XRC_TGT,
	ROCECTL_QPT_DRIVER = 255,
};

/**
 * enum rocectl_qp_state - QP states, numbered as the RDMA core numbers them.
 */
enum rocectl_qp_state {
	ROCECTL_QPS_RESET,
	ROCECTL_QPS_INIT,
	ROCECTL_QPS_RTR,
	ROCECTL_QPS_RTS,
	ROCECTL_QPS_SQD,
	ROCECTL_QPS_SQE,
	ROCECTL_QPS_ERR,
};

/**
 * enum rocectl_driver - Which driver serves a device; drivers rocectl has no
 *   backend for are OTHER.
 */
enum rocectl_driver {
	ROCECTL_DRIVER_OTHER,
	ROCECTL_DRIVER_RXE,
	ROCECTL_DRIVER_MLX5,
};

/**
 * enum rocectl_port_state - Port logical state, as the InfiniBand
 *   specification numbers it.
 */
enum rocectl_port_state {
	ROCECTL_PORT_NOP,
	ROCECTL_PORT_DOWN,
	ROCECTL_PORT_INIT,
	ROCECTL_PORT_ARMED,
	ROCECTL_PORT_ACTIVE,
	ROCECTL_PORT_ACTIVE_DEFER,
};

/**
 * enum rocectl_port_phys_state - Port physical state, as the InfiniBand
 *   specification numbers it.
 */
enum rocectl_port_phys_state {
	ROCECTL_PORT_PHYS_NOP,
	ROCECTL_PORT_PHYS_SLEEP,
	ROCECTL_PORT_PHYS_POLLING,
	ROCECTL_PORT_PHYS_DISABLED,
	ROCECTL_PORT_PHYS_TRAINING,
	ROCECTL_PORT_PHYS_LINK_UP,
	ROCECTL_PORT_PHYS_ERROR_RECOVERY,
	ROCECTL_PORT_PHYS_PHY_TEST,
};

enum rocectl_link_layer {
	ROCECTL_LINK_LAYER_UNSPECIFIED,
	ROCECTL_LINK_LAYER_INFINIBAND,
	ROCECTL_LINK_LAYER_ETHERNET,
};

/**
 * enum rocectl_roce - port-roce, the RoCE encapsulations a port supports.
 * @ROCECTL_ROCE_V1: RoCE over Ethernet (ethertype 0x8915)
 * @ROCECTL_ROCE_V2: RoCE over UDP/IP, port 4791
 */
enum rocectl_roce {
	ROCECTL_ROCE_V1 = 1,
	ROCECTL_ROCE_V2 = 2,
};

/**
 * enum rocectl_gid_type - port-gid-types, the GID types present in a port's
 *   GID table.
 */
enum rocectl_gid_type {
	ROCECTL_GID_TYPE_IB = 1,
	ROCECTL_GID_TYPE_ROCE_V1 = 2,
	ROCECTL_GID_TYPE_ROCE_V2 = 4,
};

/**
 * enum rocectl_qp_prio_source - Where a QP's priority comes from
 *   (qp-prio-source).
 * @ROCECTL_QP_PRIO_SOURCE_DEFAULT: untagged, the netdev trusts no DSCP entry;
 *   priority 0
 * @ROCECTL_QP_PRIO_SOURCE_DSCP: the netdev's DCB APP table, DSCP tclass >> 2
 * @ROCECTL_QP_PRIO_SOURCE_PCP: the VLAN netdev's egress map of the QP's
 *   service level
 */
enum rocectl_qp_prio_source {
	ROCECTL_QP_PRIO_SOURCE_DEFAULT,
	ROCECTL_QP_PRIO_SOURCE_DSCP,
	ROCECTL_QP_PRIO_SOURCE_PCP,
};

/**
 * enum rocectl_qp_error_cause - How the kernel learnt that a QP failed
 *   (qp-error-get, qp-error-ntf).
 * @ROCECTL_QP_ERROR_CAUSE_MODIFY: a modify moved it to ERR (the application,
 *   or its library)
 * @ROCECTL_QP_ERROR_CAUSE_FATAL: asynchronous event IB_EVENT_QP_FATAL from its
 *   driver
 * @ROCECTL_QP_ERROR_CAUSE_REQ_ERR: asynchronous event IB_EVENT_QP_REQ_ERR
 *   (invalid request)
 * @ROCECTL_QP_ERROR_CAUSE_ACCESS_ERR: asynchronous event
 *   IB_EVENT_QP_ACCESS_ERR (local access violation)
 * @ROCECTL_QP_ERROR_CAUSE_DRIVER: the driver moved it to ERR on its own,
 *   raising no event: soft-RoCE after a completion error (retry or RNR retry
 *   exhausted, an error NAK from the peer) or a request it refused
 */
enum rocectl_qp_error_cause {
	ROCECTL_QP_ERROR_CAUSE_MODIFY,
	ROCECTL_QP_ERROR_CAUSE_FATAL,
	ROCECTL_QP_ERROR_CAUSE_REQ_ERR,
	ROCECTL_QP_ERROR_CAUSE_ACCESS_ERR,
	ROCECTL_QP_ERROR_CAUSE_DRIVER,
};

enum rocectl_attr {
	ROCECTL_A_UNSPEC,
	ROCECTL_A_PAD,
	ROCECTL_A_DEV_INDEX,
	ROCECTL_A_DEV_NAME,
	ROCECTL_A_DEV_PREV_NAME,
	ROCECTL_A_DEV_DRIVER,
	ROCECTL_A_DEV_DRIVER_NAME,
	ROCECTL_A_DEV_NODE_GUID,
	ROCECTL_A_DEV_NUM_PORTS,
	ROCECTL_A_DEV_PORT,
	ROCECTL_A_QP_NUM,
	ROCECTL_A_QP_TYPE,
	ROCECTL_A_QP_STATE,
	ROCECTL_A_QP_PREV_STATE,
	ROCECTL_A_QP_PORT,
	ROCECTL_A_QP_PID,
	ROCECTL_A_QP_COMM,
	ROCECTL_A_QP_KERNEL,
	ROCECTL_A_QP_CREATE_TIME,
	ROCECTL_A_QP_STATE_TIME,
	ROCECTL_A_QP_DEST_QPN,
	ROCECTL_A_QP_SGID,
	ROCECTL_A_QP_DGID,
	ROCECTL_A_QP_TCLASS,
	ROCECTL_A_QP_SL,
	ROCECTL_A_QP_PATH_MTU,
	ROCECTL_A_QP_TIMEOUT,
	ROCECTL_A_QP_RETRY_CNT,
	ROCECTL_A_QP_RNR_RETRY,
	ROCECTL_A_QP_STATS,
	ROCECTL_A_QP_LIFETIME,
	ROCECTL_A_NETDEV_INDEX,
	ROCECTL_A_NETDEV_NAME,
	ROCECTL_A_WD_PORT,
	ROCECTL_A_WD_PRIOS,
	ROCECTL_A_WD_DETECT_MS,
	ROCECTL_A_WD_RESTORE_MS,
	ROCECTL_A_WD_INTERVAL_MS,
	ROCECTL_A_WD_ACTION,
	ROCECTL_A_WD_DIRECTION,
	ROCECTL_A_WD_COUNTERS,
	ROCECTL_A_WD_BRS,
	ROCECTL_A_WD_PRIO,
	ROCECTL_A_WD_EVENT,
	ROCECTL_A_WD_EV_WINDOW_US,
	ROCECTL_A_WD_EV_PAUSE_US,
	ROCECTL_A_WD_EV_FRAMES,
	ROCECTL_A_BACKEND,
	ROCECTL_A_WD_STALL_MS,
	ROCECTL_A_WD_STALL_WARNINGS,
	ROCECTL_A_WD_STALL_ERRORS,
	ROCECTL_A_CONG_PARAM,
	ROCECTL_A_CONG_STAT,
	ROCECTL_A_CONG_RP_ENABLED,
	ROCECTL_A_CONG_NP_ENABLED,
	ROCECTL_A_CONG_PORT,
	ROCECTL_A_WD_NETDEV_GONE,
	ROCECTL_A_DEV_QPS_GONE,
	ROCECTL_A_DEV_UNATTRIBUTED,
	ROCECTL_A_DEV_PKT_UNSEEN,
	ROCECTL_A_DEV_PROBE_MISSED,
	ROCECTL_A_DEV_QP_HOOK_MISSED,
	ROCECTL_A_QP_INCOMPLETE,
	ROCECTL_A_QP_RETIRED_QPS,
	ROCECTL_A_QP_RETIRED_OTHER,
	ROCECTL_A_QP_SPORT_RULE,
	ROCECTL_A_QP_SPORT_WIRE,
	ROCECTL_A_QP_PRIO,
	ROCECTL_A_QP_PRIO_SOURCE,
	ROCECTL_A_QP_HISTORY,
	ROCECTL_A_QP_ERROR_CAUSE,
	ROCECTL_A_QP_ERROR_TIME,
	ROCECTL_A_QP_ERROR_SEQ,
	ROCECTL_A_QP_ERROR_OVERWRITTEN,
	ROCECTL_A_QP_ERROR_COUNT,
	ROCECTL_A_QP_ERROR_OTHER,
	ROCECTL_A_QP_ID,
	ROCECTL_A_QP_DEVX,
	ROCECTL_A_QP_COUNTER_SET,
	ROCECTL_A_DEV_DEVX_MISSED,
	ROCECTL_A_QP_CGROUP,

	__ROCECTL_A_MAX,
	ROCECTL_A_MAX = (__ROCECTL_A_MAX - 1)
};

enum rocectl_port_attr {
	ROCECTL_A_PORT_UNSPEC,
	ROCECTL_A_PORT_INDEX,
	ROCECTL_A_PORT_STATE,
	ROCECTL_A_PORT_PHYS_STATE,
	ROCECTL_A_PORT_LINK_LAYER,
	ROCECTL_A_PORT_ROCE,
	ROCECTL_A_PORT_GID_TYPES,
	ROCECTL_A_PORT_ACTIVE_MTU,
	ROCECTL_A_PORT_MAX_MTU,
	ROCECTL_A_PORT_NETDEV_INDEX,
	ROCECTL_A_PORT_NETDEV_NAME,

	__ROCECTL_A_PORT_MAX,
	ROCECTL_A_PORT_MAX = (__ROCECTL_A_PORT_MAX - 1)
};

enum rocectl_qp_stat {
	ROCECTL_A_QP_STAT_UNSPEC,
	ROCECTL_A_QP_STAT_PAD,
	ROCECTL_A_QP_STAT_TX_PACKETS,
	ROCECTL_A_QP_STAT_TX_BYTES,
	ROCECTL_A_QP_STAT_RX_PACKETS,
	ROCECTL_A_QP_STAT_RX_BYTES,
	ROCECTL_A_QP_STAT_RX_ECN_CE,
	ROCECTL_A_QP_STAT_RX_CNP,
	ROCECTL_A_QP_STAT_TX_CNP,
	ROCECTL_A_QP_STAT_RX_BECN,
	ROCECTL_A_QP_STAT_RX_NAK_SEQ,
	ROCECTL_A_QP_STAT_TX_NAK_SEQ,
	ROCECTL_A_QP_STAT_RX_RNR_NAK,
	ROCECTL_A_QP_STAT_TX_RNR_NAK,
	ROCECTL_A_QP_STAT_TX_RETRANS,
	ROCECTL_A_QP_STAT_RX_DUP,
	ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ,

	__ROCECTL_A_QP_STAT_MAX,
	ROCECTL_A_QP_STAT_MAX = (__ROCECTL_A_QP_STAT_MAX - 1)
};

enum rocectl_wd_prio_attr {
	ROCECTL_A_WDP_UNSPEC,
	ROCECTL_A_WDP_PAD,
	ROCECTL_A_WDP_PRIO,
	ROCECTL_A_WDP_DIRECTION,
	ROCECTL_A_WDP_STATE,
	ROCECTL_A_WDP_STORMS,
	ROCECTL_A_WDP_RESTORES,
	ROCECTL_A_WDP_LAST_DETECT,
	ROCECTL_A_WDP_LAST_RESTORE,
	ROCECTL_A_WDP_STORM_MS,
	ROCECTL_A_WDP_LAST_STORM_MS,
	ROCECTL_A_WDP_LAST_STORM_FRAMES,
	ROCECTL_A_WDP_ACTIONS,
	ROCECTL_A_WDP_ACTIONS_FAILED,
	ROCECTL_A_WDP_CONFLICTS,
	ROCECTL_A_WDP_BACKOFF,
	ROCECTL_A_WDP_PFC_CLEARED,
	ROCECTL_A_WDP_BLAST_QPS,
	ROCECTL_A_WDP_BLAST_PROCS,
	ROCECTL_A_WDP_BLAST_PROC,
	ROCECTL_A_WDP_BLAST_LOST,

	__ROCECTL_A_WDP_MAX,
	ROCECTL_A_WDP_MAX = (__ROCECTL_A_WDP_MAX - 1)
};

enum rocectl_wd_blast_attr {
	ROCECTL_A_WDB_UNSPEC,
	ROCECTL_A_WDB_PAD,
	ROCECTL_A_WDB_PID,
	ROCECTL_A_WDB_COMM,
	ROCECTL_A_WDB_QPS,
	ROCECTL_A_WDB_BYTES,
	ROCECTL_A_WDB_CGROUP,
	ROCECTL_A_WDB_SLOT,

	__ROCECTL_A_WDB_MAX,
	ROCECTL_A_WDB_MAX = (__ROCECTL_A_WDB_MAX - 1)
};

enum rocectl_cong_attr {
	ROCECTL_A_CONG_UNSPEC,
	ROCECTL_A_CONG_NAME,
	ROCECTL_A_CONG_VALUE,
	ROCECTL_A_CONG_PAD,

	__ROCECTL_A_CONG_MAX,
	ROCECTL_A_CONG_MAX = (__ROCECTL_A_CONG_MAX - 1)
};

enum rocectl_cmd {
	ROCECTL_CMD_UNSPEC,
	ROCECTL_CMD_DEV_GET,
	ROCECTL_CMD_DEV_ADD_NTF,
	ROCECTL_CMD_DEV_DEL_NTF,
	ROCECTL_CMD_DEV_RENAME_NTF,
	ROCECTL_CMD_QP_GET,
	ROCECTL_CMD_QP_CREATE_NTF,
	ROCECTL_CMD_QP_MODIFY_NTF,
	ROCECTL_CMD_QP_DESTROY_NTF,
	ROCECTL_CMD_WD_SET,
	ROCECTL_CMD_WD_DEL,
	ROCECTL_CMD_WD_GET,
	ROCECTL_CMD_WD_BRS_SET,
	ROCECTL_CMD_WD_EVENT_NTF,
	ROCECTL_CMD_CONG_GET,
	ROCECTL_CMD_CONG_SET,
	ROCECTL_CMD_QP_RETIRED_GET,
	ROCECTL_CMD_QP_ERROR_GET,
	ROCECTL_CMD_QP_ERROR_NTF,
	ROCECTL_CMD_QP_ERROR_COUNT_GET,

	__ROCECTL_CMD_MAX,
	ROCECTL_CMD_MAX = (__ROCECTL_CMD_MAX - 1)
};

#define ROCECTL_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_ROCECTL_H */
