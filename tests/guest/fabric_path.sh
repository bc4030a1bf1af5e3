#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl qp path against a fabric made for it. Four router
# network namespaces make a leaf-spine (two leaves, two spines) whose
# routers hash multipath on headers as switches do (fib_multipath_hash_policy
# 3, fields 0x0037: addresses, protocol, both ports), send time-exceeded
# from the inbound link's address and do not rate-limit ICMP. Two soft-RoCE
# hosts in the initial namespace, policy-routed through it (as two_hosts
# routes them), carry 12 RC QP pairs. The references are not rocectl's: a
# capture in each spine (which QP source ports crossed it), traceroute(8)
# with each QP's source port, and tc at the destination's netdev counting
# the probes that reached it (opcode 0x80 after the UDP header).
# Then a third leaf with host C, and RED with ECN marking on one
# spine-to-leaf link: qp path links must name that link (tc's marked count
# on it as the reference), then the other once the marking moves, and
# routers, not links, once the routers answer from their own address.
. "$(dirname "$0")/lib.sh"
plan 10
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
PAIRS=12
A=198.18.1.1	# host A (rxe0 on fa0), behind leafA
B=198.18.2.1	# host B (rxe1 on fb0), behind leafB
NS="fp_leafA fp_leafB fp_spine1 fp_spine2"
HOLDER=
HOLD=()
C=198.18.3.1	# host C (rxe2 on fc0), behind leafC
T1="leaf-spine of router namespaces (hash policy 3, fields 0x0037) between two soft-RoCE hosts"
T2="$PAIRS RC QP pairs complete through the fabric (qptraffic), both spines carrying some (capture)"
T3="qp path names, for each of rxe0's $PAIRS QPs, the spine a capture in that spine saw its source port cross"
T4="traceroute -U -p 4791 --sport names the same spine as qp path for each QP"
T5="safe for the destination: at most one probe a run reached host B (tc), counted in the rx_packets of the QP it names, none by rxe; the held QPs still RTS, no rxe error counter moved"
T6="qp path is root only: exit 4 with a sentence for nobody"
T7="qp path links names spine2->leafB, RED's marked link, and no other: its QPs' CE at the destination is tc's marked count, the QPs through spine1 have none"
T8="the marking moved to spine1->leafB: qp path links names that link, tc's count again, none through spine2"
T9="routers answering from their own address (icmp_errors_use_inbound_ifaddr=0, a route's source on lo): the verdict says routers, no link"

