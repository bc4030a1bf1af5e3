// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/mlx5/port.c driven by a fake firmware: an access_reg that keeps a
 * PFCC register and per-priority PPCNT counters, reads requests and writes
 * answers at the offsets ifc_layout.py parsed from linux/mlx5/mlx5_ifc.h,
 * applies PFCC writes as the PRM says, records every call, and fails the
 * Nth one on request.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../../kernel/backend/backend.h"
#include "../../../kernel/mlx5/port.h"
#define ROCECTL_MLX5_TEST_INTERNAL
#include "mlx5_test.h"

#define NPRIO	8
enum { C_RX_FRAMES, C_TX_FRAMES, C_RX_PAUSE, C_TX_PAUSE, C_RX_PAUSE_US,
       C_TX_PAUSE_US, C_STALL_MINOR, C_STALL_CRITICAL, C_NUM };

struct pfcc_state {
	u8 pfctx, pfcrx, pptx, pprx, ppan;
	u16 minor, critical;
};

struct call {
	u16 reg;
	bool write;
	int ret;
	u8 local_port, grp, prio, clr;	/* PPCNT */
	unsigned char in[PFCC_BYTES];	/* PFCC */
};

struct fw {
	u8 local_port;
	bool pfcc_mask_cap;		/* the *_mask_n and stall masks exist */
	struct pfcc_state pfcc;
	unsigned long long ctr[NPRIO][C_NUM];
	int fail_at, fail_err;		/* 1-based call number, errno */
	int ncalls, nwrites;
	struct call calls[32];
	char error[256];		/* a request the PRM would not accept */
};

static void fw_error(struct fw *fw, const char *msg, int n)
{
	if (!fw->error[0])
		snprintf(fw->error, sizeof(fw->error), "call %d: %s", n, msg);
}

static void ppcnt_set_ctr(unsigned char *out, const char *name, unsigned long long v)
{
	char n[64];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(ifc_fields_eth_per_prio_grp_data_layout); i++) {
		const struct ifc_field *f = &ifc_fields_eth_per_prio_grp_data_layout[i];

		snprintf(n, sizeof(n), "%s_high", name);
		if (!strcmp(f->name, n))
			bits_set(out, IFC_OFF_ppcnt_reg__counter_set + f->off, 32, v >> 32);
		snprintf(n, sizeof(n), "%s_low", name);
		if (!strcmp(f->name, n))
			bits_set(out, IFC_OFF_ppcnt_reg__counter_set + f->off, 32, v & 0xffffffff);
	}
}

static const char *const ctr_names[C_NUM] = {
	"rx_frames", "tx_frames", "rx_pause", "tx_pause", "rx_pause_duration",
	"tx_pause_duration", "device_stall_minor_watermark_cnt",
	"device_stall_critical_watermark_cnt",
};

static int fw_ppcnt(struct fw *fw, struct call *c, const void *in, void *out, int n)
{
	unsigned int i;

	c->local_port = bits_get(in, F(ppcnt_reg, local_port));
	c->grp = bits_get(in, F(ppcnt_reg, grp));
	c->prio = bits_get(in, F(ppcnt_reg, prio_tc));
	c->clr = bits_get(in, F(ppcnt_reg, clr));
	if (c->write) {
		fw_error(fw, "PPCNT written", n);
		return -EINVAL;
	}
	if (c->local_port != fw->local_port || c->grp != IFC_MLX5_PER_PRIORITY_COUNTERS_GROUP ||
	    c->clr || bits_get(in, F(ppcnt_reg, swid)) || bits_get(in, F(ppcnt_reg, pnat))) {
		fw_error(fw, "PPCNT query is not local_port/per-priority group/no clear", n);
		return -EINVAL;
	}
	/* The answer: the request's header, then the group. */
	memcpy(out, in, IFC_OFF_ppcnt_reg__counter_set / 8);
	for (i = 0; i < IFC_COUNT(ifc_fields_eth_per_prio_grp_data_layout); i++) {
		const struct ifc_field *f = &ifc_fields_eth_per_prio_grp_data_layout[i];

		if (f->width == 32)	/* octets, discards, transitions: decoys */
			bits_set(out, IFC_OFF_ppcnt_reg__counter_set + f->off, 32,
				 0xdead0000 + c->prio * 0x100 + i);
	}
	for (i = 0; i < C_NUM; i++)
		ppcnt_set_ctr(out, ctr_names[i], fw->ctr[c->prio][i]);
	return 0;
}

