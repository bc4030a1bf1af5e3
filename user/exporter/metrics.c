// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl's metrics: each scrape reads the module afresh (metrics_read.c),
 * keeps the QP sums across scrapes (metrics_sums.c) and writes them here
 * in Prometheus' format (prom.c escapes and frames).
 *
 * Per-QP counters are summed per (device, port, comm): a label per QP
 * would make a series per QP, unbounded as QPs come and go by the
 * thousand. The sums stay counters (they never go down): a QP's counts
 * do not leave its sum when it is destroyed, because the module's destroy
 * event carries its final counters, and the exporter, subscribed to the
 * events, adds them to what its group has retired. The N busiest QPs by
 * one counter are also shown one by one, N bounded.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "metrics.h"
#include "metrics_owners.h"
#include "metrics_read.h"
#include "metrics_sums.h"
#include "metrics_workloads.h"
#include "qp/qp_fields.h"
#include "qp/qp_hw_cong.h"
#include "qp/workload.h"
#include "watchdog/watchdog.h"

#define L(n, v) { .name = (n), .value = (v) }

/* One family of a port list's values, labelled with the port and the value's name. */
static void write_port_list(struct prom *p, const struct snapshot *s, int list,
			    const char *name, enum prom_type type, const char *help,
			    const char *label)
{
	char port[12];
	size_t i, j;

	prom_family(p, name, type, help);
	for (i = 0; i < s->nports; i++) {
		const struct kvs *l = &s->ports[i].lists[list];

		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		for (j = 0; j < l->n; j++) {
			struct prom_label lb[] = { L("device", s->ports[i].dev), L("port", port),
						   L(label, l->v[j].name) };

			prom_u64(p, lb, 3, l->v[j].v);
		}
	}
}

static void write_ports(struct prom *p, const struct snapshot *s)
{
	char port[12];
	size_t i;

	prom_family(p, "rocectl_port_state", PROM_GAUGE,
		    "The RDMA port's state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER.");
	for (i = 0; i < s->nports; i++) {
		const struct port *q = &s->ports[i];
		struct prom_label l[] = { L("device", q->dev), L("port", port), L("netdev", q->netdev) };

		snprintf(port, sizeof(port), "%u", q->port);
		if (q->state >= 0)
			prom_u64(p, l, 3, q->state);
	}
	prom_family(p, "rocectl_port_active_mtu_bytes", PROM_GAUGE,
		    "The RDMA port's active MTU (path MTU of its RoCE packets), 0 if unknown.");
	for (i = 0; i < s->nports; i++) {
		struct prom_label l[] = { L("device", s->ports[i].dev), L("port", port) };

		snprintf(port, sizeof(port), "%u", s->ports[i].port);
		prom_u64(p, l, 2, s->ports[i].active_mtu);
	}
	write_port_list(p, s, PORT_HW, "rocectl_port_driver_stat", PROM_COUNTER,
			"The RDMA driver's own port counters, as rdma statistic show lists them.",
			"counter");
	write_port_list(p, s, PORT_DCQCN_PARAMS, "rocectl_dcqcn_parameter", PROM_GAUGE,
			"DCQCN parameters of the port, read from the NIC's firmware by its backend.",
			"parameter");
	write_port_list(p, s, PORT_DCQCN_STATS, "rocectl_dcqcn_stat", PROM_COUNTER,
			"Congestion counters of the port, read from the NIC by its backend.",
			"counter");
}

