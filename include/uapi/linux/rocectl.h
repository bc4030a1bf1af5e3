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
