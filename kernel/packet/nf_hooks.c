// SPDX-License-Identifier: GPL-2.0
/*
 * The soft-RoCE wire path: netfilter hooks at the IP layer of every
 * network namespace (rdma_rxe's sockets are in the initial one, and from
 * its namespace support in each of its netdevs' own) see every RoCEv2
 * packet (UDP port 4791) it sends or receives through the network stack.
 * Received packets are taken at LOCAL_IN's last priority (what is
 * delivered to rdma_rxe's socket), sent ones at LOCAL_OUT's first (as
 * rdma_rxe hands them to IP). Hooks are a stable, exported API; the BTH is
 * copied out of the skb, so a packet in fragments is read as any other.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include "bth.h"
#include "devices/dev_counters.h"
#include "devices/devices.h"
#include "nf_hooks.h"
#include "pkt_account.h"
#include "probe_floor.h"

enum rocectl_nf_pkt {
	ROCECTL_NF_OTHER,	/* not RoCEv2: not ours */
	ROCECTL_NF_ROCE,	/* parsed */
	ROCECTL_NF_UNSEEN,	/* RoCEv2, but not readable as one packet */
};

/* The device whose packets use ndev, as rdma_rxe finds it. */
static struct rocectl_dev *rocectl_nf_dev(const struct net_device *ndev)
{
	struct rocectl_dev *rdev;

	if (!ndev)
		return NULL;
	rdev = rocectl_dev_by_netdev_rcu(ndev);
	/* rdma_rxe takes a VLAN's packets on its real device's behalf. */
	if (IS_ENABLED(CONFIG_VLAN_8021Q) && !rdev && is_vlan_dev(ndev))
		rdev = rocectl_dev_by_netdev_rcu(vlan_dev_real_dev(ndev));
	return rdev;
}

/*
 * The packet at skb's network header: RoCEv2 over UDP, parsed into b, its
 * UDP source port into sport.
 */
static enum rocectl_nf_pkt rocectl_nf_parse(struct sk_buff *skb, u8 pf,
					    struct rocectl_bth *b, bool *ce,
					    u16 *sport)
{
	u8 buf[ROCECTL_BTH_PARSE_MAX];
	struct udphdr _uh;
	const struct udphdr *uh;
	const u8 *p;
	unsigned int off;
	u32 len;

	if (pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		/* RoCEv2 sets DF; a reassembled datagram is no fragment here. */
		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return ROCECTL_NF_OTHER;
		off = skb_network_offset(skb) + iph->ihl * 4;
		*ce = INET_ECN_is_ce(iph->tos);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		/* rdma_rxe sends no IPv6 extension headers. */
		if (ip6h->nexthdr != IPPROTO_UDP)
			return ROCECTL_NF_OTHER;
		off = skb_network_offset(skb) + sizeof(*ip6h);
		*ce = INET_ECN_is_ce(ipv6_get_dsfield(ip6h));
	}
	uh = skb_header_pointer(skb, off, sizeof(_uh), &_uh);
	if (!uh || uh->dest != htons(ROCE_V2_UDP_DPORT))
		return ROCECTL_NF_OTHER;
	*sport = ntohs(uh->source);
	len = ntohs(uh->len);
	/* Segments still to be cut (GSO) are more than one packet. */
	if (skb_is_gso(skb) || len < sizeof(*uh) || off + len > skb->len)
		return ROCECTL_NF_UNSEEN;
	len -= sizeof(*uh);
	p = skb_header_pointer(skb, off + sizeof(*uh),
			       min_t(u32, len, sizeof(buf)), buf);
	if (!p || !rocectl_bth_parse(p, len, b))
		return ROCECTL_NF_UNSEEN;
	return ROCECTL_NF_ROCE;
}

static void rocectl_nf_count(struct sk_buff *skb,
			     const struct nf_hook_state *state, bool tx)
{
	enum rocectl_nf_pkt kind;
	struct rocectl_dev *rdev;
	struct rocectl_bth b;
	u16 sport;
	bool ce;

	kind = rocectl_nf_parse(skb, state->pf, &b, &ce, &sport);
	if (kind == ROCECTL_NF_OTHER)
		return;
	/*
	 * No read lock of its own: nf_hook() runs every hook inside its RCU
	 * read-side section, which the lookups below need.
	 */
	rdev = rocectl_nf_dev(tx ? state->out : state->in);
	/* A netdev without soft-RoCE: rdma_rxe does not take these either. */
	if (!rdev)
		return;
	if (kind == ROCECTL_NF_UNSEEN)
		rocectl_pkt_unseen_add(skb_is_gso(skb) ?
				       skb_shinfo(skb)->gso_segs : 1);
	else if (tx)
		rocectl_pkt_tx(rdev, rocectl_pkt_sender_rcu(rdev, skb, &b), &b,
			       sport);
	else
		rocectl_pkt_rx(rdev, &b, ce);
}

static unsigned int rocectl_nf_in(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	if (ROCECTL_HANDLE_PROBES)
		rocectl_nf_count(skb, state, false);
	return NF_ACCEPT;
}

static unsigned int rocectl_nf_out(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	if (ROCECTL_HANDLE_PROBES)
		rocectl_nf_count(skb, state, true);
	return NF_ACCEPT;
}

static const struct nf_hook_ops rocectl_nf_ops[] = {
	{
		.hook = rocectl_nf_in,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP_PRI_LAST,
	}, {
		.hook = rocectl_nf_out,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_LOCAL_OUT,
		.priority = NF_IP_PRI_FIRST,
	},
#if IS_ENABLED(CONFIG_IPV6)
	{
		.hook = rocectl_nf_in,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_IN,
		.priority = NF_IP6_PRI_LAST,
	}, {
		.hook = rocectl_nf_out,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_LOCAL_OUT,
		.priority = NF_IP6_PRI_FIRST,
	},
#endif
};

static int __net_init rocectl_nf_net_init(struct net *net)
{
	return nf_register_net_hooks(net, rocectl_nf_ops,
				     ARRAY_SIZE(rocectl_nf_ops));
}

static void __net_exit rocectl_nf_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rocectl_nf_ops,
				ARRAY_SIZE(rocectl_nf_ops));
}

/* The hooks in each namespace, those to come included, while armed. */
static struct pernet_operations rocectl_nf_net_ops = {
	.init = rocectl_nf_net_init,
	.exit = rocectl_nf_net_exit,
};

int rocectl_nf_hooks_arm(void)
{
	return register_pernet_subsys(&rocectl_nf_net_ops);
}

void rocectl_nf_hooks_disarm(void)
{
	unregister_pernet_subsys(&rocectl_nf_net_ops);
}
