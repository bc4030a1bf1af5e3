#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: QP failure forensics. Each way the kernel tells that a QP
# failed leaves exactly one record (rocectl qp errors), one rocectl:qp_error
# tracepoint hit, one monitor event and one count in the exporter, however
# often the application moves the failed QP to ERR afterwards: a modify to
# ERR (cause modify) and soft-RoCE's own move to ERR when the transport
# gives up on a vanished peer (cause driver), checked against what the
# application got (the completion's status), rdma's resource view of the
# QP and rdma_rxe's own retry counter. Records outlive their QPs; a full
# ring overwrites its oldest and counts it. An asynchronous event another
# driver raises on a kernel QP (the simulated RDMA device) is recorded
# where the RDMA core passes every QP's events through one function (its
# wrapper, from 6.12), and is outside the view before.
. "$(dirname "$0")/lib.sh"
plan 11
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
TR=/sys/kernel/tracing

kmsg_mark
veth_pair 1 2
module_load || fail "load"
rxe_add rxe0 veth1 || fail "rxe0"

# fail HOW NAME: a held QP that failed (qptraffic fail --hold): its JSON in
# $W/NAME.json, its holder's pid in $holder.
fail_qp() {
	"$QPT" fail -d rxe0 -g 1 --how "$1" --hold -T 30 > "$W/$2.json" 2> "$W/$2.err" &
	holder=$!
	busywait 30000 test -s "$W/$2.json" || fail "qptraffic fail --how $1: $(cat "$W/$2.err")"
}
# The records of QP (lqpn) $1 with cause $2, in the ring now.
records() {
	rc -j qp errors dev rxe0 | jq --argjson q "$1" --arg c "$2" '[.[] | select(.lqpn == $q and .cause == $c)] | length'
}
# rdma's own view of QP $1's state (the RDMA core's resource tracking).
rdma_state() {
	rdma -j res show qp link rxe0/1 lqpn "$1" | jq -r '.[0].state'
}

"$ROCECTL" -j monitor qp > "$W/mon.json" &
mon=$!
echo > $TR/trace
echo 1 > $TR/events/rocectl/qp_error/enable

# --- a modify to ERR ---------------------------------------------------------------
fail_qp modify mod
h1=$holder
a=$(jq .qpn "$W/mod.json")
check_eq "$(jq .second_modify "$W/mod.json")" 0 "the application's second modify to ERR"
check_eq "$(rdma_state "$a")" ERR "rdma res show qp state"
check_eq "$(records "$a" modify)" 1 "records of the modified QP, cause modify"
check_eq "$(rc -j qp errors dev rxe0 | jq --argjson q "$a" '[.[] | select(.lqpn == $q)] | length')" 1 "records of the QP, any cause"
r=$(rc -j qp errors dev rxe0 | jq -c --argjson q "$a" '.[] | select(.lqpn == $q)')
check_eq "$(jq -c '[.type, .state, .comm, .pid, (.history | .[-2:])]' <<< "$r")" \
	"[\"RC\",\"ERR\",\"qptraffic\",$holder,[\"RTS\",\"ERR\"]]" "record's QP, owner and last states"
check_match "$(rc qp errors dev rxe0)" "cause modify .*history RESET>INIT>RTS>ERR|cause modify .*history INIT>RTR>RTS>ERR" "text"
log_test "a modify to ERR: one record, cause modify, with the owner and the last states (RTS>ERR)"

# --- the transport gives up: the peer vanished -----------------------------------------
rxe_errors > "$W/rxe-before.json"
fail_qp retry retry
h2=$holder
b=$(jq .qpn "$W/retry.json")
# IBV_WC_RETRY_EXC_ERR is 12: what the application was told.
check_eq "$(jq -c '[.wc_status_code, .second_modify]' "$W/retry.json")" "[12,0]" "completion status, second modify"
check_eq "$(rdma_state "$b")" ERR "rdma res show qp state"
check_match "$(rxe_errors_since "$W/rxe-before.json")" "rxe0 retry_exceeded_err \\+1" "rxe's retry counter"
check_eq "$(records "$b" driver)" 1 "records of the QP, cause driver"
check_eq "$(rc -j qp errors dev rxe0 | jq --argjson q "$b" '[.[] | select(.lqpn == $q)] | length')" 1 "records of the QP, any cause"
rc -j qp errors dev rxe0 | jq -c --argjson q "$b" '.[] | select(.lqpn == $q)' > "$W/rec-b.json"
check_eq "$(jq -c '[.history[-1], .counters_source, .sport > 0]' "$W/rec-b.json")" \
	'["ERR","module",true]' "record's last state, counters, source port"
