// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl watchdog: the PFC storm watchdog of the module, per netdev and
 * priority: set, del, show, stats [check], big-red-switch.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/nl.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp/qp_fields.h"
#include "watchdog.h"

static const char *const actions[] = { "alert", "forward" };
static const char *const directions[] = { "rx", "tx", "both" };
static const char *const states[] = {
	"monitoring", "storm", "pfc-off", "suspended", "link-down",
};
static const char *const counter_sources[] = { "pause-duration", "pause-frames" };
static const char *const events[] = {
	"detect", "action", "action-failed", "restore", "conflict", "gone",
	"nic-stall-warning", "nic-stall-error",
};

const char *wd_event_name(unsigned int event)
{
	return name_of(events, ARRAY_SIZE(events), event);
}

const char *wd_state_name(unsigned int state)
{
	return name_of(states, ARRAY_SIZE(states), state);
}

const char *wd_direction_name(unsigned int direction)
{
	return name_of(directions, ARRAY_SIZE(directions), direction);
}

_Static_assert(ARRAY_SIZE(states) == WD_NSTATES, "WD_NSTATES: the watchdog's states");

static uint64_t u64_of(const struct nlattr *a)
{
	return a ? mnl_attr_get_u64(a) : 0;
}

/* What wd_print_owners() last gave: an event's owners, read by WD_GET. */
static const struct wd_owners *owners;

void wd_print_owners(const struct wd_owners *o)
{
	owners = o;
}

static unsigned int prio_of(const struct nlattr **tb)
{
	return tb[ROCECTL_A_WDP_PRIO] ? mnl_attr_get_u8(tb[ROCECTL_A_WDP_PRIO]) : ~0U;
}

static unsigned int dir_of(const struct nlattr **tb)
{
	return tb[ROCECTL_A_WDP_DIRECTION] ? mnl_attr_get_u8(tb[ROCECTL_A_WDP_DIRECTION]) : ~0U;
}

/*
 * A storm's blast radius: the QPs on the priority and their processes,
 * most bytes moved during the storm first. In a sent-pause storm the host
 * is the slow receiver: the processes receiving most are the likely cause.
 */
