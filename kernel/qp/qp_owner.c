// SPDX-License-Identifier: GPL-2.0
/*
 * The visibility rule, for every reply that names a user QP's or a
 * process's owner (pid, command name, cgroup, and so the pod and job the
 * tool derives from it): a reader whose pid namespace contains the owner
 * sees it all, the pid as that namespace numbers it; a reader with
 * CAP_NET_ADMIN over its network namespace (the host's, whose owner is
 * the initial user namespace: a user namespace of its own counts for
 * nothing) sees the name and cgroup but no pid its namespace does not
 * number; anyone else gets the counts without the owner. Kernel QPs and
 * kernel users are no one's: their kernel name is shown to everyone. The
 * reader's capabilities are taken by the netlink side (attrs.c), once a
 * request.
 */
#include <linux/rcupdate.h>
#include "qp_owner.h"

/* Whether reader's pid namespace is ns or one of its ancestors. */
static bool rocectl_ns_contains(const struct pid_namespace *reader,
				const struct pid_namespace *ns)
{
	while (ns && ns->level > reader->level)
		ns = ns->parent;
	return ns == reader;
}

static enum rocectl_owner_view
rocectl_owner_outside(const struct rocectl_reader *r)
{
	return r->net_admin ? ROCECTL_OWNER_NO_PID : ROCECTL_OWNER_NONE;
}

/*
 * The view of a live or dead owner held by reference (a QP's, a failure
 * record's); *nr its pid for the reader, 0 when not shown.
 */
enum rocectl_owner_view rocectl_owner_view(const struct rocectl_reader *r,
					   struct pid *owner, pid_t *nr)
{
	*nr = owner ? pid_nr_ns(owner, r->ns) : 0;
	if (*nr)
		return ROCECTL_OWNER_FULL;
	return rocectl_owner_outside(r);
}

/*
 * The view of a process known by its number in the initial pid namespace
 * (the storm's table): the initial namespace contains every process; any
 * other reader's namespace is asked about the process that number names
 * now, and one that has exited is no longer in any namespace but the
 * initial one.
 */
enum rocectl_owner_view rocectl_owner_view_nr(const struct rocectl_reader *r,
					      pid_t init_nr, pid_t *nr)
{
	struct pid *pid;

	if (r->ns == &init_pid_ns) {
		*nr = init_nr;
		return ROCECTL_OWNER_FULL;
	}
	rcu_read_lock();
	pid = find_pid_ns(init_nr, &init_pid_ns);
	*nr = pid ? pid_nr_ns(pid, r->ns) : 0;
	rcu_read_unlock();
	if (*nr)
		return ROCECTL_OWNER_FULL;
	return rocectl_owner_outside(r);
}

/* A group's view: FULL when the reader's namespace contains every owner. */
enum rocectl_owner_view rocectl_owner_ns_view(const struct rocectl_reader *r,
					      const struct rocectl_owner_ns *o)
{
	if (!o->ns || (o->mixed ? r->ns == &init_pid_ns :
			rocectl_ns_contains(r->ns, o->ns)))
		return ROCECTL_OWNER_FULL;
	return rocectl_owner_outside(r);
}

/*
 * One more owner of a group, under the group's lock (any context: only a
 * reference count is taken). A group once shared by two namespaces is
 * attributed to the initial one alone; the first namespace's reference
 * stays until the group goes, so a reader's copy of the pointer stays
 * valid while the group does.
 */
void rocectl_owner_ns_add(struct rocectl_owner_ns *o, struct pid *owner)
{
	struct pid_namespace *ns;

	if (!owner)
		return;
	ns = ns_of_pid(owner);
	if (!o->ns)
		o->ns = get_pid_ns(ns);
	else if (o->ns != ns)
		o->mixed = true;
}

void rocectl_owner_ns_put(struct rocectl_owner_ns *o)
{
	if (o->ns)
		put_pid_ns(o->ns);
	o->ns = NULL;
}
