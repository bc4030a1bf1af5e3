// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: the host side of a lossless RoCE network, one finding
 * per check and RDMA port: PASS, WARN, FAIL or SKIP, the evidence (the
 * values read and where from) and, for WARN and FAIL, a command that
 * fixes it. The intent (lossless priority, RoCE DSCP, MTU) comes from the
 * command line, rocectl.conf (check_intent.c) or is inferred, and the
 * evidence says which.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "attrs.h"
#include "check.h"
#include "conf.h"
#include "dev.h"
#include "errors.h"
#include "netdev.h"
#include "output.h"
#include "utils.h"

#define ROCE_DSCP_DEFAULT	26	/* the RoCE DSCP of both field guides, and mlx5's default */
#define IB_PORT_ACTIVE		4

/*
 * What a RoCEv2 packet over IPv4 carries besides a full payload: IPv4
 * header 20, UDP 8, BTH 12, and the largest set of extended headers a
 * payload-carrying packet has (XRCETH 4 + RETH 16 + ImmDt 4, an XRC RDMA
 * WRITE Only with Immediate), then the ICRC 4. The netdev's MTU counts
 * from the IP header on.
 */
#define ROCE_V2_IPV4_OVERHEAD	(20 + 8 + 12 + 4 + 16 + 4 + 4)
/*
 * What ib_core's iboe_get_mtu() takes off the netdev's MTU to choose the
 * active MTU (GRH 40, UDP 8, BTH 12, XRCETH 4, AtomicETH 28, ICRC 4): the
 * largest active MTU a port is given.
 */
#define IBOE_MTU_OVERHEAD	(40 + 8 + 12 + 4 + 28 + 4)

static const char *const result_names[] = { "SKIP", "PASS", "WARN", "FAIL" };

/* --- findings ---------------------------------------------------------------- */

static void append(char *buf, size_t len, const char *sep, const char *fmt, va_list ap)
{
	size_t used = strlen(buf);

	if (used && used + strlen(sep) < len) {
		strcat(buf, sep);
		used += strlen(sep);
	}
	if (used < len)
		vsnprintf(buf + used, len - used, fmt, ap);
}

static void append_str(char *buf, size_t len, const char *sep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append(buf, len, sep, fmt, ap);
	va_end(ap);
}

void finding_add(struct finding *f, enum check_result r, const char *fix,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append(f->evidence, sizeof(f->evidence), "; ", fmt, ap);
	va_end(ap);
	if (!f->any || r > f->result)
		f->result = r;
	f->any = true;
	if (fix && r >= CHECK_WARN && !strstr(f->fix, fix))
		append_str(f->fix, sizeof(f->fix), "; ", "%s", fix);
}

void check_report(struct check_ctx *c, const char *check, const struct finding *f)
{
	const struct check_port *p = c->p;

	if (f->result > c->worst)
		c->worst = f->result;
	out_open_object(NULL);
	out_str("result", "%s ", result_names[f->result]);
	out_str("check", "%s ", check);
	out_str("dev", "%s", p->dev);
	out_uint("port", "/%" PRIu64, p->port);
	out_str("netdev", " %s", *p->netdev ? p->netdev : "-");
	out_str("evidence", ": %s", f->evidence);
	if (f->result >= CHECK_WARN && *f->fix)
		out_str("fix", "; fix: %s", f->fix);
	out_close_object();
	out_nl();
}

