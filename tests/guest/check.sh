#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl check on soft-RoCE over the simulated DCB NIC: rxe0 on
# sim0 and rxe1 on sim1, configured lossless on priority 3 (PFC, DSCP 26
# -> 3, MTU 9000, no 802.3x pause, a watch with stall prevention), then each
# check driven to WARN or FAIL by changing the real configuration and back
# to PASS with the fix the tool printed; the values in the evidence against
# what dcb(8), ip(8), ethtool(8), ibv_devinfo(1) and
# sysfs show; JSON; bad input.
. "$(dirname "$0")/lib.sh"
plan 17
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

# chk ARGS...: rocectl check ARGS; stdout in $out, stderr in $err, status in $code.
chk() {
	out=$(rc check "$@" 2> "$W/err")
	code=$?
	err=$(< "$W/err")
}

# finding CHECK [DEV/PORT]: the line of CHECK for the port (rxe0/1) in $out.
finding() {
	printf '%s\n' "$out" | grep -E "^(PASS|WARN|FAIL|SKIP) $1 ${2:-rxe0/1} "
}

# expect CHECK RESULT [REGEX [DEV/PORT]]: the finding's result, and its text matches.
expect() {
	local l
	l=$(finding "$1" "${4:-}")
	[[ $l == "$2 $1 "* ]] || { fail "$1: expected $2, got: ${l:-no line in: $(printf '%s' "$out" | head -c 400)}"; return; }
	[ -z "${3:-}" ] || check_match "$l" "$3" "$1's line"
}

# status WANT: the exit status of the last chk.
status() {
	check_eq "$code" "$1" "exit status (stderr: $err)"
}

# apply_fix CHECK: run the fix the finding names (only dcb, ip, ethtool, rocectl).
apply_fix() {
	local f
	f=$(finding "$1" | sed -n 's/.*; fix: //p')
	case $f in
	dcb\ * | ip\ * | ethtool\ * | rocectl\ *) ;;
	*) fail "$1: the fix is no command: '$f'"; return 1 ;;
	esac
	f=${f//rocectl /$ROCECTL }
	eval "timeout $T $f" > /dev/null || fail "$1: the fix '$f' failed"
}

active() {	# active RDMADEV: its port 1 is ACTIVE (sysfs)
	grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state"
}
active_mtu() {	# active_mtu RDMADEV: port 1's, as ibv_devinfo(1) shows it ("4096 (5)")
	ibv_devinfo -d "$1" -i 1 | awk '$1 == "active_mtu:" { print $2 }'
}
mtu_of() {
	ip -j link show dev "$1" | jq '.[0].mtu'
}

# --- setup ---------------------------------------------------------------------------
kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
ip addr add 198.51.100.1/24 dev sim0 && ip addr add 198.51.100.2/24 dev sim1 || fail "addresses"
two_hosts sim0 198.51.100.1 sim1 198.51.100.2
for d in sim0 sim1; do
	ip link set "$d" mtu 9000 || fail "mtu $d"
	timeout "$T" dcb pfc set dev "$d" prio-pfc 3:on || fail "pfc $d"
	timeout "$T" dcb app add dev "$d" dscp-prio 26:3 || fail "app $d"
done
module_load || fail "load"
rxe_add rxe0 sim0 || fail "rxe0"
rxe_add rxe1 sim1 || fail "rxe1"
for d in sim0 sim1; do
	rc watchdog set dev "$d" prio 3 nic-stall-prevention auto || fail "watch $d"
done
busywait 20000 eval 'active rxe0 && active rxe1' || fail "rxe ports not ACTIVE"
busywait 20000 eval '[ "$(active_mtu rxe0)" = 4096 ]' || fail "rxe0's active MTU $(active_mtu rxe0)"
log_test "setup: rxe0/rxe1 on sim0/sim1, PFC 3, DSCP 26 -> 3, MTU 9000, watches with stall prevention"