static void write_watchdog(struct prom *p, const struct snapshot *s)
{
	static const struct {
		const char *name, *help;
		size_t off;
		enum prom_type type;
	} fields[] = {
		{ "rocectl_watchdog_pfc_held", "1 while the watchdog holds the priority's PFC cleared (forward).",
		  offsetof(struct prio, held), PROM_GAUGE },
		{ "rocectl_watchdog_storms", "PFC storms detected on the priority.",
		  offsetof(struct prio, storms), PROM_COUNTER },
		{ "rocectl_watchdog_restores", "Storms the watchdog saw end and restored.",
		  offsetof(struct prio, restores), PROM_COUNTER },
		{ "rocectl_watchdog_actions", "Actions taken on storms (PFC cleared or set back).",
		  offsetof(struct prio, actions), PROM_COUNTER },
		{ "rocectl_watchdog_actions_failed", "Actions the driver refused.",
		  offsetof(struct prio, actions_failed), PROM_COUNTER },
		{ "rocectl_watchdog_conflicts", "PFC changes by others found while the watchdog held the priority.",
		  offsetof(struct prio, conflicts), PROM_COUNTER },
	};
	unsigned int k;
	size_t i, f;

	prom_family(p, "rocectl_watchdog_state", PROM_GAUGE,
		    "The watched priority's state: 1 for the state it is in, 0 for the others.");
	for (i = 0; i < s->nprios; i++) {
		const struct prio *w = &s->prios[i];

		for (k = 0; k < WD_NSTATES; k++) {
			struct prom_label l[] = { L("netdev", w->netdev), L("prio", w->prio),
						  L("direction", w->direction),
						  L("state", wd_state_name(k)) };

			prom_u64(p, l, 4, w->state == (int)k);
		}
	}
	for (f = 0; f < ARRAY_SIZE(fields); f++) {
		prom_family(p, fields[f].name, fields[f].type, fields[f].help);
		for (i = 0; i < s->nprios; i++) {
			const struct prio *w = &s->prios[i];
			const char *at = (const char *)w + fields[f].off;
			struct prom_label l[] = { L("netdev", w->netdev), L("prio", w->prio),
						  L("direction", w->direction) };

			prom_u64(p, l, 3, fields[f].type == PROM_GAUGE ? *(const bool *)at :
				 *(const uint64_t *)at);
		}
	}
	prom_family(p, "rocectl_nic_stall_warnings", PROM_COUNTER,
		    "Warnings of the NIC's stall prevention: its receive path stalled near the limit (nic-stall-prevention) past which it stops sending pause.");
	for (i = 0; i < s->nstalls; i++) {
		struct prom_label l[] = { L("netdev", s->stalls[i].netdev) };

		prom_u64(p, l, 1, s->stalls[i].warnings);
	}
	prom_family(p, "rocectl_nic_stall_errors", PROM_COUNTER,
		    "Trips of the NIC's stall prevention: its receive path stalled past the limit and it stopped sending pause (the host does not take what it receives).");
	for (i = 0; i < s->nstalls; i++) {
		struct prom_label l[] = { L("netdev", s->stalls[i].netdev) };

		prom_u64(p, l, 1, s->stalls[i].errors);
	}
	prom_family(p, "rocectl_watchdog_storm_affected_qps", PROM_GAUGE,
		    "QPs whose traffic maps to the priority on the netdev in its current or last storm: at its detection, and those created during it.");
	for (i = 0; i < s->nprios; i++) {
		struct prom_label l[] = { L("netdev", s->prios[i].netdev), L("prio", s->prios[i].prio),
					  L("direction", s->prios[i].direction) };

		if (s->prios[i].has_blast)
			prom_u64(p, l, 3, s->prios[i].blast_qps);
	}
	prom_family(p, "rocectl_watchdog_storm_affected_processes", PROM_GAUGE,
		    "Processes owning those QPs (kernel users count as one each).");
	for (i = 0; i < s->nprios; i++) {
		struct prom_label l[] = { L("netdev", s->prios[i].netdev), L("prio", s->prios[i].prio),
					  L("direction", s->prios[i].direction) };

		if (s->prios[i].has_blast)
			prom_u64(p, l, 3, s->prios[i].blast_procs);
	}
	prom_family(p, "rocectl_watchdog_storm_seconds", PROM_COUNTER,
		    "Time the priority spent in storms, all storms.");
	for (i = 0; i < s->nprios; i++) {
		struct prom_label l[] = { L("netdev", s->prios[i].netdev), L("prio", s->prios[i].prio),
					  L("direction", s->prios[i].direction) };

		prom_double(p, l, 3, s->prios[i].storm_ms / 1000.0);
	}
}

static int top_by;

/* Whether hardware QP q's counter set gave counter k (QP_STAT_FIRST-based). */
static bool hw_cong_has(const struct qp *q, unsigned int k)
{
	size_t i;

	for (i = 0; i < QP_HW_CONG_N; i++)
		if ((q->hw_cong & (1u << i)) && qp_hw_cong_names[i].stat - QP_STAT_FIRST == k)
			return true;
	return false;
}

