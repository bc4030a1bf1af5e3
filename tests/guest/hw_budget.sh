#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: qp counters follow's counter-set budget -- 1000 QPs on the
# simulated RDMA device (tests/simrdma) with 64 counter sets, two policies
# (UC first, then RC). Against rdma(8) and exact counts injected per QP:
#   - 200 RC QPs: the 64 oldest bound (oldest first), the rest wait, and
#     qp stats and the exporter say so and why;
#   - 800 UC QPs arrive: they outrank the RC QPs by policy, so the 64 bound
#     RC QPs give up their sets (64 yield events) to the 64 oldest UC QPs;
#     each RC QP's counts, read before its set was released, stay its own
#     in qp stats, and the port's total (rdma(8)) holds every event;
#   - the UC QPs go: the same 64 oldest RC QPs are bound again, and their
#     counts are their history plus the new set's, exactly.
. "$(dirname "$0")/lib.sh"
plan 5
W=$(mktemp -d)
D=$SRD/srd0

kmsg_mark
veth_pair 1 2
simrdma_dev srd0 veth1 || fail "simrdma srd0"
module_load || fail "load"
echo 64 > "$D/counters_max" || fail "64 counter sets"

# QPNs of a type, oldest first (by creation time, as rocectl reports it).
oldest() { rc -d -j qp show dev srd0 | jq -r "[.[] | select(.type == \"$1\")] | sort_by(.create_time_ns, .lqpn) | .[].lqpn"; }
rdma_bound() { rdma -j statistic qp show link srd0/1 | jq -r '.[] | .lqpn[]?' | sort -n; }
nbound() { rdma -j statistic qp show link srd0/1 | jq '[.[] | .lqpn[]?] | length'; }
events() { grep -c "\"event\":\"$1\"" "$W/f.json"; }
is() { [ "$("${@:2}")" = "$1" ]; }
port_oos() { rdma -j statistic show link srd0/1 | jq '.[0].out_of_sequence'; }
waiting() { rc exporter print | sed -n "s/^rocectl_qp_hw_set_waiting_qps{device=\"srd0\",reason=\"$1\"} //p"; }

cat > "$W/policies" <<EOF
# UC QPs first, then RC
qp counters follow dev srd0 type UC
qp counters follow dev srd0 type RC
EOF

# --- 200 RC QPs, 64 sets: the oldest served first ----------------------------------------
echo "create 200" > "$D/qps" && echo "modify all rts" > "$D/qps" || fail "200 RC QPs"
"$ROCECTL" -j qp counters follow file "$W/policies" > "$W/f.json" 2> "$W/f.err" &
FOLLOW=$!
busywait 30000 is 64 nbound || fail "bound $(nbound), expected 64"
busywait 10000 grep -q '"exhausted"' "$W/f.json" || fail "no exhausted event"
oldest RC > "$W/rc"
busywait 10000 is "$(head -n 64 "$W/rc" | sort -n | tr '\n' ' ')" eval 'rdma_bound | tr "\n" " "' ||
	fail "the 64 bound (rdma) are not the 64 oldest RC QPs"
busywait 10000 is 136 waiting full || fail "exporter: $(waiting full) waiting, expected 136"
rc -j qp stats dev srd0 > "$W/st.json"
check_eq "$(jq -r ".[] | select(.lqpn == $(sed -n 65p "$W/rc")) | .counters_absent" "$W/st.json")" \
	"waiting for a counter set: the device has none left, and follow serves the QPs that rank before it first" \
	"qp stats: why the 65th oldest waits"
log_test "200 RC QPs, 64 sets: the 64 oldest bound, as rdma(8) shows; 136 wait, said by the exporter and, with the reason, by qp stats"

# Each bound RC QP counts out_of_sequence = its QPN, on its set.
for q in $(head -n 64 "$W/rc"); do echo "$q out_of_sequence $q" > "$D/inject" || fail "inject $q"; done
sum=$(head -n 64 "$W/rc" | awk '{s += $1} END {print s}')
check_eq "$(port_oos)" "$sum" "the port's out_of_sequence (rdma): the 64 sets' sum"

