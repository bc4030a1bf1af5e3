// SPDX-License-Identifier: GPL-2.0
/*
 * Talking to the rocectl generic netlink family with libmnl. Extended acks
 * are always on, so a refused request comes back as the kernel's sentence
 * and the attribute it points at, not just an errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rocectl.h>
#include <rdma/rdma_netlink.h>

#include "errors.h"
#include "nl.h"
#include "nl_spec.h"	/* the attributes' names, from the netlink spec */
#include "output.h"

const char *nl_attr_name(unsigned int type)
{
	if (type < sizeof(rocectl_attr_names) / sizeof(rocectl_attr_names[0]) &&
	    rocectl_attr_names[type])
		return rocectl_attr_names[type];
	return NULL;
}

/* The nldev attributes rocectl sends to the RDMA core, by their uapi names. */
static const char *const nl_rdma_attr_names[] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = "RDMA_NLDEV_ATTR_DEV_INDEX",
	[RDMA_NLDEV_ATTR_DEV_NAME] = "RDMA_NLDEV_ATTR_DEV_NAME",
	[RDMA_NLDEV_ATTR_PORT_INDEX] = "RDMA_NLDEV_ATTR_PORT_INDEX",
	[RDMA_NLDEV_ATTR_RES_LQPN] = "RDMA_NLDEV_ATTR_RES_LQPN",
	[RDMA_NLDEV_ATTR_STAT_MODE] = "RDMA_NLDEV_ATTR_STAT_MODE",
	[RDMA_NLDEV_ATTR_STAT_RES] = "RDMA_NLDEV_ATTR_STAT_RES",
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = "RDMA_NLDEV_ATTR_STAT_COUNTER_ID",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = "RDMA_NLDEV_ATTR_STAT_HWCOUNTERS",
};

const char *nl_rdma_attr_name(unsigned int type)
{
	if (type < sizeof(nl_rdma_attr_names) / sizeof(nl_rdma_attr_names[0]) &&
	    nl_rdma_attr_names[type])
		return nl_rdma_attr_names[type];
	return NULL;
}

struct nl_ctx {
	struct nl *nl;
	mnl_cb_t cb;
	void *data;
	struct nl_error *e;
};

static void nl_attr_label(const struct nl *nl, char *buf, size_t len,
			  unsigned int type)
{
	const char *name = nl->rdma ? nl_rdma_attr_name(type) : nl_attr_name(type);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "type %u", type);
}

static int nl_extack_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= NLMSGERR_ATTR_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

static void nl_parse_extack(struct nl_ctx *ctx, const struct nlmsghdr *nlh,
			    unsigned int offset)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = {};
	const struct nlmsghdr *req = ctx->nl->req;
	/* Attributes start after the genl header; RDMA messages have none. */
	unsigned int first = mnl_nlmsg_size(ctx->nl->rdma ? 0 : GENL_HDRLEN);
	struct nl_error *e = ctx->e;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (mnl_attr_parse(nlh, offset, nl_extack_cb, tb) < 0)
		return;

	if (tb[NLMSGERR_ATTR_MSG] &&
	    mnl_attr_validate(tb[NLMSGERR_ATTR_MSG], MNL_TYPE_NUL_STRING) == 0)
		snprintf(e->msg, sizeof(e->msg), "%s",
			 mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));

	/* The offset points into our own request: name the attribute there. */
	if (tb[NLMSGERR_ATTR_OFFS] && req &&
	    mnl_attr_validate(tb[NLMSGERR_ATTR_OFFS], MNL_TYPE_U32) == 0) {
		uint32_t offs = mnl_attr_get_u32(tb[NLMSGERR_ATTR_OFFS]);

		if (offs >= first &&
		    offs + sizeof(struct nlattr) <= req->nlmsg_len) {
			const struct nlattr *bad = (const void *)((const char *)req + offs);

			nl_attr_label(ctx->nl, e->attr, sizeof(e->attr),
				      mnl_attr_get_type(bad));
		}
	}
	/* The policy the attribute failed: say which values it takes. */
	if (tb[NLMSGERR_ATTR_POLICY] && e->attr[0]) {
		const struct nlattr *a;
		long long min = 0, max = 0;
		bool has_min = false, has_max = false;

		mnl_attr_for_each_nested(a, tb[NLMSGERR_ATTR_POLICY]) {
			switch (mnl_attr_get_type(a)) {
			case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			case NL_POLICY_TYPE_ATTR_MIN_VALUE_S:
				if (mnl_attr_get_payload_len(a) == 8)
					min = mnl_attr_get_u64(a), has_min = true;
				break;
			case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			case NL_POLICY_TYPE_ATTR_MAX_VALUE_S:
				if (mnl_attr_get_payload_len(a) == 8)
					max = mnl_attr_get_u64(a), has_max = true;
				break;
			}
		}
		if (has_min && has_max) {
			size_t n = strlen(e->attr);

			snprintf(e->attr + n, sizeof(e->attr) - n, ", valid %lld..%lld",
				 min, max);
		}
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    mnl_attr_validate(tb[NLMSGERR_ATTR_MISS_TYPE], MNL_TYPE_U32) == 0)
		nl_attr_label(ctx->nl, e->missing, sizeof(e->missing),
			      mnl_attr_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
}

