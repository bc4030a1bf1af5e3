/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels rocectl builds against lives here,
 * force-included before any other header. Tested: Linux 5.10 (Debian 11),
 * 6.1 (Debian 12), 6.12 (Debian 12 backports) and 7.2 (Debian 13 backports).
 */
#ifndef _ROCECTL_COMPAT_H
#define _ROCECTL_COMPAT_H

#include <linux/netlink.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "rocectl needs Linux 5.10 or newer"
#endif

/*
 * Probed, not versioned: extack names a missing attribute from 6.0 on.
 * Before, the reply can only say in words that one is missing: every
 * caller sets a message saying which first, and it stays.
 */
#ifndef NL_SET_ERR_ATTR_MISS
#define NL_SET_ERR_ATTR_MISS(extack, nest, type) ((void)(extack))
#endif

/* Arrived with NL_SET_ERR_ATTR_MISS in 6.0 (in net/genetlink.h). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 0, 0)
#define GENL_REQ_ATTR_CHECK(info, attr) ({				\
	struct genl_info *__info = (info);				\
	int __missing = !__info->attrs[attr];				\
									\
	if (__missing)							\
		NL_SET_ERR_MSG_MOD(__info->extack,			\
				   "a required attribute is missing");	\
	__missing;							\
})
#endif

/*
 * Generic netlink refuses a request with reserved header bytes or unknown
 * flags set itself from 6.0 on (resv_start_op); before, the family's
 * pre_doit does (netlink/family.c), so that such a request changes
 * nothing on any kernel. The pre_doit's signature changed in 6.2, past
 * this range.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 0, 0)
#define ROCECTL_GENL_CHECK_HEADER 1
#else
#define ROCECTL_GENL_CHECK_HEADER 0
#endif

/* __assign_str() lost its source argument in 6.10: no feature to probe. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define rocectl_assign_str(dst, src) __assign_str(dst)
#else
#define rocectl_assign_str(dst, src) __assign_str(dst, src)
#endif

/* A dump's parsed attributes moved into a struct genl_info of its own in 6.2. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define rocectl_dump_attrs(cb) (genl_dumpit_info(cb)->info.attrs)
#else
#define rocectl_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/*
 * Every tracked resource, shown or not: the show_details flag arrived in
 * 5.12 (5.10 counts them all, without it).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 12, 0)
#define rocectl_restrack_count(dev, type) rdma_restrack_count(dev, type, true)
#else
#define rocectl_restrack_count(dev, type) rdma_restrack_count(dev, type)
#endif

/*
 * The exported functions QPs are created through: ib_create_qp_user()
 * (uverbs) and ib_create_qp_kernel() since 5.15. Before, uverbs creates a
 * user QP with an inline of its own (_ib_create_qp, core_priv.h) and kernel
 * QPs come from the exported ib_create_qp(): there a user QP is first seen
 * at its first modify, RESET to INIT (qp_hooks.c).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 15, 0)
#define ROCECTL_CREATE_KERNEL_QP "ib_create_qp_kernel"
#define ROCECTL_HOOK_USER_CREATE 1
#else
#define ROCECTL_CREATE_KERNEL_QP "ib_create_qp"
#define ROCECTL_HOOK_USER_CREATE 0
#endif

/*
 * mlx5_core's command entry, where DevX commands pass (mlx5/devx.c): from
 * 5.18 mlx5_cmd_do(), which mlx5_cmd_exec() calls and mlx5_ib's DevX
 * handlers call directly; before, mlx5_cmd_exec(). Both take (dev, in,
 * in_size, out, out_size).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define ROCECTL_MLX5_CMD_FN "mlx5_cmd_do"
#else
#define ROCECTL_MLX5_CMD_FN "mlx5_cmd_exec"
#endif

/*
 * Whether a reference on a QP's resource-tracking entry keeps the QP in
 * memory: since 5.15 the RDMA core allocates QPs and rdma_restrack_del()
 * waits for every reference. Before, it erases a QP's entry and returns,
 * and the driver frees the QP: a QP found there may be freed under its
 * reader (on 5.10, loading rocectl under QP churn crashed in ib_query_qp).
 * There rocectl adopts at load only the special QPs 0 and 1, which only a
 * device's unregistration destroys, and that cannot begin while a client
 * is being added (qps.c).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 15, 0)
#define ROCECTL_RESTRACK_HOLDS_QP 1
#else
#define ROCECTL_RESTRACK_HOLDS_QP 0
#endif

/* No ENDBR before a function's ftrace call site before x86 IBT (5.18). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 18, 0)
#define ENDBR_INSN_SIZE 0
#endif

/*
 * Where rdma_rxe's struct rxe_qp holds its struct ib_qp: after a 64-byte
 * pool entry until 5.11 moved the ib objects first. rdma_rxe keeps the
 * rxe_qp's address in its QP socket's sk_user_data, but for 6.10 to 6.16
 * (and 6.12 before 6.12.44), which keep the QP's pool index there: both
 * forms are only compared with what the QP table recorded, never
 * dereferenced (pkt_account.c).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define ROCECTL_RXE_IBQP_OFFSET 64
#else
#define ROCECTL_RXE_IBQP_OFFSET 0
#endif

/*
 * rdma_rxe gives a connected QP the kernel's rule's UDP source port at a
 * modify carrying the path since "RDMA/rxe: Use the standard method to
 * produce udp source port" (5.18, with rdma_get_udp_sport()); before, it
 * kept the port it chose from the QPN alone at its creation (qps.c). A
 * kernel with the change backported shows the rule's port as the creation
 * one; soft-RoCE's packets, which the module sees, show the port sent.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 18, 0)
#define ROCECTL_RXE_SPORT_BY_QPN 1
#else
#define ROCECTL_RXE_SPORT_BY_QPN 0
#endif

/*
 * A per-CPU pointer kept as a plain one and back (rocectl's pools hold
 * plain pointers). Since 6.15 x86's __percpu is the compiler's named
 * address space (__seg_gs) where it has one (Debian's 7.x, gcc 14), and a
 * pointer cast between it and the generic space warns, __force or not;
 * through uintptr_t it is allowed on every kernel, and by sparse.
 */
#define rocectl_pcpu_to_plain(pc) ((void *)(uintptr_t)(pc))
#define rocectl_plain_to_pcpu(type, p) ((type __percpu *)(uintptr_t)(p))

/*
 * A workqueue says whether it is per-CPU or unbound: WQ_PERCPU arrived in
 * 6.17 (per-CPU was the default before it), and 7.2's alloc_workqueue()
 * warns when a caller gives neither. rocectl's stays per-CPU.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define ROCECTL_WQ_PERCPU WQ_PERCPU
#else
#define ROCECTL_WQ_PERCPU 0
#endif

#endif /* _ROCECTL_COMPAT_H */