char *check_sysfs_read(const struct check_ctx *c, char *buf, size_t len,
		       const char *fmt, ...)
{
	char rel[384], path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", c->sysfs, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* "3" or "3,4" or "none": the priorities of a mask. */
static const char *prio_list(uint8_t mask, char *buf, size_t len)
{
	unsigned int p;

	buf[0] = '\0';
	for (p = 0; p < 8; p++)
		if (mask & (1U << p))
			append_str(buf, len, ",", "%u", p);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

static unsigned int popcount8(uint8_t v)
{
	return __builtin_popcount(v);
}

/* --- the ports ---------------------------------------------------------------- */

static int add_port(struct check_ctx *c, const struct check_port *p)
{
	void *n = realloc(c->ports, (c->n + 1) * sizeof(*c->ports));

	if (!n)
		return -1;
	c->ports = n;
	c->ports[c->n++] = *p;
	return 0;
}

/* One device of the module's DEV_GET dump: its ports, as rocectl dev show reads them. */
static int ports_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct check_ctx *c = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_DEV_NAME])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *pt[ROCECTL_A_PORT_MAX + 1];
		struct check_port p = { .state = -1 };

		if (mnl_attr_get_type(a) != ROCECTL_A_DEV_PORT ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0 ||
		    attrs_parse_port(a, pt) < 0 || !pt[ROCECTL_A_PORT_INDEX])
			continue;
		snprintf(p.dev, sizeof(p.dev), "%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
		p.port = mnl_attr_get_u32(pt[ROCECTL_A_PORT_INDEX]);
		if (pt[ROCECTL_A_PORT_STATE])
			p.state = mnl_attr_get_u8(pt[ROCECTL_A_PORT_STATE]);
		if (pt[ROCECTL_A_PORT_ACTIVE_MTU])
			p.active_mtu = mnl_attr_get_u32(pt[ROCECTL_A_PORT_ACTIVE_MTU]);
		if (pt[ROCECTL_A_PORT_MAX_MTU])
			p.max_mtu = mnl_attr_get_u32(pt[ROCECTL_A_PORT_MAX_MTU]);
		if (pt[ROCECTL_A_PORT_NETDEV_NAME])
			snprintf(p.netdev, sizeof(p.netdev), "%s",
				 mnl_attr_get_str(pt[ROCECTL_A_PORT_NETDEV_NAME]));
		if (add_port(c, &p))
			return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static void ports_restart(void *data)
{
	((struct check_ctx *)data)->n = 0;
}

/*
 * Without the module: sysfs, class/infiniband/DEV/ports/N (state "4:
 * ACTIVE", the netdev of GID 0 in gid_attrs/ndevs). sysfs has no active
 * MTU: the mtu check then checks the netdevs only.
 */
static int ports_from_sysfs(struct check_ctx *c)
{
	char path[512], buf[64];
	struct dirent *d, *e;
	DIR *dir, *pdir;

	snprintf(path, sizeof(path), "%.255s/class/infiniband", c->sysfs);
	dir = opendir(path);
	if (!dir)
		return 0;	/* no RDMA device at all */
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) > ROCECTL_DEV_NAME_MAX)
			continue;
		snprintf(path, sizeof(path), "%.255s/class/infiniband/%.64s/ports", c->sysfs, d->d_name);
		pdir = opendir(path);
		if (!pdir)
			continue;
		while ((e = readdir(pdir))) {
			struct check_port p = { .state = -1 };

			if (e->d_name[0] == '.' || parse_u32(e->d_name, &p.port))
				continue;
			snprintf(p.dev, sizeof(p.dev), "%.*s", ROCECTL_DEV_NAME_MAX, d->d_name);
			if (check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/state",
					     p.dev, p.port))
				p.state = atoi(buf);
			if (check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/ndevs/0",
					     p.dev, p.port))
				snprintf(p.netdev, sizeof(p.netdev), "%.*s", IFNAMSIZ - 1, buf);
			if (add_port(c, &p)) {
				closedir(pdir);
				closedir(dir);
				return -1;
			}
		}
		closedir(pdir);
	}
	closedir(dir);
	return 0;
}

static int port_cmp(const void *a, const void *b)
{
	const struct check_port *x = a, *y = b;
	int r = strcmp(x->dev, y->dev);

	return r ? r : (x->port > y->port) - (x->port < y->port);
}

static int read_ports(struct check_ctx *c)
{
	struct nlmsghdr *nlh;
	int err;

	if (c->module) {
		c->ports_from = "rocectl module";
		nlh = nl_request(&c->rc->nl, ROCECTL_CMD_DEV_GET, NLM_F_DUMP);
		err = nl_run_restart(&c->rc->nl, nlh, ports_cb, c, ports_restart);
		if (err)
			return err;
	} else {
		c->ports_from = "sysfs";
		if (ports_from_sysfs(c)) {
			pr_err("Error: out of memory.\n");
			return EXIT_FAILED;
		}
	}
	if (c->n)
		qsort(c->ports, c->n, sizeof(*c->ports), port_cmp);
	return EXIT_OK;
}

/* --- intent ------------------------------------------------------------------ */

void check_infer_intent(struct check_ctx *c)
{
	const struct dcb_state *d = &c->dcb;
	uint8_t en = d->has_pfc ? d->pfc_en : 0;
	char list[32], src[CHECK_SRC_LEN + 16];
	int p;

	if (c->want_dscp >= 0) {
		c->dscp = c->want_dscp;
		snprintf(c->dscp_why, sizeof(c->dscp_why), "DSCP %u %s", c->dscp,
			 check_intent_source(c->dscp_src, src, sizeof(src)));
	} else {
		c->dscp = ROCE_DSCP_DEFAULT;
		snprintf(c->dscp_why, sizeof(c->dscp_why), "DSCP %u by default", c->dscp);
	}

	c->prio = -1;
	if (c->want_prio >= 0) {
		c->prio = c->want_prio;
		snprintf(c->prio_why, sizeof(c->prio_why), "priority %d %s", c->prio,
			 check_intent_source(c->prio_src, src, sizeof(src)));
	} else if (popcount8(en) == 1) {
		c->prio = __builtin_ctz(en);
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the only PFC-enabled one", c->prio);
	} else if (en && popcount8(en & d->dscp_prio[c->dscp]) == 1) {
		c->prio = __builtin_ctz(en & d->dscp_prio[c->dscp]);
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the PFC-enabled one DSCP %u maps to",
			 c->prio, c->dscp);
	} else if (en) {
		for (p = 7; !(en & (1U << p)); p--)
			;
		c->prio = p;
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "inferred: priority %d, the highest of the PFC-enabled %s",
			 p, prio_list(en, list, sizeof(list)));
	} else {
		snprintf(c->prio_why, sizeof(c->prio_why),
			 "no lossless priority: none given and PFC enabled on none");
	}
}

