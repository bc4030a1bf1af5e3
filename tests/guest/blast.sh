#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: each QP's priority and a PFC storm's blast radius, on the
# simulated DCB NIC (tests/simnic) with soft-RoCE over it. Two processes
# hold QPs whose traffic class maps, through dcb(8)'s DSCP APP entries, to
# two priorities: qp show's priority against dcb's mapping (and its change),
# then a storm on each priority names only that priority's process, with
# its QPs and the bytes they moved during the storm against the QPs' own
# counters; a sent-pause storm names its QPs as the likely slow receivers.
# A hardware device's QPs (simrdma's, whose packets the module never sees)
# get their priority and are named too, without bytes.
. "$(dirname "$0")/lib.sh"
plan 14
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
EV=$W/ev.json

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 5:on
dcb pfc set dev sim1 prio-pfc 3:on 5:on
module_load || fail "load"
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
rxe_add rxe0 sim0 && rxe_add rxe1 sim1 || fail "rxe over simnic"
# DSCP 26 (tclass 104) is priority 3, DSCP 40 (tclass 160) priority 5.
for d in sim0 sim1; do dcb app add dev $d dscp-prio 26:3 40:5; done
gid=$(gid_index rxe0 192.0.2.11)
gid=${gid:-1}

"$ROCECTL" -j monitor watchdog > "$EV" &
"$ROCECTL" monitor watchdog > "$W/mon.txt" &
trap 'kill $(jobs -p) 2>/dev/null' EXIT
# A sends from rxe0 on priority 3 (two QPs there); B receives on rxe0 on
# priority 5 (one QP there). Both connect, then wait for their go.
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 2 -m 100 -s 4096 --tos 104 -T 60 \
	--start-after "$W/go_a" --hold > "$W/a.json" 2> "$W/a.err" &
A=$!
"$QPT" pair -d rxe1 -D rxe0 -g "$gid" -n 1 -m 100 -s 4096 --tos 160 -T 60 \
	--start-after "$W/go_b" --hold > "$W/b.json" 2> "$W/b.err" &
B=$!
qps_rts() { rc -j qp show dev rxe0 | jq -c "[.[] | select(.state == \"RTS\" and (.pid == $A or .pid == $B)) | .pid] | sort"; }
busywait 20000 eval '[ "$(qps_rts)" = "$(echo "[$A,$A,$B]" | jq -c sort)" ]' ||
	fail "QPs not connected: $(qps_rts) $(cat "$W/a.err" "$W/b.err")"

# --- each QP's priority against dcb(8) ---------------------------------------------------
# dcb's own mapping of a DSCP on sim0: the independent reference.
dcb_prio() { dcb -N app show dev sim0 dscp-prio | tr ' ' '\n' | awk -F: -v d="$1" '$1 == d {print $2}' | sort -n | tail -n 1; }
prios() { rc -j qp show dev rxe0 | jq -c "[.[] | select(.pid == $1) | [.prio, .prio_source]] | unique"; }
check_eq "$(prios $A)" "[[$(dcb_prio 26),\"dscp\"]]" "A's QPs (DSCP 26)"
check_eq "$(prios $B)" "[[$(dcb_prio 40),\"dscp\"]]" "B's QPs (DSCP 40)"
check_eq "$(rc qp show dev rxe0 | grep -c 'prio 3 (dscp)')" 2 "text: two QPs on prio 3"
log_test "qp show: each QP's priority is dcb app's mapping of its DSCP"

dcb app replace dev sim0 dscp-prio 26:6
check_eq "$(dcb_prio 26)" 6 "dcb's new mapping"
check_eq "$(prios $A)" '[[6,"dscp"]]' "A's QPs after the change"
dcb app replace dev sim0 dscp-prio 26:3
check_eq "$(prios $A)" '[[3,"dscp"]]' "A's QPs changed back"
dcb app del dev sim0 dscp-prio 26:3 40:5
check_eq "$(prios $A)" '[[0,"default"]]' "no DSCP entry: untagged, priority 0"
dcb app add dev sim0 dscp-prio 26:3 40:5
check_eq "$(prios $B)" '[[5,"dscp"]]' "B's QPs with the entries back"
log_test "qp show: the priority follows dcb app changes after the QPs' RTR"