# --- everything in place: PASS, the evidence as dcb, ip, ethtool and sysfs show it ------
chk dev rxe0
status 0
check_eq "$(pfc sim0)" "[3]" "dcb pfc show"
check_eq "$(timeout "$T" dcb -j app show dev sim0)" '{"dscp_prio":[[26,3]]}' "dcb app show"
check_match "$(ethtool -a sim0)" 'RX:[[:space:]]+off' "ethtool -a"
stall=$(ethtool --get-tunable sim0 pfc-prevention-tout | grep -oE '[0-9]+' | tail -n 1)
expect device PASS "port ACTIVE \(rocectl module\); RoCE v2 GIDs for sim0's address 198\.51\.100\.1"
expect pfc PASS 'PFC on priority 3 only \(inferred: priority 3, the only PFC-enabled one'
expect trust PASS 'the APP table maps DSCP 26 to priority 3 \(DSCP 26 by default.*0 live QPs on rxe0/1'
expect mtu PASS "active MTU $(active_mtu rxe0) \(rocectl module\) is the largest sim0's MTU $(mtu_of sim0) carries: 4096 \+ 68 .*other 1 RoCE netdev agrees"
expect pause PASS '802.3x pause off: rx off tx off \(ETHTOOL_GPAUSEPARAM\); PFC on 3$'
expect watchdog PASS "watches priority 3 on sim0 .*NIC stall prevention $stall ms"
expect ecn SKIP 'no ECN sysfs \(/sys/class/net/sim0/ecn\): not a ConnectX \(mlx5\) netdev'
expect pcie SKIP 'sim0 is not a PCI device'
check_eq "$(printf '%s\n' "$out" | wc -l)" 9 "lines for rxe0"
chk
status 0
check_eq "$(printf '%s\n' "$out" | grep -c '^PASS .* rxe1/1 sim1: ')" 6 "PASS lines for rxe1 (every port without dev)"
chk dev sim1 prio 3 dscp 26 mtu 9000
status 0
check_eq "$(printf '%s\n' "$out" | grep -c '^PASS .* rxe1/1 sim1: ')" 6 "PASS lines for dev sim1 (a netdev), the intent given"
log_test "all in place: PASS (ecn, pcie SKIP with the reason), exit 0; evidence as dcb, ethtool, ip, sysfs show"

# --- pfc ---------------------------------------------------------------------------------
timeout "$T" dcb pfc set dev sim0 prio-pfc 3:off
check_eq "$(pfc sim0)" "[]" "dcb pfc show after 3:off"
chk dev rxe0
status 1
expect pfc FAIL 'PFC is enabled on no priority .*; fix: dcb pfc set dev sim0 prio-pfc 3:on$'
expect trust SKIP 'no lossless priority'
chk dev rxe0 prio 3
status 1
expect pfc FAIL 'PFC is off on priority 3 \(priority 3 given\): enabled on none'
apply_fix pfc
check_eq "$(pfc sim0)" "[3]" "dcb pfc show after the fix"
chk dev rxe0 prio 3
status 0
expect pfc PASS 'PFC on priority 3 only \(priority 3 given'
timeout "$T" dcb pfc set dev sim0 prio-pfc 4:on
check_eq "$(pfc sim0)" "[3,4]" "dcb pfc show after 4:on"
chk dev rxe0
status 0
expect pfc WARN 'PFC is also on priority 4: only the lossless priority 3 should pause \(inferred: priority 3, the PFC-enabled one DSCP 26 maps to.*; fix: dcb pfc set dev sim0 prio-pfc 4:off$'
apply_fix pfc
check_eq "$(pfc sim0)" "[3]" "dcb pfc show after the fix"
chk dev rxe0 prio 4
status 1
expect pfc FAIL 'PFC is off on priority 4 \(priority 4 given\): enabled on 3.*fix: dcb pfc set dev sim0 prio-pfc 4:on; dcb pfc set dev sim0 prio-pfc 3:off$'
log_test "pfc: FAIL off on the priority (inferred or given), WARN on another too; the fixes work"

# A netdev without dcbnl: veth.
veth_pair 1 2 || fail "veth"
rxe_add rxe2 veth1 || fail "rxe2"
busywait 20000 active rxe2 || fail "rxe2 not ACTIVE"
chk dev rxe2
status 1
! timeout "$T" dcb pfc show dev veth1 > /dev/null 2>&1 || fail "dcb pfc show answers for veth1"
expect pfc FAIL 'no DCB support: veth1 has no dcbnl' rxe2/1
expect trust SKIP 'no DCB support' rxe2/1
expect pause SKIP 'veth1 has no 802.3x pause control' rxe2/1
expect watchdog SKIP 'no lossless priority' rxe2/1
log_test "pfc: a netdev without DCB fails \"no DCB support\", the checks that need DCB skip"

