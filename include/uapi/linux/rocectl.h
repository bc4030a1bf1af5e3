/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * rocectl: the generic netlink interface between rocectl.ko and the
 * rocectl tool. This file is the whole kernel/user ABI; nothing else is.
 *
 * Family "rocectl", version ROCECTL_GENL_VERSION. Requests are validated
 * strictly against a policy per command: an attribute a command does not
 * take, a wrong length or an out-of-range value is refused with an extack
 * message and the offending attribute marked. New attributes and commands
 * are only ever appended.
 *
 * Commands
 *
 * ROCECTL_CMD_DEV_GET (doit and dump, anyone)
 *   Request, doit: ROCECTL_A_DEV_INDEX and/or ROCECTL_A_DEV_NAME (one is
 *   required; if both are given they must name the same device).
 *   Request, dump: no attribute.
 *   Reply: one message per RDMA device:
 *     ROCECTL_A_DEV_INDEX        u32     ib_core's device index
 *     ROCECTL_A_DEV_NAME         string  device name (rxe0, mlx5_0, ...)
 *     ROCECTL_A_DEV_DRIVER       u32     enum rocectl_driver
 *     ROCECTL_A_DEV_DRIVER_NAME  string  the driver's module (rdma_rxe, ...)
 *     ROCECTL_A_DEV_NODE_GUID    u64     node GUID, as a number
 *     ROCECTL_A_DEV_NUM_PORTS    u32     number of ports
 *     ROCECTL_A_DEV_PORT         nest    one per port, attributes below
 *       ROCECTL_A_PORT_INDEX        u32     port number, from 1
 *       ROCECTL_A_PORT_STATE        u8      enum rocectl_port_state
 *       ROCECTL_A_PORT_PHYS_STATE   u8      enum rocectl_port_phys_state
 *       ROCECTL_A_PORT_LINK_LAYER   u8      enum rocectl_link_layer
 *       ROCECTL_A_PORT_ROCE         u32     ROCECTL_ROCE_* flags (0: not RoCE)
 *       ROCECTL_A_PORT_GID_TYPES    u32     ROCECTL_GID_TYPE_* flags of the
 *                                           GIDs populated in the GID table
 *       ROCECTL_A_PORT_ACTIVE_MTU   u32     path MTU in bytes, 0 if unknown
 *       ROCECTL_A_PORT_MAX_MTU      u32     largest MTU in bytes
 *       ROCECTL_A_PORT_NETDEV_INDEX u32     ifindex of the netdev behind
 *                                           the port (absent if none)
 *       ROCECTL_A_PORT_NETDEV_NAME  string  its name (absent if none)
 *   Where the module counts packets (soft-RoCE), the device's share of
 *   them that no live QP's counters hold, so that the live QPs' sums plus
 *   these equal every packet the packet path saw since the device was
 *   tracked (ROCECTL_A_QP_STAT_* inside each nest):
 *     ROCECTL_A_DEV_QPS_GONE      nest    the final counters of its QPs
 *                                         destroyed since then
 *     ROCECTL_A_DEV_UNATTRIBUTED  nest    packets no counting QP took: a
 *                                         QPN unknown or already destroyed,
 *                                         a QP not yet at RTR (TX_PACKETS,
 *                                         TX_BYTES, RX_PACKETS, RX_BYTES,
 *                                         RX_ECN_CE; the others stay 0)
 *     ROCECTL_A_DEV_PKT_UNSEEN    u64     module-wide, not this device's:
 *                                         soft-RoCE packets the packet path
 *                                         took but could not read (segments
 *                                         still to be cut, unparsable
 *                                         headers, a loopback packet on a
 *                                         netdev no tracked device uses)
 *     ROCECTL_A_DEV_PROBE_MISSED  u64     module-wide: hits of the loopback
 *                                         probe (rdma_rxe's receive
 *                                         function) the kernel skipped, as
 *                                         another probe ran on the CPU. A
 *                                         loopback packet so missed goes
 *                                         uncounted; one from the wire was
 *                                         counted at the IP layer already
 *     ROCECTL_A_DEV_QP_HOOK_MISSED u64    module-wide: calls of the RDMA
 *                                         core's QP verbs (create, modify,
 *                                         destroy) the module's hooks missed,
 *                                         more being in progress at once than
 *                                         it holds instances for; the QPs
 *                                         live then carry
 *                                         ROCECTL_A_QP_INCOMPLETE
 *
 * ROCECTL_CMD_QP_GET (doit and dump, anyone; see "Who sees which QP" below)
 *   Request, doit: the device (ROCECTL_A_DEV_INDEX or ROCECTL_A_DEV_NAME)
 *   and ROCECTL_A_QP_NUM, all required.
 *   Request, dump: optional filters, each narrowing the result:
 *   ROCECTL_A_DEV_INDEX or ROCECTL_A_DEV_NAME, ROCECTL_A_QP_PORT,
 *   ROCECTL_A_QP_PID, ROCECTL_A_QP_TYPE, ROCECTL_A_QP_STATE.
 *   Reply: one message per QP:
 *     ROCECTL_A_DEV_INDEX, ROCECTL_A_DEV_NAME  the device
 *     ROCECTL_A_QP_NUM          u32     QP number (per device)
 *     ROCECTL_A_QP_TYPE         u8      enum rocectl_qp_type
 *     ROCECTL_A_QP_STATE        u8      enum rocectl_qp_state
 *     ROCECTL_A_QP_PORT         u32     port, 0 until the QP is bound to one
 *     ROCECTL_A_QP_PID          u32     owner's pid (thread group) in the
 *                                       reader's pid namespace, 0 for
 *                                       kernel QPs; kept after it exits;
 *                                       absent, with ROCECTL_A_QP_COMM, when
 *                                       the owner is not in that namespace
 *     ROCECTL_A_QP_COMM         string  owner's command name, or the kernel
 *                                       user's name (ib_core's caller)
 *     ROCECTL_A_QP_KERNEL       u8      1 for a QP created by a kernel user
 *     ROCECTL_A_QP_CREATE_TIME  u64     creation, ns since the epoch
 *                                       (load time for QPs found at load)
 *     ROCECTL_A_QP_STATE_TIME   u64     last state change, ns since the epoch
 *     ROCECTL_A_QP_DEST_QPN     u32     remote QPN (connected QPs, from RTR)
 *     ROCECTL_A_QP_SGID         binary  16-byte source GID (RoCE: the IPv6
 *                                       or IPv4-mapped address)
 *     ROCECTL_A_QP_DGID         binary  16-byte destination GID
 *     ROCECTL_A_QP_TCLASS       u8      IP traffic class: DSCP << 2 | ECN
 *     ROCECTL_A_QP_SL           u8      service level (the 802.1p priority
 *                                       of RoCE frames)
 *     ROCECTL_A_QP_PATH_MTU     u32     path MTU in bytes
 *     ROCECTL_A_QP_TIMEOUT      u8      local ACK timeout exponent
 *     ROCECTL_A_QP_RETRY_CNT    u8      retry count
 *     ROCECTL_A_QP_RNR_RETRY    u8      RNR retry count
 *     ROCECTL_A_QP_INCOMPLETE   flag    a QP verb call was missed while
 *                                       the QP was live (ROCECTL_A_DEV_
 *                                       QP_HOOK_MISSED): its state and path
 *                                       may be stale, or it may be gone
 *     ROCECTL_A_QP_STATS        nest    counters the module computes from the
 *                                       packets it sees (software RoCE only;
 *                                       absent where it sees none), each u64:
 *                                       ROCECTL_A_QP_STAT_* below
 *   Attributes that are not known yet (no path before RTR) are absent.
 *
 * Who sees which QP: anyone may read every QP, as with rdma resource show
 *   (the RDMA core's resource dumps: every QP of the devices in the reader's
 *   network namespace, no field reserved to CAP_NET_ADMIN). The owner is
 *   told as the reader's pid namespace knows it (task_pid_vnr): its pid
 *   there, and no pid and no command name for an owner outside it; a
 *   ROCECTL_A_QP_PID filter is a pid of the reader's namespace. Kernel QPs
 *   carry their kernel user's name for everyone. Notifications go to every
 *   listener at once, whatever its pid namespace: they carry no owner
 *   (neither ROCECTL_A_QP_PID nor ROCECTL_A_QP_COMM) of a user QP; a
 *   listener asks QP_GET, which numbers it for the listener.
 *
 * ROCECTL_CMD_WD_SET (CAP_NET_ADMIN)
 *   Watch priorities of a netdev for PFC pause storms, or change how.
 *   The netdev: ROCECTL_A_NETDEV_NAME or ROCECTL_A_NETDEV_INDEX, or an RDMA
 *   port: ROCECTL_A_DEV_NAME (or _INDEX) and ROCECTL_A_WD_PORT (default 1).
 *   ROCECTL_A_WD_PRIOS        u8  priorities to add to the watch (bit p:
 *                                 priority p); required for a new watch
 *   ROCECTL_A_WD_DETECT_MS    u32 detection time, 20..10000 (default 200)
 *   ROCECTL_A_WD_RESTORE_MS   u32 restoration time, 20..60000 (default 400)
 *   ROCECTL_A_WD_INTERVAL_MS  u32 poll interval, 10..1000 and no larger than
 *                                 either time (default 100)
 *   ROCECTL_A_WD_ACTION       u8  enum rocectl_wd_action (default ALERT)
 *   ROCECTL_A_WD_DIRECTION    u8  enum rocectl_wd_direction (default RX)
 *   ROCECTL_A_WD_STALL_MS     u16 the NIC's own protection against sending
 *                                 pause forever (ethtool tunable
 *                                 pfc-prevention-tout): 0 off, 80..8000 ms,
 *                                 0xffff auto (the driver's default, 100 ms
 *                                 on mlx5). Whole port. Set back to what it
 *                                 was when the watch is deleted or the
 *                                 module unloaded.
 *   Omitted values keep their current setting on an existing watch.
 *
 * ROCECTL_CMD_WD_DEL (CAP_NET_ADMIN)
 *   Stop watching: the netdev as for WD_SET, ROCECTL_A_WD_PRIOS (default:
 *   all). Every PFC bit the watchdog cleared is set back first.
 *
 * ROCECTL_CMD_WD_GET (doit and dump, anyone)
 *   Request: the netdev (doit), nothing (dump). Reply, one per netdev:
 *   ROCECTL_A_NETDEV_INDEX, ROCECTL_A_NETDEV_NAME, the WD_SET settings,
 *   ROCECTL_A_WD_COUNTERS (enum rocectl_wd_counters), ROCECTL_A_WD_BRS,
 *   ROCECTL_A_WD_STALL_MS (u16, the NIC's stall prevention timeout in ms,
 *   0 off; absent when the NIC has none), ROCECTL_A_WD_STALL_WARNINGS and
 *   ROCECTL_A_WD_STALL_ERRORS (u64, the NIC's stall prevention events, when
 *   it counts them),
 *   ROCECTL_A_BACKEND (string, only when a hardware backend such as
 *   rocectl_mlx5 drives the netdev: its name; PFC then changes per
 *   direction, counters are read live from the NIC),
 *   ROCECTL_A_WD_NETDEV_GONE (u8 1, only when the netdev was unregistered
 *   while the driver refused to set back PFC the watch holds: the watch
 *   stays, named as the netdev was, and sets PFC back when a netdev of
 *   that name registers again; WD_DEL by that name drops it), and
 *   one ROCECTL_A_WD_PRIO nest per watched priority and direction with the
 *   ROCECTL_A_WDP_* attributes below (and per priority of a direction no
 *   longer watched that still holds its PFC bit, until it is set back).
 *
 * ROCECTL_CMD_WD_BRS_SET (CAP_NET_ADMIN)
 *   ROCECTL_A_WD_BRS u8, required: 1 applies the forward action to every
 *   watched priority now and suspends detection ("big red switch"); 0 sets
 *   back what it cleared and resumes detection.
 *
 * ROCECTL_CMD_CONG_GET (doit, anyone)
 *   Congestion control of an RDMA device's port, where a hardware backend
 *   knows the device (rocectl_mlx5: DCQCN); -EOPNOTSUPP elsewhere.
 *   Request: the device (ROCECTL_A_DEV_INDEX or ROCECTL_A_DEV_NAME),
 *   ROCECTL_A_CONG_PORT (u32, default 1). Reply: ROCECTL_A_DEV_INDEX,
 *   ROCECTL_A_DEV_NAME, ROCECTL_A_CONG_PORT, ROCECTL_A_BACKEND, one
 *   ROCECTL_A_CONG_PARAM nest per parameter (name, value; the backend's
 *   names, e.g. rp_gd, np_cnp_dscp), ROCECTL_A_CONG_RP_ENABLED and
 *   ROCECTL_A_CONG_NP_ENABLED (u8, bit per priority: reaction point and
 *   notification point enabled), one ROCECTL_A_CONG_STAT nest per port
 *   congestion counter (name, value). All or nothing: -EOPNOTSUPP when the
 *   firmware does not allow queries (HCA cap cc_query_allowed), an error
 *   when one of the queries fails.
 *
 * ROCECTL_CMD_CONG_SET (CAP_NET_ADMIN)
 *   The device and port as for CONG_GET, one or more ROCECTL_A_CONG_PARAM
 *   nests (name, value). All are checked (known name, value in range)
 *   before any is written; an unknown name or a value out of range is
 *   refused with the nest pointed at.
 *
 * Notifications, on the multicast group ROCECTL_MCGRP_EVENTS ("events"):
 *
 * ROCECTL_CMD_DEV_ADD_NTF
 *   An RDMA device appeared. Same attributes as a DEV_GET reply.
 * ROCECTL_CMD_DEV_DEL_NTF
 *   An RDMA device is going away: ROCECTL_A_DEV_INDEX, ROCECTL_A_DEV_NAME.
 *   Not sent when rocectl.ko itself is unloaded.
 * ROCECTL_CMD_DEV_RENAME_NTF
 *   An RDMA device was renamed: ROCECTL_A_DEV_INDEX, ROCECTL_A_DEV_NAME
 *   (the new name), ROCECTL_A_DEV_PREV_NAME (the old one).
 * ROCECTL_CMD_QP_CREATE_NTF
 *   A QP was created: the attributes of a QP_GET reply known at creation
 *   (QP notifications: without a user QP's owner, see "Who sees which QP").
 * ROCECTL_CMD_QP_MODIFY_NTF
 *   A QP changed state: a QP_GET reply plus ROCECTL_A_QP_PREV_STATE.
 * ROCECTL_CMD_QP_DESTROY_NTF
 *   A QP was destroyed: a QP_GET reply with its lifetime counters and
 *   ROCECTL_A_QP_LIFETIME (u64, ns).
 * ROCECTL_CMD_WD_EVENT_NTF
 *   The watchdog acted: ROCECTL_A_NETDEV_INDEX, ROCECTL_A_NETDEV_NAME,
 *   ROCECTL_A_WD_EVENT (enum rocectl_wd_event), the priority's
 *   ROCECTL_A_WD_PRIO nest, and the evidence: ROCECTL_A_WD_EV_WINDOW_US
 *   (u64, measured time the decision covers), ROCECTL_A_WD_EV_PAUSE_US
 *   (u64, pause time in it, when the device reports it),
 *   ROCECTL_A_WD_EV_FRAMES (u64, pause frames in it). STALL_WARNING and
 *   STALL_ERROR concern the whole port (no priority nest): EV_FRAMES is then
 *   the number of the NIC's events since the previous poll.
 */
#ifndef _UAPI_LINUX_ROCECTL_H
#define _UAPI_LINUX_ROCECTL_H

#include <linux/types.h>

#define ROCECTL_GENL_NAME	"rocectl"
#define ROCECTL_GENL_VERSION	1
#define ROCECTL_MCGRP_EVENTS	"events"

/* Longest RDMA device name, without the terminating NUL (IB_DEVICE_NAME_MAX - 1). */
#define ROCECTL_DEV_NAME_MAX	63

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

	__ROCECTL_CMD_MAX,
	ROCECTL_CMD_MAX = __ROCECTL_CMD_MAX - 1
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

	__ROCECTL_A_MAX,
	ROCECTL_A_MAX = __ROCECTL_A_MAX - 1
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
	ROCECTL_A_PORT_MAX = __ROCECTL_A_PORT_MAX - 1
};

