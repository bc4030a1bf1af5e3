// SPDX-License-Identifier: GPL-2.0
/* rocectl monitor: print the module's events until interrupted. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "dev/dev.h"
#include "journal.h"
#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/optional_libs.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "monitor.h"
#include "qp/qp_fields.h"
#include "watchdog/watchdog.h"

#define JOURNAL_SOCKET	"/run/systemd/journal/socket"

/* Which objects' events to print. */
#define MON_DEV (1U << 0)
#define MON_QP (1U << 1)
#define MON_WD (1U << 2)

struct monitor {
	struct rocectl *rc;
	struct nl req;	/* the listener's requests: WD_GET for owners */
	struct wd_owners owners;
	unsigned int objects;
	bool journal;	/* to the journal, not standard output */
	bool gone;	/* the module unloaded: no more events will come */
	int err;	/* the journal refused an entry: -errno */
};

static void monitor_on_signal(int sig)
{
	(void)sig;	/* only here so that the wait for events is interrupted */
}

static const char *dev_event_name(unsigned int cmd)
{
	switch (cmd) {
	case ROCECTL_CMD_DEV_ADD_NTF:
		return "add";
	case ROCECTL_CMD_DEV_DEL_NTF:
		return "del";
	case ROCECTL_CMD_DEV_RENAME_NTF:
		return "rename";
	default:
		return NULL;
	}
}

static const char *qp_event_name(unsigned int cmd)
{
	switch (cmd) {
	case ROCECTL_CMD_QP_CREATE_NTF:
		return "create";
	case ROCECTL_CMD_QP_MODIFY_NTF:
		return "modify";
	case ROCECTL_CMD_QP_DESTROY_NTF:
		return "destroy";
	case ROCECTL_CMD_QP_ERROR_NTF:
		return "error";
	default:
		return NULL;
	}
}

static void print_event(const struct monitor *mon, uint8_t cmd, const struct nlmsghdr *nlh,
			const struct nlattr **tb, const char *object, const char *event,
			bool is_dev)
{
	out_open_object(NULL);
	if (!event) {
		/* The watchdog's event name is in the message itself. */
		out_str("object", "[%s] ", object);
		wd_print_fields(nlh, tb, mon->rc->details);
		goto done;
	}
	out_str("object", "[%s ", object);
	out_str("event", "%s] ", event);
	if (is_dev) {
		dev_print_fields(nlh, tb, mon->rc->details);
	} else {
		if (cmd == ROCECTL_CMD_QP_ERROR_NTF)
			qp_print_error(tb);
		qp_print_fields(tb, mon->rc->details);
		if (cmd == ROCECTL_CMD_QP_DESTROY_NTF || cmd == ROCECTL_CMD_QP_ERROR_NTF)
			qp_print_stats(tb);
	}
done:
	out_close_object();
	out_nl();
}

/* The event as print_event prints it, in text or JSON, without the newline. */
static char *render(const struct monitor *mon, uint8_t cmd, const struct nlmsghdr *nlh,
		    const struct nlattr **tb, const char *object, const char *event,
		    bool is_dev, bool json)
{
	char *buf = NULL, *r, *w;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	out_init(f, json, false);
	print_event(mon, cmd, nlh, tb, object, event, is_dev);
	out_flush();
	fclose(f);
	/* Without the blanks the text printer leaves at line ends. */
	for (r = w = buf; *r; r++) {
		if (*r == '\n')
			while (w > buf && w[-1] == ' ')
				w--;
		*w++ = *r;
	}
	while (w > buf && (w[-1] == '\n' || w[-1] == ' '))
		w--;
	*w = '\0';
	return buf;
}

