// SPDX-License-Identifier: GPL-2.0
/*
 * user/qp/workload.c against the cgroup paths the kubelet's two drivers and
 * the runtimes make (the forms as they appear in /proc/PID/cgroup on a
 * node: systemd's slices with the UID's dashes as underscores, cgroupfs'
 * plain directories), Slurm's cgroup/v2 plugin's job trees, and paths that
 * are no pod's or job's: the same forms made where a user can make them
 * (a delegated subtree, an escaped '/'), and the roots a policy file
 * declares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../user/qp/workload.h"
#include "../../user/qp/workload_conf.h"
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
	/* Rooted: the kubelet's cgroup at the top of the tree, nowhere else. */
	{ "forged: kubepods/pod<UID>/<ID> in a user's delegated subtree is no pod",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/kubepods/pod" UID "/" ID, NULL },
	{ "forged: one component named evil\\x2fkubepods\\x2fpod<UID> is no pod",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/evil\\x2fkubepods\\x2fpod" UID "/" ID, NULL },
	{ "forged: an escaped '/' at the top does not split either",
	  "/kubepods\\x2fburstable\\x2fpod" UID "/" ID, NULL },
	{ "forged: a systemd pod slice under a user's kubepods.slice is no pod",
	  "/user.slice/user-1000.slice/user@1000.service/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  NULL },
	{ "a pod slice whose name is not its parent's: no pod",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  NULL },
	{ "a process in a container's own child cgroup: still the container",
	  "/kubepods/burstable/pod" UID "/" ID "/init", "|" ID "|" UID "|burstable" },
	{ "the kubelet's QoS cgroup alone: nothing", "/kubepods.slice/kubepods-burstable.slice", NULL },
	{ "forged: docker-<ID>.scope in a user's subtree is no container",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/docker-" ID ".scope", NULL },
	{ "forged: docker/<ID> in a user's subtree is no container",
	  "/user.slice/user-1000.slice/user@1000.service/docker/" ID, NULL },
	{ "docker's scope deeper than /system.slice: no container",
	  "/system.slice/foo.slice/docker-" ID ".scope", NULL },
	{ "a process in a docker container's child cgroup: still the container",
	  "/system.slice/docker-" ID ".scope/init.scope", "docker|" ID "||" },
	/* Slurm's cgroup/v2 plugin: job_<id>/step_<step>/user/task_<n> under slurmstepd's scope. */
	{ "slurm: a numbered step's task",
	  "/system.slice/slurmstepd.scope/job_4242/step_0/user/task_3", "job 4242 step 0" },
	{ "slurm: the batch step", "/system.slice/slurmstepd.scope/job_7/step_batch/user/task_0",
	  "job 7 step batch" },
	{ "slurm: the extern step", "/system.slice/slurmstepd.scope/job_7/step_extern/user/task_special",
	  "job 7 step extern" },
	{ "slurm: the interactive step", "/system.slice/slurmstepd.scope/job_7/step_interactive/user/task_0",
	  "job 7 step interactive" },
	{ "slurm: a heterogeneous job's step", "/system.slice/slurmstepd.scope/job_12/step_3+1/user/task_0",
	  "job 12 step 3+1" },
	{ "slurm: a step's slurmstepd (its slurm cgroup)", "/system.slice/slurmstepd.scope/job_12/step_3/slurm",
	  "job 12 step 3" },
	{ "slurm: the job alone", "/system.slice/slurmstepd.scope/job_12", "job 12 step " },
	{ "slurm: a multiple-slurmd node's scope",
	  "/system.slice/node07_slurmstepd.scope/job_99/step_1/user/task_1", "job 99 step 1" },
	{ "slurm: slurmstepd's own cgroup is no job", "/system.slice/slurmstepd.scope/system", NULL },
	{ "slurm: a job id that is not a number is no job",
	  "/system.slice/slurmstepd.scope/job_x1/step_0/user/task_0", NULL },
	{ "slurm: a step that is not one: the job alone",
	  "/system.slice/slurmstepd.scope/job_5/step_evil/user/task_0", "job 5 step " },
	{ "forged: a slurmstepd.scope under /user.slice is no job",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/slurmstepd.scope/job_4242/step_0/user/task_0", NULL },
	{ "forged: a slurmstepd.scope below /system.slice's children is no job",
	  "/system.slice/foo.service/slurmstepd.scope/job_4242/step_0", NULL },
	{ "forged: an escaped '/' in a /system.slice name is no job",
	  "/system.slice/x\\x2fslurmstepd.scope\\x2fjob_1/step_0", NULL },
};

/* A view of a parse: a job's "job J step S", else runtime|container|pod_uid|qos. */
static void describe(bool ok, const struct workload *w, char *got, size_t len)
{
	if (!ok)
		snprintf(got, len, "(none)");
	else if (w->job[0])
		snprintf(got, len, "job %s step %s%s%s", w->job, w->step, w->pod_uid[0] ? " pod " : "",
			 w->pod_uid);
	else
		snprintf(got, len, "%s|%s|%s|%s", w->runtime, w->container, w->pod_uid, w->qos);
}

/* Roots the policy file declares: parsed, then used. */
static const struct {
	const char *name, *path, *want;
} rooted_cases[] = {
	{ "configured kubelet root (systemd, nested in a node container)",
	  "/system.slice/docker-" ID ".scope/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/kubelet-kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	  "containerd|" ID "|" UID "|burstable" },
	{ "configured kubelet root (cgroupfs, under a custom --cgroup-root)",
	  "/custom/kubepods/pod" UID "/" ID, "|" ID "|" UID "|guaranteed" },
	{ "beside a configured root: the built-in one still holds",
	  "/kubepods/besteffort/pod" UID "/" ID, "|" ID "|" UID "|besteffort" },
	{ "a sibling named like the configured root's head is not under it",
	  "/custom2/kubepods/pod" UID "/" ID, NULL },
	{ "the node container itself: its docker container",
	  "/system.slice/docker-" ID ".scope/kubelet.slice", "docker|" ID "||" },
	{ "configured slurm root",
	  "/slurm.slice/slurmstepd.scope/job_31/step_2/user/task_0", "job 31 step 2" },
	{ "without the configured root: no job there either",
	  "/slurm.slice/other.scope/job_31/step_2/user/task_0", NULL },
};

/* stderr into a file while fn runs; what was written, in buf. */
static void stderr_of(void (*fn)(void *), void *arg, char *buf, size_t len)
{
	char path[] = "/tmp/rocectl-stderr.XXXXXX";
	int fd = mkstemp(path), saved;
	FILE *f;
	size_t n = 0;

	buf[0] = '\0';
	if (fd < 0)
		return;
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(path);
}

struct conf_call {
	const char *line;
	struct workload_roots *roots;
	int ret;
};

static void conf_parse_call(void *arg)
{
	struct conf_call *c = arg;
	char line[600], *words[64];
	int n = 0;
	char *s, *save = NULL;

	snprintf(line, sizeof(line), "%s", c->line);
	for (s = strtok_r(line, " ", &save); s && n < 64; s = strtok_r(NULL, " ", &save))
		words[n++] = s;
	c->ret = workload_conf_parse(n, words, c->roots);
}

static void conf_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	static const struct {
		const char *name, *line, *err;	/* err: a word the message holds, or NULL: accepted */
	} lines[] = {
		{ "kubelet-root accepted", "workload kubelet-root /custom/kubepods", NULL },
		{ "slurm-root accepted", "workload slurm-root /slurm.slice/slurmstepd.scope", NULL },
		{ "a relative root refused", "workload kubelet-root kubepods", "not absolute" },
		{ "the cgroup root refused", "workload slurm-root /", "cgroup root itself" },
		{ "a trailing '/' refused", "workload kubelet-root /custom/kubepods/", "empty component" },
		{ "a \"..\" component refused", "workload kubelet-root /custom/../kubepods", "component" },
		{ "a byte not printable refused, and not echoed", "workload kubelet-root /a\x1b[2Jb", "printable" },
		{ "no path refused", "workload kubelet-root", "one cgroup path" },
		{ "two paths refused", "workload kubelet-root /a /b", "one cgroup path" },
		{ "another keyword refused", "workload pod-root /a", "workload kubelet-root PATH" },
	};
	struct workload_roots roots, before;
	struct conf_call call;
	char err[512], got[1100], name[256], conf[] = "/tmp/rocectl-conf.XXXXXX";
	struct workload w;
	size_t i;
	FILE *f;
	int fd;

	memset(&roots, 0, sizeof(roots));
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		before = roots;
		call.line = lines[i].line;
		call.roots = &roots;
		stderr_of(conf_parse_call, &call, err, sizeof(err));
		snprintf(name, sizeof(name), "workload conf: %s", lines[i].name);
		if (!lines[i].err) {
			report(name, call.ret == 0 && !err[0], err, "accepted, no message");
			continue;
		}
		snprintf(got, sizeof(got), "%d %s", call.ret, err);
		report(name, call.ret == 2 && strstr(err, lines[i].err) && !strchr(err, '\x1b') &&
		       !memcmp(&before, &roots, sizeof(roots)), got, lines[i].err);
	}
	snprintf(got, sizeof(got), "%u %s %u %s", roots.nkubelet, roots.kubelet[0], roots.nslurm, roots.slurm[0]);
	report("workload conf: the accepted lines kept", !strcmp(got, "1 /custom/kubepods 1 /slurm.slice/slurmstepd.scope"),
	       got, "1 /custom/kubepods 1 /slurm.slice/slurmstepd.scope");

	/* A policy file: its workload lines read, the others passed over. */
	fd = mkstemp(conf);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		report("workload conf: a scratch policy file", 0, "mkstemp failed", "a file");
		return;
	}
	fprintf(f, "# a policy\ncheck prio 3\nworkload kubelet-root /system.slice/docker-%s.scope/kubelet.slice/kubelet-kubepods.slice\n"
		"workload kubelet-root /custom/kubepods   # cgroupfs, --cgroup-root=/custom\n"
		"watchdog set dev eth2 prio 3\nworkload slurm-root /slurm.slice/slurmstepd.scope\n", ID);
	fclose(f);
	i = (size_t)workload_conf_read(conf, &roots);
	snprintf(got, sizeof(got), "%zu %u %u", i, roots.nkubelet, roots.nslurm);
	report("workload conf: a policy file's workload lines read", !strcmp(got, "0 2 1"), got, "0 2 1");
	for (i = 0; i < sizeof(rooted_cases) / sizeof(rooted_cases[0]); i++) {
		describe(workload_parse_roots(rooted_cases[i].path, &roots, &w), &w, got, sizeof(got));
		snprintf(name, sizeof(name), "workload: %s", rooted_cases[i].name);
		report(name, !strcmp(got, rooted_cases[i].want ? rooted_cases[i].want : "(none)"), got,
		       rooted_cases[i].want ? rooted_cases[i].want : "(none)");
	}
	describe(workload_parse(rooted_cases[0].path, &w), &w, got, sizeof(got));
	report("workload: without the configured root, the nested pod is its node container's",
	       !strcmp(got, "docker|" ID "||"), got, "docker|" ID "||");
	unlink(conf);
	i = (size_t)workload_conf_read(conf, &roots);
	snprintf(got, sizeof(got), "%zu %u %u", i, roots.nkubelet, roots.nslurm);
	report("workload conf: no policy file, no roots", !strcmp(got, "0 0 0"), got, "0 0 0");
}

/* qp show's pod, namespace and job filters on a QP's view. */
static void view_filter_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	static const struct {
		const char *name, *path, *pod, *ns;
		bool has_job;
		uint32_t job;
		int want;
	} f[] = {
		{ "job 4242 keeps its step's QP", "/system.slice/slurmstepd.scope/job_4242/step_0/user/task_3",
		  NULL, NULL, true, 4242, 1 },
		{ "job 4242 keeps its batch step's QP", "/system.slice/node1_slurmstepd.scope/job_4242/step_batch/user/task_0",
		  NULL, NULL, true, 4242, 1 },
		{ "job 424 is not job 4242", "/system.slice/slurmstepd.scope/job_4242/step_0/user/task_3",
		  NULL, NULL, true, 424, 0 },
		{ "job 4242 drops a look-alike under a user's slice",
		  "/user.slice/user-1000.slice/user@1000.service/app.slice/slurmstepd.scope/job_4242/step_0/user/task_0",
		  NULL, NULL, true, 4242, 0 },
		{ "job 4242 drops a pod's QP", "/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
		  NULL, NULL, true, 4242, 0 },
		{ "job 4294967295, the largest", "/system.slice/slurmstepd.scope/job_4294967295/step_0/user/task_0",
		  NULL, NULL, true, 4294967295u, 1 },
		{ "job 0 drops slurmstepd's own processes", "/system.slice/slurmstepd.scope/system",
		  NULL, NULL, true, 0, 0 },
		{ "no filter keeps a plain cgroup", "/user.slice", NULL, NULL, false, 0, 1 },
		{ "a pod filter drops a job's QP", "/system.slice/slurmstepd.scope/job_7/step_0/user/task_0",
		  "trainer-0", NULL, false, 0, 0 },
	};
	struct workload_view v;
	char name[256], got[8];
	size_t i;
	int m;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		memset(&v, 0, sizeof(v));
		v.known = true;
		snprintf(v.path, sizeof(v.path), "%s", f[i].path);
		v.is_workload = workload_parse(f[i].path, &v.w);
		m = workload_view_matches(&v, f[i].pod, f[i].ns, f[i].has_job, f[i].job);
		snprintf(name, sizeof(name), "workload: filter: %s", f[i].name);
		snprintf(got, sizeof(got), "%d", m);
		report(name, m == f[i].want, got, f[i].want ? "1" : "0");
	}
	/* A pod's name, namespace and job at once: each must hold. */
	memset(&v, 0, sizeof(v));
	v.named = true;
	snprintf(v.ns, sizeof(v.ns), "team-a");
	snprintf(v.pod, sizeof(v.pod), "trainer-0");
	m = workload_view_matches(&v, "trainer-0", "team-a", false, 0) * 100 +
	    workload_view_matches(&v, "trainer-0", "team-b", false, 0) * 10 +
	    workload_view_matches(&v, "trainer-0", NULL, true, 1);
	snprintf(got, sizeof(got), "%03d", m);
	report("workload: filter: a pod by name and namespace, not another namespace, not a job", m == 100, got, "100");
}

void workload_tests(void (*report)(const char *name, int ok, const char *got, const char *want))
{
	char got[1100], name[256], dir[] = "/tmp/rocectl-pods.XXXXXX", sub[512], ns[64], pod[128];
	const char *why;
	struct workload w;
	size_t i;
	bool ok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ok = workload_parse(cases[i].path, &w);
		describe(ok, &w, got, sizeof(got));
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
	conf_tests(report);
	view_filter_tests(report);
}
