/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl exporter: Prometheus metrics over HTTP, or a textfile. */
#ifndef ROCECTL_EXPORTER_CMD_H
#define ROCECTL_EXPORTER_CMD_H

struct rocectl;

/* The object's handler: consumes rc->argv, returns an exit code. */
int cmd_exporter(struct rocectl *rc);

#endif
