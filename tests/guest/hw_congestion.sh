#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: per-QP congestion counts of hardware QPs -- the simulated RDMA
# device (tests/simrdma), whose counter sets carry the optional congestion
# counters (cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts) as mlx5's do when
# the RDMA core binds them per QP (Linux 6.15 and later). Against rdma(8)
# and exact counts injected per QP:
#   - 6.15+: qp counters bind enables the port's congestion counters and the
#     new counter set carries them; qp stats shows the injected counts in
#     rx_ecn_ce, rx_cnp and tx_cnp with source "hardware", as rdma(8) reads
#     the counter; the port's totals hold every event; the exporter's top
#     QPs carry them (source="hardware"); follow binds 16 QPs so, each QP's
#     counts exactly its own; a set bound while the port's were off has none,
#     and says why;
#   - before 6.15: no optional counter is enabled by bind; the fields say
#     why they are absent;
#   - every kernel: a QP with no counter set says so.
. "$(dirname "$0")/lib.sh"
plan 4
W=$(mktemp -d)
D=$SRD/srd0

kmsg_mark
veth_pair 1 2
simrdma_dev srd0 veth1 || fail "simrdma srd0"
module_load || fail "load"

rdma_qps() { rdma -j resource show qp link srd0 | jq -r '.[] | select(.type == "RC") | .lqpn' | sort -n; }
rdma_opt() { rdma -j statistic mode link srd0/1 2>/dev/null | jq -c '.[0]["optional-counters"] // [] | sort'; }
# rdma(8)'s congestion counters of the counter QP $1 is bound to: [ce, rx cnp, tx cnp].
rdma_cong() { rdma -j statistic qp show link srd0/1 | jq -c ".[] | select(.lqpn | index($1)) | [.cc_rx_ce_pkts, .cc_rx_cnp_pkts, .cc_tx_cnp_pkts]"; }
# rocectl's, from qp stats -j ($W/st.json): [source, ce, rx cnp, tx cnp].
rc_cong() { jq -c ".[] | select(.lqpn == $1) | [.counters_source, .counters.rx_ecn_ce, .counters.rx_cnp, .counters.tx_cnp]" "$W/st.json"; }
absent() { jq -r ".[] | select(.lqpn == $1) | .counters_absent" "$W/st.json"; }
# 5.10 has no optional counters at all: nothing to inject there.
case $(uname -r) in 5.10.*) has_opt=0 ;; *) has_opt=1 ;; esac
inject() { [ $has_opt = 0 ] || { echo "$1 cc_rx_ce_pkts $2" > "$D/inject" &&
	echo "$1 cc_rx_cnp_pkts $3" > "$D/inject" && echo "$1 cc_tx_cnp_pkts $4" > "$D/inject"; }; }
nbound() { rdma -j statistic qp show link srd0/1 | jq '[.[] | .lqpn[]?] | length'; }
is() { [ "$("${@:2}")" = "$1" ]; }

echo "create 4" > "$D/qps" && echo "modify all rts 106" > "$D/qps" || fail "4 RC QPs in RTS"
read -r a b c d <<< "$(rdma_qps | tr '\n' ' ')"
[ -n "$d" ] || fail "4 RC QPs: $(rdma_qps | tr '\n' ' ')"

out=$(rc -j qp counters bind dev srd0 qpn "$a" 2>&1) || fail "bind $a: $out"
if kernel_binds_optional; then
	check_eq "$(printf '%s' "$out" | jq -r '.port_optional_enabled')" "cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts" \
		"bind: the port's congestion counters enabled, said"
	check_eq "$(rdma_opt)" '["cc_rx_ce_pkts","cc_rx_cnp_pkts","cc_tx_cnp_pkts"]' "enabled, as rdma(8) reads them"
else
	check_eq "$(printf '%s' "$out" | jq -r '.port_optional_enabled')" "null" "bind enables nothing before 6.15"
	check_eq "$(rdma_opt)" '[]' "none enabled, as rdma(8) reads them"
	# Enabled by hand, they still count per port only.
	[ $has_opt = 0 ] || rc qp counters optional set dev srd0 cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts > /dev/null ||
		fail "optional set"
fi
inject "$a" 9 4 2 && inject "$b" 5 1 0 || fail "inject"
rc -j qp stats dev srd0 > "$W/st.json" || fail "qp stats"
rc qp stats dev srd0 > "$W/st.txt" 2>&1 || fail "qp stats (text)"
check_eq "$(absent "$b")" "no hardware counter set bound: qp counters bind or follow gives one" \
	"an unbound QP: why it has no counts"
check_eq "$(rc_cong "$b")" '["none",null,null,null]' "an unbound QP: no counts"
if kernel_binds_optional; then
	check_eq "$(rc_cong "$a")" '["hardware",9,4,2]' "QP $a's counts, source hardware"
	check_eq "$(rdma_cong "$a")" '[9,4,2]' "QP $a's counts, as rdma(8) reads its counter"
	check_match "$(grep -A2 "lqpn $a " "$W/st.txt")" "counters \(hardware\): rx_ecn_ce 9 rx_cnp 4 tx_cnp 2" "text"
	check_eq "$(rdma -j statistic show link srd0/1 | jq -c '.[0] | [.cc_rx_ce_pkts, .cc_rx_cnp_pkts, .cc_tx_cnp_pkts]')" \
		'[14,5,2]' "the port's totals: the bound QP's and the unbound one's"
	rc exporter print top 10 top-by rx_ecn_ce > "$W/ex.txt" || fail "exporter print"
	top() { sed -n "s/^rocectl_top_qp_$1_total{device=\"srd0\",port=\"1\",qpn=\"$2\",.*source=\"hardware\"} \([0-9]*\)$/\1/p" "$W/ex.txt"; }
	check_eq "$(top rx_ecn_ce "$a") $(top rx_cnp "$a") $(top tx_cnp "$a")" "9 4 2" "exporter: QP $a's top series"
	check_eq "$(grep -c "^rocectl_top_qp_tx_bytes_total{device=\"srd0\"" "$W/ex.txt")" 0 \
		"exporter: no series a hardware QP's set does not count"
	check_eq "$(grep -c "qpn=\"$b\"" "$W/ex.txt")" 0 "exporter: the unbound QP has no top series"
	log_test "bind (6.15+): the port's congestion counters enabled and carried by the new set; QP $a's injected CE/CNP exactly in qp stats (source hardware, JSON and text), rdma(8) and the exporter; the unbound QP says why it has none"