static int busier(const void *a, const void *b)
{
	const struct qp *x = *(const struct qp *const *)a, *y = *(const struct qp *const *)b;

	if (x->v[top_by] != y->v[top_by])
		return x->v[top_by] > y->v[top_by] ? -1 : 1;
	return metrics_qp_cmp(x, y);
}

/* What no QP's counters hold: packets no counting QP took, packets not seen. */
static void write_unattributed(struct prom *p, const struct snapshot *s)
{
	static const int stats[] = {
		ROCECTL_A_QP_STAT_TX_PACKETS, ROCECTL_A_QP_STAT_TX_BYTES,
		ROCECTL_A_QP_STAT_RX_PACKETS, ROCECTL_A_QP_STAT_RX_BYTES,
		ROCECTL_A_QP_STAT_RX_ECN_CE,
	};
	char name[96], help[200];
	unsigned int k;
	size_t i;

	for (k = 0; k < ARRAY_SIZE(stats); k++) {
		int j = stats[k] - ROCECTL_A_QP_STAT_TX_PACKETS;

		snprintf(name, sizeof(name), "rocectl_device_unattributed_%s", qp_stat_name(j));
		snprintf(help, sizeof(help),
			 "The device's packets no counting QP took (%s): unknown or destroyed QPN, QP before RTR (soft-RoCE).",
			 qp_stat_name(j));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < s->naccts; i++) {
			struct prom_label l[] = { L("device", s->accts[i].dev) };

			prom_u64(p, l, 1, s->accts[i].unattributed[j]);
		}
	}
	if (s->has_hook_missed) {
		prom_family(p, "rocectl_qp_hook_missed", PROM_COUNTER,
			    "Calls of the RDMA core's QP verbs the module's hooks missed (more in progress at once than it follows), all devices: the QPs live then are marked incomplete.");
		prom_u64(p, NULL, 0, s->qp_hook_missed);
	}
	prom_family(p, "rocectl_devx_commands_missed", PROM_COUNTER,
		    "QP commands of DevX user contexts the module could not follow on a hardware device (more in the firmware at once than its backend follows, module parameter devx_instances): its DevX QPs live then are marked incomplete, a missed create's QP is not listed.");
	for (i = 0; i < s->ndevx; i++) {
		struct prom_label l[] = { L("device", s->devx[i].dev) };

		prom_u64(p, l, 1, s->devx[i].missed);
	}
	if (!s->has_unseen)
		return;
	prom_family(p, "rocectl_packets_unseen", PROM_COUNTER,
		    "Soft-RoCE packets the module took but could not read, all devices: packets still in segments, headers too short to parse.");
	prom_u64(p, NULL, 0, s->unseen);
	prom_family(p, "rocectl_loopback_probe_missed", PROM_COUNTER,
		    "Hits of the soft-RoCE loopback probe the kernel skipped (another probe ran on the CPU), all devices: a loopback packet each goes uncounted.");
	prom_u64(p, NULL, 0, s->probe_missed);
}

/* A group's port label: empty for the module's "other" group (any port). */
/*
 * QP failures per device, command name and cause: counters that never go
 * back. Every record the module's ring took is in one count, so the
 * records it overwrote are the counts' sum past its size.
 */
static void write_qp_errors(struct prom *p, const struct snapshot *s, bool owners)
{
	struct qp_err_count *errs = s->errs, *folded = NULL;
	size_t i, nerrs = s->nerrs;
	uint64_t total = 0;

	if (!owners) {
		if (!owners_fold_errors(s->errs, s->nerrs, &folded, &nerrs))
			return;
		errs = folded;
	}
	prom_family(p, "rocectl_qp_errors", PROM_COUNTER,
		    "QP failures the module recorded, by device, owner's command name and cause (modify, fatal, req-err, access-err, driver); device and comm \"other\" past its bound on groups (error_groups).");
	for (i = 0; i < nerrs; i++) {
		const struct qp_err_count *c = &errs[i];
		struct prom_label l[] = { L("device", c->other ? "other" : c->dev),
					  L("comm", c->other ? "other" : c->comm),
					  L("cause", qp_error_cause_name(c->cause)) };

		prom_u64(p, l, 3, c->count);
		total += c->count;
	}
	free(folded);
	if (!s->err_records)
		return;
	prom_family(p, "rocectl_qp_error_records_overwritten", PROM_COUNTER,
		    "QP failure records the module's ring (error_records) lost to newer ones.");
	prom_u64(p, NULL, 0, total > s->err_records ? total - s->err_records : 0);
}