static void print_blast(const struct nlattr *nest, const struct nlattr **tb)
{
	const struct nlattr *b[ROCECTL_A_WDB_MAX + 1];
	bool rx = tb[ROCECTL_A_WDP_DIRECTION] &&
		  mnl_attr_get_u8(tb[ROCECTL_A_WDP_DIRECTION]) == ROCECTL_WD_DIR_TX;
	const struct nlattr *a;

	if (!tb[ROCECTL_A_WDP_BLAST_QPS])
		return;
	out_text("\n        ");
	out_uint("affected_qps", "affected: qps %" PRIu64 " ",
		 mnl_attr_get_u32(tb[ROCECTL_A_WDP_BLAST_QPS]));
	if (tb[ROCECTL_A_WDP_BLAST_PROCS])
		out_uint("affected_procs", "procs %" PRIu64 " ",
			 mnl_attr_get_u32(tb[ROCECTL_A_WDP_BLAST_PROCS]));
	/* QPs destroyed too fast to be read: their bytes are left out. */
	if (tb[ROCECTL_A_WDP_BLAST_LOST] && mnl_attr_get_u64(tb[ROCECTL_A_WDP_BLAST_LOST]))
		out_uint("affected_lost", "lost %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WDP_BLAST_LOST]));
	out_str("bytes_counted", "(bytes %s", rx ? "received" : "sent");
	if (rx) {
		out_bool("likely_slow_receivers", NULL, true);
		out_text("; likely slow receivers");
	}
	out_text(")");
	out_open_array("affected");
	mnl_attr_for_each_nested(a, nest) {
		const struct wd_owner *o = NULL;

		/* Neither pid nor place (a malformed nest): no process. */
		if (mnl_attr_get_type(a) != ROCECTL_A_WDP_BLAST_PROC ||
		    attrs_parse_wd_blast(a, b) < 0 ||
		    (!b[ROCECTL_A_WDB_PID] && !b[ROCECTL_A_WDB_SLOT]))
			continue;
		/* An event's user process: its owner as WD_GET showed it. */
		if (!b[ROCECTL_A_WDB_PID] && !b[ROCECTL_A_WDB_COMM] && owners &&
		    prio_of(tb) == owners->prio && dir_of(tb) == owners->direction &&
		    mnl_attr_get_u32(b[ROCECTL_A_WDB_SLOT]) < WD_SLOTS &&
		    owners->slot[mnl_attr_get_u32(b[ROCECTL_A_WDB_SLOT])].set)
			o = &owners->slot[mnl_attr_get_u32(b[ROCECTL_A_WDB_SLOT])];
		out_open_object(NULL);
		out_text("\n          ");
		if (b[ROCECTL_A_WDB_PID])
			out_uint("pid", "pid %" PRIu64 " ", mnl_attr_get_u32(b[ROCECTL_A_WDB_PID]));
		else if (o && o->has_pid)
			out_uint("pid", "pid %" PRIu64 " ", o->pid);
		if (b[ROCECTL_A_WDB_COMM])
			out_str("comm", "comm %s ", mnl_attr_get_str(b[ROCECTL_A_WDB_COMM]));
		else if (o && o->comm[0])
			out_str("comm", "comm %s ", o->comm);
		if (b[ROCECTL_A_WDB_QPS])
			out_uint("qps", "qps %" PRIu64 " ", mnl_attr_get_u32(b[ROCECTL_A_WDB_QPS]));
		/* None on hardware devices: the NIC counts their bytes. */
		if (b[ROCECTL_A_WDB_BYTES])
			out_uint("bytes", "bytes %" PRIu64 " ",
				 mnl_attr_get_u64(b[ROCECTL_A_WDB_BYTES]));
		/* Its cgroup: the container and pod the storm hurt. */
		if (b[ROCECTL_A_WDB_CGROUP])
			qp_print_workload(mnl_attr_get_u64(b[ROCECTL_A_WDB_CGROUP]));
		else if (o && o->cgroup)
			qp_print_workload(o->cgroup);
		out_close_object();
	}
	out_close_array();
}

static void print_prio(const struct nlattr *nest, bool stats)
{
	const struct nlattr *tb[ROCECTL_A_WDP_MAX + 1];

	if (attrs_parse_wd_prio(nest, tb) < 0 || !tb[ROCECTL_A_WDP_PRIO])
		return;
	out_open_object(NULL);
	out_text("\n    ");
	out_uint("prio", "prio %" PRIu64 " ", mnl_attr_get_u8(tb[ROCECTL_A_WDP_PRIO]));
	if (tb[ROCECTL_A_WDP_DIRECTION])
		out_str("direction", "%s ", name_of(directions, ARRAY_SIZE(directions),
						    mnl_attr_get_u8(tb[ROCECTL_A_WDP_DIRECTION])));
	if (tb[ROCECTL_A_WDP_STATE])
		out_str("state", "state %s ", name_of(states, ARRAY_SIZE(states),
						      mnl_attr_get_u8(tb[ROCECTL_A_WDP_STATE])));
	if (tb[ROCECTL_A_WDP_PFC_CLEARED])
		out_bool("pfc_cleared", "pfc_cleared %s ",
			 mnl_attr_get_u8(tb[ROCECTL_A_WDP_PFC_CLEARED]));
	out_uint("storms", "storms %" PRIu64 " ", u64_of(tb[ROCECTL_A_WDP_STORMS]));
	out_uint("restores", "restores %" PRIu64 " ", u64_of(tb[ROCECTL_A_WDP_RESTORES]));
	print_blast(nest, tb);
	if (!stats) {
		out_close_object();
		return;
	}
	out_text("\n        ");
	/* Storms are recent: the time of day says enough in text. */
	out_time("last_detect_ns", "last_detect", "%H:%M:%S",
		 u64_of(tb[ROCECTL_A_WDP_LAST_DETECT]));
	out_time("last_restore_ns", "last_restore", "%H:%M:%S",
		 u64_of(tb[ROCECTL_A_WDP_LAST_RESTORE]));
	out_uint("storm_ms", "storm_ms %" PRIu64 " ", u64_of(tb[ROCECTL_A_WDP_STORM_MS]));
	out_uint("last_storm_ms", "last_storm_ms %" PRIu64 " ",
		 u64_of(tb[ROCECTL_A_WDP_LAST_STORM_MS]));
	out_uint("last_storm_frames", "last_storm_frames %" PRIu64 " ",
		 u64_of(tb[ROCECTL_A_WDP_LAST_STORM_FRAMES]));
	out_text("\n        ");
	out_uint("actions", "actions %" PRIu64 " ", u64_of(tb[ROCECTL_A_WDP_ACTIONS]));
	out_uint("actions_failed", "actions_failed %" PRIu64 " ",
		 u64_of(tb[ROCECTL_A_WDP_ACTIONS_FAILED]));
	out_uint("conflicts", "conflicts %" PRIu64 " ", u64_of(tb[ROCECTL_A_WDP_CONFLICTS]));
	if (tb[ROCECTL_A_WDP_BACKOFF])
		out_uint("backoff", "backoff %" PRIu64 " ",
			 mnl_attr_get_u8(tb[ROCECTL_A_WDP_BACKOFF]));
	out_close_object();
}

void wd_print_fields(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     bool stats)
{
	const struct nlattr *a;

	if (tb[ROCECTL_A_NETDEV_INDEX])
		out_uint("ifindex", NULL, mnl_attr_get_u32(tb[ROCECTL_A_NETDEV_INDEX]));
	if (tb[ROCECTL_A_NETDEV_NAME])
		out_str("ifname", "%s: ", mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]));
	if (tb[ROCECTL_A_WD_EVENT])
		out_str("event", "%s ", wd_event_name(mnl_attr_get_u8(tb[ROCECTL_A_WD_EVENT])));
	if (tb[ROCECTL_A_WD_EV_WINDOW_US])
		out_uint("window_us", "window_us %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WD_EV_WINDOW_US]));
	if (tb[ROCECTL_A_WD_EV_PAUSE_US])
		out_uint("pause_us", "pause_us %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WD_EV_PAUSE_US]));
	if (tb[ROCECTL_A_WD_EV_FRAMES])
		out_uint("frames", "frames %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WD_EV_FRAMES]));
	if (tb[ROCECTL_A_WD_DETECT_MS])
		out_uint("detect_ms", "detect %" PRIu64 "ms ",
			 mnl_attr_get_u32(tb[ROCECTL_A_WD_DETECT_MS]));
	if (tb[ROCECTL_A_WD_RESTORE_MS])
		out_uint("restore_ms", "restore %" PRIu64 "ms ",
			 mnl_attr_get_u32(tb[ROCECTL_A_WD_RESTORE_MS]));
	if (tb[ROCECTL_A_WD_INTERVAL_MS])
		out_uint("interval_ms", "interval %" PRIu64 "ms ",
			 mnl_attr_get_u32(tb[ROCECTL_A_WD_INTERVAL_MS]));
	if (tb[ROCECTL_A_WD_ACTION])
		out_str("action", "action %s ", name_of(actions, ARRAY_SIZE(actions),
							mnl_attr_get_u8(tb[ROCECTL_A_WD_ACTION])));
	if (tb[ROCECTL_A_WD_DIRECTION])
		out_str("direction", "direction %s ",
			name_of(directions, ARRAY_SIZE(directions),
				mnl_attr_get_u8(tb[ROCECTL_A_WD_DIRECTION])));
	if (tb[ROCECTL_A_WD_COUNTERS])
		out_str("counters", "counters %s ",
			name_of(counter_sources, ARRAY_SIZE(counter_sources),
				mnl_attr_get_u8(tb[ROCECTL_A_WD_COUNTERS])));
	if (tb[ROCECTL_A_WD_STALL_MS]) {
		uint16_t ms = mnl_attr_get_u16(tb[ROCECTL_A_WD_STALL_MS]);

		if (out_is_json())
			out_uint("nic_stall_prevention_ms", NULL, ms);
		else if (ms)
			out_text("nic-stall-prevention %ums ", ms);
		else
			out_text("nic-stall-prevention off ");
	}
	if (tb[ROCECTL_A_WD_STALL_WARNINGS])
		out_uint("nic_stall_warnings", "nic_stall_warnings %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WD_STALL_WARNINGS]));
	if (tb[ROCECTL_A_WD_STALL_ERRORS])
		out_uint("nic_stall_errors", "nic_stall_errors %" PRIu64 " ",
			 mnl_attr_get_u64(tb[ROCECTL_A_WD_STALL_ERRORS]));
	if (tb[ROCECTL_A_BACKEND])
		out_str("backend", "backend %s ", mnl_attr_get_str(tb[ROCECTL_A_BACKEND]));
	/* Unregistered while holding PFC the driver would not set back. */
	if (tb[ROCECTL_A_WD_NETDEV_GONE] && mnl_attr_get_u8(tb[ROCECTL_A_WD_NETDEV_GONE]))
		out_bool("netdev_gone", "netdev_gone %s ", true);
	if (tb[ROCECTL_A_WD_BRS] && mnl_attr_get_u8(tb[ROCECTL_A_WD_BRS]))
		out_bool("big_red_switch", "big_red_switch %s ", true);
	out_open_array("prios");
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0)
			print_prio(a, stats);
	}
	out_close_array();
}

/* --- an event's owners, read as the listener ------------------------------------ */

/* The prio nest of a message whose priority and direction are o's. */
static const struct nlattr *owners_prio(const struct nlmsghdr *nlh, const struct wd_owners *o,
				       const struct nlattr **p)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0 &&
		    attrs_parse_wd_prio(a, p) >= 0 &&
		    prio_of(p) == o->prio && dir_of(p) == o->direction)
			return a;
	}
	return NULL;
}

