// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl qp errors: the module's last QP failure records, oldest first,
 * kept after their QPs are destroyed -- who the QP was, how the kernel
 * learnt of the failure, the QP's last states and its counters then.
 */
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "lib/attrs.h"
#include "lib/errors.h"
#include "lib/output.h"
#include "lib/rocectl.h"
#include "lib/utils.h"
#include "qp_errors.h"
#include "qp_fields.h"

static int qp_errors_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECTL_A_MAX + 1];
	const struct rocectl *rc = data;

	if (attrs_parse(nlh, tb) < 0 || !tb[ROCECTL_A_QP_ERROR_SEQ])
		return MNL_CB_OK;
	out_open_object(NULL);
	qp_print_error(tb);
	qp_print_fields(tb, rc->details);
	qp_print_stats(tb);
	out_close_object();
	out_nl();
	return MNL_CB_OK;
}

int qp_errors(struct rocectl *rc)
{
	struct nlmsghdr *nlh;
	const char *dev = NULL, *w;
	int err = EXIT_OK;

	while (!err && (w = arg_next(rc))) {
		if (!strcmp(w, "dev")) {
			dev = arg_next(rc);
			err = check_dev_name(dev, "an RDMA device");
		} else {
			pr_err("Error: unknown qp errors argument \"%s\": try \"rocectl qp help\".\n", w);
			err = EXIT_USAGE;
		}
	}
	if (!err)
		err = rocectl_connect(rc);
	if (err)
		return err;
	nlh = nl_request(&rc->nl, ROCECTL_CMD_QP_ERROR_GET, NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, ROCECTL_A_DEV_NAME, dev);
	out_begin_list();
	err = nl_run(&rc->nl, nlh, qp_errors_cb, rc);
	out_end_list();
	return err;
}
