#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: QP verb calls the module's hooks miss are never silent. Each
# hook follows as many calls in progress at once as it holds instances
# (qp_hook_instances; by default at least 2 per CPU and 128); a call beyond
# them is missed. With one instance and four processes creating and
# destroying QPs at once, calls are missed: the count shows in dev stats,
# the exporter and the kernel log, and the QPs live at the time are marked
# incomplete. With the default instances the same churn misses nothing.
. "$(dirname "$0")/lib.sh"
plan 4
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
veth_pair 1 2
rxe_add rxe0 veth1 || fail "rxe0"

missed() {
	rc -j dev stats rxe0 | jq '.[] | select(.scope == "qps") | .module_qp_hook_missed'
}
# churn SECONDS: four processes creating and destroying QPs at once.
churn() {
	local i pids=
	for i in 1 2 3 4; do
		timeout -k 5 $(($1 + 20)) "$QPT" churn -d rxe0 -t "$1" -b 4 > /dev/null 2>> "$W/churn.err" &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	wait $pids
}

# --- the default: sized for the host, nothing missed ------------------------------
modprobe ib_core && insmod "$MODULE" || fail "load"
check_eq "$(cat /sys/module/rocectl/parameters/qp_hook_instances)" 0 "qp_hook_instances by default"
churn 3
check_eq "$(missed)" 0 "calls missed with the default instances"
check_eq "$(rc -j qp show | jq '[.[] | select(.incomplete)] | length')" 0 "QPs marked incomplete"
log_test "default instances (max(128, 2 per CPU)): 4 processes churning QPs, no call missed, no QP marked"
rmmod rocectl

# --- one instance: calls missed, counted and shown ---------------------------------
insmod "$MODULE" qp_hook_instances=1 || fail "load with qp_hook_instances=1"
"$QPT" pair -d rxe0 -g 1 -n 1 -m 5 -s 64 --hold > "$W/pair.json" 2> "$W/pair.err" &
holder=$!
busywait 20000 test -s "$W/pair.json" || fail "qptraffic: $(cat "$W/pair.err")"
a=$(jq '.pairs[0].a_qpn' "$W/pair.json")
check_eq "$(rc -j qp show dev rxe0 qpn "$a" | jq '.[0].incomplete // false')" false "held QP before any miss"
n=0
for round in 1 2 3 4 5; do
	churn 3
	n=$(missed)
	[ "$n" -gt 0 ] && break
done
[ "$n" -gt 0 ] || fail "no call missed with one instance after $round rounds of churn"
echo "# missed after $round round(s): $n"
# The marking runs from a work queued by the hook or the read that saw it.
busywait 5000 eval '[ "$(rc -j qp show dev rxe0 qpn "$a" | jq ".[0].incomplete // false")" = true ]' ||
	fail "held QP not marked incomplete: $(rc -j qp show dev rxe0 qpn "$a")"
check_match "$(rc qp show dev rxe0 qpn "$a")" " incomplete " "incomplete in text"
log_test "one instance: calls missed under churn are counted in dev stats; the QP live then is marked incomplete"

check_match "$(dmesg | tail -n +$((KMSG_MARK + 1)))" "rocectl: QP verb calls missed: [0-9]+ since load" "kernel log"
metrics=$(timeout "$T" "$ROCECTL" exporter print 2>&1)
m=$(printf '%s\n' "$metrics" | sed -n 's/^rocectl_qp_hook_missed_total \([0-9]*\)$/\1/p')
[ -n "$m" ] && [ "$m" -ge "$n" ] || fail "exporter: rocectl_qp_hook_missed_total '$m', dev stats said $n: $(printf '%s' "$metrics" | grep hook)"
log_test "the miss is in the kernel log and the exporter's rocectl_qp_hook_missed_total"
kill "$holder" 2>/dev/null
wait "$holder"
rmmod rocectl

kmsg_check
rm -rf "$W"
