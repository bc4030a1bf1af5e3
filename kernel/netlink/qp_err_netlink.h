/* SPDX-License-Identifier: GPL-2.0 */
/* QP failure messages (qp_err_netlink.c): the failure ring's listener. */
#ifndef _ROCECTL_QP_ERR_NETLINK_H
#define _ROCECTL_QP_ERR_NETLINK_H

#include "qp/qp_errors.h"

extern const struct rocectl_qp_err_listener rocectl_qp_err_nl_listener;

#endif /* _ROCECTL_QP_ERR_NETLINK_H */