/* --- 1. device: port state, RoCE v2 GIDs --------------------------------------- */

static bool gid_zero(const uint8_t *g)
{
	static const uint8_t zero[16];

	return !memcmp(g, zero, 16);
}

static bool parse_gid(const char *s, uint8_t *g)
{
	unsigned int w[8], i;

	if (sscanf(s, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x",
		   &w[0], &w[1], &w[2], &w[3], &w[4], &w[5], &w[6], &w[7]) != 8)
		return false;
	for (i = 0; i < 8; i++) {
		g[2 * i] = w[i] >> 8;
		g[2 * i + 1] = w[i] & 0xff;
	}
	return true;
}

static const char *gid_str(const uint8_t *g, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(g, v4mapped, 12))
		return inet_ntop(AF_INET, g + 12, buf, len);
	return inet_ntop(AF_INET6, g, buf, len);
}

#define MAX_GIDS 64

static void check_device(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	uint8_t v2[MAX_GIDS][16], addrs[MAX_GIDS][16];
	char path[256], buf[128], a[INET6_ADDRSTRLEN], fix[160];
	struct finding f = { .any = false };
	int nv2 = 0, naddr, i, j, missing = 0;
	struct dirent *d;
	DIR *dir;

	if (p->state == IB_PORT_ACTIVE)
		finding_add(&f, CHECK_PASS, NULL, "port ACTIVE (%s)", c->ports_from);
	else {
		snprintf(fix, sizeof(fix), "ip link set %s up", p->netdev);
		finding_add(&f, CHECK_FAIL, fix, "port %s, not ACTIVE (%s)",
			    p->state < 0 ? "state unknown" : dev_port_state_name(p->state),
			    c->ports_from);
	}

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/gids",
		 c->sysfs, p->dev, p->port);
	dir = opendir(path);
	if (!dir) {
		finding_add(&f, CHECK_SKIP, NULL, "no GID table in sysfs (%s)", path);
		check_report(c, "device", &f);
		return;
	}
	while ((d = readdir(dir)) && nv2 < MAX_GIDS) {
		uint32_t idx;

		if (d->d_name[0] == '.' || parse_u32(d->d_name, &idx))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/types/%u",
				      p->dev, p->port, idx) || strcmp(buf, "RoCE v2"))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gid_attrs/ndevs/%u",
				      p->dev, p->port, idx) || strcmp(buf, p->netdev))
			continue;
		if (!check_sysfs_read(c, buf, sizeof(buf), "class/infiniband/%s/ports/%u/gids/%u",
				      p->dev, p->port, idx) || !parse_gid(buf, v2[nv2]) ||
		    gid_zero(v2[nv2]))
			continue;
		nv2++;
	}
	closedir(dir);

	naddr = netdev_gids(p->netdev, addrs, MAX_GIDS);
	if (naddr < 0)
		naddr = 0;
	for (i = 0; i < naddr; i++) {
		for (j = 0; j < nv2 && memcmp(addrs[i], v2[j], 16); j++)
			;
		if (j < nv2)
			continue;
		missing++;
		snprintf(fix, sizeof(fix), "ip link set %s down && ip link set %s up",
			 p->netdev, p->netdev);
		finding_add(&f, CHECK_FAIL, fix, "no RoCE v2 GID for %s's address %s",
			    p->netdev, gid_str(addrs[i], a, sizeof(a)));
	}
	snprintf(fix, sizeof(fix), "ip addr add ADDRESS/PREFIX dev %s", p->netdev);
	if (!naddr && !nv2) {
		finding_add(&f, CHECK_FAIL, fix,
			    "no RoCE v2 GID: %s has no IPv4 or global IPv6 address", p->netdev);
	} else if (!naddr) {
		finding_add(&f, CHECK_WARN, fix,
			    "%d RoCE v2 GID%s, but %s has no IPv4 or global IPv6 address for routable RoCE v2 (sysfs gid_attrs/types)",
			    nv2, nv2 == 1 ? "" : "s", p->netdev);
	} else if (!missing) {
		buf[0] = '\0';
		for (i = 0; i < naddr; i++)
			append_str(buf, sizeof(buf), ",", "%s", gid_str(addrs[i], a, sizeof(a)));
		finding_add(&f, CHECK_PASS, NULL,
			    "RoCE v2 GIDs for %s's address%s %s, %d in all (sysfs gid_attrs/types)",
			    p->netdev, naddr == 1 ? "" : "es", buf, nv2);
	}
	check_report(c, "device", &f);
}

/* --- 2. pfc ------------------------------------------------------------------- */