static void fw_pfcc_answer(const struct fw *fw, void *out)
{
	bits_set(out, F(pfcc_reg, local_port), fw->local_port);
	bits_set(out, F(pfcc_reg, pfctx), fw->pfcc.pfctx);
	bits_set(out, F(pfcc_reg, pfcrx), fw->pfcc.pfcrx);
	bits_set(out, F(pfcc_reg, pptx), fw->pfcc.pptx);
	bits_set(out, F(pfcc_reg, pprx), fw->pfcc.pprx);
	bits_set(out, F(pfcc_reg, ppan), fw->pfcc.ppan);
	bits_set(out, F(pfcc_reg, aptx), fw->pfcc.pptx);
	bits_set(out, F(pfcc_reg, aprx), fw->pfcc.pprx);
	bits_set(out, F(pfcc_reg, device_stall_minor_watermark), fw->pfcc.minor);
	bits_set(out, F(pfcc_reg, device_stall_critical_watermark), fw->pfcc.critical);
}

/* A PFCC write, as the PRM has it. */
static void fw_pfcc_write(struct fw *fw, const void *in)
{
	struct pfcc_state *s = &fw->pfcc;
	unsigned int mtx = bits_get(in, F(pfcc_reg, prio_mask_tx));
	unsigned int mrx = bits_get(in, F(pfcc_reg, prio_mask_rx));
	/* Reserved bits on firmware without the pfcc_mask feature. */
	bool cap = fw->pfcc_mask_cap;

	s->pfctx = (s->pfctx & ~mtx) | (bits_get(in, F(pfcc_reg, pfctx)) & mtx);
	s->pfcrx = (s->pfcrx & ~mrx) | (bits_get(in, F(pfcc_reg, pfcrx)) & mrx);
	if (!cap || !bits_get(in, F(pfcc_reg, pptx_mask_n)))
		s->pptx = bits_get(in, F(pfcc_reg, pptx));
	if (!cap || !bits_get(in, F(pfcc_reg, pprx_mask_n)))
		s->pprx = bits_get(in, F(pfcc_reg, pprx));
	if (!cap || !bits_get(in, F(pfcc_reg, ppan_mask_n)))
		s->ppan = bits_get(in, F(pfcc_reg, ppan));
	if (cap && bits_get(in, F(pfcc_reg, minor_stall_mask)))
		s->minor = bits_get(in, F(pfcc_reg, device_stall_minor_watermark));
	if (cap && bits_get(in, F(pfcc_reg, critical_stall_mask)))
		s->critical = bits_get(in, F(pfcc_reg, device_stall_critical_watermark));
}

static int fw_access_reg(void *ctx, u32 *in, int inlen, u32 *out, int outlen,
			 u16 reg_id, bool write)
{
	struct fw *fw = ctx;
	int n = ++fw->ncalls;
	struct call *c = &fw->calls[n <= 32 ? n - 1 : 31];
	int size = reg_id == IFC_MLX5_REG_PPCNT ? PPCNT_BYTES : PFCC_BYTES;

	memset(c, 0, sizeof(*c));
	c->reg = reg_id;
	c->write = write;
	if (write)
		fw->nwrites++;
	if (reg_id != IFC_MLX5_REG_PPCNT && reg_id != IFC_MLX5_REG_PFCC) {
		fw_error(fw, "not PPCNT or PFCC", n);
		return c->ret = -EINVAL;
	}
	if (inlen != size || outlen != size) {
		fw_error(fw, "in or out length is not the register's", n);
		return c->ret = -EINVAL;
	}
	if (n == fw->fail_at) {
		memset(out, 0xee, outlen);	/* whatever; not to be used */
		return c->ret = fw->fail_err;
	}
	memset(out, 0, outlen);
	if (reg_id == IFC_MLX5_REG_PPCNT)
		return c->ret = fw_ppcnt(fw, c, in, out, n);
	memcpy(c->in, in, PFCC_BYTES);
	c->local_port = bits_get(in, F(pfcc_reg, local_port));
	if (c->local_port != fw->local_port) {
		fw_error(fw, "PFCC of another local_port", n);
		return c->ret = -EINVAL;
	}
	if (write)
		fw_pfcc_write(fw, in);
	fw_pfcc_answer(fw, out);
	return 0;
}