static int owners_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *p[ROCECTL_A_WDP_MAX + 1], *b[ROCECTL_A_WDB_MAX + 1];
	const struct nlattr *nest, *a;
	struct wd_owners *o = data;
	struct wd_owner *w;
	uint32_t slot;

	/* Another storm since the event has a table of its own. */
	nest = owners_prio(nlh, o, p);
	if (!nest || !p[ROCECTL_A_WDP_LAST_DETECT] ||
	    mnl_attr_get_u64(p[ROCECTL_A_WDP_LAST_DETECT]) != o->detect)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) != ROCECTL_A_WDP_BLAST_PROC ||
		    attrs_parse_wd_blast(a, b) < 0 || !b[ROCECTL_A_WDB_SLOT])
			continue;
		slot = mnl_attr_get_u32(b[ROCECTL_A_WDB_SLOT]);
		if (slot >= WD_SLOTS)
			continue;
		w = &o->slot[slot];
		w->set = true;
		w->has_pid = b[ROCECTL_A_WDB_PID];
		w->pid = w->has_pid ? mnl_attr_get_u32(b[ROCECTL_A_WDB_PID]) : 0;
		if (b[ROCECTL_A_WDB_COMM])
			snprintf(w->comm, sizeof(w->comm), "%s",
				 mnl_attr_get_str(b[ROCECTL_A_WDB_COMM]));
		w->cgroup = b[ROCECTL_A_WDB_CGROUP] ? mnl_attr_get_u64(b[ROCECTL_A_WDB_CGROUP]) : 0;
	}
	return MNL_CB_OK;
}