static int nl_cb_error(const struct nlmsghdr *nlh, void *data)
{
	struct nl_ctx *ctx = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int hlen = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		ctx->e->err = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error == 0)
		return MNL_CB_STOP;	/* the ack */

	ctx->e->err = -err->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		hlen += mnl_nlmsg_get_payload_len(&err->msg);
	nl_parse_extack(ctx, nlh, hlen);
	return MNL_CB_ERROR;
}

/* A dump ends with DONE, which carries the error of a failed dump. */
static int nl_cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct nl_ctx *ctx = data;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	ctx->e->err = -err;
	nl_parse_extack(ctx, nlh, sizeof(int));
	return MNL_CB_ERROR;
}

static int nl_cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct nl_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

static mnl_cb_t nl_ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = nl_cb_error,
	[NLMSG_DONE] = nl_cb_done,
};

/*
 * libmnl stops at the first message flagged NLM_F_DUMP_INTR; we want the
 * whole dump and to decide ourselves: note the flag and clear it.
 */
static void nl_note_interrupted(struct nl *nl, int len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)nl->buf;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
			nlh->nlmsg_flags &= ~NLM_F_DUMP_INTR;
			nl->interrupted = true;
		}
	}
}

/* Send a request and process replies until ack, DONE or error: 0 or -errno. */
static int nl_exchange(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		       void *data, struct nl_error *e)
{
	struct nl_ctx ctx = { .nl = nl, .cb = cb, .data = data, .e = e };
	int ret;

	memset(e, 0, sizeof(*e));
	nl->req = nlh;
	nl->interrupted = false;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		e->err = errno;
		return -e->err;
	}
	/* Replies overwrite the buffer the request was built in: keep a copy. */
	nlh = memcpy(nl->buf + NL_BUF_SIZE, nlh, nlh->nlmsg_len);
	nl->req = nlh;

	do {
		ret = mnl_socket_recvfrom(nl->sock, nl->buf, NL_BUF_SIZE);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			e->err = errno;
			break;
		}
		nl_note_interrupted(nl, ret);
		ret = mnl_cb_run2(nl->buf, ret, nlh->nlmsg_seq, nl->portid,
				  nl_cb_data, &ctx, nl_ctl_cbs, NLMSG_MIN_TYPE);
		if (ret < 0 && !e->err)
			e->err = errno ? errno : EPROTO;
	} while (ret > 0);

	nl->req = NULL;
	return -e->err;
}

static void print_error(FILE *f, int err, const char *msg, const char *attr,
			const char *missing, bool rdma)
{
	if (msg && *msg) {
		err_prefix(f);
		fprintf(f, "Error: %s", msg);
		if (attr && *attr)
			fprintf(f, " (attribute %s)", attr);
		if (missing && *missing)
			fprintf(f, " (missing attribute %s)", missing);
		fprintf(f, ".\n");
	}

	switch (err) {
	case EPERM:
	case EACCES:
		err_prefix(f);
		fprintf(f, "Error: permission denied: this needs CAP_NET_ADMIN (run as root).\n");
		break;
	case EOPNOTSUPP:
		if (!(msg && *msg)) {
			err_prefix(f);
			if (rdma)
				fprintf(f, "Error: the RDMA core or the device's driver does not support this request (kernel answers: %s).\n",
					strerror(err));
			else
				fprintf(f, "Error: the loaded rocectl module does not know this command: it is older than this tool.\n");
		}
		break;
	default:
		if (!(msg && *msg)) {
			err_prefix(f);
			fprintf(f, "Error: kernel answers: %s.\n", strerror(err));
		}
	}
}

void nl_print_error(FILE *f, int err, const char *msg, const char *attr,
		    const char *missing)
{
	print_error(f, err, msg, attr, missing, false);
}

void nl_print_rdma_error(FILE *f, int err, const char *msg, const char *attr,
			 const char *missing)
{
	print_error(f, err, msg, attr, missing, true);
}

