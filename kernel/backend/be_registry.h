/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry of hardware backends (backend.c), as rocectl.ko's own
 * units use it; the backends' side of it is backend.h.
 */
#ifndef _ROCECTL_BE_REGISTRY_H
#define _ROCECTL_BE_REGISTRY_H

#include <linux/types.h>
#include "backend.h"

struct ib_device;
struct net_device;

struct rocectl_backend *rocectl_backend_claim(struct net_device *ndev,
					      void **priv);
void rocectl_backends_listen(void (*changed)(struct rocectl_backend *be,
					     bool added));

#define ROCECTL_BACKEND_NAME_MAX 32
int rocectl_cong_get(struct ib_device *ibdev, u32 port,
		     struct rocectl_cong_info *c, char *backend, size_t len);
int rocectl_cong_set(struct ib_device *ibdev, u32 port,
		     const struct rocectl_cong_value *v, int n,
		     int *bad, int *why);

#endif /* _ROCECTL_BE_REGISTRY_H */
