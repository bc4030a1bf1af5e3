// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp: every QP the module tracks, with its identity and, where
 * the module sees the packets (soft-RoCE), its counters; `qp stats watch`
 * turns them into per-second rates. `qp stats` also shows the hardware
 * counter a QP is bound to (qp_counters.c), labelled as the driver's.
 * `qp errors` lists the QP failures the module recorded (qp_errors.c).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp.h"
#include "qp_counters.h"
#include "qp_errors.h"
#include "qp_fields.h"
#include "qp_hw_cong.h"
#include "qp_path.h"
#include "qp_sport.h"
#include "workload.h"

static int parse_name(const char *word, const char *const *names, size_t n,
		      unsigned int *v)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (names[i] && !strcasecmp(word, names[i])) {
			*v = i;
			return 0;
		}
	}
	return -1;
}


/* --- the command line -------------------------------------------------- */

struct qp_filter {
	const char *dev;
	uint32_t qpn, pid, port;
	unsigned int type, state;
	bool has_qpn, has_pid, has_port, has_type, has_state;
	bool devx;		/* "type devx": DevX QPs only, whatever their type */
	const char *pod, *ns;	/* a Kubernetes pod's name, namespace */
	uint32_t job;		/* a Slurm job's id */
	bool has_job;
	int sort;		/* counter attribute, 0: none */
	bool watch;
	unsigned int interval_ms;
	unsigned int count;	/* watch rounds, 0: until interrupted */
	struct qp_path_opts path;	/* qp path's keywords */
};

/* Which command's filter: each takes its own keywords after the common ones. */
enum qp_cmd_kind { QP_CMD_SHOW, QP_CMD_STATS, QP_CMD_PATH };