# --- device --------------------------------------------------------------------------------
ip addr flush dev veth1
chk dev rxe2
check_match "$(finding device rxe2/1)" '^(WARN|FAIL) device rxe2/1 veth1: .*veth1 has no IPv4 or global IPv6 address.*fix: ip addr add ADDRESS/PREFIX dev veth1$' "device line without addresses"
rxe_del rxe2
ip addr add 198.51.100.7/24 dev sim0
busywait 10000 eval 'grep -q "ffff:c633:6407" /sys/class/infiniband/rxe0/ports/1/gids/*' || fail "no GID for 198.51.100.7"
chk dev rxe0
expect device PASS "RoCE v2 GIDs for sim0's addresses 198\.51\.100\.1,198\.51\.100\.7"
ip addr del 198.51.100.7/24 dev sim0
ip link set sim0 down
busywait 10000 eval '! active rxe0' || fail "rxe0 still ACTIVE"
chk dev rxe0
status 1
expect device FAIL "port $(cut -d' ' -f2 /sys/class/infiniband/rxe0/ports/1/state), not ACTIVE \(rocectl module\).*fix: ip link set sim0 up$"
apply_fix device
busywait 10000 active rxe0 || fail "rxe0 not ACTIVE after the fix"
busywait 10000 eval 'grep -q "ffff:c633:6401" /sys/class/infiniband/rxe0/ports/1/gids/*' || fail "no GID for 198.51.100.1 after up"
# The route down took with it (two_hosts), for the QPs' traffic below.
ip route replace 198.51.100.2 dev sim0 src 198.51.100.1 table 100
chk dev rxe0
status 0
expect device PASS 'port ACTIVE'
log_test "device: port DOWN fails (the fix brings it up), every address needs a RoCE v2 GID, no address warns"

# --- trust -----------------------------------------------------------------------------------
timeout "$T" dcb app del dev sim0 dscp-prio 26:3
chk dev rxe0
status 1
check_eq "$(timeout "$T" dcb -j app show dev sim0)" '{}' "dcb app show after del"
expect trust FAIL 'no APP entry maps DSCP 26 \(DSCP 26 by default\) to a priority: 0 DSCP entries, the NIC trusts PCP.*fix: dcb app add dev sim0 dscp-prio 26:3$'
timeout "$T" dcb app add dev sim0 dscp-prio 26:0
chk dev rxe0
status 1
expect trust FAIL 'the APP table maps DSCP 26 \(DSCP 26 by default\) to priority 0, not 3 .*fix: dcb app replace dev sim0 dscp-prio 26:3$'
apply_fix trust
check_eq "$(timeout "$T" dcb -j app show dev sim0)" '{"dscp_prio":[[26,3]]}' "dcb app show after the fix"
chk dev rxe0
status 0
expect trust PASS
chk dev rxe0 dscp 24
status 1
expect trust FAIL 'no APP entry maps DSCP 24 \(DSCP 24 given\)'
log_test "trust: DSCP 26 unmapped or on another priority fails; the fixes work; dscp D is checked"

# QPs of a process, with DSCP 0 (lossy) and then DSCP 26.
timeout "$T" dcb app add dev sim0 dscp-prio 0:0
qps_of() {	# qps_of PID: its QPs on rxe0 in RTS, as rdma(8) shows them
	rdma -j res show qp link rxe0/1 | jq "[.[] | select(.pid == $1 and .state == \"RTS\")] | length"
}
hold() {	# hold TOS: 3 QP pairs rxe0 <-> rxe1 held open; $holder, $hpid
	timeout -k 5 120 "$QPT" pair -d rxe0 -D rxe1 -n 3 -m 10 -s 64 --tos "$1" --hold > "$W/hold.json" 2> "$W/hold.err" &
	holder=$!
	busywait 20000 test -s "$W/hold.json" || fail "qptraffic: $(cat "$W/hold.err")"
	hpid=$(jq .pid "$W/hold.json")
}
hold 0
check_eq "$(qps_of "$hpid")" 3 "rdma res: the holder's QPs on rxe0 in RTS"
chk dev rxe0
status 1
expect trust FAIL "3 QPs of pid $hpid \(qptraffic\) use DSCP 0, priority 0, which is lossy"
kill "$holder"; wait "$holder"
timeout "$T" dcb app del dev sim0 dscp-prio 0:0
hold 104
chk dev rxe0
status 0
expect trust PASS '3 live QPs on rxe0/1, all on priority 3 \(rocectl QP table\)'
kill "$holder"; wait "$holder"
log_test "trust: QPs of a process with a lossy DSCP fail, named by pid; with DSCP 26 they pass"

