/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose job a QP is: its creator's cgroup (v2) to a cgroup path, and the
 * path to a container, a Kubernetes pod or a Slurm job (workload.c). No
 * cluster access: the path's own form under the roots the kubelet,
 * slurmstepd and dockerd make (anything a user may create names none),
 * and the kubelet's node files for the pod's name.
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
	char job[11];		/* a Slurm job's id (digits); "" none */
	char step[24];		/* its step: a number, N+M, batch, extern, interactive */
};

/*
 * Roots the operator declares (rocectl.conf's workload lines,
 * workload_conf.h) beside the built-in ones: the kubelet's kubepods
 * cgroup and slurmstepd's scope where a node nests them deeper, each a
 * path as /proc/PID/cgroup writes it.
 */
#define WORKLOAD_MAX_ROOTS	8
#define WORKLOAD_ROOT_LEN	512
struct workload_roots {
	unsigned int nkubelet, nslurm;
	char kubelet[WORKLOAD_MAX_ROOTS][WORKLOAD_ROOT_LEN];
	char slurm[WORKLOAD_MAX_ROOTS][WORKLOAD_ROOT_LEN];
};

/*
 * A cgroup path (from the cgroup root, "/..."): what its form says, read
 * only under a root that a user cannot make (a path is not a pod's for
 * naming "kubepods" somewhere: a user's delegated subtree can).
 *   - Pods: under the kubelet's kubepods cgroup at the top of the tree
 *     (/kubepods.slice, /kubepods, a kind node's
 *     /kubelet.slice/kubelet-kubepods.slice) or a root in roots, in its
 *     driver's form (systemd: <root>-burstable.slice/<root>-burstable-pod
 *     <UID with underscores>.slice/cri-containerd-<ID>.scope; cgroupfs:
 *     burstable/pod<UID>/<ID>).
 *   - Slurm jobs: under slurmstepd's scope, /system.slice/slurmstepd.scope
 *     (<node>_slurmstepd.scope with several slurmd) or a root in roots:
 *     job_<id>/step_<step>/...
 *   - Plain Docker containers where dockerd puts them:
 *     /system.slice/docker-<ID>.scope (systemd driver), /docker/<ID>
 *     (cgroupfs driver).
 * Each component's systemd \xNN escapes are undone on its own: an escaped
 * '/' never splits one. true if it names a container, a pod or a job; w
 * is cleared first. roots NULL: the built-in roots alone.
 */
bool workload_parse_roots(const char *path, const struct workload_roots *roots,
			  struct workload *w);
/* The built-in roots alone. */
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
	bool is_workload;	/* a container's, a pod's or a job's */
	struct workload w;
	bool named;		/* the pod's name found */
	char ns[64], pod[254];
	const char *why;	/* a pod without its name: why */
};

/*
 * The cgroup id's view, from the cgroup v2 mount (/sys/fs/cgroup, or
 * /sys/fs/cgroup/unified on a hybrid host), the kubelet's /var/log/pods
 * and the policy file's workload roots (read once per process); each id
 * resolved once until workload_cgroup_forget().
 */
void workload_view(uint64_t id, struct workload_view *v);

/*
 * Whether a view is the workload a filter names: pod and ns (NULL: any)
 * the pod's name and namespace, found; has_job its Slurm job's id, as a
 * number.
 */
bool workload_view_matches(const struct workload_view *v, const char *pod, const char *ns,
			   bool has_job, uint32_t job);

#endif