int wd_event_owners(struct nl *nl, const struct nlattr **tb, struct wd_owners *o)
{
	const struct nlattr *p[ROCECTL_A_WDP_MAX + 1];
	struct nlmsghdr *req;
	struct nl_error e;

	memset(o, 0, sizeof(*o));
	if (!tb[ROCECTL_A_NETDEV_INDEX] || !tb[ROCECTL_A_WD_PRIO] ||
	    attrs_parse_wd_prio(tb[ROCECTL_A_WD_PRIO], p) < 0 ||
	    !p[ROCECTL_A_WDP_BLAST_PROC] || !p[ROCECTL_A_WDP_LAST_DETECT])
		return -1;
	o->detect = mnl_attr_get_u64(p[ROCECTL_A_WDP_LAST_DETECT]);
	o->prio = prio_of(p);
	o->direction = dir_of(p);
	req = nl_request(nl, ROCECTL_CMD_WD_GET, 0);
	mnl_attr_put_u32(req, ROCECTL_A_NETDEV_INDEX,
			 mnl_attr_get_u32(tb[ROCECTL_A_NETDEV_INDEX]));
	return nl_run_once(nl, req, owners_cb, o, &e) ? -1 : 0;
}

/* --- the command line -------------------------------------------------------- */

struct wd_args {
	const char *dev;
	uint32_t port;
	uint8_t prios;
	uint32_t detect, restore, interval;
	int stall;	/* -1: not given */
	int action, direction;
	bool has_port, has_detect, has_restore, has_interval, check;
};