static int parse_u32_arg(struct rocectl *rc, const char *what, uint32_t max,
			 uint32_t *v)
{
	const char *s = arg_next(rc);

	if (!s) {
		pr_err("Error: %s needs a value.\n", what);
		return EXIT_USAGE;
	}
	if (parse_u32(s, v) || *v > max) {
		pr_err("Error: %s \"%s\" is not a number from 0 to %u.\n",
			what, s, max);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_named_arg(struct rocectl *rc, const char *what,
			   const char *const *names, size_t n, unsigned int *v)
{
	const char *s = arg_next(rc);
	size_t i;

	if (s && !parse_name(s, names, n, v))
		return EXIT_OK;
	pr_err("Error: %s \"%s\" is not one of:", what, s ? s : "");
	for (i = 0; i < n; i++)
		if (names[i])
			pr_err(" %s", names[i]);
	pr_err(".\n");
	return EXIT_USAGE;
}

static int parse_filter(struct rocectl *rc, struct qp_filter *f, enum qp_cmd_kind kind)
{
	static const char *const cmd_names[] = { "show", "stats", "path" };
	bool stats = kind == QP_CMD_STATS;
	const char *w;
	uint32_t v;
	int err = EXIT_OK;

	memset(f, 0, sizeof(*f));
	f->interval_ms = 1000;
	qp_path_opts_default(&f->path);
	while (!err && (w = arg_next(rc))) {
		if (kind == QP_CMD_PATH && (err = qp_path_keyword(rc, w, &f->path)) >= 0)
			continue;
		err = EXIT_OK;
		if (!strcmp(w, "dev")) {
			f->dev = arg_next(rc);
			err = check_dev_name(f->dev, "an RDMA device");
		} else if (!strcmp(w, "qpn") || !strcmp(w, "lqpn")) {
			err = parse_u32_arg(rc, "qpn", 0xffffff, &f->qpn);
			f->has_qpn = true;
		} else if (!strcmp(w, "pid")) {
			err = parse_u32_arg(rc, "pid", INT32_MAX, &f->pid);
			f->has_pid = true;
		} else if (!strcmp(w, "port")) {
			err = parse_u32_arg(rc, "port", 255, &f->port);
			f->has_port = true;
		} else if (!strcmp(w, "type") && arg_peek(rc) &&
			   !strcasecmp(arg_peek(rc), "devx")) {
			arg_next(rc);
			f->devx = true;
		} else if (!strcmp(w, "type")) {
			err = parse_named_arg(rc, "type", qp_type_names, ARRAY_SIZE(qp_type_names), &f->type);
			f->has_type = true;
		} else if (!strcmp(w, "pod") || !strcmp(w, "namespace")) {
			const char *name = arg_next(rc);

			if (!name || !*name || strlen(name) > 253) {
				pr_err("Error: %s needs a name (1 to 253 characters).\n", w);
				err = EXIT_USAGE;
			} else if (w[0] == 'p') {
				f->pod = name;
			} else {
				f->ns = name;
			}
		} else if (!strcmp(w, "job")) {
			/* Slurm's job ids are 32-bit numbers. */
			err = parse_u32_arg(rc, "job", UINT32_MAX, &f->job);
			f->has_job = true;
		} else if (!strcmp(w, "state")) {
			err = parse_named_arg(rc, "state", qp_state_names, ARRAY_SIZE(qp_state_names), &f->state);
			f->has_state = true;
		} else if (stats && !strcmp(w, "sort")) {
			unsigned int s;

			err = parse_named_arg(rc, "sort field", qp_stat_names, ARRAY_SIZE(qp_stat_names), &s);
			f->sort = s;
		} else if (stats && !strcmp(w, "watch")) {
			f->watch = true;
			/* An optional interval in seconds, 0.1 to 3600. */
			if (arg_peek(rc) && strspn(arg_peek(rc), "0123456789.") == strlen(arg_peek(rc))) {
				char *end;
				double s = strtod(arg_next(rc), &end);

				if (*end || s < 0.1 || s > 3600) {
					pr_err("Error: the watch interval is seconds, from 0.1 to 3600.\n");
					err = EXIT_USAGE;
				}
				f->interval_ms = s * 1000;
			}
		} else if (stats && !strcmp(w, "count")) {
			err = parse_u32_arg(rc, "count", 1000000, &v);
			f->count = v;
		} else {
			pr_err("Error: unknown qp %s argument \"%s\": try \"rocectl qp help\".\n",
				cmd_names[kind], w);
			err = EXIT_USAGE;
		}
	}
	if (!err && f->count && !f->watch) {
		pr_err("Error: count goes with watch.\n");
		err = EXIT_USAGE;
	}
	return err;
}

/* The request: a doit for dev + qpn, a filtered dump otherwise. */
static struct nlmsghdr *qp_request(struct rocectl *rc, const struct qp_filter *f)
{
	bool one = f->dev && f->has_qpn;
	struct nlmsghdr *nlh;

	nlh = nl_request(&rc->nl, ROCECTL_CMD_QP_GET, one ? 0 : NLM_F_DUMP);
	if (f->dev)
		mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, f->dev);
	if (one)
		mnl_attr_put_u32(nlh, ROCECTL_A_QP_NUM, f->qpn);
	if (f->has_pid)
		mnl_attr_put_u32(nlh, ROCECTL_A_QP_PID, f->pid);
	if (f->has_port)
		mnl_attr_put_u32(nlh, ROCECTL_A_QP_PORT, f->port);
	if (f->has_type)
		mnl_attr_put_u8(nlh, ROCECTL_A_QP_TYPE, f->type);
	if (f->has_state)
		mnl_attr_put_u8(nlh, ROCECTL_A_QP_STATE, f->state);
	return nlh;
}

/*
 * What the kernel does not filter: without a device, the QPN (QPNs are
 * per device); "type devx"; the pod, namespace and job its cgroup names.
 * tb has a QPN.
 */
static bool qp_filter_keeps(const struct qp_filter *f, const struct nlattr **tb)
{
	struct workload_view v;

	if (f->has_qpn && mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]) != f->qpn)
		return false;
	if (f->devx && !tb[ROCECTL_A_QP_DEVX])
		return false;
	if (!f->pod && !f->ns && !f->has_job)
		return true;
	/* A cgroup the reader is not shown belongs to no pod or job. */
	if (!tb[ROCECTL_A_QP_CGROUP])
		return false;
	workload_view(mnl_attr_get_u64(tb[ROCECTL_A_QP_CGROUP]), &v);
	return workload_view_matches(&v, f->pod, f->ns, f->has_job, f->job);
}

