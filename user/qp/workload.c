// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup path to a container, a Kubernetes pod or a Slurm job, by the
 * path's form under the roots the kubelet, slurmstepd and dockerd make
 * (the kubelet's cgroup drivers and the runtimes' naming); a cgroup
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

#include "lib/conf.h"
#include "workload.h"
#include "workload_conf.h"

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

#define MAX_COMPS	64

/*
 * A path's components as written (raw, what roots are compared with) and
 * with each one's escapes undone on its own (name): an escaped '/' stays
 * inside its component.
 */
struct comps {
	size_t n;
	const char *raw[MAX_COMPS], *name[MAX_COMPS];
	char rawbuf[4096], namebuf[4096];
};

static bool split(const char *path, struct comps *c)
{
	char *s, *save = NULL;
	size_t o = 0, n;

	c->n = 0;
	if (strlen(path) >= sizeof(c->rawbuf))
		return false;
	strcpy(c->rawbuf, path);
	for (s = strtok_r(c->rawbuf, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (c->n == MAX_COMPS)
			return false;
		n = strlen(s);
		/* Never longer undone: the names fit as the path did. */
		unescape(s, n, c->namebuf + o, n + 1);
		c->raw[c->n] = s;
		c->name[c->n++] = c->namebuf + o;
		o += strlen(c->namebuf + o) + 1;
	}
	return true;
}

/* How many components root (a path) takes at the head of c: 0 if c is not under it. */
static size_t under(const struct comps *c, const char *root)
{
	size_t i = 0, n;

	for (;;) {
		while (*root == '/')
			root++;
		if (!*root)
			return i;
		n = strcspn(root, "/");
		if (i == c->n || strlen(c->raw[i]) != n || memcmp(c->raw[i], root, n))
			return 0;
		root += n;
		i++;
	}
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	return n >= e && !memcmp(s + n - e, end, e);
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
static bool container_of(const char *c, struct workload *w)
{
	static const struct {
		const char *prefix, *runtime;
	} scopes[] = {
		{ "cri-containerd-", "containerd" },
		{ "crio-", "cri-o" },
		{ "docker-", "docker" },
	};
	size_t i, p, n = strlen(c);

	if (ends_with(c, ".scope"))
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
 * Below the kubelet's root (c's first k components): a QoS class's
 * cgroup or none (guaranteed), the pod's, then the container's, in the
 * root's driver's form. systemd names each slice after its parent
 * (kubepods.slice, kubepods-burstable.slice,
 * kubepods-burstable-pod<UID_>.slice; kubelet-kubepods... on a kind
 * node); cgroupfs plain directories (burstable/pod<UID>).
 */
static bool pod_under(const struct comps *c, size_t k, struct workload *w)
{
	const char *root = c->name[k - 1], *qos = NULL, *p;
	size_t i = k, j, rn = strlen(root), pn;
	bool systemd = ends_with(root, ".slice");
	char want[WORKLOAD_ROOT_LEN + 64];

	if (systemd)
		rn -= 6;
	for (j = 0; i < c->n && !qos && j < sizeof(qos_classes) / sizeof(qos_classes[0]); j++) {
		if (systemd)
			snprintf(want, sizeof(want), "%.*s-%s.slice", (int)rn, root, qos_classes[j]);
		else
			snprintf(want, sizeof(want), "%s", qos_classes[j]);
		if (!strcmp(c->name[i], want))
			qos = qos_classes[j];
	}
	if (qos)
		i++;
	if (i == c->n)
		return false;
	p = c->name[i];
	if (systemd) {
		snprintf(want, sizeof(want), "%.*s%s%s-pod", (int)rn, root, qos ? "-" : "", qos ? qos : "");
		pn = strlen(want);
		if (strncmp(p, want, pn) || strlen(p) < pn + 6 || !ends_with(p, ".slice") ||
		    !take_uid(p + pn, strlen(p) - pn - 6, w))
			return false;
	} else if (strncmp(p, "pod", 3) || !take_uid(p + 3, strlen(p) - 3, w)) {
		return false;
	}
	snprintf(w->qos, sizeof(w->qos), "%s", qos ? qos : "guaranteed");
	if (++i < c->n)
		container_of(c->name[i], w);
	return true;
}

/* n decimal digits, 1 to 10 (a 32-bit id), at s; the count or 0. */
static size_t digits(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n <= 10 ? n : 0;
}

/*
 * Below slurmstepd's scope (c's first k components), as its cgroup/v2
 * plugin makes them: job_<id>/step_<step>/user/task_<n>, the step a
 * number, <n>+<component> (a heterogeneous job's), batch, extern or
 * interactive; "system" is slurmstepd's own.
 */
static bool job_under(const struct comps *c, size_t k, struct workload *w)
{
	static const char *const steps[] = { "batch", "extern", "interactive" };
	const char *s;
	size_t n, i;

	if (k >= c->n || strncmp(c->name[k], "job_", 4))
		return false;
	s = c->name[k] + 4;
	if (!digits(s) || s[digits(s)])
		return false;
	snprintf(w->job, sizeof(w->job), "%s", s);
	if (++k == c->n || strncmp(c->name[k], "step_", 5))
		return true;
	s = c->name[k] + 5;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (!strcmp(s, steps[i]))
			break;
	n = digits(s);
	if (i < sizeof(steps) / sizeof(steps[0]) ||
	    (n && (!s[n] || (s[n] == '+' && digits(s + n + 1) && !s[n + 1 + digits(s + n + 1)]))))
		snprintf(w->step, sizeof(w->step), "%s", s);
	return true;
}

/* The kubelet's kubepods cgroup at the top of the tree, for each driver and a kind node's. */
static const char *const kubelet_roots[] = {
	"/kubepods.slice", "/kubepods", "/kubelet.slice/kubelet-kubepods.slice",
};

/* slurmstepd's scope under /system.slice: slurmstepd.scope, or <node>_slurmstepd.scope. */
static size_t slurm_builtin(const struct comps *c)
{
	if (c->n < 2 || strcmp(c->raw[0], "system.slice"))
		return 0;
	if (!strcmp(c->name[1], "slurmstepd.scope") ||
	    (ends_with(c->name[1], "_slurmstepd.scope") && strlen(c->name[1]) > 17))
		return 2;
	return 0;
}

/*
 * Plain Docker containers where dockerd puts them by default: its systemd
 * driver's /system.slice/docker-<ID>.scope, its cgroupfs driver's
 * /docker/<ID>. Never deeper: under /user.slice a user names their own.
 */
static bool docker_rooted(const struct comps *c, struct workload *w)
{
	if (c->n < 2)
		return false;
	if (!strcmp(c->raw[0], "system.slice"))
		return !strncmp(c->name[1], "docker-", 7) && ends_with(c->name[1], ".scope") &&
		       container_of(c->name[1], w);
	if (!strcmp(c->raw[0], "docker"))
		return take_id(c->name[1], strlen(c->name[1]), w, "");
	return false;
}

/* Under each root in turn; what a root's form does not match is cleared. */
static bool parse_rooted(const struct comps *c, const struct workload_roots *roots,
			 struct workload *w)
{
	size_t i, k;

	for (i = 0; roots && i < roots->nkubelet; i++) {
		k = under(c, roots->kubelet[i]);
		if (k && pod_under(c, k, w))
			return true;
		memset(w, 0, sizeof(*w));
	}
	for (i = 0; i < sizeof(kubelet_roots) / sizeof(kubelet_roots[0]); i++) {
		k = under(c, kubelet_roots[i]);
		if (k && pod_under(c, k, w))
			return true;
		memset(w, 0, sizeof(*w));
	}
	for (i = 0; roots && i < roots->nslurm; i++) {
		k = under(c, roots->slurm[i]);
		if (k && job_under(c, k, w))
			return true;
		memset(w, 0, sizeof(*w));
	}
	k = slurm_builtin(c);
	if (k && job_under(c, k, w))
		return true;
	memset(w, 0, sizeof(*w));
	if (docker_rooted(c, w))
		return true;
	memset(w, 0, sizeof(*w));
	return false;
}

bool workload_parse_roots(const char *path, const struct workload_roots *roots,
			  struct workload *w)
{
	struct comps c;

	memset(w, 0, sizeof(*w));
	if (!path || path[0] != '/' || !split(path, &c))
		return false;
	return parse_rooted(&c, roots, w);
}

bool workload_parse(const char *path, struct workload *w)
{
	return workload_parse_roots(path, NULL, w);
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

/* The policy file's workload roots, read once per process: they change with a reboot's roles. */
static const struct workload_roots *conf_roots(void)
{
	static struct workload_roots roots;
	static bool read;

	if (!read) {
		workload_conf_read(POLICY_FILE, &roots);
		read = true;
	}
	return &roots;
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
		v->is_workload = workload_parse_roots(v->path, conf_roots(), &v->w);
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

bool workload_view_matches(const struct workload_view *v, const char *pod, const char *ns,
			   bool has_job, uint32_t job)
{
	if ((pod || ns) && !(v->named && (!pod || !strcmp(pod, v->pod)) &&
			     (!ns || !strcmp(ns, v->ns))))
		return false;
	/* At most 10 digits (struct workload): no overflow. */
	return !has_job || (v->w.job[0] && strtoull(v->w.job, NULL, 10) == job);
}
