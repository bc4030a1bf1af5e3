#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl qp counters (hardware per-QP counters, RDMA netlink) on
# soft-RoCE, whose driver cannot bind QPs to counters: show lists nothing,
# bind is refused by the kernel (rdma_counter_bind_qpn_alloc answers ENOMEM
# for a driver without counter operations) with a sentence that says so and
# nothing changes; bad command lines are usage errors that change nothing;
# qp stats shows the module's counters, labelled, and no hardware counters;
# an unprivileged bind is refused for lack of CAP_NET_ADMIN.
. "$(dirname "$0")/lib.sh"
plan 7
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
veth_pair 1 2
rxe_add rxe0 veth1 || fail "rxe0"
module_load || fail "load"

# pair traffic: ARGS... -> $W/pair.json, with the QPs held until release_hold.
hold_pair() {
	"$QPT" pair "$@" --hold > "$W/pair.json" 2> "$W/pair.err" &
	HOLDER=$!
	busywait 20000 test -s "$W/pair.json" || { fail "qptraffic: $(cat "$W/pair.err")"; return 1; }
}
release_hold() {
	kill "$HOLDER" 2>/dev/null
	wait "$HOLDER"
}
pair_qpn() {	# pair_qpn a|b [N]
	jq ".pairs[${2:-0}].$1_qpn" "$W/pair.json"
}

# What the RDMA core says is bound, as rdma(8) and rocectl read it.
counter_state() {
	rdma -j statistic qp mode link rxe0/1 2>&1
	rdma -j statistic qp show link rxe0/1 2>&1
	rc -j qp counters show 2>&1
}

hold_pair -d rxe0 -g 1 -n 1 -m 5 -s 64
a=$(pair_qpn a)
b=$(pair_qpn b)
if [ -z "$a" ] || [ "$a" = null ]; then
	fail "no QPN from qptraffic: $(cat "$W/pair.json" "$W/pair.err")"
fi

# --- show ------------------------------------------------------------------------
out=$(rc qp counters show 2> "$W/err"); code=$?
check_eq "$code" 0 "show: exit"
check_eq "$out" "" "show: text"
check_eq "$(cat "$W/err")" "" "show: stderr"
rc -j qp counters show > "$W/show.json"; code=$?
check_eq "$code" 0 "show -j: exit"
check_eq "$(jq -c . "$W/show.json" 2>&1)" "[]" "show -j: valid JSON, an empty list"
rc -p qp counters show > "$W/showp.json"; code=$?
check_eq "$code" 0 "show -p: exit"
check_eq "$(jq -c . "$W/showp.json" 2>&1)" "[]" "show -p: valid JSON"
check_eq "$(rc -j qp counters show dev rxe0 port 1 | jq -c . 2>&1)" "[]" "show dev rxe0 port 1"
check_eq "$(rc -j qp c s dev rxe0 | jq -c . 2>&1)" "[]" "show by prefixes (qp c s)"
check_eq "$(rc -j qp counters | jq -c . 2>&1)" "[]" "qp counters alone is show"
log_test "qp counters show on soft-RoCE: no counter, exit 0, empty text, valid JSON (-j, -p, dev, port, prefixes)"

# --- bind: the kernel refuses, rocectl says why, nothing changes -------------------
before=$(counter_state)
ENOMEM_MSG='Error: the driver of rxe0 (rdma_rxe) does not support binding QPs to hardware counters: the kernel answers ENOMEM ("Cannot allocate memory") when a driver has no counter operations.'
out=$(rc qp counters bind dev rxe0 qpn "$a" 2>&1); code=$?
check_eq "$code" 4 "bind: exit"
check_eq "$out" "$ENOMEM_MSG" "bind: message"
out=$(rc qp counters bind dev rxe0 port 1 qpn "$b" 2>&1); code=$?
check_eq "$code" 4 "bind port 1: exit"
check_eq "$out" "$ENOMEM_MSG" "bind port 1: message"
# QP1 is filed as 1 | port << 24 in resource tracking: the kernel does not find it.
out=$(rc -j qp counters bind dev rxe0 qpn 1 2>&1); code=$?
check_eq "$code" 4 "bind the GSI QP: exit"
check_eq "$out" "Error: QP 1 of rxe0 is the port's GSI QP, which the RDMA core cannot bind to counters: it does not find QP0 and QP1 by their number." \
	"bind the GSI QP: message (nothing on stdout in JSON mode)"
# rdma(8) gets the same refusal: it is the kernel's, not rocectl's.
rdma statistic qp bind link rxe0/1 lqpn "$a" > "$W/rdma.out" 2>&1 &&
	fail "rdma statistic qp bind succeeded on rxe0: $(cat "$W/rdma.out")"
after=$(counter_state)
check_eq "$after" "$before" "counter mode and bound counters after the refused binds"
check_eq "$(rc -j qp counters show | jq length)" 0 "no counter after the refused binds"
log_test "bind on rxe: refused by the kernel (ENOMEM: no counter operations; ENOENT for QP1), explained, exit 4, nothing bound"

