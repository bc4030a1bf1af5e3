#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the rocectl netlink family under random and mutated requests
# (tests/tools/nlfuzz.c), as root and as nobody, with soft-RoCE devices, a
# long-lived QP pair and watched simulated DCB netdevs in place: the module
# keeps answering, every reply is well-formed, the state is the same after
# as before, the kernel says nothing bad.
#
# Phase A (root, "nlfuzz fuzz"): anything goes, but a command that needs
# CAP_NET_ADMIN may only name netdevs and devices that do not exist, or the
# scratch netdevs fuzz0/fuzz1 (and the veths, which have no DCB): the
# fuzzer walks every datagram as the kernel will and generates anew what
# could change anything else; the big red switch is never sent valid.
# Phase B (nobody, "nlfuzz unpriv"): unguarded and biased to valid requests
# for the real netdevs and devices; every admin request must get EPERM.
# Phase C (nobody in a child pid namespace, sharing the host's network
# namespace, "nlfuzz unpriv -o"): the same, and no reply may name an owner
# of root's QPs, destroyed QPs or failures (rocectl(8), PERMISSIONS); the
# same check as nobody in the initial namespace must find them.
#
# FUZZ_COUNT messages per phase (default 100000), FUZZ_SEED (default: the
# time; printed, to replay a run).
. "$(dirname "$0")/lib.sh"
plan 11
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
NLFUZZ=$ROOT/tests/tools/build/nlfuzz
COUNT=${FUZZ_COUNT:-100000}
SEED=${FUZZ_SEED:-$(date +%s)}

kmsg_mark
[ -x "$NLFUZZ" ] || { fail "$NLFUZZ not built (make -C tests/tools)"; log_test "setup"; exit 0; }

# --- the state to keep ---------------------------------------------------------------
simnic_pair sim0 sim1 && simnic_pair fuzz0 fuzz1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
dcb pfc set dev sim1 prio-pfc 3:on 5:on
dcb pfc set dev fuzz0 prio-pfc 3:on
two_rxe_hosts
module_load || fail "load"
rc watchdog set dev sim0 prio 3,4 detect 100 restore 400 interval 20 action forward || fail "watch sim0"
rc watchdog set dev sim1 prio 3,5 direction both action alert nic-stall-prevention 500 || fail "watch sim1"
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 2 -m 50 -s 512 --hold > "$W/hold.json" 2> "$W/hold.err" &
holder=$!
busywait 30000 test -s "$W/hold.json" || fail "QP holder: $(cat "$W/hold.err")"
# Owners outlasting their QPs: a destroyed pair's group, a failure's record.
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 1 -m 10 -s 64 > /dev/null 2> "$W/gone.err" || fail "QPs that go: $(cat "$W/gone.err")"
"$QPT" fail -d rxe0 -g 1 --how modify > /dev/null 2> "$W/failed.err" || fail "a failed QP: $(cat "$W/failed.err")"
[ "$(rc -j qp errors | jq length)" -ge 1 ] || fail "no failure record"
log_test "setup: rxe0/rxe1, a held QP pair, a destroyed one, a failed one, watched sim0 (forward) and sim1 (both directions, stall prevention)"


# Everything a refused request must not change; time-varying fields left out.
snapshot() {
	local d
	rc -j watchdog show | jq -S '[.[] | select(.ifname | test("^fuzz") | not)] |
		walk(if type == "object" then with_entries(select(.key | test("_ns$") | not)) else . end)'
	for d in sim0 sim1; do
		dcb -j pfc show dev $d | jq -c .
		grep '^port ' $SIM/$d/state | awk '{print $1, $2, $3}'
	done
	rc -j dev show | jq -S .
	rc -j qp show pid $holder | jq -S .
	rc -j qp stats pid $holder | jq -S '[.[] | {ifname, lqpn, counters}]'
	rc -j qp show | jq 'length'
	echo "brs $(rc -j watchdog show | jq -c '[.[].big_red_switch] | unique')"
}
snapshot > "$W/before" || fail "snapshot"
check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]')" '["sim0","sim1"]' "watches"
check_eq "$(rc -j qp show pid $holder | jq length)" 4 "held QPs"