else
	check_eq "$(rc_cong "$a")" '["none",null,null,null]' "QP $a: no counts before 6.15"
	check_match "$(absent "$a")" "^this kernel binds no optional counters to a QP's counter set \(Linux 6.15 does\)" \
		"QP $a: why"
	log_test "bind ($(uname -r)): no optional counter bound per QP, and qp stats says why; the unbound QP says why it has none"
fi

# A set bound while the port's congestion counters are off carries none.
rc qp counters unbind dev srd0 qpn "$a" > /dev/null || fail "unbind $a"
if kernel_binds_optional; then
	rc qp counters optional unset dev srd0 cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts > /dev/null || fail "optional unset"
	rdma statistic qp bind link srd0/1 lqpn "$c" || fail "rdma bind $c"
	echo "$c cc_rx_ce_pkts 3" > "$D/inject" || fail "inject $c"
	rc -j qp stats dev srd0 > "$W/st.json" || fail "qp stats"
	check_eq "$(rc_cong "$c")" '["none",null,null,null]' "QP $c bound with the port's off: no counts"
	check_match "$(absent "$c")" "^its counter set carries no congestion counters: the port's were off when it was bound" "QP $c: why"
	check_eq "$(rdma_cong "$c")" '[null,null,null]' "rdma(8): its counter has none either"
	rc qp counters unbind dev srd0 qpn "$c" > /dev/null || fail "unbind $c"
	log_test "a counter set bound (by rdma) while the port's congestion counters were off carries none: qp stats says why, as rdma(8) shows none"
else
	rdma statistic qp bind link srd0/1 lqpn "$c" || fail "rdma bind $c"
	rc -j qp stats dev srd0 > "$W/st.json" || fail "qp stats"
	check_match "$(absent "$c")" "^this kernel binds no optional counters" "QP $c: why"
	rc qp counters unbind dev srd0 qpn "$c" > /dev/null || fail "unbind $c"
	log_test "a counter set bound by rdma(8): the same reason"
fi

# follow: 16 QPs, each one's counts its own.
echo "destroy all" > "$D/qps" && echo "create 16" > "$D/qps" && echo "modify all rts 106" > "$D/qps" ||
	fail "16 RC QPs"
"$ROCECTL" -j qp counters follow dev srd0 type RC > "$W/f.json" 2> "$W/f.err" &
FOLLOW=$!
busywait 20000 is 16 nbound || fail "follow bound $(nbound) of 16"
for q in $(rdma_qps); do inject "$q" "$q" $((q % 7)) $((q % 5)) || fail "inject $q"; done
rc -j qp stats dev srd0 > "$W/st.json" || fail "qp stats"
if kernel_binds_optional; then
	check_eq "$(jq -c '[.[] | select(.type == "RC") | select(.counters_source != "hardware" or .counters.rx_ecn_ce != .lqpn or .counters.rx_cnp != .lqpn % 7 or .counters.tx_cnp != .lqpn % 5)] | length' "$W/st.json")" \
		0 "followed QPs whose counts are not exactly their own"
	check_eq "$(jq -c '[.[] | select(.type == "RC") | [.lqpn, .counters.rx_ecn_ce, .counters.rx_cnp, .counters.tx_cnp]] | sort' "$W/st.json")" \
		"$(rdma -j statistic qp show link srd0/1 | jq -c '[.[] | [.lqpn[0], .cc_rx_ce_pkts, .cc_rx_cnp_pkts, .cc_tx_cnp_pkts]] | sort')" \
		"every followed QP's counts against rdma(8)'s"
	check_eq "$(jq -c 'select(.event == "optional") | .enabled' "$W/f.json")" '"cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts"' \
		"follow said what it enabled"
	kill "$FOLLOW"; wait "$FOLLOW"
	log_test "follow (6.15+): 16 QPs bound with the congestion counters, each QP's injected CE/CNP exactly its own in qp stats, as rdma(8) reads them; the enabling said"
else
	check_eq "$(jq -c '[.[] | select(.type == "RC") | .counters_source] | unique' "$W/st.json")" '["none"]' \
		"followed QPs: no congestion counts before 6.15"
	check_eq "$(grep -c '"event":"optional"' "$W/f.json")" 0 "follow enabled nothing"
	kill "$FOLLOW"; wait "$FOLLOW"
	log_test "follow ($(uname -r)): 16 QPs bound, none with congestion counts, nothing enabled"
fi

echo "destroy all" > "$D/qps"
module_unload || fail "rmmod rocectl"
rmmod simrdma || fail "rmmod simrdma"
ip link del veth1
kmsg_check
rm -rf "$W"