struct qp_show_ctx {
	const struct rocectl *rc;
	const struct qp_filter *f;
	bool stats;
};

static int qp_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_show_ctx *ctx = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	if (!qp_filter_keeps(ctx->f, tb))
		return MNL_CB_OK;
	out_open_object(NULL);
	qp_print_fields(tb, ctx->rc->details);
	if (ctx->stats)
		qp_print_stats(tb);
	out_close_object();
	out_nl();
	return MNL_CB_OK;
}

static int qp_show(struct rocectl *rc)
{
	struct qp_filter f;
	struct qp_show_ctx ctx = { rc, &f, false };
	int err = parse_filter(rc, &f, QP_CMD_SHOW);
	struct qp_sport_hw hw;

	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	/* The hardware's ports first: the socket is idle. */
	qp_sport_hw_read(&rc->nl, &hw);
	qp_fields_sport_hw(&hw);
	out_begin_list();
	err = nl_run(&rc->nl, qp_request(rc, &f), qp_show_cb, &ctx);
	out_end_list();
	qp_fields_sport_hw(NULL);
	qp_sport_hw_free(&hw);
	return err;
}

/* --- qp path: each QP's hops (qp_path.c) ------------------------------- */

struct qp_path_ctx {
	const struct qp_filter *f;
	struct qp_path *path;
	const struct qp_sport_hw *hw;
};

static int qp_path_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_path_ctx *ctx = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	if (!qp_filter_keeps(ctx->f, tb))
		return MNL_CB_OK;
	return qp_path_add(ctx->path, tb, ctx->hw) ? MNL_CB_ERROR : MNL_CB_OK;
}

/* links: every QP, unfiltered: the destinations of those traced, if here. */
static int qp_path_peer_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_path_ctx *ctx = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	return qp_path_add_peer(ctx->path, tb) ? MNL_CB_ERROR : MNL_CB_OK;
}

/* links: the counters at the window's end, of every QP. */
static int qp_path_end_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_path_ctx *ctx = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM])
		return MNL_CB_OK;
	qp_path_update(ctx->path, tb);
	return MNL_CB_OK;
}

static int qp_path_cmd(struct rocectl *rc)
{
	struct qp_filter f;
	int err = parse_filter(rc, &f, QP_CMD_PATH);
	struct qp_sport_hw hw;
	struct qp_path_ctx ctx = { &f, NULL, &hw };

	if (err)
		return err;
	/* It sends packets from the QPs' own addresses and ports. */
	if (geteuid()) {
		pr_err("Error: qp path sends probes from the QPs' addresses and ports: root only.\n");
		return EXIT_FAILED;
	}
	err = rocectl_connect(rc);
	if (err)
		return err;
	ctx.path = qp_path_new(&f.path);
	if (!ctx.path)
		return EXIT_FAILED;
	qp_sport_hw_read(&rc->nl, &hw);
	err = nl_run(&rc->nl, qp_request(rc, &f), qp_path_cb, &ctx);
	if (!err && f.path.links)
		err = nl_run(&rc->nl, nl_request(&rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP),
			     qp_path_peer_cb, &ctx);
	if (!err) {
		/* What was traced is printed, even if a later trace failed. */
		err = qp_path_run(ctx.path);
		if (!err && qp_path_wait(ctx.path))
			err = nl_run(&rc->nl, nl_request(&rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP),
				     qp_path_end_cb, &ctx);
		qp_path_print(ctx.path);
	}
	qp_sport_hw_free(&hw);
	qp_path_free(ctx.path);
	return err;
}

/* --- qp stats: one snapshot, or rates in a loop ------------------------ */

struct qp_row {
	uint32_t dev_index, port, qpn, pid;
	uint8_t type, state;
	char ifname[ROCECTL_DEV_NAME_MAX + 1];
	char comm[16];
	bool has_stats;
	bool devx;		/* made by DevX commands: no set the RDMA core reads */
	uint32_t counter_set;
	uint64_t cgroup;
	uint64_t v[QP_NSTATS];
	double rate[QP_NSTATS];
};

