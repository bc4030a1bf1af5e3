/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by the parts of rocectl.ko. */
#ifndef _ROCECTL_H
#define _ROCECTL_H

#include <linux/if.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <rdma/ib_verbs.h>
#include <linux/rocectl.h>

/* One RDMA device, from ib_client add() to remove(). */
struct rocectl_dev {
	struct ib_device *ibdev;
	u32 index;
	/* Our copy, updated in rename(): dev_name() may be freed under us. */
	char name[IB_DEVICE_NAME_MAX];
};

/* What a port is, read on demand from ib_core. */
struct rocectl_port_info {
	u8 state;
	u8 phys_state;
	u8 link_layer;
	u32 roce;
	u32 gid_types;
	u32 active_mtu;
	u32 max_mtu;
	int netdev_ifindex;
	char netdev_name[IFNAMSIZ];
};

/* devices.c: the registry. Lookups and iteration need rocectl_devs_lock. */
extern struct mutex rocectl_devs_lock;
extern unsigned int rocectl_devs_gen;
int rocectl_devices_init(void);
void rocectl_devices_exit(void);
struct rocectl_dev *rocectl_dev_by_index(u32 index);
struct rocectl_dev *rocectl_dev_by_name(const char *name);
struct rocectl_dev *rocectl_dev_next(unsigned long *index);
u32 rocectl_dev_driver(const struct rocectl_dev *rdev);
const char *rocectl_dev_driver_name(const struct rocectl_dev *rdev);
int rocectl_port_query(struct ib_device *ibdev, u32 port,
		       struct rocectl_port_info *pi);

/* netlink.c: the generic netlink family. */
int rocectl_nl_init(void);
void rocectl_nl_exit(void);
void rocectl_nl_notify_dev(const struct rocectl_dev *rdev, u8 cmd,
			   const char *prev_name);

/* Set an extack message and point it at the attribute it is about. */
#define ROCECTL_ERR_ATTR(extack, attr, msg) do {		\
	struct netlink_ext_ack *__ext = (extack);		\
								\
	NL_SET_ERR_MSG_MOD(__ext, msg);				\
	NL_SET_BAD_ATTR(__ext, attr);				\
} while (0)

#endif /* _ROCECTL_H */
