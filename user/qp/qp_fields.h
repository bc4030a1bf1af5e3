/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A QP as users read it: names, and printing shared by `qp show`,
 * `qp stats` and `monitor`.
 */
#ifndef ROCECTL_QP_FIELDS_H
#define ROCECTL_QP_FIELDS_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/rocectl.h>

struct qp_sport_hw;

/* The identity fields of one QP message. */
void qp_print_fields(const struct nlattr **tb, bool details);
/*
 * Whose job: a cgroup id's path, pod, Slurm job and container (workload.c), as
 * qp show prints them; nothing for the root cgroup or 0.
 */
void qp_print_workload(uint64_t cgroup_id);
/* A failure record's own fields (qp errors, monitor): cause, time, history. */
void qp_print_error(const struct nlattr **tb);
extern const char *const qp_error_cause_names[ROCECTL_QP_ERROR_CAUSE_DRIVER + 1];
const char *qp_error_cause_name(unsigned int cause);
/* The hardware's source ports qp_print_fields shows from now (NULL: none). */
void qp_fields_sport_hw(const struct qp_sport_hw *h);
/* Its counters, labelled with where they come from. */
void qp_print_stats(const struct nlattr **tb);

/* The module's per-QP counters: QP_NSTATS of them, in attribute order. */
#define QP_STAT_FIRST	ROCECTL_A_QP_STAT_TX_PACKETS
#define QP_NSTATS	(ROCECTL_A_QP_STAT_MAX - QP_STAT_FIRST + 1)
#define QP_SOURCE	"module"	/* computed from the packets it sees */
/* The name of counter i (0 .. QP_NSTATS - 1), as users read it. */
const char *qp_stat_name(unsigned int i);
/* The counters of a ROCECTL_A_QP_STATS nest into v; false if none. */
bool qp_stat_values(const struct nlattr *nest, uint64_t *v);
/* QP_NSTATS counters in a "counters" object, with their source beside them. */
void qp_print_counters(const uint64_t *v, const char *indent);

/* The names users read and type, by value (NULL: none). */
extern const char *const qp_type_names[ROCECTL_QPT_DRIVER + 1];
extern const char *const qp_state_names[ROCECTL_QPS_ERR + 1];
/* The counters', by attribute (ROCECTL_A_QP_STAT_*). */
extern const char *const qp_stat_names[ROCECTL_A_QP_STAT_MAX + 1];

const char *qp_type_name(unsigned int type);
const char *qp_state_name(unsigned int state);
/*
 * Whether a QP of the module's dump (its attributes tb) is alive -- ready
 * to receive or send: RTR, RTS, SQD, SQE -- on port (or names no port).
 */
bool qp_live_on(const struct nlattr *const *tb, uint32_t port);
const char *qp_prio_source_name(unsigned int source);
/* A GID as an address: IPv4 for IPv4-mapped GIDs, IPv6 otherwise. */
void qp_format_gid(const unsigned char *gid, char *buf, size_t len);

#endif
