#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: pods with RDMA devices of their own, the RDMA core in exclusive
# mode (rdma system set netns exclusive, which Kubernetes' RDMA CNI requires):
# each pod's devices moved into the pod's network namespace, used only
# from there. rdma_rxe cannot be moved (the core moves only a driver that
# can disassociate user contexts): this runs the test-only build of
# tests/rxe_index (ROCECTL_RXE_MOVABLE_KO, movable.patch), moved before any
# user context is open. Against the references: rdma(8) in each namespace
# (which devices it has), /proc/PID/cgroup, the QPs' own counters. Pod A
# (team-a/trainer-0, systemd cgroup driver) has rxe0 and rxe1 over the
# simulated NIC's sim0 and sim1; pod B (team-b/server-1, cgroupfs driver)
# has rxe2 over a veth, to itself. From the host: every device, each QP
# named by its pod, the exporter's per-pod sums equal to each pod's own
# traffic, a storm on sim0 naming pod A and not B.
. "$(dirname "$0")/lib.sh"
plan 5
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
UA=5e1c0a4b-2d3f-4e5a-8b6c-7d8e9f0a1b2c
UB=6f2d1b5c-3e4a-4f6b-9c7d-8e9f0a1b2c3d
IA=$(printf 'f%.0s' {1..64})
IB=$(printf 'd%.0s' {1..64})
PA=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UA//-/_}.slice/cri-containerd-$IA.scope
PB=/kubepods/besteffort/pod$UB/$IB

if [ ! -f "${ROCECTL_RXE_MOVABLE_KO:-}" ]; then
	for t in "devices moved into the pods' namespaces" "QPs named by pod" "per-pod sums" "a storm names its pod"; do
		log_skip "$t: no movable rdma_rxe for $(uname -r) (tests/rxe_index builds it from Debian's 6.1 source)"
	done
	exit 0
fi

kmsg_mark
kubepods_mount "$PA" "$PB" || fail "cgroup2, /var/log, cgroups"
mkdir -p "/var/log/pods/team-a_trainer-0_$UA/trainer" "/var/log/pods/team-b_server-1_$UB/server" ||
	fail "pod log directories"

# The test-only rdma_rxe in place of the kernel's, for this scenario only.
! grep -q '^rdma_rxe ' /proc/modules || rmmod rdma_rxe || fail "the kernel's rdma_rxe still in use"
export ROCECTL_RXE_KO=$ROCECTL_RXE_MOVABLE_KO
module_load || fail "load"
simnic_pair sim0 sim1 || fail "simnic"
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
rxe_add rxe0 sim0 && rxe_add rxe1 sim1 || fail "rxe over simnic"
for d in sim0 sim1; do dcb pfc set dev $d prio-pfc 3:on; dcb app add dev $d dscp-prio 26:3; done
ip link add vb0 type veth peer name vb1 || fail "veth"
ip addr add 192.0.2.21/24 dev vb0
ip link set vb0 up; ip link set vb1 up
rxe_add rxe2 vb0 || fail "rxe2"

busywait 10000 rdma system set netns exclusive || fail "exclusive mode: $(rdma system set netns exclusive 2>&1)"
ip netns add pod-a && ip netns add pod-b || fail "netns"
for d in rxe0 rxe1; do rdma dev set $d netns pod-a || fail "$d into pod-a"; done
rdma dev set rxe2 netns pod-b || fail "rxe2 into pod-b"
devs() { ip netns exec "$1" rdma -j dev show | jq -c '[.[].ifname] | sort'; }
check_eq "$(devs pod-a) $(devs pod-b)" '["rxe0","rxe1"] ["rxe2"]' "each pod's namespace: its devices (rdma(8) there)"
check_eq "$(rdma -j dev show | jq -c '[.[].ifname | select(test("^rxe[0-2]$"))]')" '[]' \
	"the host's namespace: none of them (rdma(8))"
check_eq "$(rc -j dev show | jq -c '[.[].ifname | select(test("^rxe[0-2]$"))] | sort')" '["rxe0","rxe1","rxe2"]' \
	"rocectl's host view: all three"
log_test "exclusive mode: devices moved into the pods' namespaces, rdma(8) there only, rocectl's host view all of them"

ga=$(gid_index rxe0 192.0.2.11 pod-a)
gb=$(gid_index rxe2 192.0.2.21 pod-b)
[ -n "$ga" ] && [ -n "$gb" ] ||
	fail "the pods' GIDs: '$ga' '$gb': $(ip netns exec pod-a ibv_devinfo -v -d rxe0 2>&1 | grep -E 'GID|rror' | tr -s '\t\n' ' ')"
in_cgroup "$PA" "$W/A.pid" ip netns exec pod-a "$QPT" pair -d rxe0 -D rxe1 -g "${ga:-1}" -n 2 -m 20 -s 1024 \
	--tos 104 --hold > "$W/A.json" 2> "$W/A.err" &
in_cgroup "$PB" "$W/B.pid" ip netns exec pod-b "$QPT" pair -d rxe2 -g "${gb:-1}" -n 1 -m 20 -s 1024 \
	--hold > "$W/B.json" 2> "$W/B.err" &