struct qp_rows {
	struct qp_row *row;
	size_t n, cap;
	const struct qp_filter *f;
};

static int qp_collect_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_rows *rows = data;
	struct qp_row *r;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_DEV_INDEX])
		return MNL_CB_OK;
	if (!qp_filter_keeps(rows->f, tb))
		return MNL_CB_OK;
	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? 2 * rows->cap : 64;
		struct qp_row *grown = realloc(rows->row, cap * sizeof(*grown));

		if (!grown)
			return MNL_CB_ERROR;
		rows->row = grown;
		rows->cap = cap;
	}
	r = &rows->row[rows->n++];
	memset(r, 0, sizeof(*r));
	r->dev_index = mnl_attr_get_u32(tb[ROCECTL_A_DEV_INDEX]);
	r->qpn = mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]);
	if (tb[ROCECTL_A_DEV_NAME])
		snprintf(r->ifname, sizeof(r->ifname), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_COMM])
		snprintf(r->comm, sizeof(r->comm), "%s", mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
	if (tb[ROCECTL_A_QP_PORT])
		r->port = mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]);
	if (tb[ROCECTL_A_QP_PID])
		r->pid = mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]);
	if (tb[ROCECTL_A_QP_TYPE])
		r->type = mnl_attr_get_u8(tb[ROCECTL_A_QP_TYPE]);
	if (tb[ROCECTL_A_QP_STATE])
		r->state = mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]);
	r->has_stats = qp_stat_values(tb[ROCECTL_A_QP_STATS], r->v);
	r->devx = tb[ROCECTL_A_QP_DEVX];
	if (tb[ROCECTL_A_QP_COUNTER_SET])
		r->counter_set = mnl_attr_get_u32(tb[ROCECTL_A_QP_COUNTER_SET]);
	if (tb[ROCECTL_A_QP_CGROUP])
		r->cgroup = mnl_attr_get_u64(tb[ROCECTL_A_QP_CGROUP]);
	return MNL_CB_OK;
}

static int sort_index;
static bool sort_rates;
static bool hw_binds;	/* the kernel binds optional counters to a QP's set */

static int row_cmp(const void *a, const void *b)
{
	const struct qp_row *x = a, *y = b;

	if (sort_rates) {
		if (x->rate[sort_index] != y->rate[sort_index])
			return x->rate[sort_index] < y->rate[sort_index] ? 1 : -1;
	} else if (x->v[sort_index] != y->v[sort_index]) {
		return x->v[sort_index] < y->v[sort_index] ? 1 : -1;
	}
	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	return x->qpn < y->qpn ? -1 : x->qpn > y->qpn;
}

/* hw: the counters bound to QPs, or NULL (watch: the module's rates only). */
static void print_row(const struct qp_row *r, bool rates, const struct qpc_list *hw)
{
	int i;

	out_open_object(NULL);
	out_uint("ifindex", NULL, r->dev_index);
	out_str("ifname", "link %s", r->ifname);
	out_uint("port", "/%" PRIu64 " ", r->port);
	out_uint("lqpn", "lqpn %" PRIu64 " ", r->qpn);
	out_str("type", "type %s ", qp_type_name(r->type));
	out_str("state", "state %s ", qp_state_name(r->state));
	out_uint("pid", "pid %" PRIu64 " ", r->pid);
	out_str("comm", "comm %s ", r->comm);
	qp_print_workload(r->cgroup);
	if (r->devx) {
		char why[160];

		/* Its set was allocated by DevX too: rdma(8) does not list it. */
		snprintf(why, sizeof(why),
			 "a DevX QP: its counters are those of its counter set %u, which the RDMA core does not read",
			 r->counter_set);
		out_bool("devx", "devx ", true);
		qp_hw_cong_print_absent(why, "\n    ");
	} else if (!r->has_stats && !hw) {
		out_str("counters_source", "\n    counters none (not seen by the module) ", "none");
	} else if (!r->has_stats) {
		/* Hardware RoCE: its counter set's congestion counters, if any. */
		qp_hw_cong_print(qpc_find(hw, r->dev_index, r->port, r->qpn), hw_binds, "\n    ");
	} else if (!rates) {
		qp_print_counters(r->v, "\n    ");
	} else {
		out_str("counters_source", NULL, QP_SOURCE);
		out_open_object("rates");
		out_text("\n    rates (%s): ", QP_SOURCE);
		for (i = 0; i < QP_NSTATS; i++) {
			out_uint(qp_stat_names[QP_STAT_FIRST + i], NULL, (uint64_t)(r->rate[i] + 0.5));
			out_text("%s/s %.0f ", qp_stat_names[QP_STAT_FIRST + i], r->rate[i]);
		}
		out_close_object();
	}
	qpc_print_for_qp(hw, r->dev_index, r->port, r->qpn);
	out_close_object();
	out_nl();
}

