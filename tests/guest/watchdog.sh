#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the PFC storm watchdog on the simulated DCB NIC (tests/simnic),
# what needs a kernel: polls in time, actions on the NIC's PFC, RDMA
# traffic stalling and resuming, XON frames, link flaps, a storm detected
# again, failing drivers, conflicts, unload, netdevs going away, the big
# red switch, bad input. The judgement's timing and arithmetic (late and
# half-paused polls, bursts, chopped storms, wraps, backoff) are tested on
# the host: tests/unit/wd_judge_test.c.
. "$(dirname "$0")/lib.sh"
plan 17
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
simnic_pair sim0 sim1 && simnic_pair sim2 sim3 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
dcb pfc set dev sim2 prio-pfc 3:on
module_load || fail "load"

EV=$W/ev.json
"$ROCECTL" -j -d monitor watchdog > "$EV" &
sleep 1

now_ns() { echo "${EPOCHREALTIME/./}000"; }	# no fork: stamps what follows
# events DEV EVENT [PRIO]: how many so far
events() { jq -s "[.[] | select(.ifname == \"$1\" and .event == \"$2\"${3:+ and .prios[0].prio == $3})] | length" "$EV"; }
wait_events() { busywait "${4:-10000}" eval '[ "$(events '"$1 $2 $3"')" -ge '"$5"' ]'; }
# last_of DEV EVENT FIELD: a field of the newest such event's priority
last_of() { jq -s "[.[] | select(.ifname == \"$1\" and .event == \"$2\")] | last | .prios[0].$3" "$EV"; }

# --- times in text: never before a storm, then the time of day ---------------------
tod='[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} '
rc watchdog set dev sim2 prio 3 detect 50 restore 100 interval 10 action alert || fail "set"
check_match "$(rc watchdog stats dev sim2)" 'last_detect never last_restore never' "times before a storm"
storm sim2 3 1000
busywait 10000 eval 'rc watchdog stats dev sim2 | grep -Eq "last_detect $tod"' || fail "no detection time in text: $(rc watchdog stats dev sim2)"
storm sim2 3 0
busywait 10000 eval 'rc watchdog stats dev sim2 | grep -Eq "last_restore $tod"' || fail "no restoration time in text: $(rc watchdog stats dev sim2)"
rc watchdog del dev sim2
log_test "watchdog stats: times in text, never before a storm, then the time of day"

# --- detection and restoration in time ----------------------------------------------
# The judgement's timing (late polls, half-paused polls, bursts, backoff)
# is tested on the host (tests/unit, wd_judge); here, that the module's
# clock and poll scheduling feed it: never early, which load cannot break,
# and done within a bound that only a hung poll would miss. Alert: the
# counters stay truthful; detection is measured from the storm's start,
# restoration from its end.
timing() {	# timing DETECT RESTORE INTERVAL -> d, r: ms after the stamps
	local t0 t1 n
	rc watchdog set dev sim2 prio 3 detect $1 restore $2 interval $3 action alert || fail "set"
	sleep 0.5
	n=$(events sim2 detect)
	t0=$(now_ns); storm sim2 3 1000
	wait_events sim2 detect "" 10000 $((n + 1)) || fail "T=$1: no detection"
	t1=$(now_ns); storm sim2 3 0
	wait_events sim2 restore "" 10000 $((n + 1)) || fail "R=$2: no restoration"
	d=$(( ($(last_of sim2 detect last_detect_ns) - t0) / 1000000 ))
	r=$(( ($(last_of sim2 restore last_restore_ns) - t1) / 1000000 ))
	rc watchdog del dev sim2
}
for setting in "200 200 100" "100 100 20"; do
	set -- $setting
	timing $1 $2 $3
	[ "$d" -ge "$1" ] && [ "$d" -le $(($1 + 5000)) ] || fail "T=$1 interval $3: detected after $d ms"
	[ "$r" -ge "$2" ] && [ "$r" -le $(($2 + 5000)) ] || fail "R=$2 interval $3: restored after $r ms"
	echo "# detect/restore ms for T=$1 R=$2 interval=$3: $d $r"
done
log_test "a storm at 200/200/100 ms and at 100/100/20 ms: detected no earlier than T, restored no earlier than R, both within 5 s"

