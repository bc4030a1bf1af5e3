// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rocectl qp counters follow (user/qp/qp_follow.c): the
 * policies -- what each word sets, and every malformed policy refused with
 * the sentence that says why (written to stderr, captured here) -- and the
 * state file: which bound counters qp stats and qp counters show mark as
 * followed, and that a stale or malformed file marks none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "lib/rdma_stat.h"
#include "lib/rocectl.h"
#include "qp/qp_follow.h"
#include "qp_follow_test.h"

static int failed;

static void report(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("ok - unit: qp follow: %s\n", name);
		return;
	}
	failed++;
	printf("not ok - unit: qp follow: %s # %s\n", name, why);
}

/* Parse the words of line; its stderr in err (what the user reads). */
static int parse(const char *line, struct follow_policy *p, char *err, size_t len)
{
	static char copy[256];
	char *words[16], *w, *save;
	int n = 0, ret, fd, saved;
	FILE *tmp = tmpfile();

	snprintf(copy, sizeof(copy), "%s", line);
	for (w = strtok_r(copy, " ", &save); w && n < 16; w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	fflush(stderr);
	saved = dup(2);
	fd = fileno(tmp);
	dup2(fd, 2);
	ret = follow_policy_parse(n, words, p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	len = fread(err, 1, len - 1, tmp);
	err[len] = '\0';
	fclose(tmp);
	return ret;
}

static void good(const char *line, const char *dev, int port, int type, const char *comm,
		 int pid, unsigned int max)
{
	struct follow_policy p;
	char err[512], why[700];
	int ret = parse(line, &p, err, sizeof(err));
	int ok = ret == EXIT_OK && !err[0] &&
		 (dev ? p.dev && !strcmp(p.dev, dev) : !p.dev) &&
		 (port < 0 ? !p.has_port : p.has_port && (int)p.port == port) &&
		 (type < 0 ? !p.has_type : p.has_type && (int)p.type == type) &&
		 (comm ? p.comm && !strcmp(p.comm, comm) : !p.comm) &&
		 (pid < 0 ? !p.has_pid : p.has_pid && (int)p.pid == pid) && p.max == max;

	snprintf(why, sizeof(why), "exit %d, stderr [%s], dev %s port %u/%d type %u/%d comm %s pid %u/%d max %u",
		 ret, err, p.dev ? p.dev : "-", p.port, p.has_port, p.type, p.has_type,
		 p.comm ? p.comm : "-", p.pid, p.has_pid, p.max);
	report(line[0] ? line : "(no word)", ok, why);
}

static void bad(const char *line, const char *want)
{
	struct follow_policy p;
	char err[512], why[700], name[300];
	int ret = parse(line, &p, err, sizeof(err));

	snprintf(name, sizeof(name), "refused: %s", line);
	snprintf(why, sizeof(why), "exit %d, stderr [%s], want [%s]", ret, err, want);
	report(name, ret == EXIT_USAGE && strstr(err, want), why);
}

/* Counters as a STAT_GET dump gives them: device 3 port 1, QPs bound. */
static void counters(struct qpc_list *l, struct qpc_counter *c, uint32_t *qpns)
{
	static const uint32_t ids[] = { 1, 2, 3, 4 }, ports[] = { 1, 1, 2, 1 };
	size_t i;

	memset(c, 0, 4 * sizeof(*c));
	for (i = 0; i < 4; i++) {
		c[i].dev_index = 3;
		c[i].port = ports[i];
		c[i].id = ids[i];
		qpns[i] = 16 + i;
		c[i].qpns = &qpns[i];
		c[i].nqpns = 1;
	}
	l->c = c;
	l->n = 4;
}

static void marks(const char *name, const char *state, bool as_rocectl, const char *want)
{
	char path[] = "/tmp/rocectl-unit-follow.XXXXXX", comm[32] = "", got[8] = "", why[256];
	struct qpc_counter c[4];
	struct qpc_list l;
	uint32_t qpns[4];
	size_t i;
	int fd = mkstemp(path);

	counters(&l, c, qpns);
	if (fd < 0 || write(fd, state, strlen(state)) != (ssize_t)strlen(state)) {
		report(name, 0, "cannot write the state file");
		return;
	}
	close(fd);
	/* follow_mark trusts only a live rocectl: be one for the test. */
	prctl(PR_GET_NAME, comm);
	if (as_rocectl)
		prctl(PR_SET_NAME, "rocectl");
	follow_mark(&l, path);
	prctl(PR_SET_NAME, comm);
	unlink(path);
	for (i = 0; i < 4; i++)
		got[i] = c[i].followed ? '1' : '0';
	snprintf(why, sizeof(why), "followed %s, want %s", got, want);
	report(name, !strcmp(got, want), why);
}

static void state_tests(void)
{
	char state[256];
	long self = (long)getpid();

	snprintf(state, sizeof(state), "rocectl qp-follow 1\npid %ld\n3 1 16 1\n3 2 18 3\n", self);
	marks("state: the counters a live follow bound are marked", state, true, "1010");
	snprintf(state, sizeof(state), "rocectl qp-follow 1\npid %ld\n3 1 17 1\n3 1 16 2\n4 1 19 4\n",
		 self);
	marks("state: another QP, counter or device marks nothing", state, true, "0000");
	snprintf(state, sizeof(state), "rocectl qp-follow 1\npid %ld\n3 1 16 1\n", self);
	marks("state: a file whose pid is no rocectl (stale) marks nothing", state, false, "0000");
	snprintf(state, sizeof(state), "rocectl qp-follow 2\npid %ld\n3 1 16 1\n", self);
	marks("state: another format marks nothing", state, true, "0000");
	snprintf(state, sizeof(state), "rocectl qp-follow 1\n3 1 16 1\n");
	marks("state: no pid line marks nothing", state, true, "0000");
	snprintf(state, sizeof(state), "rocectl qp-follow 1\npid %ld\n3 1 x 1\n3 1\n\n3 1 19 4 junk\n3 1 19\n", self);
	marks("state: malformed lines are skipped", state, true, "0000");
	snprintf(state, sizeof(state),
		 "rocectl qp-follow 1\npid %ld\n3 1 16 1\nhistory 3 2 18 out_of_sequence=3\nwait 3 2 18 full\n", self);
	marks("state: history and wait lines mark nothing", state, true, "1000");
}

int qp_follow_tests(void)
{
	state_tests();
	good("", NULL, -1, -1, NULL, -1, 0);
	good("dev mlx5_0", "mlx5_0", -1, -1, NULL, -1, 0);
	good("dev mlx5_0 port 2 type RC", "mlx5_0", 2, 2, NULL, -1, 0);
	good("type ud comm ib_ipoib", NULL, -1, 4, "ib_ipoib", -1, 0);
	good("pid 4242 max 1000", NULL, -1, -1, NULL, 4242, 1000);
	good("max 0x10 type XRC_TGT", NULL, -1, 10, NULL, -1, 16);

	bad("port 1", "port N needs dev DEV");
	bad("dev", "an RDMA device");
	bad("dev mlx5_0 port 0", "port \"0\" is not a number from 1 to 255");
	bad("dev mlx5_0 port 256", "port \"256\" is not a number from 1 to 255");
	bad("type", "type \"\" is not a QP type");
	bad("type RX", "type \"RX\" is not a QP type");
	bad("type UNKNOWN", "type \"UNKNOWN\" is not a QP type");
	bad("comm", "comm needs a command name of 1 to 63 characters");
	bad("comm 0123456789012345678901234567890123456789012345678901234567890123",
	    "comm needs a command name of 1 to 63 characters");
	bad("pid 0", "pid \"0\" is not a number from 1 to 2147483647");
	bad("pid -1", "pid \"-1\" is not a number");
	bad("max", "max needs a value");
	bad("max 0", "max \"0\" is not a number from 1 to 4294967295");
	bad("max 4294967296", "max \"4294967296\" is not a number from 1");
	bad("qpn 5", "unknown qp counters follow argument \"qpn\"");
	return failed;
}