cleanup() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null
	[ ${#HOLD[@]} = 0 ] || kill "${HOLD[@]}" 2>/dev/null
	for n in $NS fp_leafC; do ip netns del "$n" 2>/dev/null; done
	ip link del fa0 2>/dev/null; ip link del fb0 2>/dev/null; ip link del fc0 2>/dev/null
	ip rule del pref 99 2>/dev/null; ip rule del pref 102 2>/dev/null
}
trap 'cleanup; kill $(jobs -p) 2>/dev/null' EXIT

in_ns() { ip netns exec "$@"; }

# link NS_A IF_A ADDR_A NS_B IF_B ADDR_B (NS "-": the initial namespace).
link() {
	ip link add "$2" type veth peer name "$5" || return 1
	[ "$1" = - ] || ip link set "$2" netns "$1"
	[ "$4" = - ] || ip link set "$5" netns "$4"
	if [ "$1" = - ]; then ip addr add "$3" dev "$2"; ip link set "$2" up
	else in_ns "$1" ip addr add "$3" dev "$2"; in_ns "$1" ip link set "$2" up; fi
	if [ "$4" = - ]; then ip addr add "$6" dev "$5"; ip link set "$5" up
	else in_ns "$4" ip addr add "$6" dev "$5"; in_ns "$4" ip link set "$5" up; fi
	# Permanent neighbours: a burst of RoCE before ARP resolves overflows
	# the neighbour's queue, and rdma_rxe fails to send ("Failed sending
	# ACK") and errors the QP.
	pin "$1" "$2" "${6%/*}" "$(mac "$4" "$5")" && pin "$4" "$5" "${3%/*}" "$(mac "$1" "$2")"
}

mac() {	# mac NS IF
	if [ "$1" = - ]; then cat "/sys/class/net/$2/address"
	else in_ns "$1" cat "/sys/class/net/$2/address"; fi
}

pin() {	# pin NS IF ADDR LLADDR
	if [ "$1" = - ]; then ip neigh replace "$3" lladdr "$4" dev "$2" nud permanent
	else in_ns "$1" ip neigh replace "$3" lladdr "$4" dev "$2" nud permanent; fi
}

router() {
	ip netns add "$1" && in_ns "$1" ip link set lo up &&
	in_ns "$1" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.fib_multipath_hash_policy=3 \
		net.ipv4.fib_multipath_hash_fields=0x0037 net.ipv4.icmp_ratelimit=0 \
		net.ipv4.icmp_errors_use_inbound_ifaddr=1 net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0
}

kmsg_mark
ok=1
for n in $NS; do router "$n" || ok=0; done
link - fa0 $A/24 fp_leafA la0 198.18.1.254/24 || ok=0
link fp_leafA la1 198.18.11.1/24 fp_spine1 s1a 198.18.11.2/24 || ok=0
link fp_leafA la2 198.18.12.1/24 fp_spine2 s2a 198.18.12.2/24 || ok=0
link fp_spine1 s1b 198.18.21.2/24 fp_leafB lb1 198.18.21.1/24 || ok=0
link fp_spine2 s2b 198.18.22.2/24 fp_leafB lb2 198.18.22.1/24 || ok=0
link fp_leafB lb0 198.18.2.254/24 - fb0 $B/24 || ok=0
in_ns fp_leafA ip route add 198.18.2.0/24 nexthop via 198.18.11.2 nexthop via 198.18.12.2 || ok=0
in_ns fp_leafB ip route add 198.18.1.0/24 nexthop via 198.18.21.2 nexthop via 198.18.22.2 || ok=0
for s in 1 2; do
	in_ns fp_spine$s ip route add 198.18.1.0/24 via 198.18.1$s.1 || ok=0
	in_ns fp_spine$s ip route add 198.18.2.0/24 via 198.18.2$s.1 || ok=0
done
# The hosts: each one's traffic to the other leaves through its leaf.
for i in all default fa0 fb0; do
	sysctl -qw net.ipv4.conf.$i.rp_filter=0 net.ipv4.conf.$i.accept_local=1
done
ip rule add pref 100 iif lo to $B lookup 100 && ip route add $B via 198.18.1.254 dev fa0 src $A table 100 &&
ip rule add pref 101 iif lo to $A lookup 101 && ip route add $A via 198.18.2.254 dev fb0 src $B table 101 &&
ip rule add pref 1000 lookup local && ip rule del pref 0 || ok=0
[ $ok = 1 ] || fail "building the fabric"
check_eq "$(in_ns fp_leafA sysctl -n net.ipv4.fib_multipath_hash_policy) $(in_ns fp_leafA sysctl -n net.ipv4.fib_multipath_hash_fields)" \
	"3 55" "leafA's hash (0x0037)"
module_load || fail "load"
rxe_add rxe0 fa0 || fail "rxe0"
rxe_add rxe1 fb0 || fail "rxe1"
log_test "$T1"

# --- traffic, captured in each spine ---------------------------------------------------
CAP=()
for s in 1 2; do
	# ip execs timeout: $! is its pid, and it passes SIGTERM on to tcpdump.
	ip netns exec fp_spine$s timeout 300 tcpdump -Z root -U -n -i s${s}a -w "$W/spine$s.pcap" \
		"udp dst port 4791 and src host $A" > /dev/null 2> "$W/tcpdump$s.err" &
	CAP+=($!)
done
busywait 20000 eval 'grep -q listening "$W/tcpdump1.err" && grep -q listening "$W/tcpdump2.err"' ||
	fail "tcpdump did not start: $(cat "$W"/tcpdump*.err)"
echo "# $SECONDS s: captures listening"
g0=$(gid_index rxe0 $A); g1=$(gid_index rxe1 $B)
[ "$g0" = "$g1" ] || fail "GID indexes differ: rxe0 $g0, rxe1 $g1"
timeout -k 5 900 "$QPT" pair -d rxe0 -D rxe1 -g "${g0:-1}" -n $PAIRS -m 100 -s 1024 -T 120 --hold \
	> "$W/pairs.json" 2> "$W/pairs.err" < /dev/null &
HOLDER=$!
busywait 150000 test -s "$W/pairs.json" || fail "qptraffic: $(head -c 300 "$W/pairs.err")"
echo "# $SECONDS s: traffic done: $(head -c 300 "$W/pairs.json")"
# The capture's last packets written, then it stops.
sleep 1
kill "${CAP[@]}"
# gone CAP...: each ended (a zombie until waited for).
gone() {
	local p st
	for p in "$@"; do
		st=$(cat "/proc/$p/stat" 2> /dev/null) || continue
		[[ $st =~ \)\ Z ]] || return 1
	done
}
if busywait 20000 gone "${CAP[@]}"; then wait "${CAP[@]}"; else fail "the captures did not stop"; fi
declare -A SPINE_OF	# source port -> the spine a capture saw it cross
for s in 1 2; do
	while read -r sp; do
		[ -z "${SPINE_OF[$sp]}" ] || [ "${SPINE_OF[$sp]}" = $s ] || SPINE_OF[$sp]=both
		[ "${SPINE_OF[$sp]}" = both ] || SPINE_OF[$sp]=$s
	done < <(tcpdump -n -r "$W/spine$s.pcap" 2> /dev/null |
		sed -n "s/.* IP $A\.\([0-9]*\) > $B\.4791: .*/\1/p" | sort -u)