/* The reason dcbnl gave, as a finding part; false if DCB was read. */
static bool dcb_unreadable(struct check_ctx *c, struct finding *f, bool fail)
{
	const char *nic = c->p->netdev;

	if (c->dcb_err == -EOPNOTSUPP || (!c->dcb_err && !c->dcb.has_pfc))
		finding_add(f, fail ? CHECK_FAIL : CHECK_SKIP, NULL,
			    "no DCB support: %s %s", nic,
			    c->dcb_err ? "has no dcbnl (RTM_GETDCB: operation not supported)"
				       : "reports no IEEE PFC (dcbnl)");
	else if (c->dcb_err)
		finding_add(f, fail ? CHECK_FAIL : CHECK_SKIP, NULL,
			    "cannot read %s's DCB (dcbnl RTM_GETDCB): %s", nic, strerror(-c->dcb_err));
	else
		return false;
	return true;
}

static void check_pfc(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	char list[32], fix[160];
	uint8_t en, others;

	if (dcb_unreadable(c, &f, true)) {
		check_report(c, "pfc", &f);
		return;
	}
	en = c->dcb.pfc_en;
	if (c->prio < 0) {
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc 3:on", p->netdev);
		finding_add(&f, CHECK_FAIL, fix,
			    "PFC is enabled on no priority (dcbnl IEEE PFC, pfc_cap %u): no traffic is lossless",
			    c->dcb.pfc_cap);
		check_report(c, "pfc", &f);
		return;
	}
	if (!(en & (1U << c->prio))) {
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %d:on", p->netdev, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "PFC is off on priority %d (%s): enabled on %s (dcbnl IEEE PFC)",
			    c->prio, c->prio_why, prio_list(en, list, sizeof(list)));
	}
	others = en & ~(1U << c->prio);
	if (others) {
		char offs[48] = "";
		unsigned int q;

		for (q = 0; q < 8; q++)
			if (others & (1U << q))
				append_str(offs, sizeof(offs), " ", "%u:off", q);
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %s", p->netdev, offs);
		finding_add(&f, CHECK_WARN, fix,
			    "PFC is also on priority %s: only the lossless priority %d should pause (%s; dcbnl IEEE PFC)",
			    prio_list(others, list, sizeof(list)), c->prio, c->prio_why);
	}
	if (!f.any)
		finding_add(&f, CHECK_PASS, NULL,
			    "PFC on priority %d only (%s; dcbnl IEEE PFC, pfc_cap %u)",
			    c->prio, c->prio_why, c->dcb.pfc_cap);
	check_report(c, "pfc", &f);
}

/* --- 3. trust: the APP table and the QPs' DSCP ----------------------------------- */

struct qp_group {
	uint32_t pid;		/* 0: a kernel QP */
	char comm[32];
	unsigned int dscp;
	unsigned int count;
};

struct qp_scan {
	const struct check_port *p;
	struct qp_group g[64];
	unsigned int n;
	unsigned int qps;	/* QPs with a traffic class */
	bool overflow;
};

static int qps_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct qp_scan *s = data;
	unsigned int dscp, i, state;
	uint32_t pid;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_NUM] || !tb[ROCECTL_A_QP_TCLASS])
		return MNL_CB_OK;
	state = tb[ROCECTL_A_QP_STATE] ? mnl_attr_get_u8(tb[ROCECTL_A_QP_STATE]) : 0;
	/* Alive: ready to receive or send (RTR, RTS, SQD, SQE). */
	if (state < ROCECTL_QPS_RTR || state > ROCECTL_QPS_SQE)
		return MNL_CB_OK;
	if (tb[ROCECTL_A_QP_PORT] && mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]) != s->p->port)
		return MNL_CB_OK;
	dscp = mnl_attr_get_u8(tb[ROCECTL_A_QP_TCLASS]) >> 2;
	pid = tb[ROCECTL_A_QP_PID] ? mnl_attr_get_u32(tb[ROCECTL_A_QP_PID]) : 0;
	s->qps++;
	for (i = 0; i < s->n; i++)
		if (s->g[i].pid == pid && s->g[i].dscp == dscp)
			break;
	if (i == s->n) {
		if (s->n == ARRAY_SIZE(s->g)) {
			s->overflow = true;
			return MNL_CB_OK;
		}
		memset(&s->g[i], 0, sizeof(s->g[i]));
		s->g[i].pid = pid;
		s->g[i].dscp = dscp;
		if (tb[ROCECTL_A_QP_COMM])
			snprintf(s->g[i].comm, sizeof(s->g[i].comm), "%s",
				 mnl_attr_get_str(tb[ROCECTL_A_QP_COMM]));
		s->n++;
	}
	s->g[i].count++;
	return MNL_CB_OK;
}

static void qps_restart(void *data)
{
	struct qp_scan *s = data;

	s->n = s->qps = 0;
	s->overflow = false;
}