/* "3", "3,4", "0-7" or "all": a bit per priority. */
static int parse_prios(const char *s, uint8_t *mask)
{
	char *copy, *tok, *save = NULL;
	uint32_t a, b;
	int err = 0;

	if (!strcmp(s, "all")) {
		*mask = 0xff;
		return 0;
	}
	copy = strdup(s);
	if (!copy)
		return -1;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');

		if (dash)
			*dash = '\0';
		if (parse_u32(tok, &a) || (dash && parse_u32(dash + 1, &b))) {
			pr_err("Error: priorities are numbers from 0 to 7 (\"3\", \"3,4\", \"0-7\" or \"all\"), not \"%s\".\n", s);
			err = -1;
		} else if (a > 7 || (dash && (b > 7 || b < a))) {
			pr_err("Error: priority %u is out of range: priorities are 0 to 7.\n",
				dash && b > 7 ? b : a);
			err = -1;
		} else {
			for (b = dash ? b : a; a <= b; a++)
				*mask |= 1U << a;
		}
	}
	free(copy);
	return err;
}

static int parse_ms(struct rocectl *rc, const char *what, uint32_t *v)
{
	const char *s = arg_next(rc);

	if (s && !parse_u32(s, v))
		return EXIT_OK;
	pr_err("Error: %s takes a time in milliseconds, not \"%s\".\n",
		what, s ? s : "");
	return EXIT_USAGE;
}

static int parse_word(struct rocectl *rc, const char *what, const char *const *names,
		      int n, int *v)
{
	const char *s = arg_next(rc);
	int i;

	for (i = 0; s && i < n; i++) {
		if (!strcmp(s, names[i])) {
			*v = i;
			return EXIT_OK;
		}
	}
	pr_err("Error: %s is one of", what);
	for (i = 0; i < n; i++)
		pr_err("%s %s", i ? "," : "", names[i]);
	pr_err("; not \"%s\".\n", s ? s : "");
	return EXIT_USAGE;
}

