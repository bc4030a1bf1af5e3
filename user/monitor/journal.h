/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl monitor journal: the module's events as structured journal entries. */
#ifndef ROCECTL_JOURNAL_H
#define ROCECTL_JOURNAL_H

#include <libmnl/libmnl.h>

/*
 * One event: text is its line as rocectl monitor prints it (MESSAGE), json
 * its JSON object (ROCECTL_JSON); the fields come from the message itself.
 * 0, or -errno from sd_journal_sendv().
 */
int journal_event(const char *object, const char *event, const struct nlmsghdr *nlh,
		  const struct nlattr **tb, const char *text, const char *json);

#endif