done
rc -j qp show dev rxe0 type RC > "$W/qps.json"
mapfile -t QPS < <(jq -r '.[] | "\(.lqpn) \(.sport)"' "$W/qps.json")
n1=0; n2=0
for q in "${QPS[@]}"; do
	read -r qpn sp <<< "$q"
	case ${SPINE_OF[$sp]:-} in 1) n1=$((n1 + 1)) ;; 2) n2=$((n2 + 1)) ;; esac
done
echo "# QPs (lqpn sport): ${QPS[*]}; the capture: spine1 $n1, spine2 $n2"
check_eq "$(jq '.pairs | length' "$W/pairs.json" 2> /dev/null)" $PAIRS "pairs that completed"
check_eq "${#QPS[@]}" $PAIRS "rxe0's RC QPs"
check_eq "$((n1 + n2))" $PAIRS "QPs whose port one spine alone saw"
[ $n1 -gt 0 ] && [ $n2 -gt 0 ] || fail "one spine carried every QP: spine1 $n1, spine2 $n2"
log_test "$T2"

# --- qp path, with the destination watched --------------------------------------------
# tc at host B's netdev: probes (UDP 4791, opcode 0x80) that reached it.
tc qdisc add dev fb0 clsact && tc filter add dev fb0 ingress pref 1 protocol ip u32 \
	match ip protocol 17 0xff match ip dport 4791 0xffff match u8 0x80 0xff at 28 action pass ||
	fail "tc on fb0"
rcvd0=$(rdma -j statistic show link rxe1/1 | jq '.[0].rcvd_pkts')
B_rx0=$(rc -j qp stats dev rxe1 type RC | jq '[.[].counters.rx_packets] | add')
# rxe's error counters from here: what the traces moved (the traffic's own
# retransmissions under emulation are not theirs).
rxe_errors > "$W/errors.json"
echo "# $SECONDS s: tracing"
start=$SECONDS
timeout 120 "$ROCECTL" -j qp path dev rxe0 type RC > "$W/path.json" 2> "$W/path.err"
st=$?
took=$((SECONDS - start))
probes_at_B() {
	tc -s -j filter show dev fb0 ingress | jq '[.. | objects | select(has("actions")) | .actions[].stats.packets] | add // 0'
}
reached1=$(probes_at_B)
# A second run (text, one QP) learns the distance again: one more at most.
timeout 120 "$ROCECTL" qp path dev rxe0 qpn "${QPS[0]%% *}" > "$W/path.txt" 2>&1
reached=$(probes_at_B)
rcvd1=$(rdma -j statistic show link rxe1/1 | jq '.[0].rcvd_pkts')
B_rx1=$(rc -j qp stats dev rxe1 type RC | jq '[.[].counters.rx_packets] | add')
echo "# qp path: exit $st in $took s; $(head -c 300 "$W/path.err")"
echo "# one QP's text: $(tr '\n' '|' < "$W/path.txt")"
echo "# probes that reached host B (tc): $reached1 in the first run, $reached after the second; rxe1 rcvd_pkts +$((rcvd1 - rcvd0)); rocectl's rx_packets of B's QPs +$((B_rx1 - B_rx0))"
check_eq "$st" 0 "qp path's exit"
bad=0; agree=0
declare -A PATH_SPINE
for q in "${QPS[@]}"; do
	read -r qpn sp <<< "$q"
	hop2=$(jq -r --argjson q "$qpn" '.[] | select(.lqpn == $q) | .hops[] | select(.ttl == 2) | .address // "-"' "$W/path.json")
	case $hop2 in 198.18.11.2) PATH_SPINE[$qpn]=1 ;; 198.18.12.2) PATH_SPINE[$qpn]=2 ;; *) PATH_SPINE[$qpn]="?$hop2" ;; esac
	if [ "${PATH_SPINE[$qpn]}" = "${SPINE_OF[$sp]:-}" ]; then agree=$((agree + 1))
	else bad=1; echo "# lqpn $qpn sport $sp: qp path ${PATH_SPINE[$qpn]}, capture ${SPINE_OF[$sp]:-none}"; fi
