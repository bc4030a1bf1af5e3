// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup path to a container and a Kubernetes pod, by the path's form
 * alone (the kubelet's cgroup drivers and the runtimes' naming); a cgroup
 * id to its path by the cgroup filesystem; a pod's UID to its name by the
 * kubelet's log directory. Nothing here talks to a cluster.
 */
#include <ctype.h>
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include "workload.h"

/* systemd's unit-name escapes (\xNN) undone, into out (size len). */
static void unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;
	unsigned int c;

	while (n && o + 1 < len) {
		if (n >= 4 && s[0] == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
		    isxdigit((unsigned char)s[3]) && sscanf(s + 2, "%2x", &c) == 1) {
			out[o++] = (char)c;
			s += 4;
			n -= 4;
			continue;
		}
		out[o++] = *s++;
		n--;
	}
	out[o] = '\0';
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/* A container id: 64 hex digits (every runtime's). */
static bool take_id(const char *s, size_t n, struct workload *w, const char *runtime)
{
	if (n != 64 || !all_hex(s, n))
		return false;
	memcpy(w->container, s, n);
	w->container[n] = '\0';
	snprintf(w->runtime, sizeof(w->runtime), "%s", runtime);
	return true;
}

/*
 * One path component naming a container: a systemd scope of a runtime
 * (cri-containerd-, crio-, docker-, with .scope), CRI-O's cgroupfs
 * "crio-<ID>", or a bare id (containerd's and Docker's cgroupfs form).
 */
static bool container_of(const char *c, size_t n, struct workload *w)
{
	static const struct {
		const char *prefix, *runtime;
	} scopes[] = {
		{ "cri-containerd-", "containerd" },
		{ "crio-", "cri-o" },
		{ "docker-", "docker" },
	};
	size_t i, p;

	if (n > 6 && !memcmp(c + n - 6, ".scope", 6))
		n -= 6;
	for (i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		p = strlen(scopes[i].prefix);
		if (n > p && !memcmp(c, scopes[i].prefix, p))
			return take_id(c + p, n - p, w, scopes[i].runtime);
	}
	return take_id(c, n, w, "");
}

/* A pod's UID as the path wrote it (systemd: dashes as underscores). */
static bool take_uid(const char *s, size_t n, struct workload *w)
{
	size_t i;

	if (n != 36)
		return false;
	for (i = 0; i < n; i++) {
		char ch = s[i] == '_' ? '-' : s[i];

		if ((i == 8 || i == 13 || i == 18 || i == 23) ? ch != '-' :
		    !isxdigit((unsigned char)ch))
			return false;
		w->pod_uid[i] = (char)tolower((unsigned char)ch);
	}
	w->pod_uid[n] = '\0';
	return true;
}

static const char *const qos_classes[] = { "burstable", "besteffort" };

/*
 * A pod's component: cgroupfs "pod<UID>", systemd
 * "kubepods[-<qos>]-pod<UID_>.slice". The QoS class from the component
 * (systemd) or the one before it (cgroupfs); none named is guaranteed.
 */
static bool pod_of(const char *c, size_t n, const char *prev, size_t prev_n,
		   struct workload *w)
{
	const char *u;
	size_t i;

	if (n > 6 && !memcmp(c + n - 6, ".slice", 6)) {
		/* A prefix, as a kind node's kubelet-kubepods-..., is passed over. */
		u = memmem(c, n, "kubepods", 8);
		if (!u)
			return false;
		n -= 6 + (size_t)(u - c);
		c = u;
		u = memmem(c, n, "-pod", 4);
		if (!u || !take_uid(u + 4, n - (u + 4 - c), w))
			return false;
		for (i = 0; i < sizeof(qos_classes) / sizeof(qos_classes[0]); i++)
			if ((size_t)(u - c) == 9 + strlen(qos_classes[i]) &&
			    !memcmp(c + 9, qos_classes[i], strlen(qos_classes[i])))
				snprintf(w->qos, sizeof(w->qos), "%s", qos_classes[i]);
	} else {
		if (n < 3 || memcmp(c, "pod", 3) || !take_uid(c + 3, n - 3, w))
			return false;
		for (i = 0; i < sizeof(qos_classes) / sizeof(qos_classes[0]); i++)
			if (prev_n == strlen(qos_classes[i]) && !memcmp(prev, qos_classes[i], prev_n))
				snprintf(w->qos, sizeof(w->qos), "%s", qos_classes[i]);
	}
	if (!w->qos[0])
		snprintf(w->qos, sizeof(w->qos), "guaranteed");
	return true;
}

bool workload_parse(const char *path, struct workload *w)
{
	char buf[4096], *comp[64];
	size_t ncomp = 0, i;
	bool kube = false;
	char *s, *save = NULL;

	memset(w, 0, sizeof(*w));
	if (!path || path[0] != '/')
		return false;
	unescape(path, strlen(path), buf, sizeof(buf));
	for (s = strtok_r(buf, "/", &save); s && ncomp < 64; s = strtok_r(NULL, "/", &save))
		comp[ncomp++] = s;
	for (i = 0; i < ncomp; i++) {
		const char *prev = i ? comp[i - 1] : "";

		/* kubepods, kubepods.slice (kubelet-kubepods.slice on a kind node) */
		if (!strcmp(comp[i], "kubepods") ||
		    (strstr(comp[i], "kubepods") && strlen(comp[i]) > 6 &&
		     !strcmp(comp[i] + strlen(comp[i]) - 6, ".slice")))
			kube = true;
		if (kube && !w->pod_uid[0] &&
		    pod_of(comp[i], strlen(comp[i]), prev, strlen(prev), w))
			continue;
		/* The container: the component under the pod, or a plain one. */
		if ((w->pod_uid[0] || !kube) && !w->container[0] &&
		    (w->pod_uid[0] || !strcmp(prev, "docker") ||
		     !strncmp(comp[i], "docker-", 7) || !strncmp(comp[i], "cri-containerd-", 15) ||
		     !strncmp(comp[i], "crio-", 5)))
			container_of(comp[i], strlen(comp[i]), w);
	}
	return w->pod_uid[0] || w->container[0];
}

