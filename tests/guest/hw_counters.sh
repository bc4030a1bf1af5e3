#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: hardware per-QP counters on a device that has them -- the
# simulated RDMA device (tests/simrdma), which binds QPs to counter sets as
# mlx5 does and sees no packet in the kernel, as hardware RoCE. Through the
# real RDMA core and its netlink, with rdma(8) as the reference:
#   - its QPs as rocectl and rdma(8) see them; the module counts none;
#   - qp counters bind/unbind by hand; the values the test injects appear
#     under the QP in qp stats (JSON and text), as rdma(8) reads them; the
#     port's totals keep what unbound and released counters counted;
#   - qp counters follow with 200 QPs and 64 counters: 64 bound, the
#     running-out said once, the rest bound as QPs are destroyed and as
#     counters free up, each followed QP's values exactly what was set;
#   - follow's bad policies, an unprivileged follow, policy lines in a file
#     (apply checks them), max;
#   - the port's optional counters: shown, enabled and disabled, as
#     rdma(8) reads them back; an unbound QP's values with the port's
#     (dev stats), counted only while enabled (hw_congestion: per QP);
#   - unloads in either order, the netdev going, the kernel log clean.
. "$(dirname "$0")/lib.sh"
plan 13
W=$(mktemp -d)
D=$SRD/srd0

kmsg_mark
veth_pair 1 2
simrdma_dev srd0 veth1 || fail "simrdma srd0"
module_load || fail "load"

# The RC QPs of srd0 as rdma(8) and rocectl list them: "QPN STATE" lines.
rdma_qps() { rdma -j resource show qp link srd0 | jq -r '.[] | select(.type == "RC") | "\(.lqpn) \(.state)"' | sort -n; }
rc_qps() { rc -j qp show dev srd0 | jq -r '.[] | select(.type == "RC") | "\(.lqpn) \(.state)"' | sort -n; }
# Counters bound on srd0, as rdma(8) reads them: "CNTN QPN" lines.
rdma_bound() { rdma -j statistic qp show link srd0/1 | jq -r '.[] | .cntn as $c | .lqpn[]? | "\($c) \(.)"' | sort -n; }
nbound() { rdma -j statistic qp show link srd0/1 | jq '[.[] | .lqpn[]?] | length'; }
state() { sed -n "s/^$1 //p" "$D/state"; }
# is VALUE CMD...: CMD prints VALUE (for busywait, which runs CMD anew).
is() { [ "$("${@:2}")" = "$1" ]; }
srd0_link() { rdma link show srd0/1 2>/dev/null; }
events() { grep -c "\"event\":\"$1\"" "${2:-$W/f.json}"; }
# Sets filled: binds, less those that took a set another QP gave up (yield:
# follow corrects a younger QP bound while an older one waited).
filled() { echo $(( $(events bind) - $(events yield) )); }

# --- the device and its QPs ----------------------------------------------------------
check_eq "$(rdma -j link show srd0/1 | jq -r '.[0] | "\(.state) \(.netdev)"')" "ACTIVE veth1" "rdma link show srd0/1"
check_eq "$(rc -j dev show srd0 | jq -r '.[0].ports[0] | "\(.state) \(.netdev)"' 2>&1)" "ACTIVE veth1" "rocectl dev show srd0"
echo "create 8" > "$D/qps" || fail "create 8 QPs"
echo "modify all rts 106" > "$D/qps" || fail "move them to RTS"
check_eq "$(rdma_qps | wc -l)" 8 "RC QPs rdma(8) lists"
check_eq "$(rc_qps)" "$(rdma_qps)" "rocectl's QPs and states against rdma(8)'s"
check_eq "$(rc -j qp show dev srd0 | jq -c '[.[] | select(.type == "RC") | [.dscp, .ecn, .mtu]] | unique')" \
	'[[26,2,1024]]' "DSCP, ECN and MTU of the RC QPs"
check_eq "$(rc -j qp show dev srd0 | jq -c '[.[] | select(.type == "RC") | .comm] | unique')" \
	"$(rdma -j resource show qp link srd0 | jq -c '[.[] | select(.type == "RC") | .comm] | unique')" \
	"the RC QPs' owner, against rdma(8)"
check_eq "$(rc -j qp stats dev srd0 | jq -c '[.[] | .counters_source] | unique')" '["none"]' \
	"the module counts no packet of theirs (hardware RoCE)"
log_test "srd0 over veth1: its QPs (8 RC in RTS, DSCP 26, ECN 2) as rdma(8) lists them; the module sees no packet of theirs"