static void group_port(const struct group *g, char *port, size_t len)
{
	if (g->other)
		port[0] = '\0';
	else
		snprintf(port, len, "%u", g->port);
}

static void set_wait_sample(struct prom *p, const char *dev, const char *why, uint64_t n)
{
	struct prom_label l[] = { L("device", dev), L("reason", why) };

	prom_u64(p, l, 2, n);
}

/* Every device, once: the QPs a running follow waits to give a set (0: none). */
static void write_set_waits(struct prom *p, const struct snapshot *s)
{
	const struct set_wait *w;
	size_t i, j;

	prom_family(p, "rocectl_qp_hw_set_waiting_qps", PROM_GAUGE,
		    "QPs a running qp counters follow waits to give a hardware counter set, per device and why: full (the device has none left) or max (the policy's cap).");
	for (i = 0; i < s->nports; i++) {
		for (j = 0; j < i && strcmp(s->ports[j].dev, s->ports[i].dev); j++)
			;
		if (j < i)
			continue;
		for (j = 0, w = NULL; j < s->nwaits && !w; j++)
			if (!strcmp(s->waits[j].dev, s->ports[i].dev))
				w = &s->waits[j];
		set_wait_sample(p, s->ports[i].dev, "full", w ? w->full : 0);
		set_wait_sample(p, s->ports[i].dev, "max", w ? w->max : 0);
	}
}

/* A workload's cgroup label: its path, or its id where the path is not found. */
static void workload_label(const struct workload_view *v, uint64_t id, char *buf, size_t len)
{
	if (v->known)
		snprintf(buf, len, "%s", v->path);
	else
		snprintf(buf, len, "id:%llu", (unsigned long long)id);
}

/* Per (device, Slurm job): the job's workloads added up (metrics_workloads.h). */
static void write_jobs(struct prom *p)
{
	char name[96], help[256], job[24];
	const struct job_sum *j;
	size_t i, n;
	unsigned int k;

	j = job_sums(&n);
	prom_family(p, "rocectl_job_qps", PROM_GAUGE, "Live QPs per device and Slurm job (its steps' cgroups).");
	for (i = 0; i < n; i++) {
		struct prom_label l[] = { L("device", j[i].dev), L("job", job) };

		snprintf(job, sizeof(job), "%llu", (unsigned long long)j[i].job);
		prom_u64(p, l, 2, j[i].qps);
	}
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_job_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help),
			 "Per-QP %s summed over a Slurm job's QPs on a device (its workloads'), destroyed ones included (soft-RoCE).",
			 qp_stat_name(k));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < n; i++) {
			struct prom_label l[] = { L("device", j[i].dev), L("job", job) };

			snprintf(job, sizeof(job), "%llu", (unsigned long long)j[i].job);
			if (j[i].counted)
				prom_u64(p, l, 2, j[i].sum[k]);
		}
	}
}

/*
 * Per workload (the QPs' owners' cgroups): QP sums by (device, cgroup),
 * and one info series per cgroup naming its pod and container or its
 * Slurm job and step, to join on cgroup (metrics_workloads.h); then the
 * sums per job. The cgroup tree is walked again for each scrape:
 * containers and jobs come and go.
 */