busywait 30000 test -s "$W/A.json" || fail "pod A's traffic: $(cat "$W/A.err")"
busywait 30000 test -s "$W/B.json" || fail "pod B's traffic: $(cat "$W/B.err")"
A=$(cat "$W/A.pid") B=$(cat "$W/B.pid")
check_eq "$(sed -n 's/^0:://p' "/proc/$A/cgroup") $(readlink "/proc/$A/ns/net")" \
	"$PA $(ip netns exec pod-a readlink /proc/self/ns/net)" "A in its container's cgroup and its pod's namespace"
pods_of() {	# pods_of DEV: [pid, namespace, pod] of DEV's QPs
	rc -j qp show dev "$1" type RC | jq -c '[.[] | [.pid, .namespace, .pod]] | unique'
}
check_eq "$(pods_of rxe0)" "[[$A,\"team-a\",\"trainer-0\"]]" "rxe0's QPs: pod A's"
check_eq "$(pods_of rxe1)" "[[$A,\"team-a\",\"trainer-0\"]]" "rxe1's"
check_eq "$(pods_of rxe2)" "[[$B,\"team-b\",\"server-1\"]]" "rxe2's: pod B's"
check_eq "$(rc -j qp show pod server-1 | jq length)" 2 "qp show pod server-1: B's pair on rxe2"
log_test "exclusive mode: each QP named by its pod, seen from the host"

ex() { rc exporter print owners > "$W/ex.txt" || fail "exporter print"; }
val() { awk -v k="$1" '$1 == k { print $2 }' "$W/ex.txt"; }
own() {	# own DEV PID KEY: what PID's QPs on DEV count, by their own counters
	rc -j qp stats dev "$1" pid "$2" 2> "$W/own.err" | jq "[.[].counters.$3] | add"
}
ex
out=$(promtool check metrics < "$W/ex.txt" 2>&1) || fail "promtool: $out"
for k in tx_bytes rx_bytes; do
	check_eq "$(val "rocectl_workload_qp_${k}_total{device=\"rxe0\",cgroup=\"$PA\"}")" "$(own rxe0 "$A" $k)" "A's $k on rxe0"
	check_eq "$(val "rocectl_workload_qp_${k}_total{device=\"rxe2\",cgroup=\"$PB\"}")" "$(own rxe2 "$B" $k)" "B's $k on rxe2"
done
a=$(own rxe0 "$A" tx_bytes)
[ "${a:-0}" -ge $((2 * 20 * 1024)) ] || fail "A sent $a bytes on rxe0, less than 2 x 20 messages of 1024"
grep -qF "rocectl_workload_info{cgroup=\"$PB\",namespace=\"team-b\",pod=\"server-1\"," "$W/ex.txt" || fail "B's info series"
# The RDMA core's netlink answers for a pod's devices only in the pod's
# namespace: the hardware counters (none bound here) are read there.
check_match "$(cat "$W/own.err")" "rxe0 could not be read: it is in another network namespace" \
	"qp stats from the host: why no hardware counters"
log_test "exclusive mode: the exporter's per-pod sums equal each pod's own QPs' counters"

rc watchdog set dev sim0 prio 3 action forward detect 100 restore 1000 interval 10 || fail "watch sim0"
storm sim0 3 1000
st() { rc -j watchdog stats dev sim0 | jq -c '.[0].prios[] | select(.prio == 3 and .direction == "rx") | '"$1"; }
busywait 10000 eval '[ "$(st .storms)" = 1 ]' || fail "no storm on sim0 priority 3"
check_eq "$(st '[.affected[] | [.pid, .namespace, .pod]]')" "[[$A,\"team-a\",\"trainer-0\"]]" \
	"the storm's processes: pod A's only"
storm sim0 3 0
busywait 10000 eval '[ "$(st .restores)" = 1 ]' || fail "no restore"
rc watchdog del dev sim0
log_test "exclusive mode: a storm on pod A's NIC names pod A, not B"

kill "$A" "$B" 2>/dev/null
wait "$A" "$B" 2>/dev/null
busywait 10000 eval '[ "$(rc -j qp show type RC | jq length)" = 0 ]' || fail "QPs left"
# Deleting a namespace gives its devices back to the initial one.
ip netns del pod-a; ip netns del pod-b
busywait 10000 eval '[ "$(rdma -j dev show | jq -c "[.[].ifname | select(test(\"^rxe[0-2]$\"))] | length")" = 3 ]' ||
	fail "devices not back: $(rdma dev show)"
rxe_del rxe0; rxe_del rxe1; rxe_del rxe2
busywait 10000 rdma system set netns shared || fail "shared mode back: $(rdma system set netns shared 2>&1)"
module_unload || fail "unload"
rmmod rdma_rxe || fail "rmmod the test-only rdma_rxe"
rmmod simnic || fail "rmmod simnic"
ip link del vb0
kubepods_unmount "$PA" "$PB"
kmsg_check
rm -rf "$W"