# --- 800 UC QPs: they outrank RC by policy ------------------------------------------------
echo "create 800 uc" > "$D/qps" && echo "modify all rts" > "$D/qps" || fail "800 UC QPs"
oldest UC > "$W/uc"
check_eq "$(wc -l < "$W/uc")" 800 "UC QPs rocectl lists"
# The RC QPs that yielded (a UC QP may also yield to an older UC QP).
rc_yields() { jq -r 'select(.event == "yield") | .lqpn' "$W/f.json" | grep -Fxf "$W/rc" | sort -n | tr '\n' ' '; }
busywait 60000 is "$(head -n 64 "$W/rc" | sort -n | tr '\n' ' ')" rc_yields ||
	fail "RC QPs that yielded: $(rc_yields | wc -w), expected the 64 bound"
busywait 30000 is "$(head -n 64 "$W/uc" | sort -n | tr '\n' ' ')" eval 'rdma_bound | tr "\n" " "' ||
	fail "bound: not the 64 oldest UC QPs"
# Each yield's reason, for the RC QPs (rc) or the UC ones (uc).
yield_reasons() {
	jq -r 'select(.event == "yield") | "\(.lqpn) \(.reason)"' "$W/f.json" |
		awk -v want="$1" 'NR == FNR { rc[$1]; next } (($1 in rc) == (want == "rc"))' "$W/rc" - |
		sed 's/^[0-9]* lqpn [0-9]* //' | sort -u
}
check_eq "$(yield_reasons rc)" "outranks it: an earlier policy" "why the RC QPs yielded"
check_eq "$(yield_reasons uc | grep -v '^outranks it: it is older$')" "" "UC QPs yield, if at all, to older UC QPs only"
busywait 10000 is 936 waiting full || fail "exporter: $(waiting full) waiting, expected 936"
rc -j qp stats dev srd0 > "$W/st.json"
check_eq "$(jq -c "[.[] | select(.type == \"RC\" and .hw_counters.history) | [.lqpn, .hw_counters.counters.out_of_sequence]] | map(select(.[0] != .[1])) | length" "$W/st.json")" \
	0 "RC QPs whose kept counts are not their own"
check_eq "$(jq -c '[.[] | select(.type == "RC" and .hw_counters.history)] | length' "$W/st.json")" 64 \
	"RC QPs with kept counts (qp stats)"
check_eq "$(port_oos)" "$sum" "the port's total (rdma) after the sets were released"
log_test "800 UC QPs outrank RC by policy: the 64 RC QPs yield (said, with why) to the 64 oldest UC QPs (rdma); every RC QP's counts kept exactly, the port's total unchanged; 936 wait"

# --- the UC QPs go: the oldest RC QPs get sets again ------------------------------------------
# The youngest first: the bound ones, the oldest, go last.
for q in $(tac "$W/uc"); do echo "destroy $q" > "$D/qps" || fail "destroy $q"; done
busywait 60000 is "$(head -n 64 "$W/rc" | sort -n | tr '\n' ' ')" eval 'rdma_bound | tr "\n" " "' ||
	fail "bound after the UC QPs went: not the 64 oldest RC QPs"
for q in $(head -n 64 "$W/rc"); do echo "$q out_of_sequence 1000" > "$D/inject" || fail "inject $q"; done
rc -j qp stats dev srd0 > "$W/st.json"
check_eq "$(jq -c "[.[] | select(.type == \"RC\" and .hw_counters.history) | select(.hw_counters.counters.out_of_sequence != .lqpn + 1000)] | length" "$W/st.json")" \
	0 "rebound RC QPs whose counts are not their history plus the new set's"
check_eq "$(jq -c '[.[] | select(.type == "RC" and .hw_counters.history and .hw_counters.counter > 0)] | length' "$W/st.json")" \
	64 "rebound RC QPs with a set and their history"
check_eq "$(port_oos)" "$((sum + 64000))" "the port's total (rdma): every event"
busywait 10000 is 136 waiting full || fail "exporter: $(waiting full) waiting, expected 136"
log_test "the UC QPs destroyed: the 64 oldest RC QPs bound again, each QP's counts its history plus its new set's, exactly; the port's total every event"

kill "$FOLLOW"; wait "$FOLLOW"
check_eq "$(grep -v '^Warning: the objects changed' "$W/f.err")" "" "follow's stderr"
echo "destroy all" > "$D/qps"
module_unload || fail "rmmod rocectl"
rmmod simrdma || fail "rmmod simrdma"
ip link del veth1
log_test "follow ends cleanly; the modules unload"
kmsg_check
rm -rf "$W"