static void check_qps(struct check_ctx *c, struct finding *f)
{
	const struct check_port *p = c->p;
	struct qp_scan s = { .p = p };
	struct nlmsghdr *nlh;
	char list[32], fix[256], who[80];
	unsigned int i, lossy = 0;
	struct nl_error e;
	uint8_t to;

	if (!c->module) {
		finding_add(f, CHECK_SKIP, NULL, "QPs not read: the rocectl module is not loaded");
		return;
	}
	nlh = nl_request(&c->rc->nl, ROCECTL_CMD_QP_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, p->dev);
	mnl_attr_put_u32(nlh, ROCECTL_A_QP_PORT, p->port);
	if (nl_run_quiet(&c->rc->nl, nlh, qps_cb, &s, qps_restart, &e) < 0) {
		finding_add(f, CHECK_SKIP, NULL, "QPs not read: %s",
			    *e.msg ? e.msg : strerror(e.err));
		return;
	}
	for (i = 0; i < s.n; i++) {
		const struct qp_group *g = &s.g[i];

		to = c->dcb.dscp_prio[g->dscp];
		if (to == (1U << c->prio))
			continue;
		lossy += g->count;
		if (g->pid)
			snprintf(who, sizeof(who), "of pid %u (%s)", g->pid, g->comm);
		else
			snprintf(who, sizeof(who), "of the kernel (%s)", g->comm);
		snprintf(fix, sizeof(fix),
			 "have pid %u use traffic class %u (DSCP %u), or dcb app replace dev %s dscp-prio %u:%d",
			 g->pid, c->dscp << 2, c->dscp, p->netdev, g->dscp, c->prio);
		if (!to)
			finding_add(f, CHECK_FAIL, fix,
				    "%u QP%s %s use%s DSCP %u, which no APP entry maps: not lossless priority %d",
				    g->count, g->count == 1 ? "" : "s", who, g->count == 1 ? "s" : "",
				    g->dscp, c->prio);
		else
			finding_add(f, CHECK_FAIL, fix,
				    "%u QP%s %s use%s DSCP %u, priority %s, which is %s",
				    g->count, g->count == 1 ? "" : "s", who, g->count == 1 ? "s" : "",
				    g->dscp, prio_list(to, list, sizeof(list)),
				    to & (1U << c->prio) ? "not only the lossless one" : "lossy");
	}
	if (!lossy)
		finding_add(f, CHECK_PASS, NULL,
			    "%u live QP%s on %s/%u, all on priority %d (rocectl QP table)",
			    s.qps, s.qps == 1 ? "" : "s", p->dev, p->port, c->prio);
	if (s.overflow)
		finding_add(f, CHECK_WARN, NULL, "more QP owners than shown");
}

static void check_trust(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	char list[32], fix[160];
	uint8_t to;

	if (dcb_unreadable(c, &f, false) || c->prio < 0) {
		if (!f.any)
			finding_add(&f, CHECK_SKIP, NULL, "no lossless priority to map to (see pfc)");
		check_report(c, "trust", &f);
		return;
	}
	to = c->dcb.dscp_prio[c->dscp];
	if (to == (1U << c->prio)) {
		finding_add(&f, CHECK_PASS, NULL,
			    "the APP table maps DSCP %u to priority %d (%s, %s; dcbnl IEEE APP, DSCP selector)",
			    c->dscp, c->prio, c->dscp_why, c->prio_why);
	} else if (!to) {
		snprintf(fix, sizeof(fix), "dcb app add dev %s dscp-prio %u:%d",
			 p->netdev, c->dscp, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "no APP entry maps DSCP %u (%s) to a priority: %u DSCP entries, %s (dcbnl IEEE APP)",
			    c->dscp, c->dscp_why, c->dcb.dscp_entries,
			    c->dcb.dscp_entries ? "DSCP trust" : "the NIC trusts PCP, not DSCP");
	} else {
		snprintf(fix, sizeof(fix), "dcb app replace dev %s dscp-prio %u:%d",
			 p->netdev, c->dscp, c->prio);
		finding_add(&f, CHECK_FAIL, fix,
			    "the APP table maps DSCP %u (%s) to priority %s, not %d (%s; dcbnl IEEE APP)",
			    c->dscp, c->dscp_why, prio_list(to, list, sizeof(list)), c->prio,
			    c->prio_why);
	}
	check_qps(c, &f);
	check_report(c, "trust", &f);
}

/* --- 4. mtu ------------------------------------------------------------------- */

/* The largest IB MTU (256..4096) of which mtu + overhead fits netdev_mtu, or 0. */
static uint32_t ib_mtu_fitting(uint32_t netdev_mtu, uint32_t overhead)
{
	uint32_t m;

	for (m = 4096; m >= 256; m /= 2)
		if (m + overhead <= netdev_mtu)
			return m;
	return 0;
}