# --- alert changes nothing; forward clears exactly the stormed priority -----------
rc watchdog set dev sim0 prio 3,4 detect 100 restore 2000 interval 10 action alert
rc watchdog set dev sim2 prio 3 detect 100 restore 2000 interval 10 action forward
n=$(events sim0 detect 3)
storm sim0 3 1000
wait_events sim0 detect 3 5000 $((n + 1)) || fail "alert: no detection"
check_eq "$(pfc sim0)" "[3,4]" "alert left PFC as it was"
rc watchdog stats check > /dev/null; check_eq "$?" 1 "stats check during a storm"
storm sim0 3 0
wait_events sim0 restore 3 5000 $((n + 1)) || fail "alert: no restore"
rc watchdog stats check > /dev/null; check_eq "$?" 0 "stats check after it"
rc watchdog del dev sim2
TR=/sys/kernel/tracing
echo > $TR/trace
for e in pfc_storm_detect pfc_storm_restore pfc_wd_action; do echo 1 > $TR/events/rocectl/$e/enable; done
# Restore 60 s: simnic counts no pause on a priority whose PFC is off, so
# a hold ends after the restoration time even while its storm lasts; 60 s
# spans the commands between the two actions and the check, however slow.
# A shorter restoration time, once the storms are over, ends the holds.
rc watchdog set dev sim0 action forward restore 60000
n3=$(events sim0 action 3); n4=$(events sim0 action 4)
storm sim0 3 1000; storm sim0 4 1000
wait_events sim0 action 3 5000 $((n3 + 1)) || fail "forward on 3"
wait_events sim0 action 4 5000 $((n4 + 1)) || fail "forward on 4"
check_eq "$(pfc sim0)" "[]" "both stormed priorities cleared"
check_eq "$(pfc sim2)" "[3]" "the other netdev untouched"
storm sim0 3 0; storm sim0 4 0
rc watchdog set dev sim0 restore 200
busywait 20000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back: $(pfc sim0)"
for e in pfc_storm_detect pfc_storm_restore pfc_wd_action; do echo 0 > $TR/events/rocectl/$e/enable; done
trace=$(cat $TR/trace)
check_match "$trace" "pfc_storm_detect: netdev=sim0 prio=3 dir=0 window_us=[0-9]+ pause_us=[0-9]+ frames=[1-9]" "detect tracepoint"
check_match "$trace" "pfc_wd_action: netdev=sim0 prio=4 dir=0 action=1 err=0" "action tracepoint"
check_match "$trace" "pfc_storm_restore: netdev=sim0 prio=3 dir=0 storm_ms=[0-9]+ conflict=0" "restore tracepoint"
rc -j watchdog stats dev sim0 > "$W/st.json"
check_eq "$(jq -c '[.[0].prios[] | [.prio, .storms, .restores, .actions, .pfc_cleared]]' "$W/st.json")" \
	"[[3,2,2,1,false],[4,1,1,1,false]]" "statistics"
log_test "alert leaves PFC untouched; forward clears exactly the stormed priorities and sets them back; two at once; tracepoints"

# --- RDMA traffic over the simulated NIC ---------------------------------------------
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
rxe_add rxe0 sim0 && rxe_add rxe1 sim1 || fail "rxe over simnic"
# RoCE with DSCP 26 is priority 3, as with a NIC trusting DSCP.
dcb app add dev sim0 dscp-prio 26:3
dcb app add dev sim1 dscp-prio 26:3
gid=$(rdma -j link show rxe0/1 >/dev/null; gid_index rxe0 192.0.2.11)
gid=${gid:-1}
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 200 -s 4096 --tos 104 -T 20 > "$W/ok.json" || fail "traffic before any storm"

rc watchdog set dev sim0 prio 3 action alert detect 100 restore 300 interval 10
storm sim0 3 1000
sleep 0.3
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 200 -s 4096 --tos 104 -T 4 > "$W/stalled.json" 2> "$W/stalled.err"
check_eq "$?" 1 "traffic under a storm with alert: $(cat "$W/stalled.err")"
held=$(awk '$2 == 3 {for (i = 1; i < NF; i++) if ($i == "held") print $(i + 1)}' $SIM/sim0/state)
storm sim0 3 0
rc watchdog set dev sim0 action forward
n=$(events sim0 action 3)
storm sim0 3 1000
t0=$(now_ns)
timeout 30 "$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 200 -s 4096 --tos 104 -T 20 > "$W/fwd.json" 2> "$W/fwd.err" ||
	fail "traffic did not resume with forward: $(cat "$W/fwd.err")"
t1=$(now_ns)
[ "$(events sim0 action 3)" -gt "$n" ] || fail "no forward action"
storm sim0 3 0
echo "# RDMA under storm: alert: failed (frames held: $held); forward: 200 x 4 KiB done in $(( (t1 - t0) / 1000000 )) ms"
log_test "RDMA traffic stalls in a storm with alert and completes once forward acts"
rc watchdog set dev sim0 action alert
busywait 5000 eval '[ "$(pfc sim0)" = "[3,4]" ]'

