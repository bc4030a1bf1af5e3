#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: soft-RoCE on a netdev of another network namespace. rocectl's
# packet hooks are in every namespace and its devices are found by netdev,
# not by ifindex (a number names a netdev only within its namespace): such
# a device is counted, RoCE between two namespaces exactly where rdma_rxe
# can carry it, and its netdev's number, reused by an initial-namespace
# netdev, does not take that netdev's packets. And the RDMA core's
# exclusive mode (rdma system set netns exclusive, as Kubernetes' RDMA CNI
# wants it): rdma_rxe cannot be moved into a pod's namespace (the core
# needs a driver that can disassociate its user contexts), so there a pod
# sees no soft-RoCE device, and rocectl's host view keeps it. (Readers in
# another pid namespace: the permissions scenario; pods in network
# namespaces on a shared device: the pods scenario.)
. "$(dirname "$0")/lib.sh"
plan 5
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
module_load || fail "load"
rxe_load || fail "rdma_rxe"

# Exclusive mode first: the core refuses the switch while another network
# namespace exists, and a namespace deleted just before goes away late.
ip link add vx0 type veth peer name vx1 || fail "veth for rxe8"
ip link set vx0 up; ip link set vx1 up
rxe_add rxe8 vx0 || fail "rxe8"
busywait 10000 rdma system set netns exclusive || fail "exclusive mode: $(rdma system set netns exclusive 2>&1)"
ip netns add rocectl2
out=$(rdma dev set rxe8 netns rocectl2 2>&1); code=$?
[ "$code" != 0 ] && code=refused
check_eq "$code $(rdma -j dev show | jq -c '[.[].ifname] | index("rxe8") != null')" "refused true" \
	"rdma_rxe's device not moved into the namespace: $out"
check_eq "$(ip netns exec rocectl2 rdma -j dev show | jq -s -c '[.[][].ifname]')" '[]' "no RDMA device in the namespace"
check_eq "$(rc -j dev show rxe8 | jq -c '.[0].ifname')" '"rxe8"' "rocectl's host view keeps it"
ip netns del rocectl2
rxe_del rxe8
ip link del vx0
busywait 10000 rdma system set netns shared || fail "shared mode back: $(rdma system set netns shared 2>&1)"
check_eq "$(rdma system show | grep -o 'netns [a-z]*')" "netns shared" "shared mode back"
log_test "exclusive mode: soft-RoCE stays in the initial namespace, a pod's namespace has no device, rocectl keeps it"
# Two namespaces, a veth between them (ns1's end takes ifindex 50 first;
# the initial namespace's veth1 then too), soft-RoCE on each end.
ip netns add rocectl1
ip netns add rocectl3
ip -n rocectl1 link add nsv0 index 50 type veth peer name nsv1 index 51 netns rocectl3 || fail "netns veth"
ip -n rocectl1 addr add 198.51.100.1/24 dev nsv0
ip -n rocectl3 addr add 198.51.100.2/24 dev nsv1
ip -n rocectl1 link set nsv0 up; ip -n rocectl3 link set nsv1 up
timeout "$T" ip netns exec rocectl1 rdma link add rxe9 type rxe netdev nsv0 || fail "rxe9 in the namespace"
timeout "$T" ip netns exec rocectl3 rdma link add rxe10 type rxe netdev nsv1 || fail "rxe10 in the other"
check_eq "$(rc -j dev stats rxe9 | jq -c '[.[] | select(.scope == "port" or .scope == "qps") | [.scope, has("counters")]]')" \
	'[["port",true],["qps",true]]' "rxe9's dev stats: the port's counters and the module's"
check_eq "$(dmesg | tail -n +$((KMSG_MARK + 1)) | grep -c 'rxe9.*not counted')" 0 "nothing said against it"
log_test "a soft-RoCE device whose netdev is in another network namespace: listed and counted"

# Traffic between the two namespaces, where rdma_rxe has sockets in each
# (newer kernels: 7.2 here, not 6.12); before, it sends from the initial
# namespace's and a netdev elsewhere carries no RoCE.
if grep -qw rxe_ns_init /proc/kallsyms; then
	g9=$(gid_index rxe9 198.51.100.1)
	"$QPT" pair -d rxe9 -D rxe10 -g "${g9:-1}" -n 1 -m 20 -s 64 --hold > "$W/ns.json" 2> "$W/ns.err" &
	holder=$!
	busywait 20000 test -s "$W/ns.json" || fail "qptraffic between the namespaces: $(cat "$W/ns.err")"
	a=$(jq '.pairs[0].a_qpn' "$W/ns.json"); b=$(jq '.pairs[0].b_qpn' "$W/ns.json")
	check_eq "$(rc -j qp stats dev rxe9 qpn "$a" | jq '.[0].counters.tx_packets')" 20 "rxe9 requester tx_packets"
	check_eq "$(rc -j qp stats dev rxe10 qpn "$b" | jq '.[0].counters.rx_packets')" 20 "rxe10 responder rx_packets"
	kill "$holder" 2>/dev/null; wait "$holder"
	log_test "RoCE between two network namespaces: each device counts its QPs' packets exactly"
else
	log_skip "RoCE between two network namespaces" "this rdma_rxe keeps its sockets in the initial namespace"
fi

ip link add veth1 index 50 type veth peer name veth2 index 52 || fail "veth1 as ifindex 50"
ip addr add 192.0.2.1/24 dev veth1
ip link set veth1 up; ip link set veth2 up
rxe_add rxe0 veth1 || fail "rxe0"
"$QPT" pair -d rxe0 -g 1 -n 1 -m 20 -s 64 --hold > "$W/pair.json" 2> "$W/pair.err" &
holder=$!
busywait 20000 test -s "$W/pair.json" || fail "qptraffic: $(cat "$W/pair.err")"
a=$(jq '.pairs[0].a_qpn' "$W/pair.json"); b=$(jq '.pairs[0].b_qpn' "$W/pair.json")
check_eq "$(rc -j qp stats dev rxe0 qpn "$a" | jq '.[0].counters.tx_packets')" 20 "rxe0 requester tx_packets"
check_eq "$(rc -j qp stats dev rxe0 qpn "$b" | jq '.[0].counters.rx_packets')" 20 "rxe0 responder rx_packets"
kill "$holder" 2>/dev/null; wait "$holder"
log_test "the initial namespace's netdev of the same ifindex: its device counts its own packets exactly"

rxe_del rxe0
timeout "$T" ip netns exec rocectl1 rdma link del rxe9
timeout "$T" ip netns exec rocectl3 rdma link del rxe10
ip netns del rocectl1; ip netns del rocectl3
ip link del veth1
kmsg_check
rm -rf "$W"