static void check_mtu(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	uint32_t mtu, other, best, target;
	char fix[160], differ[256] = "", fixes[384], src[CHECK_SRC_LEN + 16];
	unsigned int same = 0;
	size_t i;
	int err;

	err = netdev_mtu(p->netdev, &mtu);
	if (err) {
		finding_add(&f, CHECK_FAIL, NULL, "cannot read %s's MTU: %s", p->netdev, strerror(-err));
		check_report(c, "mtu", &f);
		return;
	}
	if (c->want_mtu && mtu != c->want_mtu) {
		snprintf(fix, sizeof(fix), "ip link set %s mtu %u", p->netdev, c->want_mtu);
		finding_add(&f, CHECK_FAIL, fix, "%s's MTU is %u, not the %u %s (SIOCGIFMTU)",
			    p->netdev, mtu, c->want_mtu,
			    check_intent_source(c->mtu_src, src, sizeof(src)));
	}
	if (!p->active_mtu) {
		finding_add(&f, CHECK_SKIP, NULL, "the port's active MTU is unknown (%s has none)",
			    c->ports_from);
	} else if (p->active_mtu + ROCE_V2_IPV4_OVERHEAD > mtu) {
		snprintf(fix, sizeof(fix), "ip link set %s mtu %u", p->netdev,
			 c->want_mtu ? c->want_mtu : p->active_mtu + ROCE_V2_IPV4_OVERHEAD);
		finding_add(&f, CHECK_FAIL, fix,
			    "active MTU %u (%s) needs a netdev MTU of at least %u = %u + %u (IPv4 20, UDP 8, BTH 12, XRCETH 4, RETH 16, ImmDt 4, ICRC 4); %s has %u",
			    p->active_mtu, c->ports_from, p->active_mtu + ROCE_V2_IPV4_OVERHEAD,
			    p->active_mtu, ROCE_V2_IPV4_OVERHEAD, p->netdev, mtu);
	} else {
		best = ib_mtu_fitting(mtu, IBOE_MTU_OVERHEAD);
		if (p->max_mtu && best > p->max_mtu)
			best = p->max_mtu;
		if (p->active_mtu < best)
			finding_add(&f, CHECK_WARN, NULL,
				    "active MTU %u (%s), though %s's MTU %u carries %u (%u - %u, the headers ib_core's iboe_get_mtu() allows for)",
				    p->active_mtu, c->ports_from, p->netdev, mtu, best, mtu,
				    IBOE_MTU_OVERHEAD);
		else
			finding_add(&f, CHECK_PASS, NULL,
				    "active MTU %u (%s) is the largest %s's MTU %u carries: %u + %u bytes of RoCEv2/IPv4 headers fit",
				    p->active_mtu, c->ports_from, p->netdev, mtu, p->active_mtu,
				    ROCE_V2_IPV4_OVERHEAD);
	}
	/*
	 * The RoCE ports of the host agree: the fix raises each that differs
	 * to the MTU given, else to the largest among them.
	 */
	target = c->want_mtu ? c->want_mtu : mtu;
	for (i = 0; i < c->n; i++) {
		const struct check_port *q = &c->ports[i];

		if (!*q->netdev || strcmp(q->netdev, p->netdev) == 0 ||
		    netdev_mtu(q->netdev, &other))
			continue;
		if (other == mtu) {
			same++;
			continue;
		}
		append_str(differ, sizeof(differ), ", ", "%s (%s/%u) has %u",
			   q->netdev, q->dev, q->port, other);
		if (!c->want_mtu && other > target)
			target = other;
	}
	if (*differ) {
		fixes[0] = '\0';
		if (mtu != target)
			append_str(fixes, sizeof(fixes), "; ", "ip link set %s mtu %u", p->netdev, target);
		for (i = 0; i < c->n; i++) {
			const struct check_port *q = &c->ports[i];

			if (*q->netdev && strcmp(q->netdev, p->netdev) &&
			    !netdev_mtu(q->netdev, &other) && other != mtu && other != target &&
			    !strstr(fixes, q->netdev))
				append_str(fixes, sizeof(fixes), "; ", "ip link set %s mtu %u",
					   q->netdev, target);
		}
		finding_add(&f, CHECK_WARN, *fixes ? fixes : NULL,
			    "the RoCE ports disagree: %s has %u, %s", p->netdev, mtu, differ);
	} else if (same) {
		finding_add(&f, CHECK_PASS, NULL, "the host's other %u RoCE netdev%s agree%s",
			    same, same == 1 ? "" : "s", same == 1 ? "s" : "");
	}
	check_report(c, "mtu", &f);
}

/* --- 5. pause ----------------------------------------------------------------- */