# --- a received-pause storm on priority 3 ----------------------------------------------
TR=/sys/kernel/tracing
[ -d $TR/events ] || TR=/sys/kernel/debug/tracing
echo > $TR/trace
echo 1 > $TR/events/rocectl/pfc_storm_detect/enable
# forward: the stormed priority's traffic moves during the storm; the hold
# outlasts the transfers (PFC off silences the counters: restored on time).
rc watchdog set dev sim0 prio 3,5 direction both action forward detect 100 restore 8000 interval 10 ||
	fail "watch sim0"
# bytes PID KEY: what PID's QPs on rxe0 moved so far, by their own counters.
bytes() { rc -j qp stats dev rxe0 | jq "[.[] | select(.pid == $1) | .counters.$2] | add"; }
ev() { jq -s -c "[.[] | select(.ifname == \"sim0\" and .event == \"$1\" and .prios[0].prio == $2)] | last | .prios[0]${3:+ | $3}" "$EV"; }
nev() { jq -s "[.[] | select(.ifname == \"sim0\" and .event == \"$1\" and .prios[0].prio == $2)] | length" "$EV"; }
a0=$(bytes $A tx_bytes)
storm sim0 3 1000
busywait 10000 eval '[ "$(nev detect 3)" = 1 ]' || fail "no detection on 3"
check_eq "$(ev detect 3 '[.direction, .affected_qps, .affected_procs]')" '["rx",2,1]' "detect: counts"
check_eq "$(ev detect 3 '[.affected[] | [.pid, .comm, .qps]]')" "[[$A,\"qptraffic\",2]]" "detect: A alone"
check_eq "$(ev detect 3 .likely_slow_receivers)" null "a received-pause storm names no receivers"
check_match "$(cat $TR/trace)" "pfc_storm_detect: netdev=sim0 prio=3 dir=0 .* qps=2 procs=1" "tracepoint"
log_test "a storm on priority 3 names A's two QPs alone (event, tracepoint)"

touch "$W/go_a"
busywait 60000 test -s "$W/a.json" || fail "A's traffic: $(cat "$W/a.err")"
storm sim0 3 0
busywait 30000 eval '[ "$(nev restore 3)" = 1 ]' || fail "no restore on 3"
a1=$(bytes $A tx_bytes)
rc -j watchdog stats dev sim0 > "$W/st.json"
check_eq "$(jq -c '.[0].prios[] | select(.prio == 3 and .direction == "rx") | [.affected[] | [.pid, .qps, .bytes]]' "$W/st.json")" \
	"[[$A,2,$((a1 - a0))]]" "bytes during the storm, against the QPs' counters ($a0 -> $a1)"
[ "$((a1 - a0))" -ge $((2 * 100 * 4096)) ] || fail "A moved $((a1 - a0)) bytes during the storm, not all its messages"
check_match "$(rc watchdog stats dev sim0 | tr '\n' ' ')" "affected: qps 2 procs 1 \(bytes sent\).*pid $A comm qptraffic qps 2 bytes $((a1 - a0))" "text stats"
log_test "bytes during the storm: A's QPs' own counters' delta (stats, JSON and text)"

check_match "$(tr '\n' ' ' < "$W/mon.txt")" "sim0: detect .*prio 3 rx .*affected: qps 2 procs 1 .*pid $A comm qptraffic qps 2" "monitor text"
log_test "monitor prints the affected processes"

# --- a sent-pause storm on priority 5: B's receiving QP --------------------------------
b0=$(bytes $B rx_bytes)
echo "5 1000" > "$SIM/sim0/tx_storm"
busywait 10000 eval '[ "$(nev detect 5)" = 1 ]' || fail "no detection on 5"
check_eq "$(ev detect 5 '[.direction, .affected_qps, .affected_procs, .likely_slow_receivers]')" \
	'["tx",1,1,true]' "detect: counts"