done
check_eq "$agree" $PAIRS "QPs whose spine qp path and the capture agree on"
check_eq "$(jq '[.[] | select(.hops | length == 0)] | length' "$W/path.json")" 0 "QPs without hops"
log_test "$T3"

if ! command -v traceroute > /dev/null; then
	log_skip "$T4" "traceroute(8) is not installed (tests/deps.sh installs it)"
else
	agree=0
	for q in "${QPS[@]}"; do
		read -r qpn sp <<< "$q"
		hop2=$(timeout 60 traceroute -U -p 4791 --sport="$sp" -s $A -n -q 1 -N 1 -w 2 -f 2 -m 2 $B 2> /dev/null |
			awk '$1 == 2 { print $2 }')
		case $hop2 in 198.18.11.2) t=1 ;; 198.18.12.2) t=2 ;; *) t="?$hop2" ;; esac
		if [ "$t" = "${PATH_SPINE[$qpn]}" ]; then agree=$((agree + 1))
		else echo "# lqpn $qpn sport $sp: traceroute $t, qp path ${PATH_SPINE[$qpn]}"; fi
	done
	check_eq "$agree" $PAIRS "QPs whose spine traceroute and qp path agree on"
	log_test "$T4"
fi

# The first trace toward B learned its distance from the one probe that
# reached it unanswered; every later one stopped a hop short.
[ "$reached1" -le 1 ] || fail "$reached1 probes of one run reached host B"
[ $((reached - reached1)) -le 1 ] || fail "$((reached - reached1)) probes of the second run reached host B"
check_eq "$((rcvd1 - rcvd0))" 0 "packets rxe1 counted received during the traces (the probe is dropped before)"
# The destination's documented counter (rocectl-qp(8)): the rx_packets of
# the QP the probe names, one for each probe tc saw arrive.
check_eq "$((B_rx1 - B_rx0))" "$reached" "rx_packets of host B's QPs against the probes tc saw reach it"
check_eq "$(jq '[.[] | select(.hops | length == 4)] | length' "$W/path.json")" 1 "traces with a fourth (silent) hop"
states=$(rdma -j resource show qp | jq -r '[.[] | select(.ifname == "rxe1" and .type == "RC") | .state] | unique | join(",")')
check_eq "$states" RTS "the destination QPs' states"
check_eq "$(rxe_errors_since "$W/errors.json")" "" "rxe's error counters that rose"
kill "$(jq .pid "$W/pairs.json")"; wait "$HOLDER"; hold_st=$?; HOLDER=
check_eq "$hold_st" 0 "qptraffic's exit after the hold"
log_test "$T5"

# Root only.
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- \
	timeout "$T" /run/nobody/rocectl qp path 2>&1)
check_eq "$?" 4 "nobody's exit"
check_match "$out" "root only" "nobody's sentence"
log_test "$T6"