static void collect_restart(void *data)
{
	((struct qp_rows *)data)->n = 0;
}

static int collect(struct rocectl *rc, const struct qp_filter *f, struct qp_rows *rows)
{
	rows->n = 0;
	rows->f = f;
	return nl_run_restart(&rc->nl, qp_request(rc, f), qp_collect_cb, rows,
			      collect_restart);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t watch_stop;

static void watch_on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* Rates against the previous round, matched by (device, QPN). */
static void compute_rates(struct qp_rows *cur, const struct qp_rows *prev, double dt)
{
	size_t i, j;
	int k;

	for (i = 0; i < cur->n; i++) {
		struct qp_row *r = &cur->row[i];

		for (j = 0; j < prev->n; j++) {
			const struct qp_row *p = &prev->row[j];

			if (p->dev_index != r->dev_index || p->qpn != r->qpn)
				continue;
			for (k = 0; k < QP_NSTATS; k++)
				r->rate[k] = r->v[k] >= p->v[k] ? (r->v[k] - p->v[k]) / dt : 0;
			break;
		}
	}
}

static int qp_watch(struct rocectl *rc, const struct qp_filter *f)
{
	struct qp_rows a = { 0 }, b = { 0 }, *cur = &a, *prev = &b, *t;
	double t0, t1;
	unsigned int round = 0;
	bool tty = isatty(STDOUT_FILENO) && !out_is_json();
	int err;
	size_t i;

	stop_on_signals(watch_on_signal);

	sort_rates = true;
	err = collect(rc, f, prev);
	t0 = now_s();
	while (!err && !watch_stop && (!f->count || round < f->count)) {
		struct timespec ts = { f->interval_ms / 1000, (f->interval_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		if (watch_stop)
			break;
		err = collect(rc, f, cur);
		t1 = now_s();
		if (err)
			break;
		compute_rates(cur, prev, t1 - t0);
		qsort(cur->row, cur->n, sizeof(*cur->row), row_cmp);
		if (tty)
			out_text("\033[H\033[2J");
		out_open_object(NULL);
		out_uint("interval_ms", NULL, (uint64_t)((t1 - t0) * 1000 + 0.5));
		out_text("rocectl qp stats: %zu QPs, per second over %.1f s, by %s\n",
			 cur->n, t1 - t0, qp_stat_names[QP_STAT_FIRST + sort_index]);
		out_open_array("qps");
		for (i = 0; i < cur->n; i++)
			print_row(&cur->row[i], true, NULL);
		out_close_array();
		out_close_object();
		out_flush();
		t = prev, prev = cur, cur = t;
		t0 = t1;
		round++;
	}
	free(a.row);
	free(b.row);
	return err;
}

/* One dump of the bound hardware counters per device the rows show. */
static void collect_hw(const struct qp_rows *rows, struct qpc_list *hw)
{
	struct qpc_dev *devs = calloc(rows->n ? rows->n : 1, sizeof(*devs));
	size_t i, j, n = 0;

	if (!devs)
		return;
	for (i = 0; i < rows->n; i++) {
		for (j = 0; j < n && devs[j].index != rows->row[i].dev_index; j++)
			;
		if (j == n)
			devs[n++] = (struct qpc_dev){ rows->row[i].dev_index, rows->row[i].ifname };
	}
	qpc_collect(devs, n, hw);
	free(devs);
}

static int qp_stats(struct rocectl *rc)
{
	struct qp_rows rows = { 0 };
	struct qpc_list hw = { 0 };
	struct qp_filter f;
	int err = parse_filter(rc, &f, QP_CMD_STATS);
	size_t i;

	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	sort_index = f.sort ? f.sort - QP_STAT_FIRST : 0;
	if (f.watch)
		return qp_watch(rc, &f);

	sort_rates = false;
	err = collect(rc, &f, &rows);
	if (!err) {
		collect_hw(&rows, &hw);
		hw_binds = qp_hw_cong_kernel_binds(NULL);
		/* Hardware QPs sort by their counter sets' congestion counts. */
		for (i = 0; i < rows.n; i++)
			if (!rows.row[i].has_stats)
				qp_hw_cong_values(qpc_find(&hw, rows.row[i].dev_index, rows.row[i].port,
							   rows.row[i].qpn), rows.row[i].v);
		if (f.sort)
			qsort(rows.row, rows.n, sizeof(*rows.row), row_cmp);
		out_begin_list();
		for (i = 0; i < rows.n; i++)
			print_row(&rows.row[i], false, &hw);
		out_end_list();
	}
	qpc_list_free(&hw);
	free(rows.row);
	return err;
}

static int qp_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl qp show [ FILTER ]\n"
	       "       rocectl qp stats [ FILTER ] [ sort COUNTER ] [ watch [ SECONDS ] [ count N ] ]\n"
	       "       rocectl qp errors [ dev DEV ]\n"
	       "       rocectl qp path [ FILTER ] [ rate N ] [ max-hops N ] [ wait MS ]\n"
	       "                       [ links [ window SECONDS ] ]\n"
	       "%s"
	       "FILTER := [ dev DEV ] [ qpn N ] [ pid PID ] [ port N ] [ type TYPE ] [ state STATE ]\n"
	       "          [ pod NAME ] [ namespace NS ] [ job ID ]\n"
	       "TYPE := { RC | UC | UD | GSI | SMI | RAW_PACKET | XRC_INI | XRC_TGT | DRIVER | devx }\n"
	       "STATE := { RESET | INIT | RTR | RTS | SQD | SQE | ERR }\n"
	       "COUNTER := { tx_packets | tx_bytes | rx_packets | rx_bytes | rx_ecn_ce | rx_cnp |\n"
	       "             tx_cnp | rx_becn | rx_nak_seq | tx_nak_seq | rx_rnr_nak | tx_rnr_nak |\n"
	       "             tx_retrans | rx_dup | rx_out_of_seq }\n"
	       "Counters come from the packets the module sees (soft-RoCE); a QP\n"
	       "whose packets it does not see shows \"counters none\". A QP bound to a\n"
	       "hardware counter (qp counters bind, mlx5) also shows that counter's\n"
	       "values, labelled \"hw counter ID (driver)\".\n"
	       "qp errors lists the last QP failures the module recorded, oldest\n"
	       "first, destroyed QPs' included: cause { modify | fatal | req-err |\n"
	       "access-err | driver }, the QP's last states and its counters then.\n"
	       "qp path (root) traces each connected RC/UC QP's hops with probes carrying\n"
	       "its headers: at most rate probes a second (10), max-hops (16), wait ms\n"
	       "for each reply (1000). links: the links the QPs cross and the one their\n"
	       "CE/CNP marks of a window (10 s; 0: since creation) come from, or why none.\n",
	       qpc_usage);
	return EXIT_OK;
}

static const struct cmd qp_cmds[] = {
	{ "show", qp_show },
	{ "list", qp_show },
	{ "stats", qp_stats },
	{ "counters", qp_counters },
	{ "errors", qp_errors },
	{ "path", qp_path_cmd },
	{ "help", qp_help },
	{ NULL, NULL },
};

int cmd_qp(struct rocectl *rc)
{
	return dispatch(rc, "qp", qp_cmds);
}
