// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/workload.c against the cgroup paths the kubelet's two drivers and
 * the runtimes make (the forms as they appear in /proc/PID/cgroup on a
 * node: systemd's slices with the UID's dashes as underscores, cgroupfs'
 * plain directories), and paths that are no pod's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../user/qp/workload.h"
#include "workload_test.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "3f2c1e9a-7b4d-4c1a-9e2f-0a1b2c3d4e5f"
#define UID_ "3f2c1e9a_7b4d_4c1a_9e2f_0a1b2c3d4e5f"

static const struct {
	const char *name, *path, *want;	/* want: runtime|container|pod_uid|qos, or NULL */
} cases[] = {
	{ "systemd, burstable, containerd",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  "containerd|" ID "|" UID "|burstable" },
	{ "systemd, besteffort, CRI-O",
	  "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" ID ".scope",
	  "cri-o|" ID "|" UID "|besteffort" },
	{ "systemd, guaranteed (directly under kubepods.slice), docker",
	  "/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" ID ".scope",
	  "docker|" ID "|" UID "|guaranteed" },
	{ "systemd, CRI-O's conmon: the pod, no container",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice/crio-conmon-" ID ".scope",
	  "||" UID "|burstable" },
	{ "systemd, the pod's own slice (a process in no container)",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
	  "||" UID "|burstable" },
	{ "systemd escapes (\\x2d for '-') undone",
	  "/kubepods.slice/kubepods\\x2dburstable.slice/kubepods\\x2dburstable\\x2dpod" UID_ ".slice/cri\\x2dcontainerd\\x2d" ID ".scope",
	  "containerd|" ID "|" UID "|burstable" },
	{ "kind node: kubelet-kubepods prefixes",
	  "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/kubelet-kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  "containerd|" ID "|" UID "|besteffort" },
	{ "cgroupfs, burstable, containerd or docker (bare id)",
	  "/kubepods/burstable/pod" UID "/" ID,
	  "|" ID "|" UID "|burstable" },
	{ "cgroupfs, guaranteed",
	  "/kubepods/pod" UID "/" ID,
	  "|" ID "|" UID "|guaranteed" },
	{ "cgroupfs, CRI-O",
	  "/kubepods/besteffort/pod" UID "/crio-" ID,
	  "cri-o|" ID "|" UID "|besteffort" },
	{ "docker without Kubernetes (systemd)", "/system.slice/docker-" ID ".scope", "docker|" ID "||" },
	{ "docker without Kubernetes (cgroupfs)", "/docker/" ID, "|" ID "||" },
	{ "a user session: nothing", "/user.slice/user-1000.slice/session-3.scope", NULL },
	{ "the root: nothing", "/", NULL },
	{ "a uid of the wrong length: nothing",
	  "/kubepods/burstable/pod3f2c1e9a-7b4d/" ID, NULL },
	{ "an id that is no container's under a pod: the pod alone",
	  "/kubepods/burstable/pod" UID "/not-a-container", "||" UID "|burstable" },
	{ "not absolute: nothing", "kubepods/pod" UID "/" ID, NULL },
};

void workload_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	char got[1100], name[256], dir[] = "/tmp/rocectl-pods.XXXXXX", sub[512], ns[64], pod[128];
	const char *why;
	struct workload w;
	size_t i;
	bool ok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ok = workload_parse(cases[i].path, &w);
		if (ok)
			snprintf(got, sizeof(got), "%s|%s|%s|%s", w.runtime, w.container, w.pod_uid, w.qos);
		else
			snprintf(got, sizeof(got), "(none)");
		snprintf(name, sizeof(name), "workload: %s", cases[i].name);
		report(name, !strcmp(got, cases[i].want ? cases[i].want : "(none)"), got,
		       cases[i].want ? cases[i].want : "(none)");
	}

	/* The kubelet's pod log directories: <namespace>_<name>_<uid>. */
	if (!mkdtemp(dir)) {
		report("workload: pod names: a scratch directory", 0, "mkdtemp failed", "a directory");
		return;
	}
	snprintf(sub, sizeof(sub), "%s/team-a_trainer-0_%s", dir, UID);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/kube-system_coredns-7db6d8ff4d-abcde_11111111-2222-3333-4444-555555555555", dir);
	mkdir(sub, 0755);
	ok = workload_pod_name(dir, UID, ns, sizeof(ns), pod, sizeof(pod), &why);
	snprintf(got, sizeof(got), "%d %s/%s", ok, ok ? ns : "", ok ? pod : "");
	report("workload: pod name and namespace from the kubelet's log directory", !strcmp(got, "1 team-a/trainer-0"),
	       got, "1 team-a/trainer-0");
	ok = workload_pod_name(dir, "99999999-2222-3333-4444-555555555555", ns, sizeof(ns), pod, sizeof(pod), &why);
	snprintf(got, sizeof(got), "%d %s", ok, why ? why : "");
	report("workload: a UID without an entry: no name, and why", !strcmp(got, "0 no kubelet pod log entry for its UID"),
	       got, "0 no kubelet pod log entry for its UID");
	snprintf(sub, sizeof(sub), "%s/missing", dir);
	ok = workload_pod_name(sub, UID, ns, sizeof(ns), pod, sizeof(pod), &why);
	snprintf(got, sizeof(got), "%d %s", ok, why ? why : "");
	report("workload: no log directory: no name, and why", !strcmp(got, "0 no kubelet pod log directory"),
	       got, "0 no kubelet pod log directory");
	snprintf(sub, sizeof(sub), "%s/team-a_trainer-0_%s", dir, UID);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/kube-system_coredns-7db6d8ff4d-abcde_11111111-2222-3333-4444-555555555555", dir);
	rmdir(sub);

	/* A cgroup id to its path: here a directory tree's inode numbers stand in for cgroupfs. */
	{
		struct stat st;
		char p[512];

		snprintf(sub, sizeof(sub), "%s/kubepods", dir);
		mkdir(sub, 0755);
		snprintf(sub, sizeof(sub), "%s/kubepods/pod%s", dir, UID);
		mkdir(sub, 0755);
		stat(sub, &st);
		ok = workload_cgroup_path(dir, st.st_ino, p, sizeof(p));
		snprintf(got, sizeof(got), "%d %s", ok, ok ? p : "");
		snprintf(name, sizeof(name), "1 /kubepods/pod%s", UID);
		report("workload: a cgroup id to its path, from the root", !strcmp(got, name), got, name);
		ok = workload_cgroup_path(dir, 1, p, sizeof(p));
		report("workload: an id no directory has: none", !ok, ok ? p : "(none)", "(none)");
		workload_cgroup_forget();
		rmdir(sub);
		snprintf(sub, sizeof(sub), "%s/kubepods", dir);
		rmdir(sub);
	}
	rmdir(dir);
}
