/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Talking to the rocectl generic netlink family with libmnl: family and
 * group resolution, requests, and errors turned into sentences.
 */
#ifndef ROCECTL_NL_H
#define ROCECTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* Each socket's receive buffer (nl->buf holds two: replies, the request). */
#define NL_BUF_SIZE (64 * 1024)

struct nl {
	struct mnl_socket *sock;
	char *buf;
	uint16_t family_id;
	uint32_t family_version;
	uint32_t events_group;
	uint32_t portid;
	uint32_t seq;
	const struct nlmsghdr *req;	/* the request in flight, for error offsets */
	bool interrupted;		/* the dump saw NLM_F_DUMP_INTR */
	bool rdma;			/* NETLINK_RDMA: no genl header, nldev attributes */
};

/* What the kernel said about a refused request. */
struct nl_error {
	int err;		/* errno, positive; 0: no error */
	char msg[256];		/* the extack message, or "" */
	char attr[96];		/* the attribute the extack points at, or "" */
	char missing[48];	/* the attribute the extack says is missing, or "" */
};

/* Returns an exit code (EXIT_OK on success) after printing any error. */
int nl_open(struct nl *nl, bool quiet);
void nl_close(struct nl *nl);

/* A request for cmd in nl->buf; add attributes with mnl_attr_put_*(). */
struct nlmsghdr *nl_request(struct nl *nl, uint8_t cmd, uint16_t flags);

/*
 * Send the request and feed every reply message to cb (NULL: expect an
 * ack only). Returns an exit code after printing any error.
 */
int nl_run(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/*
 * The same; a dump interrupted by a concurrent change (NLM_F_DUMP_INTR)
 * is run again, with restart(data) called first so that the callback's
 * state starts over. What the callback printed is printed once. Objects
 * that never stop changing get the last attempt, with a warning.
 */
int nl_run_restart(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		   void *data, void (*restart)(void *data));

/*
 * nl_run_restart without the error message: 0, or -errno with what the
 * kernel said in *e, for a caller that explains the refusal itself.
 */
int nl_run_quiet(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		 void *data, void (*restart)(void *data), struct nl_error *e);

/*
 * One pass of the request, even if the dump was interrupted by a
 * concurrent change (nl->interrupted says so): for a reader that copes
 * with an object missed or seen twice, and must not wait for objects
 * that never stop changing. 0, or -errno with what the kernel said in *e.
 */
int nl_run_once(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
		struct nl_error *e);

/* Prints e as nl_run does, for the socket's family; returns EXIT_FAILED. */
int nl_report(const struct nl *nl, const struct nl_error *e);

/* A socket for the RDMA core's own netlink (NETLINK_RDMA), as rdma(8) uses. */
int nl_open_rdma(struct nl *nl);
struct nlmsghdr *nl_request_rdma(struct nl *nl, uint16_t op, uint16_t flags);

/*
 * One RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY of an RDMA reply: its name and
 * value, or false when it is malformed (wrong types, no or empty name).
 */
bool nl_rdma_hwcounter(const struct nlattr *entry, const char **name, uint64_t *value);

/* Join the events group; then nl_listen() feeds notifications to cb. */
int nl_subscribe(struct nl *nl);
int nl_listen(struct nl *nl, mnl_cb_t cb, void *data);
/* Whether nlh, from the controller's group, says nl's family was removed. */
bool nl_family_gone(const struct nl *nl, const struct nlmsghdr *nlh);

/* The name of a top-level attribute, for error messages. */
const char *nl_attr_name(unsigned int type);
/* The same for the RDMA core's nldev attributes (the uapi's names). */
const char *nl_rdma_attr_name(unsigned int type);

/* What the user reads when the kernel refuses a request (exported for tests). */
void nl_print_error(FILE *f, int err, const char *msg, const char *attr,
		    const char *missing);
/* The same for a request to the RDMA core (NETLINK_RDMA). */
void nl_print_rdma_error(FILE *f, int err, const char *msg, const char *attr,
			 const char *missing);

#endif
