#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: races, each for RACE_SECONDS (default 60):
#   a) QP create/destroy churn on two devices under parallel QP, device and
#      watch dumps, with watchdog set/del loops (forward, storms toggling)
#      on a simulated DCB netdev;
#   c) rdma_rxe unloaded and reloaded in a loop under RDMA traffic (the
#      traffic killed so the devices can go) while rocectl is loaded, with
#      dumps and a monitor;
#   d) a simnic pair deleted and created again in a loop during storms with
#      forward watches, with watch requests racing for it; at the end simnic
#      itself unloaded during a storm;
#   b) rocectl.ko unloaded and loaded again in a loop under RDMA traffic, a
#      monitor listening, and requests (watch set/del, big red switch,
#      dumps) following the family through every unload and load.
# After each: no kernel report, the module's QPs what rdma(8) sees, no PFC
# bit left cleared on a surviving netdev, the module unloads cleanly.
# b) runs last: a module unload racing with requests is its subject.
. "$(dirname "$0")/lib.sh"
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
NLFUZZ=$ROOT/tests/tools/build/nlfuzz
S=${RACE_SECONDS:-60}
RACES=${RACES:-"a c d b"}
plan $((2 + $(echo $RACES | wc -w)))

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
two_rxe_hosts
module_load || fail "load"
log_test "setup: rxe0/rxe1 over a veth pair, simnic pair sim0/sim1 (PFC 3,4 on sim0)"

now() { date +%s; }
# atleast N: N a 60 s race asks for, in proportion to this race's S s (2 at least).
atleast() { local n=$(( $1 * S / 60 )); echo $(( n < 2 ? 2 : n )); }
rand_sleep() { sleep "0.$(printf '%03d' $((RANDOM % ${1:-300})))"; }	# up to $1 ms

# The module's QPs are the RDMA core's, and as many as before.
qps_match() {	# qps_match BASE
	local ours theirs
	ours=$(rc -j qp show | jq -c '[.[] | [.ifname, .lqpn]] | sort')
	theirs=$(rdma -j resource show qp | jq -c '[.[] | [.ifname, .lqpn]] | sort')
	[ "$ours" = "$theirs" ] && [ "$(printf '%s' "$ours" | jq length)" = "$1" ]
}
qps_check() {	# qps_check BASE WHAT
	busywait 10000 qps_match "$1" ||
		fail "$2: QPs: rocectl $(rc -j qp show | jq length), rdma $(rdma -j resource show qp | jq length), baseline $1"
}
race_kmsg() {	# the kernel said nothing bad since the race began
	local bad
	bad=$(dmesg | tail -n +$((RACE_MARK + 1)) | grep -E "$KMSG_BAD")
	[ -z "$bad" ] || fail "kernel log: $(echo "$bad" | head -n 3 | tr '\n' '|')"
}
# What rxe itself logged and counted since the race began: which of its
# error paths ended a QP (its pr_err lines, its send and retry counters).
rxe_said() {
	dmesg | tail -n +$((RACE_MARK + 1)) | grep -iE 'rxe|qp#' | head -n 3 | tr '\n' '|'
	rxe_errors | jq -c 'map_values(with_entries(select(.value != 0)))'
}
race_begin() { RACE_MARK=$(dmesg | wc -l); END=$(( $(now) + S )); }
# Wait for a background job, or say it hung: a D-state task cannot be killed.
wait_bounded() {	# wait_bounded PID SECONDS WHAT
	local i
	for i in $(seq $(($2 * 10))); do
		kill -0 "$1" 2>/dev/null || { wait "$1"; return $?; }
		sleep 0.1
	done
	fail "$3 hangs after $2 s: $(cat /proc/$1/stack 2>/dev/null | head -n 5 | tr '\n' '|')"
	return 124
}

