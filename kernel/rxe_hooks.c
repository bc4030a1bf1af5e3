// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP packet counters for software RoCE: kprobes on rdma_rxe's receive
 * (rxe_rcv) and transmit (rxe_xmit_packet) paths, both hit for wire and
 * loopback packets. They are armed while rdma_rxe is loaded: a module
 * notifier attaches them when it arrives and detaches them when it goes.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include "bth.h"
#include "rocectl.h"

#define ROCECTL_RXE_MODULE "rdma_rxe"

static DEFINE_MUTEX(rocectl_rxe_lock);	/* rocectl_rxe_armed */

static bool rocectl_skb_ce(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return INET_ECN_is_ce(ip_hdr(skb)->tos);
	if (skb->protocol == htons(ETH_P_IPV6))
		return INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	return false;
}

static void rocectl_count(struct rocectl_qp *e, int attr, u64 n)
{
	rocectl_qp_count(e, ROCECTL_STAT(attr), n);
}

/* A request's PSN against the next one expected: in order, old or a gap. */
static void rocectl_rx_psn(struct rocectl_dev *rdev, struct rocectl_qp *e,
			   const struct rocectl_bth *b)
{
	u32 next = READ_ONCE(e->rx_next_psn);

	if (!READ_ONCE(e->rx_psn_valid))
		return;
	if (b->psn == next) {
		next = b->psn + rocectl_bth_psns(b, READ_ONCE(e->info.path_mtu));
		WRITE_ONCE(e->rx_next_psn, next & 0xffffff);
	} else if (rocectl_psn_before(b->psn, next)) {
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_DUP, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_RETRANS);
	} else {
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_OUT_OF_SEQ, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_OOS);
	}
}

static void rocectl_account_rx(struct rocectl_dev *rdev, struct rocectl_qp *e,
			       const struct rocectl_bth *b, bool ce)
{
	rocectl_qp_count_pkt(e, ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_PACKETS),
			     ROCECTL_STAT(ROCECTL_A_QP_STAT_RX_BYTES), b->payload);
	if (ce) {
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_ECN_CE, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_CE);
	}
	if (b->becn) {
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_BECN, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_BECN);
	}
	switch (b->kind) {
	case ROCECTL_PKT_CNP:
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_CNP, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_CNP);
		break;
	case ROCECTL_PKT_NAK_SEQ:
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_NAK_SEQ, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_NAK);
		break;
	case ROCECTL_PKT_RNR_NAK:
		rocectl_count(e, ROCECTL_A_QP_STAT_RX_RNR_NAK, 1);
		rocectl_qp_congestion(rdev, e, ROCECTL_CONG_RNR);
		break;
	case ROCECTL_PKT_REQUEST:
		rocectl_rx_psn(rdev, e, b);
		break;
	default:
		break;
	}
}

static void rocectl_account_tx(struct rocectl_dev *rdev, struct rocectl_qp *e,
			       const struct rocectl_bth *b)
{
	u32 next;

	rocectl_qp_count_pkt(e, ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_PACKETS),
			     ROCECTL_STAT(ROCECTL_A_QP_STAT_TX_BYTES), b->payload);
	switch (b->kind) {
	case ROCECTL_PKT_CNP:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_CNP, 1);
		break;
	case ROCECTL_PKT_NAK_SEQ:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_NAK_SEQ, 1);
		break;
	case ROCECTL_PKT_RNR_NAK:
		rocectl_count(e, ROCECTL_A_QP_STAT_TX_RNR_NAK, 1);
		break;
	case ROCECTL_PKT_REQUEST:
		if (!READ_ONCE(e->tx_psn_valid))
			break;
		next = READ_ONCE(e->tx_next_psn);
		if (rocectl_psn_before(b->psn, next)) {
			rocectl_count(e, ROCECTL_A_QP_STAT_TX_RETRANS, 1);
			rocectl_qp_congestion(rdev, e, ROCECTL_CONG_RETRANS);
		} else {
			next = b->psn + rocectl_bth_psns(b, READ_ONCE(e->info.path_mtu));
			WRITE_ONCE(e->tx_next_psn, next & 0xffffff);
		}
		break;
	default:
		break;
	}
}

/*
 * rxe_rcv(struct sk_buff *skb): skb->data is the BTH, skb->len the packet.
 * Linux 5.10's rdma_rxe hands it over at its UDP header still (later ones
 * pull that first): there the BTH follows the header data points at.
 */