# --- mtu -----------------------------------------------------------------------------------
ip link set sim0 mtu 1500
busywait 10000 eval '[ "$(active_mtu rxe0)" = 1024 ]' || fail "rxe0's active MTU $(active_mtu rxe0) at 1500"
chk dev rxe0
status 0
expect mtu WARN "active MTU 1024 \(rocectl module\) is the largest sim0's MTU $(mtu_of sim0) carries.*the RoCE ports disagree: sim0 has 1500, sim1 \(rxe1/1\) has $(mtu_of sim1); fix: ip link set sim0 mtu 9000$"
chk dev rxe0 mtu 9000
status 1
expect mtu FAIL "sim0's MTU is 1500, not the 9000 given \(SIOCGIFMTU\).*fix: ip link set sim0 mtu 9000"
apply_fix mtu
check_eq "$(mtu_of sim0)" 9000 "ip link show after the fix"
busywait 10000 eval '[ "$(active_mtu rxe0)" = 4096 ]' || fail "rxe0's active MTU $(active_mtu rxe0) at 9000"
chk dev rxe0 mtu 9000
status 0
expect mtu PASS 'active MTU 4096'
log_test "mtu: 1024 is the most a 1500 netdev carries, the ports disagree (WARN); mtu M differing fails; the fix works"

# --- pause ---------------------------------------------------------------------------------
ethtool -A sim0 rx on || fail "ethtool -A"
check_match "$(ethtool -a sim0)" 'RX:[[:space:]]+on' "ethtool -a after rx on"
chk dev rxe0
status 1
expect pause FAIL '802.3x pause rx on tx off autoneg off \(ETHTOOL_GPAUSEPARAM\) with PFC on: the two conflict \(PFC on 3\); fix: ethtool -A sim0 autoneg off rx off tx off$'
apply_fix pause
check_match "$(ethtool -a sim0)" 'RX:[[:space:]]+off' "ethtool -a after the fix"
chk dev rxe0
status 0
expect pause PASS
log_test "pause: 802.3x rx pause with PFC fails; the fix turns it off"

# --- watchdog ------------------------------------------------------------------------------
rc watchdog del dev sim0 || fail "watchdog del"
check_eq "$(ethtool --get-tunable sim0 pfc-prevention-tout | grep -oE '[0-9]+' | tail -n 1)" 0 "stall prevention after the watch went"
chk dev rxe0
status 0
expect watchdog WARN 'no watch on sim0: PFC storms on priority 3 go unnoticed.*NIC stall prevention off.*; fix: rocectl watchdog set dev sim0 prio 3; rocectl watchdog set dev sim0 prio 3 nic-stall-prevention auto$'
rc watchdog set dev sim0 prio 4 || fail "watch 4"
chk dev rxe0
expect watchdog WARN 'sim0 is watched on priority 4, not on 3'
apply_fix watchdog
check_eq "$(rc -j watchdog show dev sim0 | jq -c '[.[0].prios[].prio] | unique')" "[3,4]" "watched priorities after the fix"
chk dev rxe0
status 0
expect watchdog PASS "watches priority 3 on sim0 .*NIC stall prevention $stall ms"
log_test "watchdog: no watch, another priority, stall prevention off warn; the fixes work"