# --- a) QP churn, dumps, watchdog loops --------------------------------------------------
race_a() {
	local base dumps=0 c0 c1 hm wdl st t0
	base=$(rc -j qp show | jq length)
	race_begin
	t0=$(date +%s%3N)
	"$QPT" churn -d rxe0 -t "$S" -b 8 > "$W/churn0.json" 2> "$W/churn0.err" &
	c0=$!
	"$QPT" churn -d rxe1 -t "$S" -b 3 > "$W/churn1.json" 2> "$W/churn1.err" &
	c1=$!
	"$NLFUZZ" hammer -t "$S" -r qp-dump,dev-dump,wd-dump -d sim0 > "$W/hammer-a.json" 2> "$W/hammer-a.err" &
	hm=$!
	(	# watches come and go, forward acting on a toggling storm
		while [ "$(now)" -lt "$END" ]; do
			rc watchdog set dev sim0 prio 3,4 action forward detect 20 restore 40 interval 10 || echo "set failed" >&2
			rand_sleep 200
			rc watchdog del dev sim0 || echo "del failed" >&2
		done
	) 2> "$W/wdloop.err" &
	wdl=$!
	(
		while [ "$(now)" -lt "$END" ]; do
			storm sim0 3 1000; storm sim0 4 1000; rand_sleep 150
			storm sim0 3 0; storm sim0 4 0; rand_sleep 150
		done
		storm sim0 3 0; storm sim0 4 0
	) &
	st=$!
	while kill -0 $c0 2>/dev/null; do
		rc -j qp show > "$W/d.json" 2> "$W/d.err" || { fail "dump failed: $(cat "$W/d.err")"; break; }
		jq -e 'type == "array"' "$W/d.json" > /dev/null || { fail "dump not a JSON array"; break; }
		dumps=$((dumps + 1))
	done
	wait $c0 || fail "churn rxe0: $(cat "$W/churn0.err")"
	wait $c1 || fail "churn rxe1: $(cat "$W/churn1.err")"
	wait $hm || fail "dump hammer: $(tail -c 300 "$W/hammer-a.err")"
	wait $wdl; wait $st
	[ -s "$W/wdloop.err" ] && fail "watchdog loop: $(sort "$W/wdloop.err" | uniq -c | head -n 3 | tr '\n' '|')"
	check_eq "$(jq '.created == .destroyed and .created > 0' "$W/churn0.json")" true "churn rxe0 $(cat "$W/churn0.json")"
	check_eq "$(jq '.created == .destroyed and .created > 0' "$W/churn1.json")" true "churn rxe1 $(cat "$W/churn1.json")"
	qps_check "$base" "after churn"
	rc watchdog show dev sim0 > /dev/null 2>&1 && rc watchdog del dev sim0
	busywait 5000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "sim0 PFC left $(pfc sim0)"
	check_eq "$(rc -j watchdog show | jq length)" 0 "watches left"
	race_kmsg
	# Last: the debug lane waives a short count alone (tests/debug/timing-waivers).
	[ $dumps -ge "$(atleast 10)" ] || fail "only $dumps tool dumps"
	echo "# a: $(( ($(date +%s%3N) - t0) / 1000 )) s: churn $(jq -c '{created}' "$W/churn0.json") $(jq -c '{created}' "$W/churn1.json"), $dumps tool dumps, hammer $(jq -c '.requests' "$W/hammer-a.json")"
	log_test "a) ${S} s of QP churn on two devices under dumps and watchdog set/del with storms: QPs as rdma sees them, PFC back"
}

