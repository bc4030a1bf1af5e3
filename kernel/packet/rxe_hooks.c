// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP packet counters for software RoCE, armed while rdma_rxe is loaded
 * (a module notifier attaches them when it arrives and detaches them when
 * it goes): the netfilter hooks for what crosses the network stack
 * (nf_hooks.c), and one kprobe, on rdma_rxe's receive function (rxe_rcv),
 * for what never does: loopback between the GIDs of one device. There
 * both ends are counted at once. And a kretprobe on rdma_rxe's own move
 * of a QP to ERR (rxe_qp_error(), every kernel from 5.10), which raises no
 * asynchronous event: a QP failure record (qp_errors.c).
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
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "nf_hooks.h"
#include "pkt_account.h"
#include "probe_floor.h"
#include "qp/qp_events.h"
#include "qp/qps.h"
#include "rxe_cqe.h"
#include "rxe_hooks.h"

#define ROCECTL_RXE_MODULE "rdma_rxe"

static DEFINE_MUTEX(rocectl_rxe_lock);	/* what is armed */

static bool rocectl_skb_ce(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return INET_ECN_is_ce(ip_hdr(skb)->tos);
	if (skb->protocol == htons(ETH_P_IPV6))
		return INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	return false;
}

/*
 * A loopback packet's sender, on the same device: as on the wire
 * (rdma_rxe sets the socket on loopback packets from 6.10 on), else the
 * connected peer of r, the receiving QP (looked up once for both ends),
 * if that peer is connected to it in turn.
 */
static struct rocectl_qp *rocectl_loopback_sender(struct rocectl_dev *rdev,
						  const struct sk_buff *skb,
						  const struct rocectl_bth *b,
						  struct rocectl_qp *r)
{
	struct rocectl_qp *s;

	s = rocectl_pkt_sender_rcu(rdev, skb, b);
	if (s)
		return s;
	if (!r)
		return NULL;
	s = rocectl_pkt_qp_rcu(rdev, READ_ONCE(r->peer_qpn));
	return s && READ_ONCE(s->peer_qpn) == b->qpn ? s : NULL;
}

/*
 * rxe_rcv(struct sk_buff *skb): skb->data is the BTH, skb->len the packet.
 * Linux 5.10's rdma_rxe hands it over at its UDP header still (later ones
 * pull that first, leaving it just before the BTH, at the transport
 * header): there the BTH follows the header data points at. Packets from
 * the wire (an input interface set) were counted by the netfilter hooks
 * already.
 */