/*
 * ROCECTL_A_QP_STATS: per-QP counters computed by the module from the
 * RoCE packets software RoCE hands to the wire and receives (headers
 * parsed as the InfiniBand specification defines them). Bytes are payload
 * bytes: the message data, without headers, padding or ICRC.
 */
enum rocectl_qp_stat {
	ROCECTL_A_QP_STAT_UNSPEC,
	ROCECTL_A_QP_STAT_PAD,
	ROCECTL_A_QP_STAT_TX_PACKETS,	/* RoCE packets sent */
	ROCECTL_A_QP_STAT_TX_BYTES,	/* payload bytes sent */
	ROCECTL_A_QP_STAT_RX_PACKETS,	/* RoCE packets received */
	ROCECTL_A_QP_STAT_RX_BYTES,	/* payload bytes received */
	ROCECTL_A_QP_STAT_RX_ECN_CE,	/* received with IP ECN = CE (11) */
	ROCECTL_A_QP_STAT_RX_CNP,	/* CNPs (opcode 0x81) received */
	ROCECTL_A_QP_STAT_TX_CNP,	/* CNPs sent */
	ROCECTL_A_QP_STAT_RX_BECN,	/* received with the BTH BECN bit */
	ROCECTL_A_QP_STAT_RX_NAK_SEQ,	/* PSN sequence error NAKs received */
	ROCECTL_A_QP_STAT_TX_NAK_SEQ,	/* PSN sequence error NAKs sent */
	ROCECTL_A_QP_STAT_RX_RNR_NAK,	/* RNR NAKs received */
	ROCECTL_A_QP_STAT_TX_RNR_NAK,	/* RNR NAKs sent */
	ROCECTL_A_QP_STAT_TX_RETRANS,	/* requests re-sent with an old PSN */
	ROCECTL_A_QP_STAT_RX_DUP,	/* requests received with an old PSN */
	ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ,	/* requests received past a PSN gap */