# --- c) rdma_rxe unloaded and reloaded under traffic ----------------------------------------
race_c() {
	local n=0 tp d0 hm mon i ok t0
	race_begin
	t0=$(date +%s%3N)
	"$ROCECTL" -j monitor > "$W/mon-c.json" 2> "$W/mon-c.err" &
	mon=$!
	"$NLFUZZ" hammer -t "$S" -r qp-dump,dev-dump,qp-get,dev-get,cong-get -D rxe0 > "$W/hammer-c.json" 2> "$W/hammer-c.err" &
	hm=$!
	while [ "$(now)" -lt "$END" ]; do
		"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 2 -m 1000000 -s 4096 -T 120 > /dev/null 2>&1 &
		tp=$!
		rand_sleep 800
		timeout 60 rdma link del rxe0 &
		d0=$!
		rand_sleep 200
		kill -9 $tp 2>/dev/null; wait $tp 2>/dev/null
		wait_bounded $d0 60 "rdma link del rxe0" || break
		rxe_del rxe1 || { fail "rdma link del rxe1"; break; }
		ok=0
		for i in $(seq 50); do rmmod rdma_rxe 2>/dev/null && { ok=1; break; }; sleep 0.1; done
		[ $ok = 1 ] || { fail "rmmod rdma_rxe: $(grep rdma_rxe /proc/modules)"; break; }
		[ "$(rc -j dev show | jq length)" = 0 ] || fail "devices listed without rdma_rxe: $(rc -j dev show | jq -c '[.[].ifname]')"
		modprobe rdma_rxe && rxe_add rxe0 veth1 && rxe_add rxe1 veth2 || { fail "rxe back"; break; }
		n=$((n + 1))
	done
	wait $hm || fail "hammer: $(tail -c 300 "$W/hammer-c.err")"
	check_eq "$(rc -j dev show | jq -c '[.[].ifname] | sort')" '["rxe0","rxe1"]' "devices at the end"
	qps_check "$(rdma -j resource show qp | jq length)" "after the cycles"
	# The packet hooks follow rdma_rxe: counters of fresh traffic.
	"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 1 -m 10 -s 100 --hold > "$W/h.json" 2>&1 &
	tp=$!
	busywait 20000 test -s "$W/h.json" || fail "traffic after the cycles: $(cat "$W/h.json")"
	check_eq "$(rc_sent_once "$W/sent.json")" "[0,1000]" "counters after the cycles: $(rc_sent_raw "$W/sent.json")"
	kill $tp; wait $tp
	kill -0 $mon 2>/dev/null || fail "the monitor died: $(cat "$W/mon-c.err")"
	kill $mon; wait $mon
	check_eq "$(jq -s "[.[] | select(.object == \"dev\" and .event == \"del\")] | length >= $((2 * n))" "$W/mon-c.json")" true "device del events"
	race_kmsg
	# Last: the debug lane waives a short count alone (tests/debug/timing-waivers).
	[ $n -ge "$(atleast 3)" ] || fail "only $n rdma_rxe cycles"
	echo "# c: $n rdma_rxe unload/reload cycles under traffic in $(( ($(date +%s%3N) - t0) / 1000 )) s, hammer $(jq -c '.requests' "$W/hammer-c.json")"
	log_test "c) ${S} s of rdma_rxe unload/reload under traffic: devices and QPs follow, packet hooks re-armed, monitor alive"
}

# --- d) a simnic pair deleted and created during storms ------------------------------------
race_d() {
	local n=0 hm st t0 gone
	race_begin
	t0=$(date +%s%3N)
	"$ROCECTL" -j monitor watchdog > "$W/mon-d.json" 2> "$W/mon-d.err" &
	mon=$!
	rc watchdog set dev sim0 prio 3,4 action forward detect 20 restore 100 interval 10 || fail "watch sim0"
	"$NLFUZZ" hammer -t "$S" -r wd-set,wd-del,wd-get,wd-dump -d sim2 > "$W/hammer-d.json" 2> "$W/hammer-d.err" &
	hm=$!
	(
		while [ "$(now)" -lt "$END" ]; do
			storm sim0 3 1000; rand_sleep 300; storm sim0 3 0; rand_sleep 300
		done
		storm sim0 3 0
	) &
	st=$!
	while [ "$(now)" -lt "$END" ]; do
		simnic_pair sim2 sim3 || { fail "new_pair"; break; }
		dcb pfc set dev sim2 prio-pfc 3:on 4:on
		rc watchdog set dev sim2 prio 3,4 action forward detect 20 restore 1000 interval 10 2>/dev/null
		storm sim2 3 1000; storm sim2 4 1000
		rand_sleep 300
		echo sim2 > $SIM/del_pair || { fail "del_pair"; break; }
		rc -j watchdog show | jq -e '[.[].ifname] | index("sim2") == null' > /dev/null ||
			{ fail "a watch on sim2 after it went"; break; }
		n=$((n + 1))
	done
	wait $hm || fail "hammer: $(tail -c 300 "$W/hammer-d.err")"
	wait $st
	busywait 5000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "surviving sim0: PFC left $(pfc sim0)"
	check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]')" '["sim0"]' "watches after the loop"
	gone=$(jq -s '[.[] | select(.event == "gone" and .ifname == "sim2")] | length' "$W/mon-d.json")
	# Racing requests delete some watches first: not every deletion has one to drop.
	[ "$gone" -ge 1 ] || fail "no gone event for $n deletions"
	# simnic itself goes during a storm that forward acted on.
	n3=$(jq -s '[.[] | select(.event == "action" and .ifname == "sim0")] | length' "$W/mon-d.json")
	storm sim0 3 1000
	busywait 5000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "no forward before rmmod simnic: $(pfc sim0)"
	rmmod simnic &
	wait_bounded $! 30 "rmmod simnic during a storm" || fail "rmmod simnic"
	check_eq "$(rc -j watchdog show | jq length)" 0 "watches after rmmod simnic"
	rc dev show > /dev/null || fail "module not answering"
	kill $mon; wait $mon
	race_kmsg
	# Last: the debug lane waives a short count alone (tests/debug/timing-waivers).
	[ $n -ge "$(atleast 10)" ] || fail "only $n pair cycles"
	echo "# d: $n pair deletions during storms in $(( ($(date +%s%3N) - t0) / 1000 )) s, $gone gone events, hammer $(jq -c '.requests' "$W/hammer-d.json")"
	log_test "d) ${S} s of simnic pairs deleted during storms with forward watches, then rmmod simnic in a storm: watches dropped, survivor's PFC back"
	# Back for race b.
	simnic_pair sim0 sim1 || fail "simnic again"
	dcb pfc set dev sim0 prio-pfc 3:on 4:on
}