check_eq "$(ev detect 5 '[.affected[] | [.pid, .qps]]')" "[[$B,1]]" "detect: B alone"
touch "$W/go_b"
busywait 60000 test -s "$W/b.json" || fail "B's traffic: $(cat "$W/b.err")"
echo "5 0" > "$SIM/sim0/tx_storm"
busywait 30000 eval '[ "$(nev restore 5)" = 1 ]' || fail "no restore on 5"
b1=$(bytes $B rx_bytes)
check_eq "$(rc -j watchdog stats dev sim0 | jq -c '.[0].prios[] | select(.prio == 5 and .direction == "tx") | [.affected[] | [.pid, .bytes]]')" \
	"[[$B,$((b1 - b0))]]" "bytes received during the storm ($b0 -> $b1)"
# At least all its messages: a packet retransmitted across the pause counts again.
[ "$((b1 - b0))" -ge $((100 * 4096)) ] || fail "B received $((b1 - b0)) bytes during the storm, not all its messages"
check_match "$(rc watchdog stats dev sim0)" "likely slow receivers" "text"
log_test "a sent-pause storm on priority 5 names B's receiving QP as the likely slow receiver, with its bytes"

# --- the other priority stays out of it ---------------------------------------------------
check_eq "$(jq -s -c "[.[] | select(.event == \"detect\") | .prios[0] | [.prio, [.affected[].pid]]]" "$EV")" \
	"[[3,[$A]],[5,[$B]]]" "every detection"
log_test "each storm names only its own priority's process"

# --- stats keep the last storm; bad input -------------------------------------------------
check_eq "$(rc -j watchdog stats dev sim0 | jq -c '[.[0].prios[] | select(.affected_qps) | [.prio, .direction, .affected_qps]]')" \
	'[[3,"rx",2],[5,"tx",1]]' "last storms' counts"
out=$(rc watchdog stats dev nosuch0 2>&1); code=$?
check_eq "$code" 4 "unknown netdev: $out"
check_match "$out" "no netdev has this name" "its error"
rc exporter print owners top 20 top-by tx_bytes > "$W/ex.txt" || fail "exporter print"
metric() { awk -v m="$1" '$1 == m { print $2 }' "$W/ex.txt"; }
check_eq "$(metric 'rocectl_watchdog_storm_affected_qps{netdev="sim0",prio="3",direction="rx"}') $(metric 'rocectl_watchdog_storm_affected_processes{netdev="sim0",prio="3",direction="rx"}')" \
	"2 1" "exporter: priority 3's storm"
check_eq "$(metric 'rocectl_watchdog_storm_affected_qps{netdev="sim0",prio="5",direction="tx"}') $(metric 'rocectl_watchdog_storm_affected_processes{netdev="sim0",prio="5",direction="tx"}')" \
	"1 1" "exporter: priority 5's storm"
top_sports() { grep "^rocectl_top_qp_tx_bytes_total{device=\"rxe0\",.*pid=\"$A\",comm=\"qptraffic\",prio=\"3\",prio_source=\"dscp\",sport=\"[0-9]*\",source=\"module\"}" "$W/ex.txt" |
	sed 's/.*sport="\([0-9]*\)".*/\1/' | sort -n | tr '\n' ' '; }
check_eq "$(top_sports)" "$(rc -j qp show dev rxe0 | jq -r "[.[] | select(.pid == $A) | .sport] | sort | .[]" | tr '\n' ' ')" \
	"exporter: A's two QPs' prio and sport labels, against qp show"
log_test "stats and the exporter keep the last storm's blast radius; top QPs carry their priority and source port; an unknown netdev is a clear error"

# --- a hardware device: simrdma over sim2, kernel QPs on priority 3 -------------------
simnic_pair sim2 sim3 || fail "simnic sim2"
dcb pfc set dev sim2 prio-pfc 3:on
ip addr add 192.0.2.21/24 dev sim2
dcb app add dev sim2 dscp-prio 26:3
simrdma_dev srd0 sim2 || fail "simrdma over sim2"
echo "create 2" > "$SRD/srd0/qps" && echo "modify all rtr 104" > "$SRD/srd0/qps" ||
	fail "simrdma QPs to RTR"
hw_prios() { rc -j qp show dev srd0 | jq -c '[.[] | select(.type == "RC") | [.state, .prio, .prio_source]]'; }
p=$(dcb -N app show dev sim2 dscp-prio | tr ' ' '\n' | awk -F: '$1 == 26 {print $2}')
check_eq "$p $(hw_prios)" "3 [[\"RTR\",$p,\"dscp\"],[\"RTR\",$p,\"dscp\"]]" "simrdma's QPs against dcb app on sim2"
rc watchdog set dev sim2 prio 3 action alert detect 100 restore 1000 interval 10 || fail "watch sim2"
storm sim2 3 1000
hev() { jq -s -c "[.[] | select(.ifname == \"sim2\" and .event == \"detect\")] | last | .prios[0]${1:+ | $1}" "$EV"; }
busywait 10000 eval '[ "$(hev .prio)" = 3 ]' || fail "no detection on sim2"
comm=$(rc -j qp show dev srd0 | jq -r '[.[] | select(.type == "RC") | .comm] | unique | .[]')
check_eq "$(hev '[.affected_qps, .affected_procs, [.affected[] | [.comm, .qps, has("bytes")]]]')" \
	"[2,1,[[\"$comm\",2,false]]]" "sim2's storm names simrdma's two QPs, without bytes"
storm sim2 3 0
rc watchdog del dev sim2
echo "destroy all" > "$SRD/srd0/qps"; echo srd0 > "$SRD/del_device"
log_test "a hardware device's QPs: their priority from dcb app, named by a storm on its netdev (no bytes: the NIC counts them)"

# --- a process that starts during a storm and is gone before its end ------------------------
# C creates its QPs on priority 3 after the detection, sends, destroys them
# and exits; the restore still names it, with the bytes its QP sent.
storm sim0 3 1000
busywait 10000 eval '[ "$(nev detect 3)" = 2 ]' || fail "no second detection on 3"
check_eq "$(ev detect 3 '[.affected_qps, [.affected[] | [.pid, .qps]]]')" "[2,[[$A,2]]]" "detect: A's two QPs"
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 100 -s 4096 --tos 104 -T 60 > "$W/c.json" 2> "$W/c.err" &
C=$!
wait $C || fail "C's traffic: $(cat "$W/c.err")"
sent=$(jq .bytes "$W/c.json")
storm sim0 3 0
busywait 30000 eval '[ "$(nev restore 3)" = 2 ]' || fail "no second restore on 3"
rc -j watchdog stats dev sim0 > "$W/st2.json"
blast() { jq -c ".[0].prios[] | select(.prio == 3 and .direction == \"rx\") | $1" "$W/st2.json"; }
check_eq "$(blast '[.affected_qps, .affected_procs, [.affected[] | [.pid, .qps]]]')" \
	"[3,2,[[$C,1],[$A,2]]]" "C's QP counted and named first, A's idle two after it"
cb=$(blast ".affected[] | select(.pid == $C) | .bytes")
[ "$sent" -gt 0 ] && [ "${cb:-0}" -ge "$sent" ] || fail "C sent $sent bytes by its own count, the storm names ${cb:-none}"
check_eq "$(blast ".affected[] | select(.pid == $A) | .bytes")" 0 "A idle during this storm"
check_eq "$(ev restore 3 '[.affected[] | .pid]')" "[$C,$A]" "the restore event names C too"
log_test "a storm counts the QPs created during it: a process gone before the restore is named with its bytes"

# --- QPs that exist at the detection without a path, and connect during the storm --------
# D's one QP and E's second wait in INIT (no path, so no priority) through
# the detection; E's first is connected and idle. Both connect, send and are
# destroyed during the storm: each QP counted once, with the bytes
# qptraffic sent over it, and D named although the detection could not.
storm_init_qps() {
	local nd nr D E sd se db eb pl bo
	rm -f "$W/go_d" "$W/go_e"
	"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 100 -s 4096 --tos 104 -T 60 \
		--connect-after "$W/go_d" > "$W/d.json" 2> "$W/d.err" &
	D=$!
	"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 2 -m 100 -s 4096 --tos 104 -T 60 \
		--connect-after "$W/go_e" > "$W/e.json" 2> "$W/e.err" &
	E=$!
	# rdma(8)'s resource listing, the reference for the QPs' states.
	pl="[.[] | select(.ifname == \"rxe0\" and (.pid == $D or .pid == $E)) | [.pid, .state]] | sort"
	busywait 20000 eval '[ "$(rdma -j resource show qp | jq -c "$pl")" = "$(echo "[[$D,\"INIT\"],[$E,\"INIT\"],[$E,\"RTS\"]]" | jq -c sort)" ]' ||
		{ fail "D's and E's QPs not INIT, INIT and RTS: $(rdma -j resource show qp | jq -c "$pl") $(cat "$W/d.err" "$W/e.err")"; return; }
	nd=$(($(nev detect 3) + 1)); nr=$(($(nev restore 3) + 1))
	# The same settings again: the backoff the storms before left goes
	# (rocectl-watchdog(8)), so the restore does not wait 8 s << N.
	rc watchdog set dev sim0 prio 3,5 direction both action forward detect 100 restore 8000 interval 10 ||
		{ fail "watch sim0 set again"; return; }
	storm sim0 3 1000
	busywait 10000 eval '[ "$(nev detect 3)" = $nd ]' || { fail "no detection $nd on 3"; return; }
	check_eq "$(ev detect 3 '[.affected_qps, [.affected[] | [.pid, .qps]]]')" "[3,[[$A,2],[$E,1]]]" \
		"detect: A's two QPs and E's connected one, no QP without a path"
	touch "$W/go_d" "$W/go_e"
	wait $D || { fail "D's traffic: $(cat "$W/d.err")"; return; }
	wait $E || { fail "E's traffic: $(cat "$W/e.err")"; return; }
	sd=$(jq .bytes "$W/d.json"); se=$(jq .bytes "$W/e.json")
	# A storm back soon after the last restore doubles the restoration
	# time (backoff, rocectl-watchdog(8)): the wait is the watch's own.
	bo=$(rc -j watchdog stats dev sim0 |
		jq '.[0].prios[] | select(.prio == 3 and .direction == "rx") | .backoff')
	storm sim0 3 0
	busywait $((30000 + (8000 << ${bo:-0}))) eval '[ "$(nev restore 3)" = $nr ]' ||
		{ fail "no restore $nr on 3 (backoff ${bo:-unknown})"; return; }
	rc -j watchdog stats dev sim0 > "$W/st3.json"
	blast3() { jq -c ".[0].prios[] | select(.prio == 3 and .direction == \"rx\") | $1" "$W/st3.json"; }
	check_eq "$(blast3 '[.affected_qps, .affected_procs, ([.affected[] | [.pid, .qps]] | sort)]')" \
		"[5,3,$(echo "[[$A,2],[$D,1],[$E,2]]" | jq -c sort)]" "each QP once, D named"
	db=$(blast3 ".affected[] | select(.pid == $D) | .bytes")
	eb=$(blast3 ".affected[] | select(.pid == $E) | .bytes")
	# Its own bytes, once: more only by what rxe sent again.
	[ "$sd" -gt 0 ] && [ "${db:-0}" -ge "$sd" ] && [ "${db:-0}" -lt $((2 * sd)) ] ||
		fail "D sent $sd bytes by its own count, the storm names ${db:-none}"
	[ "$se" -gt 0 ] && [ "${eb:-0}" -ge "$se" ] && [ "${eb:-0}" -lt $((2 * se)) ] ||
		fail "E sent $se bytes by its own count, the storm names ${eb:-none}"
	check_eq "$(blast3 ".affected[] | select(.pid == $A) | .bytes")" 0 "A idle during this storm"
}
storm_init_qps
log_test "a QP without a path at the detection that connects, sends and is gone during the storm: counted once with its bytes, its process named"

# Past 32,768 storm detections (a test-only parameter counts them without
# storms): the same storm counts the same.
echo 40000 > /sys/module/rocectl/parameters/blast_walks_skip ||
	fail "blast_walks_skip"
storm_init_qps
log_test "past 32,768 detections a storm counts the same QPs and bytes"

# --- a storm on a netdev that moved namespace walks its own device -----------------------
# srd1 (simrdma) over sim2 has two QPs on priority 3; a storm there is held
# (forward, the driver refusing to set PFC back, so the watch follows sim2)
# while sim2 moves into a namespace where its ifindex is sim0's, rxe0's
# port here (ip(8) says which). srd1 goes with its netdev (rdma(8) says
# so); G then connects on rxe0's priority 3. The storm's walks look for
# sim2's own device: its restore names srd1's two QPs alone.
simrdma_dev srd1 sim2 || fail "simrdma srd1 over sim2"
echo "create 2" > "$SRD/srd1/qps" && echo "modify all rtr 104" > "$SRD/srd1/qps" ||
	fail "srd1's QPs to RTR"
comm=$(rc -j qp show dev srd1 | jq -r '[.[] | select(.type == "RC") | .comm] | unique | .[]')
sev() { jq -s -c "[.[] | select(.ifname == \"sim2\" and .event == \"$1\")] | $2" "$EV"; }
rc watchdog set dev sim2 prio 3 action forward detect 100 restore 8000 interval 10 || fail "watch sim2"
nd=$(($(sev detect length) + 1)); nr=$(($(sev restore length) + 1))
storm sim2 3 1000
busywait 10000 eval '[ "$(sev detect length)" = $nd ]' || fail "no detection on sim2"
check_eq "$(sev detect 'last | .prios[0] | [.affected_qps, [.affected[] | .comm]]')" "[2,[\"$comm\"]]" \
	"detect: srd1's two QPs"
echo -1 > "$SIM/sim2/fail_setpfc"
s0=$(cat /sys/class/net/sim0/ifindex); s2=$(cat /sys/class/net/sim2/ifindex)
ip netns add blast3
# sim2's ifindex taken there, and every one below sim0's: it gets sim0's.
ip -n blast3 link add bd0 index "$s2" type dummy
for i in $(seq 2 $((s0 - 1))); do ip -n blast3 link add "bd$i" type dummy; done
ip link set sim2 netns blast3 && ip -n blast3 link set sim2 up || fail "sim2 into a namespace"
check_eq "$(ip -n blast3 -j link show sim2 | jq '.[0].ifindex')" "$s0" "sim2's ifindex there: sim0's here"
busywait 10000 eval '! rdma dev show srd1 > /dev/null 2>&1' || fail "srd1 stays without sim2"
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 10 -s 4096 --tos 104 -T 60 --hold \
	> "$W/g.json" 2> "$W/g.err" &
G=$!
busywait 20000 test -s "$W/g.json" || fail "G's traffic: $(cat "$W/g.err")"
echo 0 > "$SIM/sim2/fail_setpfc"
echo "3 0" > "$SIM/sim2/rx_storm"
busywait 30000 eval '[ "$(sev restore length)" = $nr ]' || fail "no restore on sim2"
check_eq "$(sev restore 'last | .prios[0] | [.affected_qps, [.affected[] | .comm]]')" "[2,[\"$comm\"]]" \
	"restore: srd1's two QPs, none of rxe0's"
kill $G 2>/dev/null; wait $G 2>/dev/null
ip -n blast3 link set sim2 netns 1 && ip link set sim2 up || fail "sim2 back"
ip netns del blast3
rc watchdog del dev sim2 > /dev/null 2>&1
log_test "a storm on a netdev that moved namespace walks its own device, not the one its new ifindex names here"

kill $A $B 2>/dev/null
wait $A $B 2>/dev/null
kill %1 %2 2>/dev/null
echo 0 > $TR/events/rocectl/pfc_storm_detect/enable
rc watchdog del dev sim0
module_unload || fail "unload"
rxe_del rxe0; rxe_del rxe1
rmmod simrdma || fail "rmmod simrdma"
rmmod simnic || fail "rmmod simnic"
kmsg_check
rm -rf "$W"
