// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl.conf's workload lines: the nested roots of the kubelet and of
 * slurmstepd, checked before they are kept, since what is under them is
 * believed to be a pod's or a job's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/conf.h"
#include "lib/errors.h"
#include "workload_conf.h"

bool workload_conf_line(int n, char **words)
{
	return n > 0 && !strcmp(words[0], "workload");
}

/* Printable ASCII, no blank: the cgroup filesystem's names as systemd writes them. */
static bool printable(const char *p)
{
	for (; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return false;
	return true;
}

/*
 * A root as /proc/PID/cgroup writes it: absolute, at least one component,
 * none empty, "." or "..", no trailing '/'. NULL if so, else what is wrong.
 */
static const char *root_bad(const char *p)
{
	const char *c;
	size_t n;

	if (p[0] != '/')
		return "is not absolute";
	if (!p[1])
		return "is the cgroup root itself";
	if (strlen(p) >= WORKLOAD_ROOT_LEN)
		return "is too long";
	for (c = p; *c; c += n) {
		c++;	/* the '/' */
		n = strcspn(c, "/");
		if (!n)
			return "has an empty component (\"//\" or a trailing '/')";
		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return "has a \".\" or \"..\" component";
	}
	return NULL;
}

int workload_conf_parse(int n, char **words, struct workload_roots *roots)
{
	unsigned int *count;
	char (*list)[WORKLOAD_ROOT_LEN];
	const char *why;

	if (n < 2 || (strcmp(words[1], "kubelet-root") && strcmp(words[1], "slurm-root"))) {
		pr_err("Error: a workload line is \"workload kubelet-root PATH\" or \"workload slurm-root PATH\".\n");
		return EXIT_USAGE;
	}
	if (n != 3) {
		pr_err("Error: workload %s takes one cgroup path.\n", words[1]);
		return EXIT_USAGE;
	}
	/* Not echoed: such bytes may be what a terminal obeys. */
	if (!printable(words[2])) {
		pr_err("Error: workload %s: the path holds a byte that is not printable ASCII.\n",
		       words[1]);
		return EXIT_USAGE;
	}
	why = root_bad(words[2]);
	if (why) {
		pr_err("Error: workload %s: the path \"%s\" %s; write it as /proc/PID/cgroup does.\n",
		       words[1], words[2], why);
		return EXIT_USAGE;
	}
	if (!strcmp(words[1], "kubelet-root")) {
		count = &roots->nkubelet;
		list = roots->kubelet;
	} else {
		count = &roots->nslurm;
		list = roots->slurm;
	}
	if (*count == WORKLOAD_MAX_ROOTS) {
		pr_err("Error: more than %d workload %s lines.\n", WORKLOAD_MAX_ROOTS, words[1]);
		return EXIT_USAGE;
	}
	snprintf(list[(*count)++], WORKLOAD_ROOT_LEN, "%s", words[2]);
	return EXIT_OK;
}

int workload_conf_read(const char *path, struct workload_roots *roots)
{
	char *line = NULL, *words[CONF_MAX_WORDS], where[512];
	unsigned int lineno = 0;
	size_t cap = 0;
	int n, err = EXIT_OK;
	FILE *f;

	memset(roots, 0, sizeof(*roots));
	f = fopen(path, "r");
	if (!f)
		return EXIT_OK;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		n = conf_split_words(line, words);
		/* Too many words for any line: rocectl apply says so. */
		if (n <= 0 || !workload_conf_line(n, words))
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		err_where = where;
		if (workload_conf_parse(n, words, roots) != EXIT_OK)
			err = EXIT_USAGE;
		err_where = NULL;
	}
	free(line);
	fclose(f);
	return err;
}