static void check_pause(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct finding f = { .any = false };
	struct netdev_pause pp;
	char list[32], fix[160];
	uint8_t en = !c->dcb_err && c->dcb.has_pfc ? c->dcb.pfc_en : 0;
	int err = netdev_pause(p->netdev, &pp);

	if (err == -EOPNOTSUPP) {
		finding_add(&f, CHECK_SKIP, NULL,
			    "%s has no 802.3x pause control (ETHTOOL_GPAUSEPARAM: not supported)",
			    p->netdev);
	} else if (err) {
		finding_add(&f, CHECK_FAIL, NULL, "cannot read %s's 802.3x pause (ETHTOOL_GPAUSEPARAM): %s",
			    p->netdev, strerror(-err));
	} else if (!pp.rx && !pp.tx) {
		finding_add(&f, CHECK_PASS, NULL,
			    "802.3x pause off: rx off tx off (ETHTOOL_GPAUSEPARAM); PFC on %s",
			    prio_list(en, list, sizeof(list)));
	} else {
		snprintf(fix, sizeof(fix), "ethtool -A %s autoneg off rx off tx off", p->netdev);
		finding_add(&f, en ? CHECK_FAIL : CHECK_WARN, fix,
			    "802.3x pause rx %s tx %s autoneg %s (ETHTOOL_GPAUSEPARAM) %s",
			    pp.rx ? "on" : "off", pp.tx ? "on" : "off", pp.autoneg ? "on" : "off",
			    en ? "with PFC on: the two conflict" :
				 "pauses all traffic, not the lossless priority alone");
		if (en)
			append_str(f.evidence, sizeof(f.evidence), " ", "(PFC on %s)",
				   prio_list(en, list, sizeof(list)));
	}
	check_report(c, "pause", &f);
}

/* --- 6. watchdog -------------------------------------------------------------- */

struct wd_scan {
	const char *netdev;
	bool watched;
	uint8_t prios;
};

static int wd_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1], *a;
	struct wd_scan *s = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_NETDEV_NAME] ||
	    strcmp(mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]), s->netdev))
		return MNL_CB_OK;
	s->watched = true;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *pt[ROCECTL_A_WDP_MAX + 1];

		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) == 0 &&
		    attrs_parse_wd_prio(a, pt) >= 0 && pt[ROCECTL_A_WDP_PRIO] &&
		    mnl_attr_get_u8(pt[ROCECTL_A_WDP_PRIO]) < 8)
			s->prios |= 1U << mnl_attr_get_u8(pt[ROCECTL_A_WDP_PRIO]);
	}
	return MNL_CB_OK;
}

static void wd_restart(void *data)
{
	struct wd_scan *s = data;

	s->watched = false;
	s->prios = 0;
}

static void check_watchdog(struct check_ctx *c)
{
	const struct check_port *p = c->p;
	struct wd_scan s = { .netdev = p->netdev };
	struct finding f = { .any = false };
	char list[32], fix[160];
	struct nlmsghdr *nlh;
	struct nl_error e;
	uint16_t ms;
	int err;

	if (c->prio < 0) {
		finding_add(&f, CHECK_SKIP, NULL, "no lossless priority to watch (see pfc)");
	} else if (!c->module) {
		finding_add(&f, CHECK_WARN, "modprobe rocectl",
			    "the rocectl module is not loaded: no PFC storm watchdog");
	} else {
		nlh = nl_request(&c->rc->nl, ROCECTL_CMD_WD_GET, NLM_F_DUMP);
		snprintf(fix, sizeof(fix), "rocectl watchdog set dev %s prio %d", p->netdev, c->prio);
		if (nl_run_quiet(&c->rc->nl, nlh, wd_cb, &s, wd_restart, &e) < 0)
			finding_add(&f, CHECK_FAIL, NULL, "cannot read the watches: %s",
				    *e.msg ? e.msg : strerror(e.err));
		else if (!s.watched)
			finding_add(&f, CHECK_WARN, fix,
				    "no watch on %s: PFC storms on priority %d go unnoticed (rocectl watchdog show)",
				    p->netdev, c->prio);
		else if (!(s.prios & (1U << c->prio)))
			finding_add(&f, CHECK_WARN, fix,
				    "%s is watched on priority %s, not on %d (rocectl watchdog show)",
				    p->netdev, prio_list(s.prios, list, sizeof(list)), c->prio);
		else
			finding_add(&f, CHECK_PASS, NULL,
				    "the watchdog watches priority %d on %s (rocectl watchdog show)",
				    c->prio, p->netdev);
	}
	err = netdev_stall_ms(p->netdev, &ms);
	if (!err && ms) {
		finding_add(&f, CHECK_PASS, NULL, "NIC stall prevention %u ms (ethtool tunable pfc-prevention-tout)", ms);
	} else if (!err) {
		/* A new watch needs a priority: the fix works with or without one. */
		if (c->prio >= 0)
			snprintf(fix, sizeof(fix), "rocectl watchdog set dev %s prio %d nic-stall-prevention auto",
				 p->netdev, c->prio);
		else
			snprintf(fix, sizeof(fix), "ethtool --set-tunable %s pfc-prevention-tout 100",
				 p->netdev);
		finding_add(&f, CHECK_WARN, fix,
			    "NIC stall prevention off (ethtool tunable pfc-prevention-tout 0)");
	} else if (err == -EOPNOTSUPP || err == -EINVAL) {
		finding_add(&f, f.any ? f.result : CHECK_SKIP, NULL,
			    "%s has no stall prevention (ethtool tunable pfc-prevention-tout)", p->netdev);
	} else {
		finding_add(&f, CHECK_WARN, NULL, "cannot read %s's stall prevention: %s",
			    p->netdev, strerror(-err));
	}
	check_report(c, "watchdog", &f);
}

