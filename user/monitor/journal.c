// SPDX-License-Identifier: GPL-2.0
/*
 * The module's events as journal entries (sd-journal): the line rocectl
 * monitor prints as MESSAGE, the event as JSON, and fields a log pipeline
 * can match on without parsing: ROCECTL_OBJECT, ROCECTL_EVENT,
 * ROCECTL_DEV, ROCECTL_PORT, ROCECTL_QPN, ROCECTL_NETDEV, ROCECTL_PRIO.
 * Storms and what the watchdog does about them are warnings; a refused
 * action or a NIC stall error is an error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/uio.h>
#include <linux/genetlink.h>
#include <linux/rocectl.h>

#include "journal.h"
#include "lib/attrs.h"
#include "lib/optional_libs.h"

#define MAX_FIELDS	12

struct fields {
	struct iovec iov[MAX_FIELDS];
	char *buf[MAX_FIELDS];
	int n;
};

static void add(struct fields *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct fields *f, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	if (f->n == MAX_FIELDS)
		return;
	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	f->buf[f->n] = s;
	f->iov[f->n].iov_base = s;
	f->iov[f->n].iov_len = len;
	f->n++;
}

static int priority(const char *object, const char *event)
{
	static const struct {
		const char *event;
		int prio;
	} wd[] = {
		{ "detect", LOG_WARNING }, { "action", LOG_WARNING },
		{ "action-failed", LOG_ERR }, { "restore", LOG_NOTICE },
		{ "conflict", LOG_WARNING }, { "gone", LOG_WARNING },
		{ "nic-stall-warning", LOG_WARNING }, { "nic-stall-error", LOG_ERR },
	};
	size_t i;

	if (strcmp(object, "watchdog"))
		return LOG_INFO;
	for (i = 0; i < ARRAY_SIZE(wd); i++)
		if (!strcmp(event, wd[i].event))
			return wd[i].prio;
	return LOG_NOTICE;
}

int journal_event(const char *object, const char *event, const struct nlmsghdr *nlh,
		  const struct nlattr **tb, const char *text, const char *json)
{
	struct fields f = { .n = 0 };
	const struct nlattr *a;
	char prios[24] = "";
	int err, i;

	add(&f, "MESSAGE=%s", text);
	add(&f, "PRIORITY=%d", priority(object, event));
	add(&f, "SYSLOG_IDENTIFIER=rocectl");
	add(&f, "ROCECTL_OBJECT=%s", object);
	add(&f, "ROCECTL_EVENT=%s", event);
	add(&f, "ROCECTL_JSON=%s", json);
	if (tb[ROCECTL_A_DEV_NAME])
		add(&f, "ROCECTL_DEV=%s", mnl_attr_get_str(tb[ROCECTL_A_DEV_NAME]));
	if (tb[ROCECTL_A_QP_NUM])
		add(&f, "ROCECTL_QPN=%u", mnl_attr_get_u32(tb[ROCECTL_A_QP_NUM]));
	if (tb[ROCECTL_A_QP_PORT])
		add(&f, "ROCECTL_PORT=%u", mnl_attr_get_u32(tb[ROCECTL_A_QP_PORT]));
	else if (tb[ROCECTL_A_WD_PORT])
		add(&f, "ROCECTL_PORT=%u", mnl_attr_get_u32(tb[ROCECTL_A_WD_PORT]));
	if (tb[ROCECTL_A_NETDEV_NAME])
		add(&f, "ROCECTL_NETDEV=%s", mnl_attr_get_str(tb[ROCECTL_A_NETDEV_NAME]));
	/* The priorities the event is about: "3", or "3,4". */
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		const struct nlattr *p[ROCECTL_A_WDP_MAX + 1];
		size_t used = strlen(prios);

		if (mnl_attr_get_type(a) == ROCECTL_A_WD_PRIO &&
		    !mnl_attr_validate(a, MNL_TYPE_NESTED) && attrs_parse_wd_prio(a, p) >= 0 &&
		    p[ROCECTL_A_WDP_PRIO] && used + 4 < sizeof(prios))
			snprintf(prios + used, sizeof(prios) - used, "%s%u", used ? "," : "",
				 mnl_attr_get_u8(p[ROCECTL_A_WDP_PRIO]));
	}
	if (*prios)
		add(&f, "ROCECTL_PRIO=%s", prios);
	err = journal_lib.sendv(f.iov, f.n);
	for (i = 0; i < f.n; i++)
		free(f.buf[i]);
	return err;
}
