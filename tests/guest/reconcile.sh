#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the module's device counters reconcile with the wire under heavy
# congestion. Two soft-RoCE hosts across a veth pair whose one direction is
# a tbf bottleneck with RED (ECN): ECT flows get CE marks, non-ECT flows get
# drops and retransmissions. The reference is tc's own: clsact filters on
# both veths count every RoCE packet (UDP 4791) that leaves a host before
# the bottleneck and that reaches the other, and the CE-marked ones. On each
# device, the module's total (live QPs + destroyed QPs + unattributed, see
# rocectl-dev(8)) equals tc's counts exactly (and what it sent, rxe's own
# sent_pkts, plus at most its send errors), and no packet went unread.
# (The loopback probe's skipped hits, module-wide, are shown: these packets
# never loop back, and tc's counts hold whatever they are.)
. "$(dirname "$0")/lib.sh"
plan 3
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
two_rxe_hosts
# Permanent neighbours: under the bottleneck ARP itself is dropped, and a
# packet IP then drops for want of a neighbour was sent by soft-RoCE
# (counted, as rxe's sent_pkts counts it) but never reached the netdev.
ip neigh replace 192.0.2.2 lladdr "$(cat /sys/class/net/veth2/address)" dev veth1 nud permanent
ip neigh replace 192.0.2.1 lladdr "$(cat /sys/class/net/veth1/address)" dev veth2 nud permanent
module_load || fail "load"
T1="tbf + RED (ECN) bottleneck: ECT packets marked CE, others dropped"
T2="under congestion, each device's total (live + destroyed QPs + unattributed) equals tc's counts exactly, none unread"

# --- tc: the bottleneck and the reference counters ------------------------------------
if ! tc qdisc add dev veth1 root handle 1: tbf rate 40mbit burst 16kb limit 400kb ||
   ! tc qdisc add dev veth1 parent 1:1 handle 10: red limit 400000 min 12000 max 48000 \
	avpkt 1200 burst 15 probability 0.3 bandwidth 40mbit ecn; then
	why="this kernel has no tbf or red qdisc"
	log_skip "$T1" "$why"
	log_skip "$T2" "$why"
	kmsg_check
	exit 0
fi
# count_filters DEV: in each direction, a filter counts CE-marked RoCE
# packets and goes on (egress pref 1, ingress 3), the next counts every
# RoCE packet, UDP 4791 (egress pref 2, ingress 4).
count_filters() {
	local dir pref=1
	tc qdisc add dev "$1" clsact
	for dir in egress ingress; do
		tc filter add dev "$1" $dir pref $pref protocol ip u32 match ip protocol 17 0xff \
			match ip dport 4791 0xffff match ip tos 0x03 0x03 action continue &&
		tc filter add dev "$1" $dir pref $((pref + 1)) protocol ip u32 match ip protocol 17 0xff \
			match ip dport 4791 0xffff action pass || fail "tc filters on $1 $dir"
		pref=3
	done
}
count_filters veth1
count_filters veth2

# tc_packets DEV DIR PREF: packets the filter's action took.
tc_packets() {
	local pref=$3
	[ "$2" = ingress ] && pref=$((pref + 2))
	tc -s -j filter show dev "$1" "$2" |
		jq --argjson p "$pref" '[.[] | select(.pref == $p) | .. | objects | select(has("actions")) |
			.actions[] | .stats.packets] | add // 0'
}
# The reference: "tx rx rx_ce" of a host's netdev, by tc.
wire() {
	echo "$(tc_packets "$1" egress 2) $(tc_packets "$1" ingress 2) $(tc_packets "$1" ingress 1)"
}
# The module: "tx rx rx_ce unseen probe_missed" of a device's total.
module_total() {
	rc -j dev stats "$1" | jq -r '.[] | select(.scope == "device") |
		"\(.counters.tx_packets) \(.counters.rx_packets) \(.counters.rx_ecn_ce) \(.module_unseen) \(.module_probe_missed)"'
}
delta() {	# delta "A B C" "A' B' C'": the differences
	local -a a b
	local i out=
	read -ra a <<< "$1"; read -ra b <<< "$2"
	for i in "${!a[@]}"; do out="$out $((b[i] - a[i]))"; done
	echo "${out# }"
}

# rxe's own counts of a device's sent packets: "sent_pkts send_err" (a
# packet IP refused, e.g. tbf's full queue, is a send error to rxe, which
# sends it again; the module and tc saw it go).
rxe_sent() {
	rdma -j statistic show link "$1/1" | jq -r '.[0] | "\(.sent_pkts) \(.send_err)"'
}