	__ROCECTL_A_QP_STAT_MAX,
	ROCECTL_A_QP_STAT_MAX = __ROCECTL_A_QP_STAT_MAX - 1
};

/* ROCECTL_A_WD_PRIO: one watched priority in one direction. */
enum rocectl_wd_prio_attr {
	ROCECTL_A_WDP_UNSPEC,
	ROCECTL_A_WDP_PAD,
	ROCECTL_A_WDP_PRIO,		/* u8 */
	ROCECTL_A_WDP_DIRECTION,	/* u8, enum rocectl_wd_direction */
	ROCECTL_A_WDP_STATE,		/* u8, enum rocectl_wd_state */
	ROCECTL_A_WDP_STORMS,		/* u64, storms detected */
	ROCECTL_A_WDP_RESTORES,		/* u64, storms restored */
	ROCECTL_A_WDP_LAST_DETECT,	/* u64, ns since the epoch, 0: never */
	ROCECTL_A_WDP_LAST_RESTORE,	/* u64, ns since the epoch, 0: never */
	ROCECTL_A_WDP_STORM_MS,		/* u64, time in storm, all storms */
	ROCECTL_A_WDP_LAST_STORM_MS,	/* u64, time in the last storm */
	ROCECTL_A_WDP_LAST_STORM_FRAMES, /* u64, pause frames in it (while counted) */
	ROCECTL_A_WDP_ACTIONS,		/* u64, actions applied */
	ROCECTL_A_WDP_ACTIONS_FAILED,	/* u64, actions the driver refused */
	ROCECTL_A_WDP_CONFLICTS,	/* u64, restores left undone: PFC changed by others */
	ROCECTL_A_WDP_BACKOFF,		/* u8, restoration time is restore_ms << backoff */
	ROCECTL_A_WDP_PFC_CLEARED,	/* u8, 1 while the watchdog holds PFC off */