static const struct pfcc_state pfcc_init = {
	.pfctx = 0x28, .pfcrx = 0x89, .pptx = 0, .pprx = 0, .ppan = 0,
	.minor = 80, .critical = 8000,
};

static void fw_init(struct fw *fw, struct rm5_port *port, u8 local_port, bool masks)
{
	int p, k;

	memset(fw, 0, sizeof(*fw));
	fw->local_port = local_port;
	fw->pfcc_mask_cap = masks;
	fw->pfcc = pfcc_init;
	/* Halves that differ, per priority and per counter. */
	for (p = 0; p < NPRIO; p++)
		for (k = 0; k < C_NUM; k++)
			fw->ctr[p][k] = 0x0123456789abcdefULL +
					(unsigned long long)(p * 0x100 + k) * 0x0000000100000001ULL;
	memset(port, 0, sizeof(*port));
	port->access_reg = fw_access_reg;
	port->ctx = fw;
	port->local_port = local_port;
	port->ppcnt = true;
	port->pfcc_mask = masks;
}

static void test_read(struct mlx5_t *t)
{
	struct rocectl_be_sample s;
	struct rm5_port port;
	struct fw fw;
	int err, p, d, i;

	fw_init(&fw, &port, 3, true);
	memset(&s, 0x77, sizeof(s));
	err = rm5_read(&port, &s);
	if (err)
		fail(t, "rm5_read: %d", err);
	if (fw.error[0])
		fail(t, "%s", fw.error);
	if (fw.ncalls != 9)
		fail(t, "%d register accesses, want 8 PPCNT + 1 PFCC", fw.ncalls);
	for (i = 0; i < fw.ncalls && i < 9; i++) {
		const struct call *c = &fw.calls[i];

		if (c->write || c->reg != (i < 8 ? IFC_MLX5_REG_PPCNT : IFC_MLX5_REG_PFCC) ||
		    (i < 8 && c->prio != i))
			fail(t, "call %d: reg %#x write %d prio %u, want %s", i + 1, c->reg,
			     c->write, c->prio, i < 8 ? "a PPCNT read of prio = call-1" : "a PFCC read");
	}
	done(t, "read: 8 PPCNT reads (local_port, group 0x10, prio 0..7, no clear), then 1 PFCC read");

	for (p = 0; p < NPRIO && !err; p++)
		for (d = 0; d < 2; d++) {
			int rx = d == ROCECTL_BE_RX;
			unsigned long long frames = fw.ctr[p][rx ? C_RX_PAUSE : C_TX_PAUSE];
			unsigned long long us = fw.ctr[p][rx ? C_RX_PAUSE_US : C_TX_PAUSE_US];
			unsigned long long pkts = fw.ctr[p][rx ? C_RX_FRAMES : C_TX_FRAMES];

			if (s.frames[d][p] != frames || s.pause_us[d][p] != us || s.pkts[d][p] != pkts)
				fail(t, "prio %d %s: frames %#llx pause_us %#llx pkts %#llx, want %#llx %#llx %#llx",
				     p, rx ? "rx" : "tx", (unsigned long long)s.frames[d][p],
				     (unsigned long long)s.pause_us[d][p],
				     (unsigned long long)s.pkts[d][p], frames, us, pkts);
		}
	if (!err && (s.pfc_en[ROCECTL_BE_RX] != pfcc_init.pfcrx ||
		     s.pfc_en[ROCECTL_BE_TX] != pfcc_init.pfctx))
		fail(t, "pfc_en rx %#x tx %#x, want %#x %#x", s.pfc_en[ROCECTL_BE_RX],
		     s.pfc_en[ROCECTL_BE_TX], pfcc_init.pfcrx, pfcc_init.pfctx);
	done(t, "read: pause frames, pause time, data frames per priority and direction; PFC mask per direction");
}