# --- binding by hand ------------------------------------------------------------------
qpns=$(rdma_qps | awk '{print $1}')
a=$(echo "$qpns" | sed -n 1p)
b=$(echo "$qpns" | sed -n 2p)
out=$(rc -j qp counters bind dev srd0 qpn "$a" 2>&1); code=$?
check_eq "$code" 0 "bind $a: exit"
cntn=$(printf '%s' "$out" | jq -r '.counter' 2>/dev/null)
check_eq "$(rdma_bound)" "$cntn $a" "what rdma(8) says is bound"
check_eq "$(rc -j qp counters show dev srd0 | jq -r '.[] | "\(.counter) \(.lqpns[0])"' 2>&1)" "$cntn $a" \
	"qp counters show against rdma(8)"
echo "$a out_of_sequence 7" > "$D/inject" && echo "$a rnr_nak_retry_err 3" > "$D/inject" &&
	echo "$b out_of_sequence 5" > "$D/inject" || fail "inject"
rc -j qp stats dev srd0 > "$W/st.json"
check_eq "$(jq -c ".[] | select(.lqpn == $a) | .hw_counters | [.counter, .source, .counters.out_of_sequence, .counters.rnr_nak_retry_err, .counters.packet_seq_err]" "$W/st.json")" \
	"[$cntn,\"driver\",7,3,0]" "QP $a's hardware counters in qp stats"
check_eq "$(jq -c ".[] | select(.lqpn == $a) | .hw_counters.counters" "$W/st.json")" \
	"$(rdma -j statistic qp show link srd0/1 | jq -c ".[] | select(.cntn == $cntn) | del(.ifname, .port, .ifindex, .cntn, .\"qp-type\", .pid, .comm, .lqpn)")" \
	"QP $a's counters against rdma(8)'s for counter $cntn"