# --- ecmp: each QP's UDP source port, and the QPs' entropy -------------------------------
# rule_port LQPN RQPN: the port the kernel's rule gives a connected QP, computed
# here: the two QPNs' product folded to 20 bits, then 14 (rdma_get_udp_sport),
# or before 5.18 soft-RoCE's hash of its own QPN.
rule_port() {
	local v
	if [ "$(printf '%s\n' 5.18 "$(uname -r)" | sort -V | head -n 1)" = 5.18 ]; then
		v=$(($1 * $2))
		v=$((v ^ (v >> 20)))
		v=$(((v ^ (v >> 40)) & 0xfffff))
		echo $((0xc000 | ((v & 0x3fff) ^ ((v & 0xfc000) >> 14))))
	else
		echo $((0xc000 | ((($1 * 0x61c88647) & 0xffffffff) >> 18)))
	fi
}
# hold_pairs ARGS...: qptraffic pair ARGS held open; $holder, $hpid, $W/hold.json.
hold_pairs() {
	timeout -k 5 120 "$QPT" pair "$@" -m 10 -s 64 --tos 104 --hold > "$W/hold.json" 2> "$W/hold.err" &
	holder=$!
	busywait 20000 test -s "$W/hold.json" || fail "qptraffic: $(cat "$W/hold.err")"
	hpid=$(jq .pid "$W/hold.json")
}
python3 "$ROOT/tests/tools/roce_sports.py" sim0 60 > "$W/cap.json" 2> "$W/cap.err" &
cap=$!
busywait 20000 grep -q listening "$W/cap.err" || fail "capture: $(cat "$W/cap.err")"
hold_pairs -d rxe0 -D rxe1 -n 3
kill "$cap"; wait "$cap"
rc -j qp show dev rxe0 > "$W/qp0.json" && rc -j qp show dev rxe1 > "$W/qp1.json" || fail "qp show"
python3 - "$W/hold.json" "$W/cap.json" "$W/qp0.json" "$W/qp1.json" > "$W/py.out" 2>&1 <<'PY' || fail "sport: $(tail -n 3 "$W/py.out")"
import json, sys
hold, cap = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
qp0 = {q["lqpn"]: q for q in json.load(open(sys.argv[3]))}
qp1 = {q["lqpn"]: q for q in json.load(open(sys.argv[4]))}
def captured(src, dqpn):	# the ports the capture saw from src to dqpn
    return sorted({f["sport"] for f in cap if f["src"] == src and f["dqpn"] == dqpn})
for p in hold["pairs"]:
    for q, src, peer in ((qp0[p["a_qpn"]], "198.51.100.1", p["b_qpn"]),
                         (qp1[p["b_qpn"]], "198.51.100.2", p["a_qpn"])):
        seen = captured(src, peer)
        assert len(seen) == 1, (q["lqpn"], "captured", seen)
        got = (q.get("sport_wire"), q.get("sport_rule"), q.get("sport"), q.get("sport_source"))
        assert got == (seen[0], seen[0], seen[0], "wire"), (q["lqpn"], got, "captured", seen[0])
print(len(hold["pairs"]) * 2)
PY
check_eq "$(tail -n 1 "$W/py.out")" 6 "QPs whose ports agree with the capture"
a=$(jq '.pairs[0].a_qpn' "$W/hold.json")
b=$(jq '.pairs[0].b_qpn' "$W/hold.json")
p=$(rule_port "$a" "$b")
check_match "$(rc qp show dev rxe0 lqpn "$a")" "lqpn $a rqpn $b .* sport $p \(wire\) " "qp show's text"
log_test "sport: on soft-RoCE the kernel's rule's port and the wire's agree per RC QP after traffic, and with a packet capture"

# Three pairs across: distinct ports (as the capture saw them) pass, counted.
d=$(jq '[.[] | select(.src == "198.51.100.1") | .sport] | unique | length' "$W/cap.json")
chk dev rxe0
if [ "$d" = 3 ]; then
	expect ecmp PASS '3 live QPs on rxe0/1 to 1 destination over 3 distinct source ports, none shared towards one destination \(ports seen on the wire; rocectl QP table\)$'
else
	expect ecmp WARN "3 QPs of pid $hpid \(qptraffic\) to 198\.51\.100\.2 over $d source port"