/* off, auto or 80..8000 ms: the ethtool tunable's encoding. */
static int parse_stall(struct rocectl *rc, int *v)
{
	const char *s = arg_next(rc);
	uint32_t ms;

	if (s && !strcmp(s, "off")) {
		*v = 0;
	} else if (s && !strcmp(s, "auto")) {
		*v = 0xffff;
	} else if (s && !parse_u32(s, &ms) && ms >= 80 && ms <= 8000) {
		*v = ms;
	} else {
		pr_err("Error: nic-stall-prevention is off, auto or 80..8000 (ms), not \"%s\".\n",
		       s ? s : "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int parse_args(struct rocectl *rc, struct wd_args *wa, const char *cmd,
		      bool settings)
{
	const char *w;
	int err = EXIT_OK;

	memset(wa, 0, sizeof(*wa));
	wa->action = wa->direction = wa->stall = -1;
	while (!err && (w = arg_next(rc))) {
		if (!strcmp(w, "dev")) {
			wa->dev = arg_next(rc);
			err = check_dev_name(wa->dev, "a netdev or RDMA device");
		} else if (!strcmp(w, "port")) {
			const char *s = arg_next(rc);

			if (!s || parse_u32(s, &wa->port)) {
				pr_err("Error: port takes a port number.\n");
				err = EXIT_USAGE;
			}
			wa->has_port = true;
		} else if ((settings || !strcmp(cmd, "del")) &&
			   (!strcmp(w, "prio") || !strcmp(w, "priority"))) {
			const char *s = arg_next(rc);

			err = !s || parse_prios(s, &wa->prios) ? EXIT_USAGE : EXIT_OK;
			if (!s)
				pr_err("Error: prio needs priorities, e.g. 3 or 3,4.\n");
		} else if (settings && !strcmp(w, "detect")) {
			err = parse_ms(rc, "detect", &wa->detect);
			wa->has_detect = true;
		} else if (settings && !strcmp(w, "restore")) {
			err = parse_ms(rc, "restore", &wa->restore);
			wa->has_restore = true;
		} else if (settings && !strcmp(w, "interval")) {
			err = parse_ms(rc, "interval", &wa->interval);
			wa->has_interval = true;
		} else if (settings && !strcmp(w, "action")) {
			err = parse_word(rc, "action", actions, ARRAY_SIZE(actions), &wa->action);
		} else if (settings && !strcmp(w, "nic-stall-prevention")) {
			err = parse_stall(rc, &wa->stall);
		} else if (settings && !strcmp(w, "direction")) {
			err = parse_word(rc, "direction", directions, ARRAY_SIZE(directions),
					 &wa->direction);
		} else if (!strcmp(cmd, "stats") && !strcmp(w, "check")) {
			wa->check = true;
		} else {
			pr_err("Error: unknown watchdog %s argument \"%s\": try \"rocectl watchdog help\".\n",
				cmd, w);
			err = EXIT_USAGE;
		}
	}
	if (!err && wa->has_port && !wa->dev) {
		pr_err("Error: port N needs dev DEV, the RDMA device it belongs to.\n");
		err = EXIT_USAGE;
	}
	return err;
}

/*
 * DEV is a netdev if one has that name, else an RDMA device. For a watch
 * that exists already (del, show), a name that is neither may still be a
 * netdev's that is gone, its watch holding PFC the driver would not set
 * back: the kernel answers for it by that name.
 */
static void put_target(struct nlmsghdr *nlh, const struct wd_args *wa, bool existing)
{
	char path[128], ibpath[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s", wa->dev);
	snprintf(ibpath, sizeof(ibpath), "/sys/class/infiniband/%s", wa->dev);
	if (!wa->has_port && (access(path, F_OK) == 0 ||
			      (existing && access(ibpath, F_OK) != 0))) {
		mnl_attr_put_strz(nlh, ROCECTL_A_NETDEV_NAME, wa->dev);
		return;
	}
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, wa->dev);
	if (wa->has_port)
		mnl_attr_put_u32(nlh, ROCECTL_A_WD_PORT, wa->port);
}

static int need_dev(const struct wd_args *wa, const char *cmd)
{
	if (wa->dev)
		return EXIT_OK;
	pr_err("Error: watchdog %s needs dev DEV (a netdev, or an RDMA device [port N]).\n",
		cmd);
	return EXIT_USAGE;
}

static int wd_set(struct rocectl *rc)
{
	struct nlmsghdr *nlh;
	struct wd_args wa;
	int err = parse_args(rc, &wa, "set", true);

	if (!err)
		err = need_dev(&wa, "set");
	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_WD_SET, 0);
	put_target(nlh, &wa, false);
	if (wa.prios)
		mnl_attr_put_u8(nlh, ROCECTL_A_WD_PRIOS, wa.prios);
	if (wa.has_detect)
		mnl_attr_put_u32(nlh, ROCECTL_A_WD_DETECT_MS, wa.detect);
	if (wa.has_restore)
		mnl_attr_put_u32(nlh, ROCECTL_A_WD_RESTORE_MS, wa.restore);
	if (wa.has_interval)
		mnl_attr_put_u32(nlh, ROCECTL_A_WD_INTERVAL_MS, wa.interval);
	if (wa.action >= 0)
		mnl_attr_put_u8(nlh, ROCECTL_A_WD_ACTION, wa.action);
	if (wa.direction >= 0)
		mnl_attr_put_u8(nlh, ROCECTL_A_WD_DIRECTION, wa.direction);
	if (wa.stall >= 0)
		mnl_attr_put_u16(nlh, ROCECTL_A_WD_STALL_MS, wa.stall);
	return nl_run(&rc->nl, nlh, NULL, NULL);
}

static int wd_del(struct rocectl *rc)
{
	struct nlmsghdr *nlh;
	struct wd_args wa;
	int err = parse_args(rc, &wa, "del", false);

	if (!err)
		err = need_dev(&wa, "del");
	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_WD_DEL, 0);
	put_target(nlh, &wa, true);
	if (wa.prios)
		mnl_attr_put_u8(nlh, ROCECTL_A_WD_PRIOS, wa.prios);
	return nl_run(&rc->nl, nlh, NULL, NULL);
}