bool workload_pod_name(const char *logdir, const char *uid, char *ns, size_t ns_len,
		       char *name, size_t name_len, const char **why)
{
	size_t ulen = strlen(uid);
	struct dirent *d;
	bool found = false;
	DIR *dir;

	*why = NULL;
	dir = opendir(logdir);
	if (!dir) {
		*why = "no kubelet pod log directory";
		return false;
	}
	while (!found && (d = readdir(dir))) {
		size_t n = strlen(d->d_name);
		const char *a, *b;

		/* <namespace>_<name>_<uid>: neither of the two may hold a '_'. */
		if (n < ulen + 4 || strcmp(d->d_name + n - ulen, uid) || d->d_name[n - ulen - 1] != '_')
			continue;
		a = strchr(d->d_name, '_');
		b = d->d_name + n - ulen - 1;
		if (!a || a == d->d_name || a >= b - 1)
			continue;
		snprintf(ns, ns_len, "%.*s", (int)(a - d->d_name), d->d_name);
		snprintf(name, name_len, "%.*s", (int)(b - a - 1), a + 1);
		found = true;
	}
	closedir(dir);
	if (!found)
		*why = "no kubelet pod log entry for its UID";
	return found;
}

/* The ids of one walk of the cgroup tree and their paths. */
struct cg_entry {
	uint64_t id;
	char *path;
};

static struct cg_entry *cg_map;
static size_t cg_n, cg_cap;
static char cg_root[256];
static size_t cg_root_len;
static bool cg_walked;

static int cg_visit(const char *fpath, const struct stat *st, int type, struct FTW *f)
{
	struct cg_entry *grown;

	(void)f;
	if (type != FTW_D)
		return 0;
	if (cg_n == cg_cap) {
		grown = realloc(cg_map, (cg_cap ? 2 * cg_cap : 256) * sizeof(*grown));
		if (!grown)
			return 1;
		cg_map = grown;
		cg_cap = cg_cap ? 2 * cg_cap : 256;
	}
	cg_map[cg_n].id = st->st_ino;
	cg_map[cg_n].path = strdup(fpath[cg_root_len] ? fpath + cg_root_len : "/");
	if (!cg_map[cg_n].path)
		return 1;
	cg_n++;
	return 0;
}

/* The views given since the last forget: each cgroup's resolved once. */
static struct workload_view *views;
static size_t nviews, views_cap;

void workload_cgroup_forget(void)
{
	size_t i;

	for (i = 0; i < cg_n; i++)
		free(cg_map[i].path);
	free(cg_map);
	cg_map = NULL;
	cg_n = cg_cap = 0;
	cg_walked = false;
	free(views);
	views = NULL;
	nviews = views_cap = 0;
}

bool workload_cgroup_path(const char *root, uint64_t id, char *path, size_t len)
{
	size_t i;

	if (cg_walked && strcmp(root, cg_root))
		workload_cgroup_forget();
	if (!cg_walked) {
		snprintf(cg_root, sizeof(cg_root), "%s", root);
		cg_root_len = strlen(cg_root);
		while (cg_root_len > 1 && cg_root[cg_root_len - 1] == '/')
			cg_root[--cg_root_len] = '\0';
		cg_walked = true;
		/* Directories only, not crossing mounts; what cannot be read is skipped. */
		nftw(cg_root, cg_visit, 32, FTW_PHYS | FTW_MOUNT);
	}
	for (i = 0; i < cg_n; i++) {
		if (cg_map[i].id == id) {
			snprintf(path, len, "%s", cg_map[i].path);
			return true;
		}
	}
	return false;
}

/* The cgroup v2 hierarchy's mount, or NULL. */
static const char *cgroup2_root(void)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs sf;
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!statfs(roots[i], &sf) && sf.f_type == CGROUP2_SUPER_MAGIC)
			return roots[i];
	return NULL;
}

/* The module gives the root cgroup as 0: no workload, nothing to read. */
void workload_view(uint64_t id, struct workload_view *v)
{
	const char *root;
	struct workload_view *grown;
	size_t i;

	memset(v, 0, sizeof(*v));
	if (!id) {
		v->root = true;
		return;
	}
	for (i = 0; i < nviews; i++) {
		if (views[i].id == id) {
			*v = views[i];
			return;
		}
	}
	v->id = id;
	root = cgroup2_root();
	if (root && workload_cgroup_path(root, id, v->path, sizeof(v->path))) {
		v->known = true;
		v->is_workload = workload_parse(v->path, &v->w);
		if (v->w.pod_uid[0])
			v->named = workload_pod_name("/var/log/pods", v->w.pod_uid, v->ns,
						     sizeof(v->ns), v->pod, sizeof(v->pod), &v->why);
	}
	if (nviews == views_cap) {
		grown = realloc(views, (views_cap ? 2 * views_cap : 16) * sizeof(*grown));
		if (!grown)
			return;		/* resolved again next time */
		views = grown;
		views_cap = views_cap ? 2 * views_cap : 16;
	}
	views[nviews++] = *v;
}