/* Stall prevention events: the port's, kept in priority 0's counter set. */
static void test_read_stall(struct mlx5_t *t)
{
	struct rocectl_be_sample s;
	struct rm5_port port;
	struct fw fw;
	int err, detect;

	for (detect = 0; detect < 2; detect++) {
		fw_init(&fw, &port, 1, true);
		port.stall_detect = detect;
		memset(&s, 0, sizeof(s));	/* as rocectl.ko hands it over */
		err = rm5_read(&port, &s);
		if (err || fw.error[0])
			fail(t, "rm5_read %d %s", err, fw.error);
		else if (detect && (!s.stall_known ||
				    s.stall_events[0] != fw.ctr[0][C_STALL_MINOR] ||
				    s.stall_events[1] != fw.ctr[0][C_STALL_CRITICAL]))
			fail(t, "stall_known %d events %#llx %#llx, want 1 %#llx %#llx",
			     s.stall_known, (unsigned long long)s.stall_events[0],
			     (unsigned long long)s.stall_events[1],
			     fw.ctr[0][C_STALL_MINOR], fw.ctr[0][C_STALL_CRITICAL]);
		else if (!detect && (s.stall_known || s.stall_events[0] || s.stall_events[1]))
			fail(t, "without stall_detect: stall_known %d events %#llx %#llx",
			     s.stall_known, (unsigned long long)s.stall_events[0],
			     (unsigned long long)s.stall_events[1]);
	}
	done(t, "read: stall warning/error events from priority 0's set with stall_detect, none without");
}

static void test_read_noppcnt(struct mlx5_t *t)
{
	struct rocectl_be_sample s;
	struct rm5_port port;
	struct fw fw;
	int err;

	fw_init(&fw, &port, 1, true);
	port.ppcnt = false;
	err = rm5_read(&port, &s);
	if (err != -EOPNOTSUPP || fw.ncalls)
		fail(t, "rm5_read: %d after %d register accesses, want %d and none",
		     err, fw.ncalls, -EOPNOTSUPP);
	done(t, "read without the PPCNT register: -EOPNOTSUPP, no register access");
}

static const int errs[] = { -EIO, -ETIMEDOUT, -EREMOTEIO, -EINVAL };

static void test_read_errors(struct mlx5_t *t)
{
	struct rocectl_be_sample s;
	struct rm5_port port;
	struct fw fw;
	int n, e, err;

	for (n = 1; n <= 9; n++)
		for (e = 0; e < (int)IFC_COUNT(errs); e++) {
			fw_init(&fw, &port, 1, e & 1);
			fw.fail_at = n;
			fw.fail_err = errs[e];
			err = rm5_read(&port, &s);
			if (err != errs[e] || fw.ncalls != n || fw.nwrites || fw.error[0])
				fail(t, "access %d failing with %d: rm5_read %d after %d accesses, %d writes %s",
				     n, errs[e], err, fw.ncalls, fw.nwrites, fw.error);
		}
	done(t, "read: a failure of any of the 9 accesses is returned at once (-EIO, -ETIMEDOUT, -EREMOTEIO), nothing written");
}