static int rocectl_rxe_rcv(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = (struct sk_buff *)regs_get_kernel_argument(regs, 0);
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	struct rocectl_bth b;
	const u8 *p;
	u32 len;

	/* rxe linearizes what it receives; anything else is not ours to read. */
	if (!skb || !skb->dev || skb_is_nonlinear(skb))
		goto unseen;
	p = skb->data;
	len = skb->len;
	if (skb_transport_header_was_set(skb) && p == skb_transport_header(skb)) {
		if (len < sizeof(struct udphdr))
			goto unseen;
		p += sizeof(struct udphdr);
		len -= sizeof(struct udphdr);
	}
	if (!rocectl_bth_parse(p, len, &b))
		goto unseen;

	/* Our own map from netdev to device: no reference taken per packet. */
	rcu_read_lock();
	rdev = rocectl_dev_by_netdev_rcu(skb->dev->ifindex);
	e = rdev ? rocectl_qp_find_rcu(rdev, b.qpn) : NULL;
	if (e && e->counts && rocectl_qp_stats_ready(e))
		rocectl_account_rx(rdev, e, &b, rocectl_skb_ce(skb));
	else if (rdev)
		rocectl_dev_unattributed(rdev, false, b.payload, rocectl_skb_ce(skb));
	else
		rocectl_pkt_unseen();
	rcu_read_unlock();
	return 0;

unseen:
	rocectl_pkt_unseen();
	return 0;
}

/*
 * rxe_xmit_packet(struct rxe_qp *qp, struct rxe_pkt_info *pkt, skb): a
 * struct rxe_qp begins with its struct ib_qp, and the entry found by QPN
 * must be that very QP, so a changed layout counts nothing rather than
 * something wrong. The skb holds IP and UDP headers, then the BTH.
 */
static int rocectl_rxe_xmit(struct kprobe *kp, struct pt_regs *regs)
{
	struct ib_qp *qp = (struct ib_qp *)regs_get_kernel_argument(regs, 0);
	struct sk_buff *skb = (struct sk_buff *)regs_get_kernel_argument(regs, 2);
	struct rocectl_dev *rdev;
	struct rocectl_qp *e;
	struct rocectl_bth b;
	const struct udphdr *uh;
	u32 len;

	if (!qp || !skb || skb_is_nonlinear(skb) ||
	    !skb_transport_header_was_set(skb))
		goto unseen;
	uh = udp_hdr(skb);
	len = ntohs(uh->len);
	if (len < sizeof(*uh) ||
	    (const u8 *)uh + len > skb_tail_pointer(skb) ||
	    !rocectl_bth_parse((const u8 *)(uh + 1), len - sizeof(*uh), &b))
		goto unseen;

	rcu_read_lock();
	rdev = rocectl_dev_lookup_rcu(qp->device->index);
	e = rdev ? rocectl_qp_find_rcu(rdev, qp->qp_num) : NULL;
	if (e && e->ibqp == qp && e->counts && rocectl_qp_stats_ready(e))
		rocectl_account_tx(rdev, e, &b);
	else if (rdev && rdev->counts)
		rocectl_dev_unattributed(rdev, true, b.payload, false);
	else
		rocectl_pkt_unseen();
	rcu_read_unlock();
	return 0;

unseen:
	rocectl_pkt_unseen();
	return 0;
}

static struct kprobe rocectl_rxe_rcv_kp = {
	.symbol_name = "rxe_rcv",
	.pre_handler = rocectl_rxe_rcv,
};

static struct kprobe rocectl_rxe_xmit_kp = {
	.symbol_name = "rxe_xmit_packet",
	.pre_handler = rocectl_rxe_xmit,
};