# --- no storms: XON frames, link flaps ---------------------------------------------
# What the counters and the link say, read from the NIC (the judgement of
# bursts and chopped storms: tests/unit, wd_judge).
rc watchdog set dev sim0 prio 3 detect 300 restore 200 interval 10 action alert
n=$(events sim0 detect 3)
echo "3 1000" > $SIM/sim0/xon; sleep 1.5; echo "3 0" > $SIM/sim0/xon
check_eq "$(events sim0 detect 3)" "$n" "XON-only frames"
echo 5 > $SIM/sim0/link_flap; sleep 1.5
check_eq "$(events sim0 detect 3)" "$n" "link flaps"
log_test "XON frames and link flaps are no storm"

# --- a storm that outlasts the restoration: PFC set back, detected again ---------------
# The backoff's arithmetic is the unit tests'; here, that PFC is really set
# back and cleared again: without backoff, 2 s of storm at 50 + 50 ms would
# be about 20 cycles, with it about 6.
rc watchdog del dev sim0
rc watchdog set dev sim0 prio 3 detect 50 restore 50 interval 10 action forward
n=$(events sim0 detect 3)
storm sim0 3 1000
sleep 2
storm sim0 3 0
# A new setting resets the backoff: the last hold ends at the next poll.
rc watchdog set dev sim0 restore 60
busywait 10000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back after the storm: $(pfc sim0)"
cycles=$(( $(events sim0 detect 3) - n ))
[ "$cycles" -ge 2 ] && [ "$cycles" -le 10 ] || fail "$cycles storm cycles in 2 s"
echo "# backoff: $cycles cycles in 2 s"
log_test "a storm that continues is detected again after PFC is set back, with backoff: bounded cycles"

# --- a driver that refuses -----------------------------------------------------------
sleep 2
rc watchdog set dev sim0 prio 3 detect 100 restore 200 interval 10 action forward
echo -1 > $SIM/sim0/fail_setpfc
n=$(events sim0 action-failed)
storm sim0 3 1000
wait_events sim0 action-failed 3 5000 $((n + 1)) || fail "no action-failed event"
check_eq "$(pfc sim0)" "[3,4]" "PFC unchanged by a failed action"
check_eq "$(rc -j watchdog stats dev sim0 | jq -c '.[0].prios[0] | [.state, .pfc_cleared, .actions_failed > 0]')" '["storm",false,true]' "state after a failed action"
echo 0 > $SIM/sim0/fail_setpfc
busywait 5000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "the action was not retried"
storm sim0 3 0
busywait 5000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "not restored after the retry"
log_test "a failing ieee_setpfc is counted and reported, PFC and state stay consistent, the action is retried"

# --- somebody else changes PFC meanwhile ------------------------------------------------
sleep 2
rc watchdog set dev sim0 prio 3 detect 100 restore 1000 interval 10 action forward
n=$(events sim0 action)
storm sim0 3 1000
wait_events sim0 action 3 5000 $((n + 1)) || fail "no action"
dcb pfc set dev sim0 prio-pfc 5:on
c=$(events sim0 conflict)
wait_events sim0 conflict 3 5000 $((c + 1)) || fail "no conflict event"
check_eq "$(pfc sim0)" "[4,5]" "the other agent's PFC kept, ours not forced back"
storm sim0 3 0
dcb pfc set dev sim0 prio-pfc 3:on 5:off
log_test "a PFC change by another agent is respected and reported, not overwritten"

# --- the big red switch ----------------------------------------------------------------
sleep 1
rc watchdog set dev sim0 prio 3,4 action alert
rc watchdog big-red-switch on || fail "brs on"
check_eq "$(pfc sim0) $(pfc sim2)" "[] [3]" "every watched priority cleared, nothing else"
busywait 2000 eval '[ "$(rc -j watchdog show | jq -c "[.[].prios[].state] | unique")" = "[\"suspended\"]" ]' || fail "not suspended"
rc watchdog big-red-switch off || fail "brs off"
check_eq "$(pfc sim0) $(pfc sim2)" "[3,4] [3]" "all set back"
log_test "big red switch: every watched priority forwarded and detection suspended, then set back"