static int to_journal(struct monitor *mon, uint8_t cmd, const struct nlmsghdr *nlh,
		      const struct nlattr **tb, const char *object, const char *event,
		      bool is_dev)
{
	char *text = render(mon, cmd, nlh, tb, object, event, is_dev, false);
	char *json = render(mon, cmd, nlh, tb, object, event, is_dev, true);
	int err = -ENOMEM;

	if (!event && tb[ROCECTL_A_WD_EVENT])
		event = wd_event_name(mnl_attr_get_u8(tb[ROCECTL_A_WD_EVENT]));
	if (text && json)
		err = journal_event(object, event ? event : "", nlh, tb, text, json);
	free(text);
	free(json);
	if (err) {
		mon->err = err;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	struct monitor *mon = data;
	const char *event, *object;
	bool is_dev;

	if (nl_family_gone(&mon->rc->nl, nlh)) {
		mon->gone = true;
		return MNL_CB_STOP;
	}
	if (nlh->nlmsg_type != mon->rc->nl.family_id ||
	    mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return MNL_CB_OK;

	if ((event = dev_event_name(genl->cmd)) && (mon->objects & MON_DEV))
		object = "dev", is_dev = true;
	else if ((event = qp_event_name(genl->cmd)) && (mon->objects & MON_QP))
		object = "qp", is_dev = false;
	else if (genl->cmd == ROCECTL_CMD_WD_EVENT_NTF && (mon->objects & MON_WD))
		object = "watchdog", event = NULL, is_dev = false;
	else
		return MNL_CB_OK;
	if (attrs_parse(nlh, tb) < 0)
		return MNL_CB_OK;

	/*
	 * A storm's processes: an event names none of a user (its multicast
	 * reaches every pid namespace); what this listener may see of them
	 * is what WD_GET shows it, read now (rocectl(8), PERMISSIONS).
	 */
	wd_print_owners(NULL);
	if (genl->cmd == ROCECTL_CMD_WD_EVENT_NTF &&
	    (mon->req.sock || !nl_open(&mon->req, true)) &&
	    !wd_event_owners(&mon->req, tb, &mon->owners))
		wd_print_owners(&mon->owners);

	if (mon->journal)
		return to_journal(mon, genl->cmd, nlh, tb, object, event, is_dev);
	print_event(mon, genl->cmd, nlh, tb, object, event, is_dev);
	return MNL_CB_OK;
}

static int monitor_help(struct rocectl *rc)
{
	(void)rc;
	printf("Usage: rocectl monitor [ all | dev | qp | watchdog ]... [ journal ]\n"
	       "Prints the module's events as they happen, until interrupted:\n"
	       "  dev    RDMA devices added, removed or renamed\n"
	       "  qp     QPs created, changing state, destroyed (with lifetime counters)\n"
	       "  watchdog  PFC storms detected, actions, restorations, with evidence\n"
	       "With -j, one JSON object per line. With journal, each event is a\n"
	       "structured entry of the systemd journal instead (ROCECTL_EVENT, ...).\n");
	return EXIT_OK;
}

int cmd_monitor(struct rocectl *rc)
{
	struct monitor mon = { .rc = rc, .objects = 0 };
	const char *word;
	int err;

	while ((word = arg_next(rc))) {
		if (matches(word, "help"))
			return monitor_help(rc);
		else if (matches(word, "all"))
			mon.objects |= ~0U;
		else if (matches(word, "dev"))
			mon.objects |= MON_DEV;
		else if (matches(word, "qp"))
			mon.objects |= MON_QP;
		else if (matches(word, "watchdog"))
			mon.objects |= MON_WD;
		else if (!strcmp(word, "journal"))
			mon.journal = true;
		else {
			pr_err("Error: unknown monitor object \"%s\": try \"rocectl monitor help\".\n",
				word);
			return EXIT_USAGE;
		}
	}
	if (!mon.objects)
		mon.objects = ~0U;
	/* sd-journal drops entries silently when there is no journal: say so first. */
	if (mon.journal && access(JOURNAL_SOCKET, F_OK)) {
		pr_err("Error: no systemd journal to write to (%s: %s).\n", JOURNAL_SOCKET,
		       strerror(errno));
		return EXIT_FAILED;
	}
	if (mon.journal && journal_lib_load())
		return EXIT_FAILED;

	err = rocectl_connect(rc);
	if (!err)
		err = nl_subscribe(&rc->nl);
	if (err)
		return err;

	stop_on_signals(monitor_on_signal);

	err = nl_listen(&rc->nl, monitor_cb, &mon);
	if (mon.req.sock)
		nl_close(&mon.req);
	if (!err && mon.err) {
		pr_err("Error: the journal refused an event: %s.\n", strerror(-mon.err));
		return EXIT_FAILED;
	}
	if (!err && mon.gone) {
		pr_err("Error: the rocectl kernel module was unloaded: no more events.\n");
		return EXIT_NO_MODULE;
	}
	return err;
}