log_test "retry exhaustion on soft-RoCE: one record, cause driver; the application saw RETRY_EXC_ERR, rxe counted one"

# --- kept after the QPs are destroyed -------------------------------------------------
kill "$h1" "$h2"
wait "$h1" "$h2"
busywait 10000 eval '[ "$(rc -j qp show dev rxe0 type RC | jq length)" = 0 ]' || fail "QPs not destroyed"
check_eq "$(records "$a" modify)/$(records "$b" driver)" 1/1 "records after the destroy"
check_eq "$(rc -j qp errors | jq -c '[.[].seq]')" "[1,2]" "record numbers"
log_test "the records outlive their QPs"

# --- tracepoint: once per failure ------------------------------------------------------
echo 0 > $TR/events/rocectl/qp_error/enable
grep qp_error: $TR/trace > "$W/trace.txt"
check_eq "$(grep -c "qp_error: dev=rxe0 qpn=$a .*cause=0 " "$W/trace.txt")" 1 "qp_error of the modified QP"
check_eq "$(grep -c "qp_error: dev=rxe0 qpn=$b .*cause=4 " "$W/trace.txt")" 1 "qp_error of the retried QP"
check_eq "$(wc -l < "$W/trace.txt")" 2 "qp_error hits: $(cat "$W/trace.txt")"
check_match "$(cat "$W/trace.txt")" "qpn=$b type=2 pid=[0-9]+ comm=qptraffic sport_rule=[1-9][0-9]* sport_wire=[0-9]+ cause=4 history=0x[0-9a-f]{3}6 tx_packets=$(jq .counters.tx_packets "$W/rec-b.json") " "fields"
log_test "rocectl:qp_error: one hit per failure, with the source port, the history and the counters"

# --- monitor ---------------------------------------------------------------------
busywait 5000 eval '[ "$(grep -c "\"error\"" "$W/mon.json")" -ge 2 ]' || true
kill $mon
check_eq "$(jq -sc '[.[] | select(.event == "error") | [.lqpn, .cause]]' "$W/mon.json")" \
	"[[$a,\"modify\"],[$b,\"driver\"]]" "monitor's error events"
# Nothing moves on a QP in ERR: its counters at the failure are its final ones.
check_eq "$(jq -c .counters "$W/rec-b.json")" \
	"$(jq -sc --argjson q "$b" '[.[] | select(.event == "destroy" and .lqpn == $q)][0].counters' "$W/mon.json")" \
	"record's counters against the destroy event's"
log_test "monitor qp: one error event per failure; the record's counters are the QP's final ones"

# --- exporter: counts per process and cause -----------------------------------------------
metrics=$(timeout "$T" "$ROCECTL" exporter print owners 2>&1)
check_match "$metrics" '^rocectl_qp_errors_total\{device="rxe0",comm="qptraffic",cause="modify"\} 1$' "modify count"
check_match "$metrics" '^rocectl_qp_errors_total\{device="rxe0",comm="qptraffic",cause="driver"\} 1$' "driver count"
check_eq "$(printf '%s\n' "$metrics" | grep -c '^rocectl_qp_errors_total')" 2 "counts: $(printf '%s\n' "$metrics" | grep qp_error)"
check_match "$metrics" '^rocectl_qp_error_records_overwritten_total 0$' "nothing overwritten"
log_test "exporter: rocectl_qp_errors_total per device, comm and cause equals the records"

# --- the application answers first: a loaded host's window --------------------------
# rdma_rxe posts the error completion, then moves the QP to ERR; held there
# (rxe_stall.ko), the application's own modify to ERR comes in between. The
# hold keeps its CPU (a softirq before 6.4, a worker after): a poller on
# each CPU (--every-cpu) answers from the other.
insmod "$ROOT/tests/simrdma/rxe_stall.ko" stall_ms=1000 || fail "load rxe_stall"
"$QPT" fail -d rxe0 -g 1 --how retry --every-cpu > "$W/stall.json" 2> "$W/stall.err" ||
	fail "qptraffic fail --how retry --every-cpu: $(cat "$W/stall.err")"