# A storm holding PFC when the switch goes on and off keeps its hold until
# its own restoration, which is counted.
rc watchdog set dev sim0 prio 3 detect 100 restore 60000 interval 10 action forward
r=$(events sim0 restore 3)
n=$(events sim0 action 3)
storm sim0 3 1000
wait_events sim0 action 3 5000 $((n + 1)) || fail "no action"
storm sim0 3 0
rc watchdog big-red-switch on && rc watchdog big-red-switch off || fail "brs on/off"
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].prios[] | select(.prio == 3) | .state')" storm "state after the switch"
rc watchdog set dev sim0 restore 200
wait_events sim0 restore 3 5000 $((r + 1)) || fail "the storm's hold was never restored"
check_eq "$(pfc sim0)" "[3,4]" "PFC after the storm's restore"
rc watchdog set dev sim0 action alert
log_test "big red switch on and off during a storm: the storm's hold ends with its restore"

# --- sent-pause storm, an RDMA port as DEV -----------------------------------------------
rc watchdog set dev rxe0 prio 3 direction tx detect 100 restore 200 interval 10 action alert || fail "dev rxe0"
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].direction')" tx "direction"
n=$(events sim0 detect 3)
echo "3 1000" > $SIM/sim0/tx_storm
wait_events sim0 detect 3 5000 $((n + 1)) || fail "sent-pause storm not detected"
check_eq "$(last_of sim0 detect direction)" '"tx"' "event direction"
echo "3 0" > $SIM/sim0/tx_storm
rc watchdog set dev sim0 direction rx
log_test "a sent-pause storm is detected (direction tx); an RDMA device names its port's netdev"

# --- the NIC's own stall prevention (pfc-prevention-tout) ------------------------------------
tout() { awk '/^port pfc_prevention_tout/ {print $3}' $SIM/$1/state; }
check_eq "$(tout sim0)" 0 "stall prevention before"
rc watchdog set dev sim0 nic-stall-prevention 200 || fail "set nic-stall-prevention 200"
check_eq "$(tout sim0) $(rc -j watchdog show dev sim0 | jq -c '.[0].nic_stall_prevention_ms')" "200 200" "NIC and show"
rc watchdog set dev sim0 nic-stall-prevention auto && check_eq "$(tout sim0)" 100 "auto"
rc watchdog set dev sim0 nic-stall-prevention 200
w=$(events sim0 nic-stall-warning)
e=$(events sim0 nic-stall-error)
echo "3 1000" > $SIM/sim0/tx_storm
wait_events sim0 nic-stall-error "" 5000 $((e + 1)) || fail "no nic-stall-error event"
check_eq "$(events sim0 nic-stall-warning)" $((w + 1)) "warning events"
check_eq "$(rc -j watchdog show dev sim0 | jq -c '[.[0].nic_stall_warnings, .[0].nic_stall_errors]')" "[1,1]" "stall counters"
echo "3 0" > $SIM/sim0/tx_storm
log_test "nic-stall-prevention: set on the NIC, shown; its warning and error reported as events and counted"

bad_stall() {	# bad_stall EXIT REGEX ARGS...
	local want=$1 re=$2 out code
	shift 2
	out=$("$ROCECTL" watchdog set "$@" 2>&1); code=$?
	check_eq "$code" "$want" "exit of $*"
	check_match "$out" "$re" "message of $*"
}
bad_stall 2 "nic-stall-prevention is off, auto or 80..8000" dev sim0 nic-stall-prevention 79
bad_stall 2 "nic-stall-prevention is off, auto or 80..8000" dev sim0 nic-stall-prevention 8001
echo 1 > $SIM/sim0/fail_set_tunable
bad_stall 4 "the driver refused the stall prevention timeout" dev sim0 nic-stall-prevention 300
echo 1 > $SIM/sim3/fail_set_tunable
bad_stall 4 "the driver refused" dev sim3 prio 3 nic-stall-prevention 300
check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]' | grep -c sim3)" 0 "watch created despite the refusal"
echo 0 > $SIM/sim3/fail_set_tunable
echo 1 > $SIM/sim3/tunable_unsupported
bad_stall 4 "the NIC has no stall prevention" dev sim3 prio 3 nic-stall-prevention 300
echo 0 > $SIM/sim3/tunable_unsupported
check_eq "$(tout sim0) $(tout sim3)" "200 0" "stall prevention after refusals"
log_test "nic-stall-prevention: out of range, a refusing driver, a NIC without it: clear errors, nothing changed"

# Deleting the watch gives the NIC back the timeout it had before.
rc watchdog set dev sim3 prio 3 nic-stall-prevention 500 || fail "sim3"
check_eq "$(tout sim3)" 500 "sim3 set"
rc watchdog del dev sim3 || fail "del sim3"
check_eq "$(tout sim3)" 0 "sim3 after del"
log_test "nic-stall-prevention: set back to the NIC's own value when the watch is deleted"