fi
kill "$holder"; wait "$holder"
# Two loopback pairs of one process: on one host both ends of a pair go to one
# destination, and the rule, symmetric in the QPNs, gives them one port.
hold_pairs -d rxe0 -n 2
ports=()
for i in 0 1; do
	a=$(jq ".pairs[$i].a_qpn" "$W/hold.json")
	b=$(jq ".pairs[$i].b_qpn" "$W/hold.json")
	ports+=("$(rule_port "$a" "$b")" "$(rule_port "$b" "$a")")
done
d=$(printf '%s\n' "${ports[@]}" | sort -u | wc -l)
top=$(printf '%s\n' "${ports[@]}" | sort -n | uniq -d | head -n 1)
chk dev rxe0
if [ "$d" -lt 4 ]; then
	expect ecmp WARN "^WARN ecmp rxe0/1 sim0: 4 QPs of pid $hpid \(qptraffic\) to 198\.51\.100\.1 over $d source ports \(port $top carries 2 of them\): QPs on one port take one ECMP path; fix: give the QPs to one destination distinct GRH flow labels .*NCCL_IB_QPS_PER_CONNECTION=4\)$"
else
	expect ecmp PASS '4 live QPs on rxe0/1 to 1 destination over 4 distinct source ports'
fi
rc -j check dev rxe0 | jq -c '.[] | select(.check == "ecmp") | .result' > "$W/ecmp.json"
check_eq "$(< "$W/ecmp.json")" "\"$([ "$d" -lt 4 ] && echo WARN || echo PASS)\"" "ecmp in JSON"
kill "$holder"; wait "$holder"
chk dev rxe0
expect ecmp SKIP 'no live connected QP on rxe0/1 with a source port'
log_test "ecmp: symmetric loopback pairs share a port (WARN with the numbers and the fix), distinct ports PASS counted, no QP SKIPs"

# --- JSON ----------------------------------------------------------------------------------
timeout "$T" dcb pfc set dev sim0 prio-pfc 4:on
rc watchdog del dev sim0 prio 4
chk dev rxe0
text=$out
out=$(rc -j check dev rxe0)
check_eq "$?" 0 "exit status of -j"
printf '%s' "$out" > "$W/check.json"
printf '%s\n' "$text" > "$W/check.txt"
python3 - "$W/check.json" "$W/check.txt" > "$W/py.out" 2>&1 <<'PY' || fail "JSON: $(tail -n 2 "$W/py.out")"
import json, re, sys
j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
assert isinstance(j, list) and len(j) == len(text) == 9, (len(j), len(text))
for o, line in zip(j, text):
    for k in ("dev", "port", "netdev", "check", "result", "evidence"):
        assert k in o, (k, o)
    assert (o["dev"], o["port"], o["netdev"]) == ("rxe0", 1, "sim0"), o
    assert set(o) <= {"dev", "port", "netdev", "check", "result", "evidence", "fix"}, o
    assert line.startswith("%s %s rxe0/1 sim0: %s" % (o["result"], o["check"], o["evidence"])), (o, line)
    assert ("fix" in o) == line.endswith("; fix: " + o.get("fix", "\0")), (o, line)
r = {o["check"]: o for o in j}
assert [o["check"] for o in j] == ["device", "pfc", "trust", "mtu", "pause", "watchdog", "ecn", "pcie", "ecmp"]
assert r["pfc"]["result"] == "WARN" and r["pfc"]["fix"] == "dcb pfc set dev sim0 prio-pfc 4:off", r["pfc"]
assert "fix" not in r["device"] and r["device"]["result"] == "PASS", r["device"]
assert r["ecn"]["result"] == "SKIP" and "fix" not in r["ecn"]
PY
timeout "$T" dcb pfc set dev sim0 prio-pfc 4:off
log_test "JSON: an array of {dev, port, netdev, check, result, evidence, fix?}, the same findings as the text"

# --- bad input: exit 2, a sentence, nothing changes ------------------------------------------
before="$(pfc sim0) $(timeout "$T" dcb -j app show dev sim0) $(mtu_of sim0) $(rc -j watchdog show | jq -c .)"
for args in "dev nosuch0" "dev rxe0 port 2" "prio 8" "prio three" "dscp 64" "mtu 10" "mtu 70000" "port 1" "bogus"; do
	# shellcheck disable=SC2086 # split on purpose
	chk $args
	[ "$code" = 2 ] && [ -z "$out" ] && [[ $err == Error:*. ]] || fail "check $args: status $code, stdout '$out', stderr '$err'"