static void write_workloads(struct prom *p, uint32_t family)
{
	char name[96], help[256], (*cg)[1100];
	const struct workload_sum *w;
	struct workload_view v;
	uint64_t *job;
	size_t i, j, n;
	unsigned int k;
	bool *has;

	workload_cgroup_forget();
	w = workload_sums(&n);
	cg = calloc(n ? n : 1, sizeof(*cg));
	job = calloc(n ? n : 1, sizeof(*job));
	has = calloc(n ? n : 1, sizeof(*has));
	if (!cg || !job || !has) {
		free(cg);
		free(job);
		free(has);
		return;
	}
	prom_family(p, "rocectl_workload_info", PROM_GAUGE,
		    "1 per workload: a cgroup (v2) owning QPs, its Kubernetes pod (namespace, name, UID) and container or its Slurm job and step, from the cgroup's path and the kubelet's /var/log/pods; empty where not known.");
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && w[j].cgroup != w[i].cgroup; j++)
			;
		if (j < i) {	/* one per cgroup, whatever its devices */
			memcpy(cg[i], cg[j], sizeof(cg[i]));
			job[i] = job[j];
			has[i] = has[j];
			continue;
		}
		workload_view(w[i].cgroup, &v);
		workload_label(&v, w[i].cgroup, cg[i], sizeof(cg[i]));
		/* At most 10 digits (struct workload). */
		has[i] = v.w.job[0];
		job[i] = strtoull(v.w.job, NULL, 10);
		{
			struct prom_label l[] = { L("cgroup", cg[i]), L("namespace", v.ns), L("pod", v.pod),
						  L("pod_uid", v.w.pod_uid), L("container", v.w.container),
						  L("container_runtime", v.w.runtime), L("job", v.w.job),
						  L("step", v.w.step) };

			/* job and step on a job's alone (an empty label is none). */
			prom_u64(p, l, has[i] ? 8 : 6, 1);
		}
	}
	prom_family(p, "rocectl_workload_qps", PROM_GAUGE, "Live QPs per device and workload (cgroup).");
	for (i = 0; i < n; i++) {
		struct prom_label l[] = { L("device", w[i].dev), L("cgroup", cg[i]) };

		prom_u64(p, l, 2, w[i].qps);
	}
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_workload_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help),
			 "Per-QP %s summed over a workload's (cgroup's) QPs on a device, destroyed ones included (soft-RoCE); join rocectl_workload_info on cgroup.",
			 qp_stat_name(k));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < n; i++) {
			struct prom_label l[] = { L("device", w[i].dev), L("cgroup", cg[i]) };

			if (w[i].counted)
				prom_u64(p, l, 2, w[i].sum[k]);
		}
	}
	if (job_sums_update(family, job, has))
		write_jobs(p);
	free(cg);
	free(job);
	free(has);
}

static void write_qps(struct prom *p, const struct snapshot *s, const struct metrics_opts *o,
		      uint32_t family)
{
	char port[12], qpn[12], pid[12], prio[12], sport[8], name[96], help[256];
	struct group *folded = NULL;
	const struct group *groups;
	const struct qp **top;
	size_t i, n = 0, ngroups;
	unsigned int k;

	groups = sums_groups(&ngroups);
	if (!o->owners) {
		if (!owners_fold_groups(family, groups, ngroups, &folded, &ngroups))
			return;
		groups = folded;
	}
	prom_family(p, "rocectl_qps", PROM_GAUGE,
		    "Live QPs by device, port, owner's command name and state.");
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];

		group_port(g, port, sizeof(port));
		for (k = 0; k < NQP_STATES; k++) {
			struct prom_label l[] = { L("device", g->dev), L("port", port),
						  L("comm", g->comm), L("state", qp_state_name(k)) };

			if (g->qps[k])
				prom_u64(p, l, 4, g->qps[k]);
		}
	}
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help),
			 "Per-QP %s summed over the QPs of a device, port and command name, destroyed ones included (soft-RoCE).",
			 qp_stat_name(k));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < ngroups; i++) {
			const struct group *g = &groups[i];
			struct prom_label l[] = { L("device", g->dev), L("port", port), L("comm", g->comm) };

			group_port(g, port, sizeof(port));
			if (g->counted)
				prom_u64(p, l, 3, g->sum[k]);
		}
	}

	free(folded);
	write_set_waits(p, s);

	/* The busiest live QPs, one by one. */
	top = calloc(s->nqps ? s->nqps : 1, sizeof(*top));
	if (!top)
		return;
	for (i = 0; i < s->nqps; i++)
		if (s->qps[i].counted || s->qps[i].hw_cong)
			top[n++] = &s->qps[i];
	top_by = o->top_by;
	qsort(top, n, sizeof(*top), busier);
	if (n > o->top)
		n = o->top;
	for (k = 0; k < QP_NSTATS; k++) {
		snprintf(name, sizeof(name), "rocectl_top_qp_%s", qp_stat_name(k));
		snprintf(help, sizeof(help),
			 "Per-QP %s of the %u live QPs with the most %s (source: module, or hardware: the QP's counter set).",
			 qp_stat_name(k), o->top, qp_stat_name(o->top_by));
		prom_family(p, name, PROM_COUNTER, help);
		for (i = 0; i < n; i++) {
			struct prom_label l[] = { L("device", top[i]->dev), L("port", port),
						  L("qpn", qpn), L("pid", pid), L("comm", top[i]->comm),
						  L("prio", prio),
						  L("prio_source", top[i]->prio < 0 ? "" :
						    top[i]->prio_source),
						  L("sport", sport),
						  L("source", top[i]->counted ? QP_SOURCE :
						    QP_HW_CONG_SOURCE) };

			/* A hardware QP has only its counter set's congestion counts. */
			if (!top[i]->counted && !hw_cong_has(top[i], k))
				continue;
			if (top[i]->prio < 0)
				prio[0] = '\0';
			else
				snprintf(prio, sizeof(prio), "%d", top[i]->prio);
			snprintf(port, sizeof(port), "%u", top[i]->port);
			snprintf(qpn, sizeof(qpn), "%u", top[i]->qpn);
			if (top[i]->sport)
				snprintf(sport, sizeof(sport), "%u", top[i]->sport);
			else
				sport[0] = '\0';
			if (top[i]->pid)
				snprintf(pid, sizeof(pid), "%u", top[i]->pid);
			else
				pid[0] = '\0';
			prom_u64(p, l, ARRAY_SIZE(l), top[i]->v[k]);
		}
	}
	free(top);
}

