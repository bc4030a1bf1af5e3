/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qp path's plan, free of sockets so that the unit tests drive it: the
 * probe's transport header, which QPs one trace serves (those sharing
 * every hashed header), how far a trace may go toward a destination whose
 * distance it has learned, and the pace of probes (a rate, jitter, backoff
 * while hops stay silent).
 */
#ifndef ROCECTL_PATH_PLAN_H
#define ROCECTL_PATH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BTH (12 bytes) and ICRC (4): no payload. */
#define PATH_PROBE_LEN		16
/*
 * An opcode of the CNP range that is not the CNP (0x81): no RC, UC, UD or
 * XRC responder takes it, and none answers it (a transport mismatch is a
 * silent drop; a reserved RC opcode would draw a NAK that errors the QP).
 */
#define PATH_PROBE_OPCODE	0x80
/* RoCEv2's destination port: the probe's, as the QP's packets carry it. */
#define PATH_ROCE_PORT		4791

/* The headers a switch may hash, as the QP's packets carry them. */
struct path_target {
	uint8_t src[16], dst[16];	/* GIDs: IPv4-mapped for IPv4 */
	uint16_t sport;
	uint8_t tclass;			/* DSCP << 2 | ECN */
	uint32_t dqpn;
};

/*
 * The probe's payload for t: the BTH with t's destination QPN, the probe
 * opcode, P_Key 0xffff, PSN psn, then an ICRC of zero.
 */
void path_probe_build(const struct path_target *t, uint32_t psn,
		      uint8_t buf[PATH_PROBE_LEN]);
/* Whether a gid is IPv4-mapped (::ffff:a.b.c.d). */
bool path_gid_is_v4(const uint8_t gid[16]);
/* Whether two QPs' probes would be hashed alike: one trace serves both. */
bool path_same_headers(const struct path_target *a, const struct path_target *b);

/* The distances learned, per destination, in this run. */
struct path_dist {
	uint8_t dst[16];
	unsigned int hops;	/* the first TTL no hop answered */
};

struct path_dists {
	struct path_dist *d;
	size_t n, cap;
};

/*
 * The highest TTL a probe to dst may carry: max_hops until its distance
 * is known, then one less than that distance (0: none may be sent).
 */
unsigned int path_ttl_limit(const struct path_dists *ds, const uint8_t dst[16],
			    unsigned int max_hops);
/*
 * No hop answered a probe of TTL ttl toward dst: the destination is there
 * or a silent router is, so no later probe to dst goes that far. -1 if
 * out of memory.
 */
int path_learn(struct path_dists *ds, const uint8_t dst[16], unsigned int ttl);
void path_dists_free(struct path_dists *ds);

/* The pace: at most rate probes a second, each gap stretched by jitter. */
struct path_pace {
	unsigned int rate;	/* probes a second, at least 1 */
	unsigned int silent;	/* unanswered probes in a row */
};

/*
 * Nanoseconds from one probe to the next: 1 s / rate times 1 + jitter / 2
 * (jitter from 0 to 1, the caller's random draw), doubled for each of the
 * last unanswered probes in a row, up to 16 times.
 */
uint64_t path_pace_gap_ns(const struct path_pace *p, double jitter);
/* A probe was answered (true) or not: the backoff follows. */
void path_pace_result(struct path_pace *p, bool answered);

#endif