out=$(rc qp counters bind dev rxe0 qpn 9999 2>&1); code=$?
check_eq "$code" 4 "bind unknown QPN: exit"
check_eq "$out" "Error: rxe0 has no QP 9999." "bind unknown QPN: message"
out=$(rc qp counters bind dev rxe0 qpn "$a" counter 3 2>&1); code=$?
check_eq "$code" 4 "bind to a counter that does not exist: exit"
check_eq "$out" "Error: rxe0 has no counter 3 (rocectl qp counters show lists them)." "bind to counter 3: message"
out=$(rc qp counters unbind dev rxe0 qpn "$a" 2>&1); code=$?
check_eq "$code" 4 "unbind an unbound QP: exit"
check_eq "$out" "Error: QP $a of rxe0 is bound to no counter." "unbind: message"
out=$(rc qp counters unbind dev rxe0 qpn "$a" counter 3 2>&1); code=$?
check_eq "$code" 4 "unbind from counter 3: exit"
check_eq "$(counter_state)" "$before" "state after the refused requests"
log_test "bind an unknown QPN or to an unknown counter, unbind an unbound QP: exit 4, clear errors, nothing changes"

# --- bad command lines: exit 2 before anything is asked of the kernel -------------
bad() {	# bad REGEX ARGS...
	local re=$1 out code
	shift
	out=$(rc "$@" 2>&1); code=$?
	check_eq "$code" 2 "exit of rocectl $*"
	check_match "$out" "$re" "message of rocectl $*"
}
bad 'no RDMA device named "nosuch0"' qp counters bind dev nosuch0 qpn "$a"
bad 'no RDMA device named "nosuch0"' qp counters unbind dev nosuch0 qpn "$a"
bad 'no RDMA device named "nosuch0"' qp counters show dev nosuch0
bad 'qp counters bind needs qpn N' qp counters bind dev rxe0
bad 'qp counters unbind needs qpn N' qp counters unbind dev rxe0 counter 4
bad 'qp counters bind needs dev DEV' qp counters bind qpn "$a"
bad 'qpn "abc" is not a number from 0 to 16777215' qp counters bind dev rxe0 qpn abc
bad 'qpn "16777216" is not a number from 0 to 16777215' qp counters bind dev rxe0 qpn 16777216
bad 'qpn "-1" is not a number' qp counters bind dev rxe0 qpn -1
bad 'qpn needs a value' qp counters bind dev rxe0 qpn
bad 'port "0" is not a number from 1 to 255' qp counters bind dev rxe0 port 0 qpn "$a"
bad 'port "x" is not a number' qp counters bind dev rxe0 port x qpn "$a"
bad 'rxe0 has no port 2: its ports are 1 to 1' qp counters bind dev rxe0 port 2 qpn "$a"
bad 'counter "4294967296" is not a number from 0 to 4294967295' qp counters bind dev rxe0 qpn "$a" counter 4294967296
bad 'unknown qp counters bind argument "cntn"' qp counters bind dev rxe0 qpn "$a" cntn 4
bad 'port N needs dev DEV' qp counters show port 1
bad 'unknown qp counters show argument "qpn"' qp counters show dev rxe0 qpn "$a"
bad 'unknown qp counters command "frob"' qp counters frob
check_eq "$(counter_state)" "$before" "state after the bad command lines"
log_test "bad command lines: unknown device, missing qpn or dev, bad numbers, unknown keywords: exit 2, clear errors, nothing changes"

# --- qp stats: the module's counters, labelled; no hardware counters on rxe --------
rc -j qp stats dev rxe0 > "$W/st.json" 2> "$W/st.err"; code=$?
check_eq "$code" 0 "qp stats -j: exit"
check_eq "$(cat "$W/st.err")" "" "qp stats -j: stderr"
check_eq "$(jq '[.[] | select(has("hw_counters"))] | length' "$W/st.json")" 0 "QPs with hw_counters"
check_eq "$(jq -c '[.[] | .counters_source] | unique' "$W/st.json")" '["module"]' "counters_source"
check_eq "$(jq -c "[.[] | select(.lqpn == $a) | .counters.tx_packets]" "$W/st.json")" "[5]" "the held QP's own counters"
rc qp stats dev rxe0 > "$W/st.txt" 2>&1; code=$?
check_eq "$code" 0 "qp stats: exit"
check_eq "$(grep -c 'hw counter' "$W/st.txt")" 0 "hw counter lines"
check_eq "$(grep -c '^    counters (module): tx_packets ' "$W/st.txt")" "$(jq length "$W/st.json")" \
	"every QP's counters labelled with their source"
log_test "qp stats on rxe: the module's counters labelled (module), no hw_counters key, no warning"

# --- unprivileged ------------------------------------------------------------------
# A copy nobody can run: the checkout may sit in a directory only root can enter.
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
out=$(su nobody -s /bin/sh -c "/run/nobody/rocectl qp counters bind dev rxe0 qpn $a" 2>&1); code=$?
check_eq "$code" 4 "unprivileged bind: exit"
check_eq "$out" "Error: permission denied: this needs CAP_NET_ADMIN (run as root)." "unprivileged bind: message"
out=$(su nobody -s /bin/sh -c "/run/nobody/rocectl -j qp counters show" 2>&1); code=$?
check_eq "$code" 0 "unprivileged show: exit"
check_eq "$(printf '%s' "$out" | jq -c . 2>&1)" "[]" "unprivileged show: JSON"
out=$(su nobody -s /bin/sh -c "/run/nobody/rocectl -j qp stats dev rxe0" 2> "$W/nobody.err"); code=$?
check_eq "$code" 0 "unprivileged qp stats: exit"
check_eq "$(cat "$W/nobody.err")" "" "unprivileged qp stats: stderr"
check_eq "$(counter_state)" "$before" "state after the unprivileged requests"
rm -f /run/nobody/rocectl
log_test "unprivileged: bind refused by the kernel (CAP_NET_ADMIN), show and qp stats allowed, nothing changes"

release_hold
kmsg_check
rm -rf "$W"
