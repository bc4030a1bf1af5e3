/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may see a user QP's or process's owner (qp_owner.c): the one rule
 * every reply follows (rocectl(8), PERMISSIONS). Notifications reach every
 * listener at once and carry no user owner.
 */
#ifndef _ROCECTL_QP_OWNER_H
#define _ROCECTL_QP_OWNER_H

#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/types.h>

/* What a reader is shown of one owner. */
enum rocectl_owner_view {
	ROCECTL_OWNER_NONE,	/* counts only: no pid, name, cgroup */
	ROCECTL_OWNER_NO_PID,	/* name and cgroup, no pid */
	ROCECTL_OWNER_FULL,	/* all, the pid as the reader numbers it */
};

/* A request's reader, taken once per request or dump pass. */
struct rocectl_reader {
	struct pid_namespace *ns;	/* its active pid namespace */
	/* CAP_NET_ADMIN over its network namespace's owning user namespace */
	bool net_admin;
};

/*
 * Where the owners of a group (destroyed QPs' counts, failure counts)
 * live: the first user owner's pid namespace, held while the group lives,
 * or every namespace's ancestor once owners of two namespaces share it.
 */
struct rocectl_owner_ns {
	struct pid_namespace *ns;	/* NULL: no user owner yet */
	bool mixed;
};

enum rocectl_owner_view rocectl_owner_view(const struct rocectl_reader *r,
					   struct pid *owner, pid_t *nr);
enum rocectl_owner_view rocectl_owner_view_nr(const struct rocectl_reader *r,
					      pid_t init_nr, pid_t *nr);
enum rocectl_owner_view rocectl_owner_ns_view(const struct rocectl_reader *r,
					      const struct rocectl_owner_ns *o);
void rocectl_owner_ns_add(struct rocectl_owner_ns *o, struct pid *owner);
void rocectl_owner_ns_put(struct rocectl_owner_ns *o);

#endif /* _ROCECTL_QP_OWNER_H */