	__ROCECTL_A_WDP_MAX,
	ROCECTL_A_WDP_MAX = __ROCECTL_A_WDP_MAX - 1
};

enum rocectl_wd_action {
	ROCECTL_WD_ACTION_ALERT,	/* events, tracepoints, counters: nothing changed */
	ROCECTL_WD_ACTION_FORWARD,	/* the priority stops being lossless: PFC off on it */
};

enum rocectl_wd_direction {
	ROCECTL_WD_DIR_RX,		/* we are paused: received-pause storm */
	ROCECTL_WD_DIR_TX,		/* we pause the peer: sent-pause storm */
	ROCECTL_WD_DIR_BOTH,		/* WD_SET only: both directions */
};

enum rocectl_wd_state {
	ROCECTL_WD_MONITORING,
	ROCECTL_WD_STORM,		/* detected; the action is applied */
	ROCECTL_WD_PFC_OFF,		/* PFC is off on it (not by us): nothing to watch */
	ROCECTL_WD_SUSPENDED,		/* big red switch */
	ROCECTL_WD_LINK_DOWN,
};

/* Where the watchdog's evidence comes from on a netdev. */
enum rocectl_wd_counters {
	ROCECTL_WD_COUNTERS_DURATION,	/* per-priority pause time (and frames) */
	ROCECTL_WD_COUNTERS_FRAMES,	/* IEEE PFC frame counters only */
};