c=$(jq .qpn "$W/stall.json")
check_eq "$(jq -c '[.wc_status_code, .second_modify]' "$W/stall.json")" "[12,0]" "completion status, the application's modify to ERR"
check_eq "$(cat /sys/module/rxe_stall/parameters/stalled)" 1 "error completions held"
check_match "$(cat /sys/module/rxe_stall/parameters/answered)" "^[1-9]" "modifies while held (the window used)"
rmmod rxe_stall || fail "unload rxe_stall"
check_eq "$(records "$c" driver)/$(records "$c" modify)" 1/0 "records of the QP, cause driver/modify"
log_test "the application's modify to ERR between soft-RoCE's error completion and its own move: one record, cause driver"

# --- a full ring -------------------------------------------------------------------
module_unload
insmod "$MODULE" error_records=2 || fail "load with error_records=2"
for i in 1 2 3; do
	"$QPT" fail -d rxe0 -g 1 --how modify > "$W/m$i.json" 2>> "$W/m.err" || fail "fail $i: $(cat "$W/m.err")"
done
check_eq "$(rc -j qp errors | jq -c '[.[] | [.seq, .lqpn, .cause]]')" \
	"[[2,$(jq .qpn "$W/m2.json"),\"modify\"],[3,$(jq .qpn "$W/m3.json"),\"modify\"]]" "the ring: the newest two"
metrics=$(timeout "$T" "$ROCECTL" exporter print owners 2>&1)
check_match "$metrics" '^rocectl_qp_error_records_overwritten_total 1$' "overwritten"
check_match "$metrics" '^rocectl_qp_errors_total\{device="rxe0",comm="qptraffic",cause="modify"\} 3$' "count past the ring"
log_test "a full ring (error_records=2) overwrites its oldest record, counted; the counts go on"

# --- an asynchronous event on another driver's kernel QP ------------------------------
simrdma_dev srd0 veth2 || fail "simrdma srd0"
D=$SRD/srd0
echo "create 1" > "$D/qps" || fail "create a kernel QP"
q=$(rc -j qp show dev srd0 type RC | jq '.[0].lqpn')
echo "modify $q rts" > "$D/qps" || fail "to RTS"
# Twice: the second event on a failed QP is no second failure.
echo "$q fatal" > "$D/qp_event" || fail "fatal event"
echo "$q fatal" > "$D/qp_event" || fail "second fatal event"
recs=$(rc -j qp errors dev srd0)
if grep -qw __ib_qp_event_handler /proc/kallsyms; then
	check_eq "$(jq -c --argjson q "$q" '[.[] | select(.lqpn == $q) | [.cause, .comm, .state, .history[-2:]]]' <<< "$recs")" \
		'[["fatal","simrdma","ERR",["RTS","ERR"]]]' "the kernel QP's record"
	check_eq "$(rc -j qp show dev srd0 qpn "$q" | jq -r '.[0].state')" ERR "the QP's state in qp show"
	log_test "an asynchronous event (fatal) on another driver's kernel QP: one record, cause fatal (the core's wrapper)"
else
	check_eq "$(jq length <<< "$recs")" 0 "records of the kernel QP (no wrapper: outside the view)"
	log_test "an asynchronous event (fatal) on another driver's kernel QP: no record, outside the view without the core's wrapper (before 6.12)"
fi
echo "destroy all" > "$D/qps"
echo srd0 > "$SRD/del_device"

# --- bad input -----------------------------------------------------------------------
before=$(rc -j qp errors)
out=$(rc qp errors dev 2>&1); code=$?
check_eq "$code" 2 "dev without a name"; check_match "$out" "^Error: dev needs an RDMA device name\.$" "message"
out=$(rc qp errors -j 2>&1); code=$?
check_eq "$code" 2 "-j after the command"; check_match "$out" "^Error: unknown qp errors argument \"-j\"" "message"
out=$(rc qp errors dev rxe0 extra 2>&1); code=$?
check_eq "$code" 2 "extra argument"
out=$(rc qp errors dev nosuchdev 2>&1); code=$?
check_eq "$code" 4 "unknown device (the kernel's answer, as for qp show)"; check_match "$out" "no RDMA device has this name" "message"
check_eq "$(rc -j qp errors)" "$before" "nothing changed"
log_test "bad input: a one-sentence error, exit 2 (4: the kernel knows no such device), nothing changed"

rxe_del rxe0
module_unload
kmsg_check
rm -rf "$W"