done
chk dev nosuch0
check_eq "$err" 'Error: no RDMA device or RoCE netdev is called "nosuch0" (rocectl module): see "rocectl dev show".' "unknown dev"
chk prio 8
check_eq "$err" 'Error: prio takes a priority from 0 to 7, not "8".' "bad prio"
after="$(pfc sim0) $(timeout "$T" dcb -j app show dev sim0) $(mtu_of sim0) $(rc -j watchdog show | jq -c .)"
check_eq "$after" "$before" "configuration"
log_test "bad input: unknown dev or port, prio, dscp, mtu out of range: exit 2 with a sentence, nothing changes"

# --- rocectl.conf check lines: the intent of the host, FILE:LINE in the evidence ----------
C=$W/rocectl.conf
cat > "$C" <<'EOF'
# A host's policy: a watch, and what rocectl check audits against.
watchdog set dev sim0 prio 3
check prio 4
check dev sim0 prio 3 mtu 9000
check dev rxe0 port 1 dscp 26
check dev rxe1 mtu 1500	# sim1's, by its RDMA device
EOF
chk dev rxe0 conf "$C"
status 0
expect pfc PASS "PFC on priority 3 only \(priority 3 declared at $C:4; dcbnl"
expect trust PASS "DSCP 26 declared at $C:5"
expect mtu PASS 'active MTU 4096'
chk dev rxe1 conf "$C"
status 1
expect pfc FAIL "PFC is off on priority 4 \(priority 4 declared at $C:3\): enabled on 3" rxe1/1
expect mtu FAIL "sim1's MTU is 9000, not the 1500 declared at $C:6 \(SIOCGIFMTU\)" rxe1/1
chk dev rxe1 conf "$C" prio 3 mtu 9000
status 0
expect pfc PASS 'PFC on priority 3 only \(priority 3 given' rxe1/1
# What apply makes of the same file: the watch, and nothing for the check lines.
out=$(rc apply "$C" 2>&1)
check_eq "$?" 0 "apply's exit status ($out)"
check_match "$out" "1 applied, 0 failed, 4 check lines" "apply's summary"
before="$(pfc sim0) $(pfc sim1) $(mtu_of sim0) $(mtu_of sim1) $(rc -j watchdog show | jq -c .)"
printf 'check dev rxe0\ncheck dev rxe0 prio 9\n' > "$W/bad.conf"
chk conf "$W/bad.conf"
status 2
check_eq "$out" "" "findings printed despite a bad check line"
check_eq "$err" "$W/bad.conf:2: Error: prio takes a priority from 0 to 7, not \"9\"." "a bad check line"
out=$(rc apply "$W/bad.conf" 2>&1)
check_eq "$?" 2 "apply's exit status on a bad check line ($out)"
check_match "$out" "$W/bad.conf:2: Error: prio takes" "apply's error"
chk conf "$W/missing.conf"
status 2
check_eq "$err" "Error: cannot open the policy file $W/missing.conf: No such file or directory." "a missing conf"
after="$(pfc sim0) $(pfc sim1) $(mtu_of sim0) $(mtu_of sim1) $(rc -j watchdog show | jq -c .)"
check_eq "$after" "$before" "configuration after the bad files"
log_test "rocectl.conf check lines: the closest line's intent, named FILE:LINE; the command line first; bad lines exit 2; apply leaves them"

# --- without the module: ports from sysfs ----------------------------------------------------
rc watchdog del dev sim1
rc watchdog del dev sim0
module_unload || fail "unload"
chk dev rxe0
status 0
expect device PASS 'port ACTIVE \(sysfs\)'
expect trust PASS 'QPs not read: the rocectl module is not loaded'
expect mtu PASS 'the port.s active MTU is unknown \(sysfs has none\); the host.s other 1 RoCE netdev agrees'
expect watchdog WARN 'the rocectl module is not loaded: no PFC storm watchdog.*fix: modprobe rocectl'
log_test "without the module: ports from sysfs, QPs not read, the watchdog warns"

kmsg_check