# --- bad input changes nothing -------------------------------------------------------------
rc -j watchdog show > "$W/before.json"
pfc0=$(pfc sim0)
bad() {	# bad EXIT REGEX ARGS...
	local want=$1 re=$2 out code
	shift 2
	out=$("$ROCECTL" "$@" 2>&1); code=$?
	check_eq "$code" "$want" "exit of $*"
	check_match "$out" "$re" "message of $*"
}
bad 4 "no netdev has this name|no RDMA device has this name" watchdog set dev nosuch0 prio 3
bad 2 "priority 8 is out of range" watchdog set dev sim0 prio 8
bad 4 "integer out of range \(attribute wd-detect-ms, valid 20\.\.10000\)" watchdog set dev sim0 prio 3 detect 0
bad 4 "poll interval must not exceed" watchdog set dev sim0 prio 3 detect 100 interval 200
bad 4 "no IEEE DCB \(PFC\) support" watchdog set dev lo prio 3
bad 2 "action is one of alert, forward" watchdog set dev sim0 prio 3 action drop
bad 4 "the netdev is not watched" watchdog del dev sim1
# A copy nobody can run: the checkout may sit in a directory only root can enter.
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
out=$(su nobody -s /bin/sh -c "/run/nobody/rocectl watchdog set dev sim0 prio 3 detect 500" 2>&1); code=$?
check_eq "$code" 4 "unprivileged set"
check_match "$out" "permission denied: this needs CAP_NET_ADMIN" "unprivileged message"
su nobody -s /bin/sh -c "/run/nobody/rocectl watchdog show" > /dev/null || fail "unprivileged show"
rc -j watchdog show > "$W/after.json"
check_eq "$(jq -c . "$W/after.json")" "$(jq -c . "$W/before.json")" "watchdog settings"
check_eq "$(pfc sim0)" "$pfc0" "PFC"
python3 - <<'PY' || fail "raw netlink"
import errno, os, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from nlraw import GenlSocket, attr_u32, attr_str, attr, missing, spec
CMD_WD_SET = spec().cmd("wd-set")
A_NETDEV_NAME, A_WD_PRIOS, A_WD_DETECT, A_WD_RESTORE, A_WD_INTERVAL, A_WD_ACTION = (
    spec().attr(a) for a in ("netdev-name", "wd-prios", "wd-detect-ms", "wd-restore-ms",
                             "wd-interval-ms", "wd-action"))
s = GenlSocket()
dev = attr_str(A_NETDEV_NAME, "sim0")
cases = [
    (attr(A_WD_PRIOS, b"\0"), errno.ERANGE),                      # no priority
    (attr_u32(A_WD_RESTORE, 60001), errno.ERANGE),
    (attr_u32(A_WD_INTERVAL, 9), errno.ERANGE),
    (attr(A_WD_ACTION, b"\x02"), errno.ERANGE),
    (attr(A_WD_DETECT, b"\1\0"), errno.EINVAL),                   # short u32
]
for body, want in cases:
    r = s.request(CMD_WD_SET, dev + body)
    assert r.error == want and r.msg and r.offs == 20 + len(dev), (body, vars(r))
r = s.request(CMD_WD_SET, attr_str(A_NETDEV_NAME, "sim1"))
assert missing(r, A_WD_PRIOS, "needs the priorities"), vars(r)
PY
log_test "bad input: unknown netdev, priority 8, detect 0, interval above detection, no DCB, unprivileged: precise errors, nothing changed"

# --- the netdev goes, the module goes ---------------------------------------------------
rc watchdog set dev sim2 prio 3 action forward detect 100 restore 5000 interval 10
n=$(events sim2 gone)
echo sim2 > $SIM/del_pair
wait_events sim2 gone "" 5000 $((n + 1)) || fail "no gone event"
check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]')" '["sim0"]' "watches left"
rc watchdog set dev sim0 prio 3,4 action forward detect 100 restore 5000 interval 10
storm sim0 3 1000
busywait 5000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "not forwarded before unload"
kill %1 2>/dev/null
module_unload || fail "unload during a storm"
check_eq "$(pfc sim0)" "[3,4]" "PFC after unloading during a storm"
check_eq "$(tout sim0)" 0 "stall prevention after unload"
storm sim0 3 0
log_test "unload during a storm sets PFC back; a watched netdev that goes away is dropped"

rxe_del rxe0; rxe_del rxe1
rmmod simnic || fail "rmmod simnic"
kmsg_check
rm -rf "$W"