enum rocectl_wd_event {
	ROCECTL_WD_EV_DETECT,
	ROCECTL_WD_EV_ACTION,
	ROCECTL_WD_EV_ACTION_FAILED,
	ROCECTL_WD_EV_RESTORE,
	ROCECTL_WD_EV_CONFLICT,		/* PFC changed by someone else: left as it is */
	ROCECTL_WD_EV_GONE,		/* the netdev went away */
	ROCECTL_WD_EV_STALL_WARNING,	/* the NIC's stall prevention warned */
	ROCECTL_WD_EV_STALL_ERROR,	/* ... and stopped sending pause */
};

/* Inside ROCECTL_A_CONG_PARAM and ROCECTL_A_CONG_STAT. */
enum rocectl_cong_attr {
	ROCECTL_A_CONG_UNSPEC,
	ROCECTL_A_CONG_NAME,		/* string */
	ROCECTL_A_CONG_VALUE,		/* u64 */
	ROCECTL_A_CONG_PAD,

	__ROCECTL_A_CONG_MAX,
	ROCECTL_A_CONG_MAX = __ROCECTL_A_CONG_MAX - 1
};

/*
 * QP types, numbered as the RDMA core numbers them. DRIVER: every other
 * type -- a driver's own (IB_QPT_DRIVER; mlx5's UMR, DCI and DCT QPs,
 * numbered from 0x1000 in the kernel) or one no driver creates.
 */