int metrics_counter(const char *name)
{
	unsigned int i;

	for (i = 0; i < QP_NSTATS; i++)
		if (!strcmp(name, qp_stat_name(i)))
			return i;
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void metrics_write(struct prom *p, const struct metrics_opts *o, struct metrics_health *h)
{
	struct snapshot s = { .ports = NULL };
	double t0 = now();
	bool up, failed = false;
	struct nl nl;

	h->scrapes++;
	/* Whatever a family passes, no owner's label unless asked for. */
	if (!o->owners)
		p->drop_label = owner_label;
	up = nl_open(&nl, true) == EXIT_OK;
	if (up) {
		failed |= !metrics_read_module(&nl, &s);
		failed |= !sums_update(nl.family_id, &s);
		if (o->owners)
			failed |= !workload_sums_update(nl.family_id, &s);
		failed |= !metrics_read_ports(&nl, &s);
		nl_close(&nl);
		write_ports(p, &s);
		write_watchdog(p, &s);
		write_qps(p, &s, o, nl.family_id);
		if (o->owners)
			write_workloads(p, nl.family_id);
		write_unattributed(p, &s);
		write_qp_errors(p, &s, o->owners);
	}
	if (failed)
		h->errors++;
	h->qps_interrupted += s.qps_interrupted;
	metrics_snapshot_free(&s);

	prom_family(p, "rocectl_up", PROM_GAUGE, "1 if the rocectl module answered this scrape, else 0.");
	prom_u64(p, NULL, 0, up);
	prom_family(p, "rocectl_scrapes", PROM_COUNTER, "Scrapes computed since the exporter started (requests within a second of one share it).");
	prom_u64(p, NULL, 0, h->scrapes);
	prom_family(p, "rocectl_scrape_errors", PROM_COUNTER,
		    "Scrapes in which a request to the kernel failed (the metrics of that part are missing).");
	prom_u64(p, NULL, 0, h->errors);
	prom_family(p, "rocectl_qp_sums_held", PROM_COUNTER,
		    "QP sums shown as high as before because a scrape read them lower (a QP destroyed between the module's two dumps, or missed by a dump QPs raced with).");
	prom_u64(p, NULL, 0, sums_held());
	prom_family(p, "rocectl_scrape_qp_dumps_interrupted", PROM_COUNTER,
		    "Scrapes whose QP dump raced with QPs coming and going: a QP may be missing from that scrape's live counts.");
	prom_u64(p, NULL, 0, h->qps_interrupted);
	prom_family(p, "rocectl_scrape_duration_seconds", PROM_GAUGE,
		    "Time this scrape took to read the kernel and write the metrics.");
	prom_double(p, NULL, 0, now() - t0);
	prom_end(p);
}