int nl_report(const struct nl *nl, const struct nl_error *e)
{
	print_error(stderr, e->err, e->msg, e->attr, e->missing, nl->rdma);
	return EXIT_FAILED;
}

struct nlmsghdr *nl_request(struct nl *nl, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = nl->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = ROCECTL_GENL_VERSION;
	return nlh;
}

#define NL_DUMP_TRIES 5

int nl_run_quiet(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data, void (*restart)(void *data), struct nl_error *e)
{
	bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	char *req = nl->buf + NL_BUF_SIZE;	/* where nl_exchange keeps it */
	int tries, err;

	for (tries = 1; ; tries++) {
		if (dump)
			out_capture_begin();
		err = nl_exchange(nl, nlh, cb, data, e);
		if (!dump || err || !nl->interrupted || tries == NL_DUMP_TRIES) {
			out_capture_end(true);
			break;
		}
		out_capture_end(false);
		if (restart)
			restart(data);
		nlh = memcpy(nl->buf, req, ((struct nlmsghdr *)req)->nlmsg_len);
		nlh->nlmsg_seq = ++nl->seq;
	}
	if (err < 0)
		return err;
	if (dump && nl->interrupted)
		pr_err("Warning: the objects changed during each of %d dumps; this one may be inconsistent.\n",
			NL_DUMP_TRIES);
	return 0;
}

int nl_run_once(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		struct nl_error *e)
{
	int err = nl_exchange(nl, nlh, cb, data, e);

	return err < 0 ? err : 0;
}

int nl_run_restart(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		   void *data, void (*restart)(void *data))
{
	struct nl_error e;

	if (nl_run_quiet(nl, nlh, cb, data, restart, &e) < 0)
		return nl_report(nl, &e);
	return EXIT_OK;
}

int nl_run(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	return nl_run_restart(nl, nlh, cb, data, NULL);
}

/* Family resolution: id, version and the events group, from the controller. */
static int nl_group_cb(const struct nlattr *grp, void *data)
{
	struct nl *nl = data;
	const struct nlattr *name = NULL, *id = NULL, *a;

	mnl_attr_for_each_nested(a, grp) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			name = a;
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			 mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			id = a;
	}
	if (name && id && !strcmp(mnl_attr_get_str(name), ROCECTL_MCGRP_EVENTS))
		nl->events_group = mnl_attr_get_u32(id);
	return MNL_CB_OK;
}

static int nl_family_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl *nl = data;
	const struct nlattr *grp;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			nl->family_id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_VERSION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			nl->family_version = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		mnl_attr_for_each_nested(grp, attr)
			nl_group_cb(grp, nl);
		break;
	}
	return MNL_CB_OK;
}

static int nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, GENL_HDRLEN, nl_family_attr_cb, data) < 0 ?
	       MNL_CB_ERROR : MNL_CB_OK;
}

/*
 * udev announces a module before its init runs: a command started by that
 * event (the policy's re-apply) waits for the family instead of failing.
 */
static void nl_wait_module_live(void)
{
	char state[16];
	int tries;

	for (tries = 0; tries < 200; tries++) {
		FILE *f = fopen("/sys/module/rocectl/initstate", "r");
		bool coming;

		if (!f)
			return;
		coming = fgets(state, sizeof(state), f) && !strncmp(state, "coming", 6);
		fclose(f);
		if (!coming)
			return;
		usleep(50000);
	}
}