# --- where the marks come from --------------------------------------------------------
ok=1
router fp_leafC || ok=0
link - fc0 $C/24 fp_leafC lc0 198.18.3.254/24 || ok=0
link fp_leafC lc1 198.18.31.1/24 fp_spine1 s1c 198.18.31.2/24 || ok=0
link fp_leafC lc2 198.18.32.1/24 fp_spine2 s2c 198.18.32.2/24 || ok=0
in_ns fp_leafC ip route add 198.18.2.0/24 nexthop via 198.18.31.2 nexthop via 198.18.32.2 || ok=0
in_ns fp_leafB ip route add 198.18.3.0/24 nexthop via 198.18.21.2 nexthop via 198.18.22.2 || ok=0
for s in 1 2; do in_ns fp_spine$s ip route add 198.18.3.0/24 via 198.18.3$s.1 || ok=0; done
sysctl -qw net.ipv4.conf.fc0.rp_filter=0 net.ipv4.conf.fc0.accept_local=1 || ok=0
ip rule add pref 99 iif lo from $C to $B lookup 102 && ip route add $B via 198.18.3.254 dev fc0 src $C table 102 &&
ip rule add pref 102 iif lo to $C lookup 103 && ip route add $C via 198.18.2.254 dev fb0 src $B table 103 || ok=0
rxe_add rxe2 fc0 || ok=0
[ $ok = 1 ] || fail "building leafC and host C"
g2=$(gid_index rxe2 $C)
[ "$g2" = "$g0" ] || fail "GID indexes differ: rxe0 $g0, rxe2 $g2"

# mark NS DEV / unmark NS DEV: a 4 Mbit bottleneck (a 2 KB bucket) with
# RED marking ECT packets CE on the link out of DEV as soon as two packets
# queue (an average that halves toward the queue at each packet: burst 1;
# every ECT packet above 2 KB), with room to drop none. Measured on a busy
# machine: at 40, 10 or 4 Mbit with RED from 12, 3 or 1.5 KB (max 4.5 KB),
# a link carrying 3 QPs of 8 messages saw a third of them never marked
# (the guest sent too slowly for a queue); 8 x 60 x 4 KiB bursts overflowed
# queues after the marking (marks tc counted never arrived) and rdma_rxe
# failed to send ACKs.
mark() {
	in_ns "$1" tc qdisc add dev "$2" root handle 1: tbf rate 4mbit burst 2kb limit 1mb &&
	in_ns "$1" tc qdisc add dev "$2" parent 1:1 handle 10: red limit 1000000 min 1000 max 2000 \
		avpkt 1000 burst 1 probability 1.0 bandwidth 4mbit ecn
}
unmark() { in_ns "$1" tc qdisc del dev "$2" root; }
marked() { in_ns "$1" tc -s -j qdisc show dev "$2" | jq '[.. | objects | select(has("marked")) | .marked][0] // 0'; }
# traffic NAME: 8 ECT(0) pairs from A to B (8 one-packet messages each,
# posted at once: 24 to 40 packets, 50 to 90 ms, queue at the marked
# link), then 8 from C to B, held.
traffic() {
	local d
	for d in rxe0 rxe2; do
		timeout -k 5 300 "$QPT" pair -d $d -D rxe1 -g "$g0" -n 8 -m 8 -s 1024 --tos 2 -T 120 --hold \
			> "$W/$1-$d.json" 2> "$W/$1-$d.err" < /dev/null &
		HOLD+=($!)
		busywait 150000 test -s "$W/$1-$d.json" ||
			{ fail "qptraffic from $d: $(head -c 300 "$W/$1-$d.err")"; return 1; }
	done
	echo "# $SECONDS s: traffic $1 done"
}
release() {
	local f
	for f in "$W/$1"-rxe*.json; do kill "$(jq .pid "$f")"; done
	wait "${HOLD[@]}"
	HOLD=()
}
# reference NS DEV: RED's marked count on the link (MARKED) and the CE
# host B's QPs counted (B_ce), once the traffic is over and before any
# probe: tbf peeks at RED, which so never sees the link idle and keeps its
# average, and marks probes that later expire at the leaf (measured: tc 95,
# host B 93 when read after the traces).
reference() {
	MARKED=$(marked "$1" "$2")
	B_ce=$(rc -j qp stats dev rxe1 type RC | jq '[.[].counters.rx_ecn_ce] | add')
}
# links NAME [text]: qp path links over every RC QP (both ends), their
# counts since creation, read before its first probe (the routers do not
# limit ICMP: 20 probes a second).
links() {
	timeout 180 "$ROCECTL" -j qp path type RC rate 20 links window 0 > "$W/$1.json" 2> "$W/$1.err"
	check_eq "$?" 0 "qp path links' exit ($(head -c 200 "$W/$1.err"))"
	[ "${2:-}" != text ] || timeout 180 "$ROCECTL" qp path type RC rate 20 links window 0 > "$W/$1.txt" 2>&1
	echo "# qp path links: $(jq -c '.[0] | {verdict, link, reason, traced, marked}' "$W/$1.json")"
	[ "${2:-}" != text ] || echo "# the same, text: $(head -c 1500 "$W/$1.txt" | tr '\n' '|')"
}
field() { jq -r ".[0].$2" "$W/$1.json"; }
link_ce() { jq -r --arg a "$2" '.[0].links[] | select(.address == $a) | .rx_ecn_ce' "$W/$1.json"; }
link_qps() { jq -r --arg a "$2" '.[0].links[] | select(.address == $a) | .qps' "$W/$1.json"; }
# check_named RUN LINK OTHER MARKED FROM: the verdict names LINK, whose QPs'
# CE is MARKED (tc) and host B's, after the hops FROM; OTHER's QPs have none.
check_named() {
	check_eq "$(field "$1" verdict) $(field "$1" link)" "localized $2" "the verdict ($(field "$1" reason))"
	check_eq "$(field "$1" traced)" 32 "QPs traced (16 pairs, both ends)"
	[ "$4" -gt 0 ] || fail "RED marked nothing"
	check_eq "$B_ce" "$4" "CE host B's QPs counted against tc's marked count"
	check_eq "$(link_ce "$1" "$2")" "$4" "CE of the QPs crossing $2 against tc's marked count"
	check_eq "$(link_ce "$1" "$3")" 0 "CE of the QPs crossing $3"
	[ "$(link_qps "$1" "$3")" -gt 0 ] 2> /dev/null || fail "no QP crossed $3"
	check_eq "$(jq -c --arg a "$2" '[.[0].links[] | select(.address == $a) | .from[]] | sort' "$W/$1.json")" \
		"$5" "the hops before $2 (from A and C)"
}