static int rocectl_rxe_rcv(struct kprobe *kp, struct pt_regs *regs)
{
	struct sk_buff *skb = (struct sk_buff *)regs_get_kernel_argument(regs, 0);
	struct rocectl_dev *rdev;
	const struct udphdr *uh = NULL;
	struct rocectl_qp *r;
	struct rocectl_bth b;
	const u8 *p;
	u16 sport;
	u32 len;

	if (!skb || skb->skb_iif)
		return 0;
	/* rxe builds what it loops back linear; anything else is not ours. */
	if (!skb->dev || skb_is_nonlinear(skb))
		goto unseen;
	p = skb->data;
	len = skb->len;
	if (skb_transport_header_was_set(skb) && p == skb_transport_header(skb)) {
		if (len < sizeof(struct udphdr))
			goto unseen;
		uh = (const struct udphdr *)p;
		p += sizeof(struct udphdr);
		len -= sizeof(struct udphdr);
	} else if (skb_transport_header_was_set(skb) &&
		   p == skb_transport_header(skb) + sizeof(struct udphdr)) {
		uh = udp_hdr(skb);
	}
	if (!rocectl_bth_parse(p, len, &b))
		goto unseen;
	sport = uh ? ntohs(uh->source) : 0;

	/* Our own map from netdev to device: no reference taken per packet. */
	rcu_read_lock();
	rdev = rocectl_dev_by_netdev_rcu(skb->dev);
	if (rdev) {
		r = rocectl_pkt_qp_rcu(rdev, b.qpn);
		rocectl_pkt_tx(rdev, rocectl_loopback_sender(rdev, skb, &b, r),
			       &b, sport);
		rocectl_pkt_rx_qp(rdev, r, &b, rocectl_skb_ce(skb));
	} else {
		rocectl_pkt_unseen();
	}
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

/* The benchmark's probe floor: the same probes, a handler that does nothing. */
static int rocectl_rxe_floor(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

/*
 * rxe_qp_error(struct rxe_qp *qp): rdma_rxe moves the QP to ERR, after a
 * completion error (retry or RNR retry exhausted, an error NAK), a request
 * it refused, or inside a modify to ERR (then the modify's hook records
 * it). The rxe_qp is never read: its struct ib_qp is at a known offset
 * (compat.h).
 */
static int rocectl_rxe_qp_error_entry(struct kretprobe_instance *ri,
				      struct pt_regs *regs)
{
	struct ib_qp **qp = (void *)ri->data;
	unsigned long rxe_qp = regs_get_kernel_argument(regs, 0);

	*qp = (struct ib_qp *)(rxe_qp + ROCECTL_RXE_IBQP_OFFSET);
	/* Claimed before the return: the error completion is out already. */
	return !rocectl_qp_fail_claim(*qp, true);
}

static int rocectl_rxe_qp_error_ret(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	struct ib_qp **qp = (void *)ri->data;

	rocectl_qp_fail_from_hook(*qp, ROCECTL_QP_ERROR_CAUSE_DRIVER);
	return 0;
}

/*
 * rxe_cq_post(struct rxe_cq *cq, struct rxe_cqe *cqe, int solicited):
 * rdma_rxe posts a completion. Its error completions come before its move
 * of the QP to ERR (rxe_completer(), rxe_responder()), so that an
 * application may see one and move the QP to ERR itself first: claimed
 * here for the driver (rocectl_qp_fail_claim_cqe()). The struct ib_cq
 * opens struct rxe_cq, as the RDMA core has it for every driver
 * (INIT_RDMA_OBJ_SIZE); the cqe is in either form (rxe_cqe.h).
 * May run in NMI context (a breakpoint probe): no lock, no allocation.
 */
static int rocectl_rxe_cq_post(struct kprobe *kp, struct pt_regs *regs)
{
	const struct ib_cq *cq = (void *)regs_get_kernel_argument(regs, 0);
	const union rocectl_rxe_cqe *cqe = (void *)regs_get_kernel_argument(regs, 1);
	u32 qpn;

	if (likely(!rocectl_rxe_cqe_failed(cqe)))
		return 0;
	if (cq->uobject)
		qpn = cqe->uibwc.qp_num;
	else if (cqe->ibwc.qp)
		qpn = cqe->ibwc.qp->qp_num;
	else
		return 0;
	rocectl_qp_fail_claim_cqe(cq->device->index, qpn);
	return 0;
}

static struct kprobe rocectl_rxe_cq_post_kp = {
	.symbol_name = "rxe_cq_post",
	.pre_handler = rocectl_rxe_cq_post,
};

static struct kretprobe rocectl_rxe_qp_error_rp = {
	.kp.symbol_name = "rxe_qp_error",
	.entry_handler = rocectl_rxe_qp_error_entry,
	.handler = rocectl_rxe_qp_error_ret,
	.data_size = sizeof(struct ib_qp *),
	.maxactive = 64,
};

static bool rocectl_rxe_err_armed;
static bool rocectl_rxe_cq_armed;
static bool rocectl_rxe_probe_armed;
static bool rocectl_rxe_nf_armed;

/* Hits the kernel skipped since load (a probe already ran on the CPU). */
u64 rocectl_rxe_missed(void)
{
	return READ_ONCE(rocectl_rxe_rcv_kp.nmissed);
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
 * Attach the hooks; quiet when rdma_rxe is not there (no rxe_rcv to
 * probe): the IP layer's hooks are armed only for it, so that a host
 * without soft-RoCE pays nothing per packet.
 */
static void rocectl_rxe_arm(void)
{
	int err;

	mutex_lock(&rocectl_rxe_lock);
	if (!rocectl_rxe_err_armed && ROCECTL_HANDLE_PROBES) {
		rocectl_rxe_qp_error_rp.kp.addr = NULL;
		rocectl_rxe_qp_error_rp.kp.flags = 0;
		err = register_kretprobe(&rocectl_rxe_qp_error_rp);
		if (err && err != -ENOENT && err != -EINVAL)
			pr_warn("cannot hook soft-RoCE's move of a QP to ERR at rxe_qp_error (%d): its QP failures are recorded at their next modify\n",
				err);
		rocectl_rxe_err_armed = !err;
	}
	/* Its claims stand for the move's record: armed only beside that hook. */
	if (rocectl_rxe_err_armed && !rocectl_rxe_cq_armed) {
		err = rocectl_rxe_register(&rocectl_rxe_cq_post_kp);
		if (err && err != -ENOENT && err != -EINVAL)
			pr_warn("cannot hook soft-RoCE's completions at rxe_cq_post (%d): an RC QP's failure may be recorded as the application's modify to ERR that answered it\n",
				err);
		rocectl_rxe_cq_armed = !err;
	}
	if (!rocectl_rxe_probe_armed) {
		err = rocectl_rxe_register(&rocectl_rxe_rcv_kp);
		if (err == -ENOENT || err == -EINVAL)
			goto out;
		if (err)
			pr_warn("cannot hook soft-RoCE's loopback at rxe_rcv (%d): its loopback packets are not counted\n",
				err);
		rocectl_rxe_probe_armed = !err;
	}
	if (!rocectl_rxe_nf_armed) {
		err = rocectl_nf_hooks_arm();
		rocectl_rxe_nf_armed = !err;
		if (err == -EOPNOTSUPP)
			pr_info("no netfilter in this kernel: soft-RoCE packets on the wire are not counted\n");
		else if (err)
			pr_warn("cannot hook the IP layer (%d): soft-RoCE packets on the wire are not counted\n",
				err);
		else
			pr_info("%s\n", ROCECTL_HANDLE_PROBES ?
				"counting soft-RoCE packets per QP" :
				"soft-RoCE packet hooks armed, counting nothing (benchmark floor build)");
	}
out:
	mutex_unlock(&rocectl_rxe_lock);
}

static void rocectl_rxe_disarm(void)
{
	mutex_lock(&rocectl_rxe_lock);
	if (rocectl_rxe_cq_armed)
		unregister_kprobe(&rocectl_rxe_cq_post_kp);
	rocectl_rxe_cq_armed = false;
	if (rocectl_rxe_err_armed)
		unregister_kretprobe(&rocectl_rxe_qp_error_rp);
	rocectl_rxe_err_armed = false;
	if (rocectl_rxe_probe_armed)
		unregister_kprobe(&rocectl_rxe_rcv_kp);
	if (rocectl_rxe_nf_armed)
		rocectl_nf_hooks_disarm();
	rocectl_rxe_probe_armed = false;
	rocectl_rxe_nf_armed = false;
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