static void test_get_pfc(struct mlx5_t *t)
{
	struct rm5_port port;
	struct fw fw;
	u8 en[2] = { 0x77, 0x77 };
	int err;

	fw_init(&fw, &port, 1, false);
	err = rm5_get_pfc(&port, en);
	if (err || en[ROCECTL_BE_RX] != pfcc_init.pfcrx || en[ROCECTL_BE_TX] != pfcc_init.pfctx ||
	    fw.ncalls != 1 || fw.nwrites || fw.error[0])
		fail(t, "rm5_get_pfc %d: rx %#x tx %#x, %d accesses %s", err,
		     en[ROCECTL_BE_RX], en[ROCECTL_BE_TX], fw.ncalls, fw.error);
	fw_init(&fw, &port, 1, false);
	fw.fail_at = 1, fw.fail_err = -ETIMEDOUT;
	err = rm5_get_pfc(&port, en);
	if (err != -ETIMEDOUT)
		fail(t, "rm5_get_pfc with a failing read: %d", err);
	done(t, "get_pfc: RX = pfcrx, TX = pfctx; a failing read is returned");
}

static int state_diff(const struct pfcc_state *got, const struct pfcc_state *want,
		      char *why, size_t len)
{
	if (got->pfctx == want->pfctx && got->pfcrx == want->pfcrx &&
	    got->pptx == want->pptx && got->pprx == want->pprx && got->ppan == want->ppan &&
	    got->minor == want->minor && got->critical == want->critical)
		return 0;
	snprintf(why, len, "pfctx %#x pfcrx %#x pptx %u pprx %u ppan %u minor %u critical %u, want %#x %#x %u %u %u %u %u",
		 got->pfctx, got->pfcrx, got->pptx, got->pprx, got->ppan, got->minor, got->critical,
		 want->pfctx, want->pfcrx, want->pptx, want->pprx, want->ppan, want->minor,
		 want->critical);
	return 1;
}

/* RX priority 3 off ("forward"), then back on: nothing else moves. */
static void test_set_pfc(struct mlx5_t *t, bool masks)
{
	static const struct pfcc_state starts[] = {
		{ .pfctx = 0x08, .pfcrx = 0x08, .minor = 80, .critical = 8000 },
		{ .pfctx = 0xff, .pfcrx = 0xff },
		{ .pfctx = 0x28, .pfcrx = 0x89, .minor = 1, .critical = 2 },
		/* global pause as well (with masks: and pause negotiation) */
		{ .pfctx = 0x00, .pfcrx = 0x08, .pptx = 1, .pprx = 1, .ppan = 2 },
	};
	const u8 off[2] = { [ROCECTL_BE_RX] = 0x00, [ROCECTL_BE_TX] = 0x00 };
	const u8 on[2] = { [ROCECTL_BE_RX] = 0x08, [ROCECTL_BE_TX] = 0x00 };
	const u8 mask[2] = { [ROCECTL_BE_RX] = 0x08, [ROCECTL_BE_TX] = 0x00 };
	char why[256];
	unsigned int i;

	for (i = 0; i < IFC_COUNT(starts) && !t->why[0]; i++) {
		struct pfcc_state want;
		struct rm5_port port;
		struct fw fw;
		int err;

		fw_init(&fw, &port, 1, masks);
		fw.pfcc = starts[i];
		if (!masks)	/* PFC and pause negotiation exclude each other */
			fw.pfcc.ppan = 0;
		want = fw.pfcc;
		want.pfcrx &= ~0x08;
		err = rm5_set_pfc(&port, off, mask);
		if (err || fw.error[0] || fw.ncalls != 2 || fw.nwrites != 1 ||
		    fw.calls[0].write || !fw.calls[1].write)
			fail(t, "start %u: rm5_set_pfc %d, %d accesses (%s then %s) %s", i, err,
			     fw.ncalls, fw.calls[0].write ? "write" : "read",
			     fw.calls[1].write ? "write" : "read", fw.error);
		else if (state_diff(&fw.pfcc, &want, why, sizeof(why)))
			fail(t, "start %u, RX prio 3 off: %s", i, why);
		if (t->why[0])
			break;
		/* Every start has RX prio 3 on: back on is back to the start. */
		want = starts[i];
		if (!masks)
			want.ppan = 0;
		err = rm5_set_pfc(&port, on, mask);
		if (err || fw.error[0])
			fail(t, "start %u, back on: rm5_set_pfc %d %s", i, err, fw.error);
		else if (state_diff(&fw.pfcc, &want, why, sizeof(why)))
			fail(t, "start %u, RX prio 3 back on: %s", i, why);
	}
	done(t, masks ? "set_pfc with PFCC masks: RX prio 3 off then on; TX, other priorities, global pause, watermarks untouched"
		      : "set_pfc without PFCC masks: RX prio 3 off then on; TX, other priorities, global pause, watermarks untouched");
}