# The module answers: a dump, a doit, a watch.
alive() {
	rc dev show rxe0 > /dev/null && rc -j qp show > /dev/null && rc watchdog show dev sim0 > /dev/null
}

compare() {	# compare WHAT
	snapshot > "$W/after" 2>&1
	diff -u "$W/before" "$W/after" > "$W/diff" || fail "$1: state changed: $(head -c 600 "$W/diff" | tr '\n' '|')"
}

summary() {	# the fuzzer's JSON as a comment line
	echo "# $(jq -c '{mode, seed, messages, processed, dropped, regenerated, acks, replies, dump_parts, dumps_done, admin_processed, admin_eperm, admin_accepted_scratch, bad_replies, no_answer, violations, foreign_owners, elapsed_ms, errors}' "$1")"
}

# --- phase A: root, guarded ---------------------------------------------------------------
kmsg_mark_a=$(dmesg | wc -l)
t0=$(date +%s%3N)
"$NLFUZZ" fuzz -s "$SEED" -n "$COUNT" -x fuzz0 -x fuzz1 -x veth1 -x veth2 > "$W/a.json" 2> "$W/a.err"
code=$?
t1=$(date +%s%3N)
[ -s "$W/a.json" ] && summary "$W/a.json"
check_eq "$code" 0 "nlfuzz fuzz exit (seed $SEED): $(tail -c 800 "$W/a.err" | tr '\n' '|')"
[ "$(jq .messages "$W/a.json" 2>/dev/null || echo 0)" -ge "$COUNT" ] || fail "only $(jq .messages "$W/a.json") messages"
check_eq "$(jq '.violations, .bad_replies, .no_answer' "$W/a.json" | tr '\n' ' ')" "0 0 0 " "violations, bad replies, unanswered"
[ "$(jq '.replies' "$W/a.json")" -gt 1000 ] || fail "few replies: $(jq .replies "$W/a.json")"
[ "$(jq '.admin_processed' "$W/a.json")" -gt 1000 ] || fail "few admin requests reached the family"
echo "# phase A: $COUNT messages as root in $(( (t1 - t0) / 1000 )).$(( (t1 - t0) % 1000 / 100 )) s"
log_test "root: $COUNT random and mutated messages (seed $SEED), every reply well-formed, every request answered, no guarded admin request accepted"

alive || fail "module not answering after phase A"
grep -q '^rocectl ' /proc/modules || fail "module gone"
compare "phase A"
# The module logs every watch it creates or changes: none but the scratch netdevs'.
dmesg | tail -n +$((kmsg_mark_a + 1)) | grep -E 'rocectl: .*watchdog (on|changed)' | grep -vE ' (fuzz0|fuzz1): ' > "$W/wdlog"
check_eq "$(wc -l < "$W/wdlog")" 0 "watches changed by phase A: $(head -n 3 "$W/wdlog" | tr '\n' '|')"
log_test "root: module answering, watches, PFC, stall prevention, devices and QPs unchanged"

# The scratch netdevs: whatever the fuzzer did there, it can be undone.
for d in fuzz0 fuzz1; do
	rc watchdog show dev $d > /dev/null 2>&1 && rc watchdog del dev $d
done
check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]')" '["sim0","sim1"]' "watches after cleaning the scratch netdevs"
check_eq "$(pfc fuzz0)" '[3]' "fuzz0 PFC"
log_test "root: scratch netdev watches deleted, their PFC as it was"