check_eq "$(jq -c "[.[] | select(.lqpn != $a) | has(\"hw_counters\")] | unique" "$W/st.json")" '[false]' \
	"no other QP has hardware counters"
rc qp stats dev srd0 > "$W/st.txt" 2>&1
check_match "$(cat "$W/st.txt")" "lqpn $a .*$" "text: QP $a listed"
check_match "$(grep -A3 "lqpn $a " "$W/st.txt")" "counter $cntn.*out_of_sequence 7" "text: QP $a's hardware counter line"
check_eq "$(rdma -j statistic show link srd0/1 | jq '.[0].out_of_sequence')" 12 "the port's total: bound and unbound QPs"
log_test "bind by hand: counter $cntn as rdma(8) shows it; the injected values under QP $a in qp stats (JSON, text), as rdma(8) reads them; port total 12"

out=$(rc qp counters unbind dev srd0 qpn "$a" 2>&1); code=$?
check_eq "$code" 0 "unbind $a: exit ($out)"
check_eq "$(rdma_bound)" "" "bound after unbind"
check_eq "$(state counters_used)" 0 "the device's counter sets in use after unbind"
check_eq "$(rdma -j statistic show link srd0/1 | jq '.[0].out_of_sequence')" 12 "the port's total keeps the released counter's"
check_eq "$(rc -j qp stats dev srd0 | jq '[.[] | select(has("hw_counters"))] | length')" 0 "QPs with hardware counters after unbind"
log_test "unbind: the counter set freed (the device's own count), nothing bound, the port's total unchanged"

# --- follow: 200 QPs, 64 counters --------------------------------------------------------
echo 64 > "$D/counters_max"
# Not rc (its time limit): follow runs until it is stopped.
"$ROCECTL" -j qp counters follow dev srd0 type RC > "$W/f.json" 2> "$W/f.err" &
FOLLOW=$!
# The 8 QPs in RTS already are bound at start.
busywait 20000 is 8 nbound || fail "at start: $(nbound) bound, expected the 8 QPs in RTS"
echo "create 192" > "$D/qps" || fail "create 192 more"
echo "modify all rts" > "$D/qps" || fail "move all to RTS"
check_eq "$(rdma_qps | grep -c ' RTS$')" 200 "RC QPs in RTS (rdma)"
busywait 30000 is 64 nbound || fail "bound: $(nbound), expected 64"
busywait 10000 grep -q '"exhausted"' "$W/f.json" || fail "no exhausted event: $(tail -n 3 "$W/f.json")"
# While QPs wait, follow asks again every 2 s, once a look, not once a QP:
# once the events of the moves are handled, 5 s see 1 to 3 refusals.
sleep 2
r0=$(state bind_refused)
sleep 5
r1=$(state bind_refused)
check_eq "$(( r1 - r0 >= 1 && r1 - r0 <= 3 ))" 1 "counters asked for in 5 s while 136 QPs wait: $((r1 - r0))"
check_eq "$(nbound)" 64 "bound after two retry periods"
check_eq "$(grep -c '"exhausted"' "$W/f.json")" 1 "exhausted events (said once)"
check_eq "$(filled)" 64 "sets filled (bind events less yields)"
check_eq "$(state counters_used)" 64 "the device's counter sets in use"
check_eq "$(rdma_bound | awk '{print $2}' | sort -n | uniq | wc -l)" 64 "distinct QPs bound"
check_eq "$(rdma_bound | awk '{print $1}' | sort -n | uniq | wc -l)" 64 "one counter each"
check_eq "$(( $(rdma_qps | wc -l) - $(nbound) ))" 136 "RC QPs left unbound (rdma)"
check_eq "$(rc -j qp counters show dev srd0 | jq '[.[] | select(.followed)] | length')" 64 \
	"counters qp counters show marks followed"
check_eq "$(rc -j qp stats dev srd0 | jq '[.[] | select(.hw_counters.followed)] | length')" 64 \
	"QPs whose hardware counters qp stats marks followed"
check_eq "$(rc qp stats dev srd0 | grep -c 'hw counter [0-9]* (driver, followed):')" 64 "the same in text"
out=$(timeout "$T" "$ROCECTL" qp counters follow dev srd0 2>&1); code=$?
check_eq "$code" 4 "a second follow: exit"
check_eq "$out" "Error: another rocectl qp counters follow runs on this host (/run/rocectl/qp-follow.lock is locked)." \
	"a second follow: message"
log_test "follow, 200 RC QPs, 64 counters: the 8 in RTS bound at start, 64 in all, one counter each, marked followed; running out said once; 136 left unbound, asked for once a retry; one follow a host"

# Each followed QP's counter set counts its own events: out_of_sequence = its QPN.
for q in $(rdma_bound | awk '{print $2}'); do
	echo "$q out_of_sequence $q" > "$D/inject" || fail "inject $q"
done
rc -j qp stats dev srd0 > "$W/st.json"
check_eq "$(jq -c '[.[] | select(has("hw_counters")) | select(.hw_counters.counters.out_of_sequence != .lqpn)] | length' "$W/st.json")" 0 \
	"followed QPs whose out_of_sequence is not what was set"
check_eq "$(jq -c '[.[] | select(has("hw_counters")) | "\(.hw_counters.counter) \(.lqpn)"] | sort' "$W/st.json")" \
	"$(rdma_bound | jq -Rsc 'split("\n") | map(select(length > 0)) | sort')" "qp stats' bindings against rdma(8)'s"
check_eq "$(rdma -j statistic qp show link srd0/1 | jq '[.[] | select(.out_of_sequence != .lqpn[0])] | length')" 0 \
	"rdma(8)'s values against what was set"
log_test "the values set per followed QP (64 of them) appear under each in qp stats -j, as rdma(8) reads them"

# Destroying 10 followed QPs frees 10 counters: 10 waiting QPs get them.
gone=$(rdma_bound | awk '{print $2}' | head -n 10)
for q in $gone; do echo "destroy $q" > "$D/qps" || fail "destroy $q"; done
busywait 20000 is 10 events release ||
	fail "release events: $(grep -c '"event":"release"' "$W/f.json")"
busywait 20000 is 74 filled ||
	fail "sets filled: $(filled), expected 74"
check_eq "$(nbound)" 64 "bound after 10 destroyed"
for q in $gone; do
	rdma_bound | awk '{print $2}' | grep -qx "$q" && fail "destroyed QP $q still bound"
done
check_eq "$(( $(rdma_qps | wc -l) - $(nbound) ))" 126 "RC QPs left unbound"
log_test "10 followed QPs destroyed: their counters released (10 release events), 10 waiting QPs bound"

# More counters: every waiting QP is bound at the next retry; said once.
echo 256 > "$D/counters_max"
busywait 20000 is 190 nbound || fail "bound: $(nbound), expected 190"
busywait 10000 grep -q '"recovered"' "$W/f.json" || fail "no recovered event"
check_eq "$(( $(rdma_qps | wc -l) - $(nbound) ))" 0 "RC QPs left unbound"
log_test "counters freed up: the 126 waiting QPs bound at the next retry, recovery said once"

# Every QP destroyed: every counter released.
echo "destroy all" > "$D/qps" || fail "destroy all"
busywait 20000 is 0 state counters_used || fail "counter sets in use: $(state counters_used)"
check_eq "$(rdma_bound)" "" "bound after destroy all"
busywait 10000 is 200 events release ||
	fail "release events: $(grep -c '"event":"release"' "$W/f.json"), expected 200"
kill "$FOLLOW"; wait "$FOLLOW"; code=$?
check_eq "$code" 0 "follow's exit on SIGTERM"
check_eq "$(grep -v '^Warning: the objects changed' "$W/f.err")" "" "follow's stderr"
check_eq "$(jq -c 'select(.event != "bind" and .event != "release" and .event != "yield") | .event' "$W/f.json" | jq -sc .)" \
	'["exhausted","recovered"]' "follow's other events"
check_eq "$(jq -r 'select(.event == "yield") | .reason' "$W/f.json" | sed 's/^lqpn [0-9]* //' | sort -u | grep -v '^outranks it: it is older$')" \
	"" "yields, if any: to older QPs only (one policy, one port)"
log_test "QPs destroyed: every counter released (200 release events, none in use); follow ends cleanly on SIGTERM"

# --- follow's bad policies, permissions, a policy file ----------------------------------
before=$(rdma_bound)
bad() {	# bad REGEX ARGS...
	local re=$1 out code
	shift
	out=$(rc qp counters follow "$@" 2>&1); code=$?
	check_eq "$code" 2 "exit of follow $*"
	check_match "$out" "$re" "message of follow $*"
}
bad 'unknown qp counters follow argument "foo"' dev srd0 foo
bad 'port N needs dev DEV' port 1
bad 'type "BOGUS" is not a QP type' type BOGUS
bad 'max "0" is not a number from 1' max 0
bad 'dev needs a value|an RDMA device' dev
bad 'comm needs a command name' comm
echo "create 2" > "$D/qps" && echo "modify all rts" > "$D/qps" || fail "2 QPs"
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
out=$(timeout "$T" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- \
	/run/nobody/rocectl qp counters follow dev srd0 2>&1); code=$?
check_eq "$code" 4 "unprivileged follow: exit"
check_eq "$out" "Error: permission denied: this needs CAP_NET_ADMIN (run as root)." "unprivileged follow: message"
check_eq "$(rdma_bound)" "$before" "bound after the refused follows"
log_test "follow: bad policies are usage errors (exit 2), an unprivileged follow is refused by the kernel (exit 4); nothing bound"

cat > "$W/follow-test.conf" <<EOF
# two policies: the first caps srd0's RC QPs at 1
qp counters follow dev srd0 type RC max 1
qp counters follow dev nosuch0
EOF
out=$(rc apply "$W/follow-test.conf" 2>&1); code=$?
check_eq "$code" 0 "apply of a file with follow lines ($out)"
check_match "$out" ": 0 applied, 0 failed, 2 follow lines" "apply counts the follow lines"
check_eq "$(rdma_bound)" "$before" "apply binds nothing"
printf 'qp counters follow dev srd0 bogus 1\n' > "$W/follow-bad.conf"
out=$(rc apply "$W/follow-bad.conf" 2>&1); code=$?
check_eq "$code" 2 "apply of a bad follow line: exit"
check_match "$out" 'follow-bad.conf:1: .*unknown qp counters follow argument "bogus"' "apply of a bad follow line: message"
"$ROCECTL" -j qp counters follow file "$W/follow-test.conf" > "$W/f2.json" 2> "$W/f2.err" &
FOLLOW=$!
busywait 20000 is 1 nbound || fail "bound with max 1: $(nbound)"
sleep 3
check_eq "$(nbound)" 1 "bound with max 1, a retry period later"
check_eq "$(jq -r 'select(.event == "exhausted") | .waiting' "$W/f2.json")" 1 "QPs waiting under max 1"
# The waiting QP bound by hand: bound, not followed (and not counted against max).
waiting=$(rdma_qps | awk '{print $1}' | grep -vx "$(rdma_bound | awk '{print $2}')")
rc qp counters bind dev srd0 qpn "$waiting" > /dev/null || fail "bind the waiting QP $waiting by hand"
check_eq "$(rc -j qp counters show dev srd0 | jq -c '[.[] | [.lqpns[0], (.followed // false)]] | sort')" \
	"[[$(rdma_bound | awk -v w="$waiting" '$2 != w {print $2}'),true],[$waiting,false]]" \
	"followed marks: follow's binding, not the hand-made one"
log_test "policy lines in a file: apply checks them and binds nothing, a bad one is FILE:LINE; follow file runs them (max 1: one bound, one waits); a binding by hand is not marked followed"

# --- optional counters ---------------------------------------------------------------
# 5.10's RDMA core has none (no RDMA_NLDEV_CMD_STAT_GET_STATUS): there,
# rocectl says so and the simulated device has none either.
optional_none() {
	local out code q
	out=$(rc qp counters optional show dev srd0 2>&1); code=$?
	check_eq "$code" 4 "optional show: exit"
	check_eq "$out" "Error: this kernel's RDMA core has no optional counters (no RDMA_NLDEV_CMD_STAT_GET_STATUS)." \
		"optional show: message"
	out=$(rc qp counters optional set dev srd0 cc_rx_ce_pkts 2>&1); code=$?
	check_eq "$code" 4 "optional set: exit ($out)"
	rdma statistic mode supported link srd0/1 > /dev/null 2>&1 &&
		fail "rdma statistic mode supported works on this kernel"
	# A QP bound to no counter set: the port counts its events.
	echo "create 1" > "$D/qps" || fail "one QP more"
	q=$(rdma_qps | awk '$2 == "RESET" {print $1}' | head -n 1)
	echo "$q cc_rx_ce_pkts 9" 2> /dev/null > "$D/inject" && fail "the device took an optional counter"
	check_eq "$(rc -j dev stats srd0 | jq '[.[0].counters | keys[] | select(startswith("cc_"))] | length')" 0 \
		"optional counters in dev stats"
	log_test "optional counters on $(uname -r): the RDMA core has none; rocectl says so (exit 4), as rdma(8) fails"
}
# 6.1 and later: shown, set and unset as rdma(8) reads them back.
optional_some() {
	local out code q before
	rdma_opt() { rdma -j statistic mode link srd0/1 | jq -c '.[0]["optional-counters"] // [] | sort'; }
	rc_opt() { rc -j qp counters optional show dev srd0 | jq -c '.[0].optional | to_entries | map(select(.value) | .key) | sort'; }
	check_eq "$(rc -j qp counters optional show dev srd0 | jq -c '.[0].optional | keys')" \
		"$(rdma -j statistic mode supported link srd0/1 | jq -c '.[0]["supported optional-counters"] | sort')" \
		"the optional counters srd0 has, against rdma statistic mode supported"
	# From 6.15 the first bind enabled the congestion ones, for its set to carry.
	if kernel_binds_optional; then
		check_eq "$(rc_opt)" '["cc_rx_ce_pkts","cc_rx_cnp_pkts","cc_tx_cnp_pkts"]' "enabled at first: by bind (6.15+)"
		rc qp counters optional unset dev srd0 cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts > /dev/null ||
			fail "unset the three"
		check_eq "$(rdma_opt)" "[]" "enabled after unsetting the three, as rdma(8) reads them"
	else
		check_eq "$(rc_opt)" "[]" "enabled at first"
	fi
	out=$(rc qp counters optional set dev srd0 cc_rx_ce_pkts,cc_tx_cnp_pkts 2>&1); code=$?
	check_eq "$code" 0 "set: exit ($out)"
	check_eq "$out" "link srd0/1 scope port optional cc_rx_ce_pkts on cc_rx_cnp_pkts off cc_tx_cnp_pkts on" "set: what it prints"
	check_eq "$(rdma_opt)" '["cc_rx_ce_pkts","cc_tx_cnp_pkts"]' "enabled after set, as rdma(8) reads them"
	out=$(rc qp counters optional unset dev srd0 port 1 cc_tx_cnp_pkts 2>&1); code=$?
	check_eq "$code" 0 "unset: exit ($out)"
	check_eq "$(rdma_opt)" '["cc_rx_ce_pkts"]' "enabled after unset, as rdma(8) reads them"
	check_eq "$(rc_opt)" '["cc_rx_ce_pkts"]' "enabled after unset, as rocectl reads them"
	# A QP bound to no counter set: the port counts its events.
	echo "create 1" > "$D/qps" || fail "one QP more"
	q=$(rdma_qps | awk '$2 == "RESET" {print $1}' | head -n 1)
	echo "$q cc_rx_ce_pkts 9" > "$D/inject" && echo "$q cc_tx_cnp_pkts 4" > "$D/inject" || fail "inject optional"
	check_eq "$(rc -j dev stats srd0 | jq -c '.[0].counters | [.cc_rx_ce_pkts, .cc_tx_cnp_pkts]')" '[9,null]' \
		"dev stats: the enabled one counted, the disabled one neither counted nor shown"
	check_eq "$(rdma -j statistic show link srd0/1 | jq -c '.[0] | [.cc_rx_ce_pkts, .cc_tx_cnp_pkts]')" '[9,null]' \
		"rdma statistic show, the same"
	check_eq "$(rc -j qp stats dev srd0 | jq "[.[] | select(.lqpn == $q) | .. | objects | select(has(\"cc_rx_ce_pkts\"))] | length")" 0 \
		"optional counters under the unbound QP in qp stats"
	before=$(rdma_opt)
	out=$(rc qp counters optional set dev srd0 bogus 2>&1); code=$?
	check_eq "$code" 2 "set an unknown counter: exit"
	check_eq "$out" 'Error: "bogus" is not an optional counter of srd0 port 1: it has cc_rx_ce_pkts, cc_rx_cnp_pkts, cc_tx_cnp_pkts.' \
		"set an unknown counter: message"
	out=$(rc qp counters optional set dev srd0 2>&1); code=$?
	check_eq "$code" 2 "set without names: exit ($out)"
	out=$(rc qp counters optional show dev nosuch0 2>&1); code=$?
	check_eq "$code" 2 "show an unknown device: exit ($out)"
	out=$(timeout "$T" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- \
		/run/nobody/rocectl qp counters optional unset dev srd0 cc_rx_ce_pkts 2>&1); code=$?
	check_eq "$code" 4 "unprivileged unset: exit"
	check_eq "$out" "Error: permission denied: this needs CAP_NET_ADMIN (run as root)." "unprivileged unset: message"
	check_eq "$(rdma_opt)" "$before" "enabled after the refused requests"
	log_test "optional counters: shown as rdma(8) lists them, set and unset as it reads them back (from 6.15 bind enables the congestion ones); an unbound QP's counted per port only while enabled (dev stats, rdma); bad requests change nothing"
}
case $(uname -r) in
5.10.*) optional_none ;;
*) optional_some ;;
esac

# --- unloads in either order; the netdev going --------------------------------------------
rmmod rocectl || fail "rmmod rocectl with QPs bound and follow running"
wait "$FOLLOW"; code=$?
check_eq "$code" 3 "follow's exit when the module goes ($(cat "$W/f2.err"))"
check_match "$(cat "$W/f2.err")" "module was unloaded" "follow's message when the module goes"
check_eq "$(nbound)" 2 "the bindings outlive rocectl (the RDMA core's)"
check_eq "$(rc -j qp counters show dev srd0 | jq '[.[] | select(.followed)] | length')" 0 \
	"followed marks once follow has stopped"
module_load || fail "reload"
# Before 5.15 rocectl does not pick up the QPs that exist when it loads.
case $(uname -r) in 5.10.*) found=0 ;; *) found=3 ;; esac
check_eq "$(rc_qps | wc -l)" "$found" "srd0's RC QPs rocectl finds at load"
rmmod simrdma || fail "rmmod simrdma under rocectl"
check_eq "$(rc -j dev show | jq '[.[] | select(.ifname == "srd0")] | length')" 0 "srd0 gone from rocectl"
check_eq "$(rc -j qp show | jq '[.[] | select(.ifname == "srd0")] | length')" 0 "srd0's QPs gone from rocectl"
simrdma_dev srd0 veth1 || fail "srd0 again"
echo "create 3" > "$D/qps" && echo "modify all rts" > "$D/qps" && rc qp counters bind dev srd0 qpn "$(rdma_qps | awk 'NR == 1 {print $1}')" > /dev/null ||
	fail "QPs and a binding on the new srd0"
ip link del veth1
busywait 10000 is "" srd0_link || fail "srd0 outlived its netdev"
check_eq "$(rc -j dev show | jq '[.[] | select(.ifname == "srd0")] | length')" 0 "srd0 gone from rocectl with its netdev"
module_unload || fail "rmmod rocectl"
rmmod simrdma || fail "rmmod simrdma last"
log_test "rocectl unloaded under bound QPs (follow exits 3, bindings stay), reloaded; simrdma unloaded under rocectl; the device goes with its netdev"

rm -f /run/nobody/rocectl
kmsg_check
rm -rf "$W"