struct wd_show_ctx {
	bool stats;
	bool storm;	/* some priority is in storm */
};

static int wd_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct wd_show_ctx *ctx = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_NETDEV_INDEX])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *p[ROCECTL_A_WDP_MAX + 1];

		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0 &&
		    attrs_parse_wd_prio(a, p) >= 0 && p[ROCECTL_A_WDP_STATE] &&
		    mnl_attr_get_u8(p[ROCECTL_A_WDP_STATE]) == ROCECTL_WD_STORM)
			ctx->storm = true;
	}
	out_open_object(NULL);
	wd_print_fields(nlh, tb, ctx->stats);
	out_close_object();
	out_nl();
	return MNL_CB_OK;
}

static int wd_show_common(struct rocectl *rc, const char *cmd, bool stats)
{
	struct wd_show_ctx ctx = { .stats = stats };
	struct nlmsghdr *nlh;
	struct wd_args wa;
	int err = parse_args(rc, &wa, cmd, false);

	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_WD_GET, wa.dev ? 0 : NLM_F_DUMP);
	if (wa.dev)
		put_target(nlh, &wa, true);
	out_begin_list();
	err = nl_run(&rc->nl, nlh, wd_show_cb, &ctx);
	out_end_list();
	if (!err && wa.check && ctx.storm)
		return EXIT_CONDITION;
	return err;
}

static int wd_show(struct rocectl *rc)
{
	return wd_show_common(rc, "show", false);
}

static int wd_stats(struct rocectl *rc)
{
	return wd_show_common(rc, "stats", true);
}

static int wd_brs(struct rocectl *rc)
{
	const char *s = arg_next(rc);
	struct nlmsghdr *nlh;
	int on, err;

	if (!s || (strcmp(s, "on") && strcmp(s, "off"))) {
		pr_err("Error: big-red-switch is on or off.\n");
		return EXIT_USAGE;
	}
	on = !strcmp(s, "on");
	err = args_done_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_WD_BRS_SET, 0);
	mnl_attr_put_u8(nlh, ROCECTL_A_WD_BRS, on);
	return nl_run(&rc->nl, nlh, NULL, NULL);
}

static int wd_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl watchdog set dev DEV [ port N ] [ prio PRIOS ] [ detect MS ] [ restore MS ]\n"
	       "                           [ interval MS ] [ action { alert | forward } ]\n"
	       "                           [ direction { rx | tx | both } ]\n"
	       "                           [ nic-stall-prevention { off | auto | MS } ]\n"
	       "       rocectl watchdog del dev DEV [ port N ] [ prio PRIOS ]\n"
	       "       rocectl watchdog show [ dev DEV [ port N ] ]\n"
	       "       rocectl watchdog stats [ dev DEV [ port N ] ] [ check ]\n"
	       "       rocectl watchdog big-red-switch { on | off }\n"
	       "DEV is a netdev, or an RDMA device whose port's netdev is meant.\n"
	       "A new watch needs prio; set on a watched DEV changes what it names.\n"
	       "PRIOS := { 3 | 3,4 | 0-7 | all }. detect 20..10000 ms (200), restore\n"
	       "20..60000 ms (400), interval 10..1000 ms (100) and no larger than either.\n"
	       "nic-stall-prevention: the NIC stops sending pause after its receive\n"
	       "path stalled MS (80..8000) ms; whole port, set back when the watch goes.\n"
	       "stats check exits with 1 when a priority is in storm.\n");
	return EXIT_OK;
}

static const struct cmd wd_cmds[] = {
	{ "show", wd_show },
	{ "set", wd_set },
	{ "del", wd_del },
	{ "stats", wd_stats },
	{ "big-red-switch", wd_brs },
	{ "help", wd_help },
	{ NULL, NULL },
};

bool wd_changes_config(const char *verb)
{
	const struct cmd *c;

	/* Resolved as dispatch() would: the first entry the prefix matches. */
	for (c = wd_cmds; c->name; c++)
		if (matches(verb, c->name))
			return c->fn == wd_set || c->fn == wd_del || c->fn == wd_brs;
	return false;
}

int cmd_watchdog(struct rocectl *rc)
{
	return dispatch(rc, "watchdog", wd_cmds);
}