# --- phase B: nobody, unguarded -------------------------------------------------------------
# A copy nobody can run: the checkout may sit in a directory only root can enter.
mkdir -p -m 755 /run/nobody && install -m 755 "$NLFUZZ" /run/nobody/nlfuzz
t0=$(date +%s%3N)
su nobody -s /bin/sh -c "/run/nobody/nlfuzz unpriv -s $SEED -n $COUNT" > "$W/b.json" 2> "$W/b.err"
code=$?
t1=$(date +%s%3N)
[ -s "$W/b.json" ] && summary "$W/b.json"
check_eq "$code" 0 "nlfuzz unpriv exit (seed $SEED): $(tail -c 800 "$W/b.err" | tr '\n' '|')"
[ "$(jq .messages "$W/b.json" 2>/dev/null || echo 0)" -ge "$COUNT" ] || fail "only $(jq .messages "$W/b.json") messages"
check_eq "$(jq '.violations, .bad_replies, .no_answer' "$W/b.json" | tr '\n' ' ')" "0 0 0 " "violations, bad replies, unanswered"
[ "$(jq '.admin_eperm' "$W/b.json")" -gt 1000 ] || fail "few admin requests refused: $(jq .admin_eperm "$W/b.json")"
[ "$(jq '.replies' "$W/b.json")" -gt 1000 ] || fail "few replies to nobody's reads"
echo "# phase B: $COUNT messages as nobody in $(( (t1 - t0) / 1000 )).$(( (t1 - t0) % 1000 / 100 )) s"
log_test "nobody: $COUNT random and valid messages (seed $SEED): every admin request refused (EPERM; asked as a dump, EOPNOTSUPP on 6.2 on), reads answered"

alive || fail "module not answering after phase B"
compare "phase B"
log_test "nobody: module answering, state unchanged"

# --- phase C: nobody in a child pid namespace, no owner in any reply ------------------------
# The check itself first: nobody in the initial namespace is shown the owners.
su nobody -s /bin/sh -c "/run/nobody/nlfuzz unpriv -o -s $SEED -n 2000" > "$W/c0.json" 2> "$W/c0.err"
[ "$(jq .foreign_owners "$W/c0.json" 2>/dev/null || echo 0)" -gt 0 ] ||
	fail "the owner check found no owner for nobody in the initial pid namespace: $(tail -c 300 "$W/c0.err")"
t0=$(date +%s%3N)
unshare --pid --fork setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- \
	/run/nobody/nlfuzz unpriv -o -s "$SEED" -n "$COUNT" > "$W/c.json" 2> "$W/c.err"
code=$?
t1=$(date +%s%3N)
[ -s "$W/c.json" ] && summary "$W/c.json"
check_eq "$code" 0 "nlfuzz unpriv -o in a child pid namespace exit (seed $SEED): $(tail -c 800 "$W/c.err" | tr '\n' '|')"
[ "$(jq .messages "$W/c.json" 2>/dev/null || echo 0)" -ge "$COUNT" ] || fail "only $(jq .messages "$W/c.json") messages"
check_eq "$(jq '.violations, .foreign_owners, .bad_replies, .no_answer' "$W/c.json" | tr '\n' ' ')" "0 0 0 0 " \
	"violations, owners named, bad replies, unanswered"
[ "$(jq '.replies' "$W/c.json")" -gt 1000 ] || fail "few replies to reads in a child pid namespace"
echo "# phase C: $COUNT messages as nobody in a child pid namespace in $(( (t1 - t0) / 1000 )).$(( (t1 - t0) % 1000 / 100 )) s"
log_test "nobody in a child pid namespace: $COUNT messages (seed $SEED), no reply names an owner (the same check finds them for nobody in the initial one)"

alive || fail "module not answering after phase C"
compare "phase C"
log_test "nobody in a child pid namespace: module answering, state unchanged"

# A refusal as root still says why: the fuzzer did not leave the family confused.
out=$(rc watchdog set dev nosuch0 prio 3 2>&1); code=$?
check_eq "$code" 4 "unknown netdev exit"
check_match "$out" "no netdev has this name|no RDMA device has this name" "unknown netdev message"
log_test "a plain refusal after the storm of messages: exit 4 and the kernel's message"

# --- the end --------------------------------------------------------------------------------
kill $holder; wait $holder
busywait 5000 eval '[ "$(rc -j qp show | jq length)" = "$(rdma -j resource show qp | jq length)" ]' ||
	fail "QPs: rocectl $(rc -j qp show | jq length), rdma $(rdma -j resource show qp | jq length)"
check_eq "$(rc -j qp show pid $holder | jq length)" 0 "holder's QPs after it exited"
module_unload || fail "unload"
check_eq "$(pfc sim0) $(pfc sim1)" '[3,4] [3,5]' "PFC after unload"
log_test "QPs back to what rdma sees; the module unloads cleanly"

rxe_del rxe0; rxe_del rxe1
rmmod simnic || fail "rmmod simnic"
kmsg_check
rm -rf "$W"
