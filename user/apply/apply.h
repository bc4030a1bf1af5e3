/* SPDX-License-Identifier: GPL-2.0 */
/* rocectl apply: the policy file's configuring lines. */
#ifndef ROCECTL_APPLY_CMD_H
#define ROCECTL_APPLY_CMD_H

struct rocectl;

/* The object's handler: consumes rc->argv, returns an exit code. */
int cmd_apply(struct rocectl *rc);

#endif