/* --- the command -------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(struct check_ctx *c);
} checks[] = {
	{ "device", check_device },
	{ "pfc", check_pfc },
	{ "trust", check_trust },
	{ "mtu", check_mtu },
	{ "pause", check_pause },
	{ "watchdog", check_watchdog },
	{ "ecn", check_ecn },
	{ "pcie", check_pcie },
};

static void check_port(struct check_ctx *c, const struct check_port *p)
{
	struct finding f = { .any = false };
	size_t i;

	c->p = p;
	if (!*p->netdev) {
		finding_add(&f, CHECK_FAIL, NULL, "no netdev behind the port (%s): not RoCE",
			    c->ports_from);
		check_report(c, "device", &f);
		return;
	}
	c->dcb_err = dcb_read(p->netdev, &c->dcb);
	if (c->dcb_err)
		memset(&c->dcb, 0, sizeof(c->dcb));
	check_resolve_intent(c, &c->args, &c->conf);
	check_infer_intent(c);
	for (i = 0; i < ARRAY_SIZE(checks); i++)
		checks[i].fn(c);
}

/* Mark the ports the command line names: EXIT_OK, or EXIT_USAGE saying why not. */
static int select_ports(struct check_ctx *c, const char *dev, uint32_t port, bool has_port)
{
	bool dev_found = false, any = false;
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct check_port *p = &c->ports[i];
		bool named = dev && (!strcmp(p->dev, dev) || !strcmp(p->netdev, dev));

		dev_found |= named;
		/* Without dev: every port with a netdev. */
		p->selected = dev ? named && (!has_port || p->port == port) : *p->netdev != '\0';
		any |= p->selected;
	}
	if (dev && !dev_found) {
		pr_err("Error: no RDMA device or RoCE netdev is called \"%s\" (%s): see \"rocectl dev show\".\n",
		       dev, c->ports_from);
		return EXIT_USAGE;
	}
	if (dev && !any) {
		pr_err("Error: %s has no port %u.\n", dev, port);
		return EXIT_USAGE;
	}
	if (!any) {
		pr_err("Error: no RDMA port with a netdev to check (%s).\n", c->ports_from);
		return EXIT_CONDITION;
	}
	return EXIT_OK;
}

static int check_run(struct rocectl *rc)
{
	struct check_ctx c = { .rc = rc, .sysfs = "/sys" };
	const char *conf = NULL, *test_sysfs = getenv("ROCECTL_TEST_SYSFS");
	size_t i;
	int err;

	err = check_decl_parse(rc, &c.args, &conf);
	if (!err)
		err = check_conf_read(&c.conf, conf ? conf : POLICY_FILE, conf != NULL);
	if (err)
		goto out;
	/* A test's fake sysfs tree stands for the machine: its ports, not the module's. */
	if (test_sysfs && *test_sysfs)
		c.sysfs = test_sysfs;
	else
		c.module = rc->nl.sock || nl_open(&rc->nl, true) == EXIT_OK;
	err = read_ports(&c);
	if (!err)
		err = select_ports(&c, *c.args.dev ? c.args.dev : NULL, c.args.port,
				   c.args.port != 0);
	if (err)
		goto out;
	out_begin_list();
	for (i = 0; i < c.n; i++)
		if (c.ports[i].selected)
			check_port(&c, &c.ports[i]);
	out_end_list();
	err = c.worst == CHECK_FAIL ? EXIT_CONDITION : EXIT_OK;
out:
	free(c.ports);
	check_conf_free(&c.conf);
	return err;
}

static int check_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl check [ dev DEV [ port N ] ] [ prio P ] [ dscp D ] [ mtu M ]\n"
	       "                     [ conf FILE ]\n"
	       "       rocectl check help\n"
	       "Checks the host side of lossless RoCE on every RDMA port with a netdev,\n"
	       "or on DEV (an RDMA device or its netdev): device, pfc, trust, mtu,\n"
	       "pause, watchdog, ecn, pcie. One line per check: PASS, WARN, FAIL or\n"
	       "SKIP, the evidence and, for WARN and FAIL, a command that fixes it.\n"
	       "P: the lossless priority (0..7; default: inferred from PFC), D: the\n"
	       "RoCE DSCP (0..63; default 26), M: the netdev MTU meant (68..65535).\n"
	       "What the command line leaves out is taken from the \"check\" lines of\n"
	       "FILE (default " POLICY_FILE "), then inferred.\n"
	       "Exit status 1 when a check FAILs.\n");
	return EXIT_OK;
}

int cmd_check(struct rocectl *rc)
{
	const char *w = arg_peek(rc);

	if (w && matches(w, "help") && rc->argc == 1)
		return check_help(rc);
	return check_run(rc);
}
