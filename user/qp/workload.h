/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose job a QP is: its creator's cgroup (v2) to a cgroup path, and the
 * path to a container and a Kubernetes pod (workload.c). No cluster
 * access: the path's own form, and the kubelet's node files for the pod's
 * name.
 */
#ifndef ROCECTL_WORKLOAD_H
#define ROCECTL_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

struct workload {
	char runtime[16];	/* "containerd", "cri-o", "docker"; "" unknown */
	char container[65];	/* the container's id, 64 hex digits */
	char pod_uid[37];	/* the pod's UID, with its dashes */
	char qos[12];		/* "guaranteed", "burstable", "besteffort" */
};

/*
 * A cgroup path (from the cgroup root, "/..."): what its form says, for
 * the kubelet's two cgroup drivers (systemd: kubepods-burstable-pod<UID
 * with underscores>.slice/cri-containerd-<ID>.scope; cgroupfs:
 * kubepods/burstable/pod<UID>/<ID>), with systemd's \xNN escapes, and
 * plain containers (docker-<ID>.scope, /docker/<ID>). true if it names a
 * container or a pod; w is cleared first.
 */
bool workload_parse(const char *path, struct workload *w);

/*
 * The pod's namespace and name from the kubelet's log directory
 * (logdir/<namespace>_<name>_<uid>, /var/log/pods on a node): false, with
 * why set, if none is there.
 */
bool workload_pod_name(const char *logdir, const char *uid, char *ns, size_t ns_len,
		       char *name, size_t name_len, const char **why);

/*
 * The path of the cgroup whose id is id under root (the cgroup v2 mount,
 * /sys/fs/cgroup): the directory whose inode number is id. Found by one
 * walk of the tree, kept for the next calls. false if none is (the cgroup
 * is gone, or outside this reader's view).
 */
bool workload_cgroup_path(const char *root, uint64_t id, char *path, size_t len);
/* The walk and the views forgotten: the next lookups read the tree again. */
void workload_cgroup_forget(void);

/* What the tool says of a QP's cgroup. */
struct workload_view {
	uint64_t id;
	bool root;		/* the root cgroup (id 0): nothing to say */
	bool known;		/* its path was found */
	char path[1024];
	bool is_workload;	/* a container's or a pod's */
	struct workload w;
	bool named;		/* the pod's name found */
	char ns[64], pod[254];
	const char *why;	/* a pod without its name: why */
};

/*
 * The cgroup id's view, from the cgroup v2 mount (/sys/fs/cgroup, or
 * /sys/fs/cgroup/unified on a hybrid host) and the kubelet's /var/log/pods;
 * each id resolved once until workload_cgroup_forget().
 */
void workload_view(uint64_t id, struct workload_view *v);

#endif