# --- b) rocectl unloaded and loaded again under traffic ------------------------------------
race_b() {
	local n=0 runs=0 bad=0 tl hm mon st i ok busy=0 t0
	race_begin
	t0=$(date +%s%3N)
	(
		while [ "$(now)" -lt "$END" ]; do
			if "$QPT" pair -d rxe0 -D rxe1 -g 1 -n 2 -m 2000 -s 4096 -T 60 > /dev/null 2> "$W/tr.err"; then
				echo ok
			else
				echo "bad $(head -c 200 "$W/tr.err" | tr '\n' ' ')"
			fi
		done
	) > "$W/traffic-b.log" &
	tl=$!
	"$NLFUZZ" hammer -t "$S" -r wd-set,wd-del,brs,qp-dump,dev-dump,wd-dump -d sim0 > "$W/hammer-b.json" 2> "$W/hammer-b.err" &
	hm=$!
	(
		while [ "$(now)" -lt "$END" ]; do
			storm sim0 3 1000; rand_sleep 200; storm sim0 3 0; rand_sleep 200
		done
		storm sim0 3 0
	) &
	st=$!
	while [ "$(now)" -lt "$END" ]; do
		"$ROCECTL" -j monitor > "$W/mon-b.$n.json" 2>&1 &
		mon=$!
		rand_sleep 400
		ok=0
		for i in $(seq 100); do
			rmmod rocectl 2>/dev/null && { ok=1; break; }
			busy=$((busy + 1))	# a dump in progress holds the module
			sleep 0.01
		done
		[ $ok = 1 ] || { fail "rmmod rocectl: $(grep '^rocectl ' /proc/modules)"; break; }
		kill $mon 2>/dev/null; wait $mon 2>/dev/null
		# Everything the watchdog cleared is set back by the unload.
		[ "$(pfc sim0)" = "[3,4]" ] || fail "cycle $n: PFC after unload $(pfc sim0)"
		rand_sleep 200
		insmod "$MODULE" || { fail "insmod"; break; }
		n=$((n + 1))
	done
	wait $hm || fail "hammer: $(tail -c 300 "$W/hammer-b.err")"
	wait $tl; wait $st
	runs=$(grep -c . "$W/traffic-b.log"); bad=$(grep -c '^bad' "$W/traffic-b.log")
	[ $runs -ge 1 ] || fail "no traffic run"
	grep -q '^rocectl ' /proc/modules || fail "module not loaded at the end"
	qps_check "$(rdma -j resource show qp | jq length)" "after the cycles"
	rc watchdog big-red-switch off > /dev/null 2>&1
	rc watchdog show dev sim0 > /dev/null 2>&1 && rc watchdog del dev sim0
	busywait 5000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "sim0 PFC left $(pfc sim0)"
	module_unload || fail "final unload"
	# A watch leaked by a request the unload let through would hold sim0 forever.
	echo sim0 > $SIM/del_pair &
	wait_bounded $! 30 "deleting sim0 after the module went (a netdev reference leaked?)" || fail "del_pair"
	race_kmsg
	# Last: fail() keeps the first failure, and the debug lane waives this
	# one alone when rxe's counters show it retried (tests/debug/timing-waivers).
	check_eq "$bad" 0 "traffic runs failed: $(grep '^bad' "$W/traffic-b.log" | head -n 2 | tr '\n' '|') rxe said: $(rxe_said)"
	[ $n -ge "$(atleast 5)" ] || fail "only $n unload cycles"
	echo "# b: $n unload/load cycles in $(( ($(date +%s%3N) - t0) / 1000 )) s ($busy busy retries), $runs traffic runs, hammer $(jq -c '{requests, family_gone, family_found, errors}' "$W/hammer-b.json")"
	log_test "b) ${S} s of rocectl unload/load under traffic, a monitor and racing requests: traffic unharmed, PFC set back, no leak"
}

for r in $RACES; do
	"race_$r"
done

module_unload
rxe_del rxe0; rxe_del rxe1
grep -q '^simnic ' /proc/modules && { rmmod simnic & wait_bounded $! 30 "rmmod simnic"; }
kmsg_check
rm -rf "$W"