/* Forward and back through get_pfc: the masks read are the masks restored. */
static void test_restore(struct mlx5_t *t)
{
	unsigned int masks;

	for (masks = 0; masks < 2 && !t->why[0]; masks++) {
		const u8 mask[2] = { [ROCECTL_BE_RX] = 0x08, [ROCECTL_BE_TX] = 0x00 };
		const u8 zero[2] = { 0, 0 };
		struct pfcc_state before;
		struct rm5_port port;
		struct fw fw;
		char why[256];
		u8 saved[2];
		int err;

		fw_init(&fw, &port, 1, masks);
		before = fw.pfcc;
		err = rm5_get_pfc(&port, saved);
		if (!err)
			err = rm5_set_pfc(&port, zero, mask);
		if (!err)
			err = rm5_set_pfc(&port, saved, mask);
		if (err || fw.error[0])
			fail(t, "%s: %d %s", masks ? "masks" : "no masks", err, fw.error);
		else if (state_diff(&fw.pfcc, &before, why, sizeof(why)))
			fail(t, "%s: %s", masks ? "masks" : "no masks", why);
	}
	done(t, "set_pfc: setting back the masks get_pfc read restores the register exactly");
}

static void test_set_errors(struct mlx5_t *t)
{
	const u8 en[2] = { 0, 0 }, mask[2] = { 0x08, 0x08 };
	unsigned int e, masks;

	for (masks = 0; masks < 2; masks++)
		for (e = 0; e < IFC_COUNT(errs); e++) {
			struct rm5_port port;
			struct fw fw;
			char why[256];
			int err;

			fw_init(&fw, &port, 1, masks);
			fw.fail_at = 1, fw.fail_err = errs[e];
			err = rm5_set_pfc(&port, en, mask);
			if (err != errs[e] || fw.ncalls != 1 || fw.nwrites)
				fail(t, "failing read (%d): rm5_set_pfc %d after %d accesses, %d writes",
				     errs[e], err, fw.ncalls, fw.nwrites);
			fw_init(&fw, &port, 1, masks);
			fw.fail_at = 2, fw.fail_err = errs[e];
			err = rm5_set_pfc(&port, en, mask);
			if (err != errs[e] || fw.ncalls != 2)
				fail(t, "failing write (%d): rm5_set_pfc %d after %d accesses",
				     errs[e], err, fw.ncalls);
			else if (state_diff(&fw.pfcc, &pfcc_init, why, sizeof(why)))
				fail(t, "failing write changed the register: %s", why);
		}
	done(t, "set_pfc: a failing read is returned and nothing is written; a failing write is returned");
}

void mlx5_port_tests(struct mlx5_t *t)
{
	test_read(t);
	test_read_stall(t);
	test_read_noppcnt(t);
	test_read_errors(t);
	test_get_pfc(t);
	test_set_pfc(t, true);
	test_set_pfc(t, false);
	test_restore(t);
	test_set_errors(t);
}

int mlx5_tests(void)
{
	struct mlx5_t t = { 0 };

	mlx5_ifc_tests(&t);
	mlx5_port_tests(&t);
	mlx5_cong_tests(&t);
	mlx5_raw_tests(&t);
	mlx5_qp_cmd_tests(&t);
	return t.failed;
}