# --- ECT and non-ECT flows through the bottleneck ---------------------------------------
w1=$(wire veth1); w2=$(wire veth2); m0=$(module_total rxe0); m1=$(module_total rxe1)
s0=$(rxe_sent rxe0); s1=$(rxe_sent rxe1)
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 4 -m 400 -s 4096 --tos 2 -T 120 > "$W/ect.json" 2> "$W/ect.err" &
ect=$!
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 4 -m 400 -s 4096 --tos 0 -T 120 > "$W/non.json" 2> "$W/non.err" &
non=$!
wait $ect; ect_st=$?
wait $non; non_st=$?
w1b=$(wire veth1); w2b=$(wire veth2)
# The last QPs' counts join destroyed-qps a grace period after their destroy.
busywait 5000 eval '[ "$(module_total rxe0)" = "$(module_total rxe0)" ] &&
	[ "$(rc -j qp show type RC | jq length)" = 0 ]'
sleep 1
m0b=$(module_total rxe0); m1b=$(module_total rxe1)
s0b=$(rxe_sent rxe0); s1b=$(rxe_sent rxe1)
red=$(tc -s -j qdisc show dev veth1 | jq -c '[.. | objects | select(has("marked"))][0] | {marked, early, pdrop}')
stats0=$(rc -j dev stats rxe0 | jq -c '[.[] | select(.source == "module") | {scope, c: (.counters | {tx_packets, rx_packets, rx_ecn_ce, tx_retrans})}]')
echo "# wire veth1 (tx rx rx_ce): $(delta "$w1" "$w1b"); veth2: $(delta "$w2" "$w2b"); RED: $red"
echo "# module rxe0 (tx rx rx_ce unseen probe_missed): $(delta "$m0" "$m0b"); rxe1: $(delta "$m1" "$m1b")"
echo "# traffic: ECT exit $ect_st, non-ECT exit $non_st $(cat "$W/ect.err" "$W/non.err" | head -n 2 | tr '\n' ' ')"
echo "# rxe0's module counters by scope: $stats0"
echo "# rxe1's module counters by scope: $(rc -j dev stats rxe1 | jq -c '[.[] | select(.source == "module") | {scope, c: (.counters | {tx_packets, rx_packets, rx_ecn_ce, tx_retrans})}]')"
echo "# rxe's own: $(rdma -j statistic show | jq -c '[.[] | {ifname, sent_pkts, rcvd_pkts, duplicate_request, out_of_seq_request, rcvd_seq_err, completer_retry_err}]')"

# Congestion really happened: RED marked ECT packets and dropped others.
[ "$(jq '.marked' <<< "$red")" -gt 0 ] || fail "RED marked nothing: $red"
[ "$(jq '.early + .pdrop' <<< "$red")" -gt 0 ] || fail "RED dropped nothing: $red"
log_test "$T1"

# Each device's total against tc on its netdev: sent, received, CE-marked;
# and what it sent against rxe's own count.
read -r mt0 mr0 mc0 un0 pm0 <<< "$(delta "$m0" "$m0b")"; read -r wt0 wr0 wc0 <<< "$(delta "$w1" "$w1b")"
read -r mt1 mr1 mc1 _ <<< "$(delta "$m1" "$m1b")"; read -r wt1 wr1 wc1 <<< "$(delta "$w2" "$w2b")"
echo "# per device, tc minus module: rxe0 tx $((wt0 - mt0)) rx $((wr0 - mr0)) CE $((wc0 - mc0)), rxe1 tx $((wt1 - mt1)) rx $((wr1 - mr1)) CE $((wc1 - mc1)); unread $un0, loopback probe hits skipped $pm0; rxe sent, send errors: $(delta "$s0" "$s0b"), $(delta "$s1" "$s1b")"
[ "$wc1" -gt 0 ] || fail "no CE-marked packet reached rxe1"
check_eq "$mt0 $mr0 $mc0" "$wt0 $wr0 $wc0" "rxe0's total (tx rx rx_ce) against tc on veth1"
check_eq "$mt1 $mr1 $mc1" "$wt1 $wr1 $wc1" "rxe1's total (tx rx rx_ce) against tc on veth2"
# Sent, against rxe: at least what it counts sent, at most that and what
# IP refused it.
for d in "$mt0 $(delta "$s0" "$s0b")" "$mt1 $(delta "$s1" "$s1b")"; do
	read -r m rs re <<< "$d"
	[ "$m" -ge "$rs" ] && [ "$m" -le $((rs + re)) ] ||
		fail "packets sent: the module's $m, rxe's sent_pkts $rs and send_err $re"
done
check_eq "$un0" 0 "packets the module could not read"
log_test "$T2"

tc qdisc del dev veth1 root
tc qdisc del dev veth1 clsact
tc qdisc del dev veth2 clsact
kmsg_check