mark fp_spine2 s2b || fail "RED on spine2's link to leafB"
traffic r1
reference fp_spine2 s2b
links l1 text
check_named l1 198.18.22.1 198.18.21.1 "$MARKED" '["198.18.12.2","198.18.32.2"]'
log_test "$T7"

release r1
unmark fp_spine2 s2b
mark fp_spine1 s1b || fail "RED on spine1's link to leafB"
traffic r2
reference fp_spine1 s1b
links l2
check_named l2 198.18.21.1 198.18.22.1 "$MARKED" '["198.18.11.2","198.18.31.2"]'
log_test "$T8"

# own_address NS N ROUTE...: the router answers from 198.18.255.N, its
# routes' source, as routers answer from a loopback's address.
own_address() {
	local ns=$1 a=198.18.255.$2 r w
	shift 2
	in_ns "$ns" ip addr add "$a/32" dev lo || return 1
	for r in "$@"; do
		read -ra w <<< "$r"
		in_ns "$ns" ip route replace "${w[0]}" src "$a" "${w[@]:1}" || return 1
	done
	in_ns "$ns" sysctl -qw net.ipv4.icmp_errors_use_inbound_ifaddr=0
}
ok=1
own_address fp_leafA 1 "198.18.1.0/24 dev la0" "198.18.2.0/24 nexthop via 198.18.11.2 nexthop via 198.18.12.2" || ok=0
own_address fp_leafB 2 "198.18.2.0/24 dev lb0" "198.18.1.0/24 nexthop via 198.18.21.2 nexthop via 198.18.22.2" \
	"198.18.3.0/24 nexthop via 198.18.21.2 nexthop via 198.18.22.2" || ok=0
own_address fp_leafC 3 "198.18.3.0/24 dev lc0" "198.18.2.0/24 nexthop via 198.18.31.2 nexthop via 198.18.32.2" || ok=0
for s in 1 2; do
	own_address fp_spine$s 1$s "198.18.1.0/24 via 198.18.1$s.1" "198.18.2.0/24 via 198.18.2$s.1" \
		"198.18.3.0/24 via 198.18.3$s.1" || ok=0
done
[ $ok = 1 ] || fail "the routers' own addresses"
links l3
check_eq "$(field l3 verdict) $(field l3 link)" "routers null" "the verdict ($(field l3 reason))"
check_match "$(field l3 reason)" "198\.18\.255\." "the reason's router address"
check_eq "$(jq '[.[0].links[].address | select(startswith("198.18.255."))] | length > 0' "$W/l3.json")" true \
	"hops answering from the routers' addresses"
release r2
log_test "$T9"

rxe_del rxe0; rxe_del rxe1; rxe_del rxe2
tc qdisc del dev fb0 clsact
kmsg_check