/* The benchmark's probe floor: the same probes, a handler that does nothing. */
static int rocectl_rxe_floor(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

/* The receive probe first: the transmit one may be missing (an inline). */
static struct kprobe *rocectl_rxe_kps[] = {
	&rocectl_rxe_rcv_kp,
	&rocectl_rxe_xmit_kp,
};

static bool rocectl_rxe_armed[ARRAY_SIZE(rocectl_rxe_kps)];

/* Hits the kernel skipped since load (a probe already ran on the CPU). */
u64 rocectl_rxe_missed(void)
{
	unsigned int i;
	u64 n = 0;

	for (i = 0; i < ARRAY_SIZE(rocectl_rxe_kps); i++)
		n += READ_ONCE(rocectl_rxe_kps[i]->nmissed);
	return n;
}

/*
 * Where the probes go: past the ftrace call site a function begins with
 * (x86-64: a 5-byte call, after a 4-byte ENDBR with IBT), so that they are
 * breakpoint (then jump-optimized) kprobes, not ftrace ones: arming an
 * ftrace-based kprobe on rxe_rcv while packets arrive crashed the 6.1 guest
 * (a return to address 0 from the ftrace trampoline) under the races test.
 * The arguments are still in their registers there.
 */
#if defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE)
#define ROCECTL_PAST_FENTRY (ENDBR_INSN_SIZE + MCOUNT_INSN_SIZE)
#else
#define ROCECTL_PAST_FENTRY 0
#endif

/* A kprobe cannot be registered twice: each try starts from a clean struct. */
static int rocectl_rxe_try(struct kprobe *kp, unsigned int offset)
{
	kp->addr = NULL;
	kp->flags = 0;
	kp->offset = offset;
	return register_kprobe(kp);
}

static int rocectl_rxe_register(struct kprobe *kp)
{
	int err;

	if (!ROCECTL_HANDLE_PROBES)
		kp->pre_handler = rocectl_rxe_floor;
	err = rocectl_rxe_try(kp, ROCECTL_PAST_FENTRY);
	/* Not an instruction boundary there: the function's entry. */
	if (err == -EILSEQ && ROCECTL_PAST_FENTRY)
		err = rocectl_rxe_try(kp, 0);
	return err;
}

/*
 * Attach each probe whose function rdma_rxe has; quiet when rdma_rxe is
 * not there. In Linux 5.10, rxe_xmit_packet() is an inline: the receive
 * side alone is counted, and the log says so.
 */
static void rocectl_rxe_arm(void)
{
	unsigned int i, armed = 0;
	int err;

	mutex_lock(&rocectl_rxe_lock);
	for (i = 0; i < ARRAY_SIZE(rocectl_rxe_kps); i++) {
		if (rocectl_rxe_armed[i])
			continue;
		err = rocectl_rxe_register(rocectl_rxe_kps[i]);
		if (!err) {
			rocectl_rxe_armed[i] = true;
			armed++;
		} else if (err != -ENOENT && err != -EINVAL) {
			pr_warn("cannot hook soft-RoCE's packet path at %s: %d\n",
				rocectl_rxe_kps[i]->symbol_name, err);
		} else if (i && rocectl_rxe_armed[0]) {
			pr_info("no %s() in this rdma_rxe: its sent packets are not counted\n",
				rocectl_rxe_kps[i]->symbol_name);
		}
	}
	if (armed && rocectl_rxe_armed[0])
		pr_info("%s\n", ROCECTL_HANDLE_PROBES ?
			"counting soft-RoCE packets per QP" :
			"soft-RoCE packet probes armed, counting nothing (benchmark floor build)");
	mutex_unlock(&rocectl_rxe_lock);
}

static void rocectl_rxe_disarm(void)
{
	struct kprobe *armed[ARRAY_SIZE(rocectl_rxe_kps)];
	unsigned int i, n = 0;

	mutex_lock(&rocectl_rxe_lock);
	for (i = 0; i < ARRAY_SIZE(rocectl_rxe_kps); i++) {
		if (rocectl_rxe_armed[i])
			armed[n++] = rocectl_rxe_kps[i];
		rocectl_rxe_armed[i] = false;
	}
	/* Together: one wait for the handlers still running, not one each. */
	if (n)
		unregister_kprobes(armed, n);
	mutex_unlock(&rocectl_rxe_lock);
}

static int rocectl_module_event(struct notifier_block *nb, unsigned long action,
				void *data)
{
	struct module *mod = data;

	if (strcmp(mod->name, ROCECTL_RXE_MODULE))
		return NOTIFY_DONE;
	if (action == MODULE_STATE_LIVE)
		rocectl_rxe_arm();
	else if (action == MODULE_STATE_GOING)
		rocectl_rxe_disarm();
	return NOTIFY_OK;
}

static struct notifier_block rocectl_module_nb = {
	.notifier_call = rocectl_module_event,
};

int rocectl_rxe_hooks_init(void)
{
	int err = register_module_notifier(&rocectl_module_nb);

	if (err)
		return err;
	rocectl_rxe_arm();
	return 0;
}

void rocectl_rxe_hooks_exit(void)
{
	unregister_module_notifier(&rocectl_module_nb);
	rocectl_rxe_disarm();
}