int nl_open(struct nl *nl, bool quiet)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;
	struct nl_error e;
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	/* The second half keeps a copy of the request in flight. */
	nl->buf = malloc(2 * NL_BUF_SIZE);
	if (!nl->buf) {
		pr_err("Error: out of memory.\n");
		return EXIT_FAILED;
	}
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock) {
		pr_err("Error: cannot open a generic netlink socket: %s.\n",
			strerror(errno));
		nl_close(nl);
		return EXIT_FAILED;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		pr_err("Error: cannot bind the netlink socket: %s.\n",
			strerror(errno));
		nl_close(nl);
		return EXIT_FAILED;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = time(NULL);
	nl_wait_module_live();

	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ROCECTL_GENL_NAME);

	if (nl_exchange(nl, nlh, nl_family_cb, nl, &e) < 0) {
		nl_close(nl);
		if (e.err == ENOENT) {
			/*
			 * The family lives in the initial network namespace
			 * only; from a pod's or container's, the module is
			 * loaded (sysfs says so) but its family is not there.
			 */
			bool loaded = !access("/sys/module/rocectl/initstate", F_OK);

			if (!quiet && !loaded)
				pr_err("Error: the rocectl kernel module is not loaded: run modprobe rocectl.\n");
			else if (!quiet)
				pr_err("Error: the rocectl kernel module is loaded, but its netlink family is in the host's initial network namespace only, not this one: run rocectl there (nsenter --net=/proc/1/ns/net, or from a hostNetwork pod).\n");
			return EXIT_NO_MODULE;
		}
		return quiet ? EXIT_FAILED : nl_report(nl, &e);
	}
	if (!nl->family_id) {
		pr_err("Error: the kernel did not say which id the rocectl family has.\n");
		nl_close(nl);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

bool nl_rdma_hwcounter(const struct nlattr *entry, const char **name, uint64_t *value)
{
	const struct nlattr *f, *n = NULL, *v = NULL;

	if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY ||
	    mnl_attr_validate(entry, MNL_TYPE_NESTED) < 0)
		return false;
	mnl_attr_for_each_nested(f, entry) {
		if (mnl_attr_get_type(f) == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME && !n)
			n = mnl_attr_validate(f, MNL_TYPE_NUL_STRING) < 0 ? NULL : f;
		else if (mnl_attr_get_type(f) == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE && !v)
			v = mnl_attr_validate(f, MNL_TYPE_U64) < 0 ? NULL : f;
	}
	if (!n || !v || !*mnl_attr_get_str(n))
		return false;
	*name = mnl_attr_get_str(n);
	*value = mnl_attr_get_u64(v);
	return true;
}

int nl_open_rdma(struct nl *nl)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->buf = malloc(2 * NL_BUF_SIZE);
	nl->sock = nl->buf ? mnl_socket_open(NETLINK_RDMA) : NULL;
	if (!nl->sock || mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		pr_err("Error: cannot open an RDMA netlink socket: %s.\n",
			strerror(errno));
		nl_close(nl);
		return EXIT_FAILED;
	}
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = time(NULL);
	nl->rdma = true;
	nl_wait_module_live();
	return EXIT_OK;
}

struct nlmsghdr *nl_request_rdma(struct nl *nl, uint16_t op, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	free(nl->buf);
	nl->sock = NULL;
	nl->buf = NULL;
}

int nl_subscribe(struct nl *nl)
{
	if (!nl->events_group) {
		pr_err("Error: the rocectl module has no \"%s\" group.\n",
			ROCECTL_MCGRP_EVENTS);
		return EXIT_FAILED;
	}
	/*
	 * And the controller's "notify" group, whose id is the controller's
	 * (as iproute2's genl monitor joins it): the family's removal ends
	 * the events, and nothing else says so.
	 */
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
				  &nl->events_group, sizeof(nl->events_group)) < 0 ||
	    mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
				  &(unsigned int){ GENL_ID_CTRL }, sizeof(unsigned int)) < 0) {
		pr_err("Error: cannot join the rocectl events group: %s.\n",
			strerror(errno));
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

/*
 * Whether nlh is the controller announcing that nl's family is gone (the
 * module unloaded). A later family of the same name has another id.
 */
static int nl_family_gone_cb(const struct nlattr *attr, void *data)
{
	bool *ours = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_NAME &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0 &&
	    !strcmp(mnl_attr_get_str(attr), ROCECTL_GENL_NAME))
		*ours = true;
	return MNL_CB_OK;
}

bool nl_family_gone(const struct nl *nl, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	bool ours = false;

	if (nlh->nlmsg_type != GENL_ID_CTRL ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN ||
	    genl->cmd != CTRL_CMD_DELFAMILY)
		return false;
	mnl_attr_parse(nlh, GENL_HDRLEN, nl_family_gone_cb, &ours);
	return ours && nl->family_id;
}

/* Until a signal interrupts the wait, or cb says stop (MNL_CB_STOP). */
int nl_listen(struct nl *nl, mnl_cb_t cb, void *data)
{
	int ret;

	for (;;) {
		ret = mnl_socket_recvfrom(nl->sock, nl->buf, NL_BUF_SIZE);
		if (ret < 0) {
			if (errno == EINTR)
				return EXIT_OK;
			if (errno == ENOBUFS) {
				pr_err("Warning: events were lost: the receive buffer overflowed.\n");
				continue;
			}
			pr_err("Error: receiving events: %s.\n", strerror(errno));
			return EXIT_FAILED;
		}
		ret = mnl_cb_run(nl->buf, ret, 0, 0, cb, data);
		if (ret < 0) {
			pr_err("Error: a malformed event: %s.\n", strerror(errno));
			return EXIT_FAILED;
		}
		if (ret == MNL_CB_STOP)
			return EXIT_OK;
	}
}
