/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl monitor: the module's events, as they come, in text, JSON or the journal. */
#ifndef ROCECTL_MONITOR_CMD_H
#define ROCECTL_MONITOR_CMD_H

struct rocectl;

/* The object's handler: consumes rc->argv, returns an exit code. */
int cmd_monitor(struct rocectl *rc);

#endif