enum rocectl_qp_type {
	ROCECTL_QPT_SMI = 0,
	ROCECTL_QPT_GSI = 1,
	ROCECTL_QPT_RC = 2,
	ROCECTL_QPT_UC = 3,
	ROCECTL_QPT_UD = 4,
	ROCECTL_QPT_RAW_PACKET = 8,
	ROCECTL_QPT_XRC_INI = 9,
	ROCECTL_QPT_XRC_TGT = 10,
	ROCECTL_QPT_DRIVER = 0xff,
};

/* QP states, numbered as the RDMA core numbers them. */
enum rocectl_qp_state {
	ROCECTL_QPS_RESET,
	ROCECTL_QPS_INIT,
	ROCECTL_QPS_RTR,
	ROCECTL_QPS_RTS,
	ROCECTL_QPS_SQD,
	ROCECTL_QPS_SQE,
	ROCECTL_QPS_ERR,
};

/* Which driver serves a device; drivers rocectl has no backend for are OTHER. */
enum rocectl_driver {
	ROCECTL_DRIVER_OTHER,
	ROCECTL_DRIVER_RXE,
	ROCECTL_DRIVER_MLX5,
};

/* Port logical state, as the InfiniBand specification numbers it. */
enum rocectl_port_state {
	ROCECTL_PORT_NOP,
	ROCECTL_PORT_DOWN,
	ROCECTL_PORT_INIT,
	ROCECTL_PORT_ARMED,
	ROCECTL_PORT_ACTIVE,
	ROCECTL_PORT_ACTIVE_DEFER,
};

/* Port physical state, as the InfiniBand specification numbers it. */
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

/* ROCECTL_A_PORT_ROCE: the RoCE encapsulations a port supports. */
#define ROCECTL_ROCE_V1		(1U << 0)	/* RoCE over Ethernet (ethertype 0x8915) */
#define ROCECTL_ROCE_V2		(1U << 1)	/* RoCE over UDP/IP, port 4791 */

/* ROCECTL_A_PORT_GID_TYPES: GID types present in a port's GID table. */
#define ROCECTL_GID_TYPE_IB	(1U << 0)
#define ROCECTL_GID_TYPE_ROCE_V1 (1U << 1)
#define ROCECTL_GID_TYPE_ROCE_V2 (1U << 2)

#endif /* _UAPI_LINUX_ROCECTL_H */
