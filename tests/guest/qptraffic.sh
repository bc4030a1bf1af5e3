#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the qptraffic test tool moves real RC traffic over soft-RoCE
# (loopback on one device, and across a veth between two devices), and its
# QPs appear in and vanish from rdma(8) exactly when they should: held,
# handed to a forked child, by the thousand, and under create/destroy churn.
# Build the tool first: make -C tests/tools.
. "$(dirname "$0")/lib.sh"
QPT=$ROOT/tests/tools/build/qptraffic
W=$(mktemp -d)
HOLDER=

# Observations for whoever reads the log (not results).
note() {
	echo "# $SCENARIO: $*"
}

if [ ! -x "$QPT" ]; then
	fail "$QPT missing: run make -C tests/tools on the host"
	log_test "tool built"
	exit 0
fi

qpt() {
	timeout "$T" "$QPT" "$@"
}

# stat DEV COUNTER: one of rxe's port counters.
stat() {
	rdma -j statistic show link "$1/1" |
		python3 -c "import json,sys; print(json.load(sys.stdin)[0]['$2'])"
}

# qps: the QPs rdma shows, one JSON object per line (GSI QPs left out).
qps() {
	rdma -j resource show qp |
		python3 -c 'import json,sys
for q in json.load(sys.stdin):
    if q.get("type") != "GSI":
        print(json.dumps(q))'
}

# alive PID: running, not a zombie (an orphan is not necessarily reaped at once).
alive() {
	[ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

qp_count() {
	qps | wc -l
}

# qps_of FILE: the QPNs a qptraffic result lists, one per line.
qps_of() {
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
for q in j.get("qpns", []): print(q)
for p in j.get("pairs", []): print(p["a_qpn"]); print(p["b_qpn"])' "$1"
}

# shown QPN...: how many of these QPNs rdma lists right now.
shown() {
	qps | python3 -c 'import json,sys
want = set(int(a) for a in sys.argv[1:])
print(sum(1 for l in sys.stdin if json.loads(l)["lqpn"] in want))' "$@"
}

# Routing for two rxe devices whose traffic really crosses the veth, as in
# the test-guest notes; undone at exit, since later scenarios share the guest.
SYSCTL_SAVED=
routing_up() {
	local i
	SYSCTL_SAVED=$(sysctl -n net.ipv4.conf.all.rp_filter net.ipv4.conf.default.rp_filter \
		net.ipv4.conf.all.accept_local net.ipv4.conf.default.accept_local | tr '\n' ' ')
	for i in all default veth1 veth2; do
		sysctl -qw net.ipv4.conf.$i.rp_filter=0 net.ipv4.conf.$i.accept_local=1
	done
	ip rule add pref 100 iif lo to 192.0.2.2 lookup 100 &&
	ip route add 192.0.2.2 dev veth1 src 192.0.2.1 table 100 &&
	ip rule add pref 101 iif lo to 192.0.2.1 lookup 101 &&
	ip route add 192.0.2.1 dev veth2 src 192.0.2.2 table 101 &&
	ip rule add pref 1000 lookup local && ip rule del pref 0
}

routing_down() {
	[ -n "$SYSCTL_SAVED" ] || return 0
	ip rule show | grep -q '^0:' || ip rule add pref 0 lookup local
	ip rule del pref 1000 2>/dev/null
	ip rule del pref 100 2>/dev/null
	ip rule del pref 101 2>/dev/null
	ip route flush table 100 2>/dev/null
	ip route flush table 101 2>/dev/null
	set -- $SYSCTL_SAVED
	sysctl -qw net.ipv4.conf.all.rp_filter="$1" net.ipv4.conf.default.rp_filter="$2" \
		net.ipv4.conf.all.accept_local="$3" net.ipv4.conf.default.accept_local="$4"
	SYSCTL_SAVED=
}

cleanup() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null
	kill $(jobs -p) 2>/dev/null
	tc qdisc del dev veth1 clsact 2>/dev/null
	routing_down
	rm -rf "$W"
}
trap cleanup EXIT

# counters_around DEVS -- CMD...: run CMD, leave each DEV's counter deltas
# in $W/delta.DEV.json and CMD's output in $W/out.json; CMD's status returns.
counters_around() {
	local devs=() d code
	while [ "$1" != -- ]; do devs+=("$1"); shift; done
	shift
	for d in "${devs[@]}"; do
		rdma -j statistic show link "$d/1" > "$W/before.$d.json"
	done
	"$@" > "$W/out.json"
	code=$?
	for d in "${devs[@]}"; do
		rdma -j statistic show link "$d/1" > "$W/after.$d.json"
		python3 -c 'import json,sys
a = json.load(open(sys.argv[1]))[0]; b = json.load(open(sys.argv[2]))[0]
print(json.dumps({k: b[k] - a[k] for k in b if isinstance(b[k], int)}))' \
			"$W/before.$d.json" "$W/after.$d.json" > "$W/delta.$d.json"
	done
	return $code
}

# delta DEV COUNTER (after counters_around)
delta() {
	json "j['$2']" "$W/delta.$1.json"
}

# Packets a message of SIZE bytes needs at MTU bytes: at least one.
req_pkts() {
	local n=$(( ($1 + $2 - 1) / $2 ))
	[ "$n" -gt 0 ] || n=1
	echo "$n"
}

kmsg_mark

# --- one device: loopback ---------------------------------------------------------
veth_pair 1 2 || fail "veth"
rxe_add rxe0 veth1 || fail "rxe0"
busywait 5000 eval 'rdma link show rxe0/1 | grep -q ACTIVE' || fail "rxe0 not ACTIVE"
MTU=$(ibv_devinfo -d rxe0 | awk '/active_mtu/ {print $2; exit}')
note "rxe0 on veth1 (MTU $(cat /sys/class/net/veth1/mtu)): RoCE active MTU $MTU"
BASE=$(qp_count)
log_test "soft-RoCE up: rxe0 on veth1"

M=100
counters_around rxe0 -- qpt pair -d rxe0 -m $M -s 1024 --op send || fail "pair send: exit $?"
check_eq "$(json 'j["op"], j["messages"], j["size"], j["bytes"], len(j["pairs"]), j["mtu"]' "$W/out.json")" \
	"send $M 1024 $((M * 1024)) 1 $MTU" "result"
check_eq "$(json 'j["pid"] > 0 and j["elapsed_us"] > 0 and j["pairs"][0]["a_qpn"] != j["pairs"][0]["b_qpn"]' "$W/out.json")" \
	True "pid, elapsed_us, two QPNs"
check_eq "$(delta rxe0 rdma_sends) $(delta rxe0 rdma_recvs)" "$M $M" "rxe's send and receive counters"
log_test "pair loopback, op send: $M messages, every completion and the data checked"

# Request packets and ACKs per message on loopback: both leave and enter rxe0.
for op in send write; do
	for size in 0 1024 4096; do
		M=50
		counters_around rxe0 -- qpt pair -d rxe0 -m $M -s $size --op $op ||
			fail "$op $size: exit $?"
		req=$((M * $(req_pkts $size "$MTU")))
		sent=$(delta rxe0 sent_pkts)
		rcvd=$(delta rxe0 rcvd_pkts)
		[ "$sent" -ge "$req" ] || fail "$op $size: sent_pkts +$sent < $req request packets"
		check_eq "$rcvd" "$sent" "$op $size: loopback received what it sent"
		check_eq "$(json 'j["bytes"]' "$W/out.json")" $((M * size)) "$op $size: bytes"
		note "loopback $op $M x $size B: sent_pkts +$sent rcvd_pkts +$rcvd" \
			"(requests >= $req, so ACKs <= $((sent - req)))"
	done
done
log_test "pair loopback, send and write at 0, 1024, 4096 B: rxe counted at least M*ceil(S/MTU) request packets"

counters_around rxe0 -- qpt pair -d rxe0 -n 8 -m 200 -s 4096 --op write || fail "8 pairs: exit $?"
check_eq "$(json 'len(set(q for p in j["pairs"] for q in (p["a_qpn"], p["b_qpn"])))' "$W/out.json")" 16 "16 distinct QPNs"
check_eq "$(json 'j["bytes"]' "$W/out.json")" $((8 * 200 * 4096)) "bytes"
[ "$(delta rxe0 sent_pkts)" -ge $((8 * 200 * 4)) ] || fail "sent_pkts +$(delta rxe0 sent_pkts)"
note "8 pairs x 200 writes x 4096 B loopback: $(json 'j["elapsed_us"]' "$W/out.json") us"
log_test "pair loopback, 8 pairs at once"

check_eq "$(qp_count)" "$BASE" "QPs left behind"
log_test "pair destroys its QPs on exit"

# --- two devices, traffic across the veth -------------------------------------------
routing_up || fail "routing"
rxe_add rxe1 veth2 || fail "rxe1"
busywait 5000 eval 'rdma link show rxe1/1 | grep -q ACTIVE' || fail "rxe1 not ACTIVE"
log_test "second device rxe1 on veth2, routed so traffic crosses the veth"

for op in send write; do
	for size in 0 1024 4096; do
		M=50
		tx0=$(cat /sys/class/net/veth1/statistics/tx_packets)
		counters_around rxe0 rxe1 -- qpt pair -d rxe0 -D rxe1 -m $M -s $size --op $op ||
			fail "$op $size across: exit $?"
		tx=$(( $(cat /sys/class/net/veth1/statistics/tx_packets) - tx0 ))
		req=$((M * $(req_pkts $size "$MTU")))
		a_sent=$(delta rxe0 sent_pkts); a_rcvd=$(delta rxe0 rcvd_pkts)
		b_sent=$(delta rxe1 sent_pkts); b_rcvd=$(delta rxe1 rcvd_pkts)
		[ "$a_sent" -ge "$req" ] || fail "$op $size: rxe0 sent_pkts +$a_sent < $req"
		check_eq "$b_rcvd" "$a_sent" "$op $size: rxe1 received what rxe0 sent"
		check_eq "$a_rcvd" "$b_sent" "$op $size: rxe0 received what rxe1 sent (ACKs)"
		[ "$b_sent" -ge 1 ] || fail "$op $size: no ACKs"
		[ "$tx" -ge "$a_sent" ] || fail "$op $size: veth1 sent $tx packets, rxe0 $a_sent"
		check_eq "$(json 'j["a_dev"], j["b_dev"]' "$W/out.json")" "rxe0 rxe1" "devices"
		note "across $op $M x $size B: requests rxe0->rxe1 $a_sent ($((a_sent / M))/msg," \
			"ceil(S/MTU)=$(req_pkts $size "$MTU")), ACKs rxe1->rxe0 $b_sent" \
			"($((b_sent / M))/msg), veth1 tx $tx"
	done
done
log_test "pair across rxe0 -> rxe1: request packets cross veth1, ACKs come back"

counters_around rxe0 rxe1 -- qpt pair -d rxe0 -D rxe1 -n 4 -m 500 -s 1024 --tos 96 ||
	fail "4 pairs across: exit $?"
check_eq "$(json 'j["tos"], len(j["pairs"])' "$W/out.json")" "96 4" "result"
[ "$(delta rxe0 sent_pkts)" -ge 2000 ] || fail "sent_pkts +$(delta rxe0 sent_pkts)"
note "4 pairs x 500 sends x 1024 B across: $(json 'j["elapsed_us"]' "$W/out.json") us"
log_test "pair across, 4 pairs with a traffic class"

# A peer that never answers: retries run out, the error is reported, exit 1.
tc qdisc add dev veth1 clsact && tc filter add dev veth1 egress matchall action drop ||
	fail "tc drop"
start=$(date +%s)
out=$(qpt pair -d rxe0 -D rxe1 -m 5 2>&1 >/dev/null); code=$?
tc qdisc del dev veth1 clsact
check_eq "$code" 1 "exit code with every packet dropped"
check_match "$out" "completion error: " "message"
note "all packets dropped: '$(echo "$out" | head -n 1)' after $(( $(date +%s) - start )) s"
log_test "pair with a dead path: completion error on stderr, exit 1"

# --- --hold ------------------------------------------------------------------------------
BASE=$(qp_count)
timeout -k 5 120 "$QPT" pair -d rxe0 -n 2 -m 10 --hold > "$W/hold.json" 2> "$W/hold.err" &
hold=$!
busywait 10000 test -s "$W/hold.json" || fail "no result from --hold"
sleep 0.5
check_eq "$(shown $(qps_of "$W/hold.json"))" 4 "QPs shown while held"
check_eq "$(qp_count)" $((BASE + 4)) "QP count while held"
pid=$(json 'j["pid"]' "$W/hold.json")
check_eq "$(qps | python3 -c 'import json,sys
print(sorted(set((q.get("pid"), q.get("comm"), q["state"]) for q in map(json.loads, sys.stdin))))')" \
	"[($pid, 'qptraffic', 'RTS')]" "pid, comm and state in rdma"
kill -0 "$hold" || fail "exited while holding"
kill "$hold"
wait "$hold"; check_eq "$?" 0 "exit status on SIGTERM"
check_eq "$(qp_count)" "$BASE" "QPs after SIGTERM"
check_eq "$(cat "$W/hold.err")" "" "stderr"
log_test "--hold: QPs in rdma resource show qp until SIGTERM, gone after, exit 0"

# Released by stdin EOF.
mkfifo "$W/fifo"
timeout -k 5 120 "$QPT" many -d rxe0 -n 6 --state init --hold < "$W/fifo" > "$W/eof.json" &
hold=$!
exec 3> "$W/fifo"
busywait 10000 test -s "$W/eof.json" || fail "no result"
check_eq "$(shown $(qps_of "$W/eof.json"))" 6 "QPs shown while held"
check_eq "$(qps | python3 -c 'import json,sys; print(set(json.loads(l)["state"] for l in sys.stdin))')" \
	"{'INIT'}" "state"
exec 3>&-
busywait 10000 eval '! kill -0 $hold 2>/dev/null' || fail "still running after stdin EOF"
wait "$hold"; check_eq "$?" 0 "exit status on stdin EOF"
check_eq "$(qp_count)" "$BASE" "QPs after EOF"
log_test "--hold: stdin EOF releases too"

# --- --fork-hold: the creator exits, its child keeps the QPs ----------------------------
qpt pair -d rxe0 -m 10 --fork-hold > "$W/fork.json"
check_eq "$?" 0 "parent exit status"
HOLDER=$(json 'j["holder_pid"]' "$W/fork.json")
parent=$(json 'j["pid"]' "$W/fork.json")
[ -n "$HOLDER" ] && [ "$HOLDER" != "$parent" ] || fail "holder_pid '$HOLDER', pid '$parent'"
busywait 5000 eval '! alive $parent' || fail "parent $parent still there"
sleep 0.5
alive "$HOLDER" || fail "holder $HOLDER is gone"
check_eq "$(shown $(qps_of "$W/fork.json"))" 2 "QPs shown after the creator exited"
owner=$(qps | python3 -c 'import json,sys
print(sorted(set((q.get("pid"), q.get("comm")) for q in map(json.loads, sys.stdin))))')
note "after fork-hold, creator pid $parent (exited), holder pid $HOLDER: rdma shows (pid, comm) $owner"
kill "$HOLDER"
busywait 10000 eval '! alive $HOLDER' || fail "holder survived SIGTERM"
HOLDER=
busywait 5000 eval '[ "$(qp_count)" = "$BASE" ]' || fail "QPs after the holder died: $(qp_count), base $BASE"
log_test "--fork-hold: QPs outlive their creator until the child is killed"

# --- many --------------------------------------------------------------------------------
BASE=$(qp_count)
start=$(date +%s%3N)
timeout -k 5 300 "$QPT" many -d rxe0 -n 2000 --hold > "$W/many.json" 2> "$W/many.err" &
hold=$!
busywait 120000 test -s "$W/many.json" || fail "no result from many"
created_ms=$(( $(date +%s%3N) - start ))
check_eq "$(json 'len(set(j["qpns"]))' "$W/many.json")" 2000 "distinct QPNs"
check_eq "$(qp_count)" $((BASE + 2000)) "QP count"
check_eq "$(shown $(qps_of "$W/many.json"))" 2000 "listed QPNs shown"
check_eq "$(qps | python3 -c 'import json,sys; print(set(json.loads(l)["state"] for l in sys.stdin))')" \
	"{'RTS'}" "state"
kill "$hold"
wait "$hold"; check_eq "$?" 0 "exit status"
check_eq "$(qp_count)" "$BASE" "QPs after SIGTERM"
note "many -n 2000 --state rts: result after $created_ms ms"
log_test "many -n 2000: 2000 more QPs in rdma resource show qp, all RTS, gone after"

start=$(date +%s%3N)
timeout 120 "$QPT" many -d rxe0 -n 10000 > "$W/many.json"
check_eq "$?" 0 "exit status"
check_eq "$(json 'len(set(j["qpns"]))' "$W/many.json")" 10000 "distinct QPNs"
check_eq "$(qp_count)" "$BASE" "QPs after exit"
note "many -n 10000 (create, connect in pairs, destroy): $(( $(date +%s%3N) - start )) ms"
log_test "many -n 10000 --state rts"

qpt many -d rxe0 -n 3 --state reset > "$W/reset.json" || fail "reset: exit $?"
check_eq "$(json 'j["state"], len(j["qpns"])' "$W/reset.json")" "reset 3" "result"
log_test "many --state reset"

# --- churn and rate -------------------------------------------------------------------------
qpt churn -d rxe0 -t 5 > "$W/churn.json"
check_eq "$?" 0 "exit status"
check_eq "$(json 'j["created"] == j["destroyed"] and j["created"] > 0' "$W/churn.json")" True \
	"created == destroyed > 0: $(cat "$W/churn.json")"
check_eq "$(qp_count)" "$BASE" "QP count after churn"
note "churn -t 5: $(cat "$W/churn.json")"
log_test "churn -t 5: created == destroyed, QP count back to baseline"

qpt rate -d rxe0 -n 1000 > "$W/rate.json"
check_eq "$?" 0 "exit status"
check_eq "$(json 'j["count"], j["per_second"] > 0' "$W/rate.json")" "1000 True" "result"
note "rate -n 1000: $(cat "$W/rate.json")"
log_test "rate -n 1000"

# --- bad input ----------------------------------------------------------------------------------
bad() {	# bad EXPECTED-CODE REGEX ARGS...
	local want=$1 re=$2 out code
	shift 2
	out=$(qpt "$@" 2>&1 >/dev/null); code=$?
	check_eq "$code" "$want" "qptraffic $*: exit"
	check_match "$out" "$re" "qptraffic $*: message"
}
bad 2 'missing subcommand'
bad 2 'unknown subcommand "bogus"' bogus -d rxe0
bad 2 'unrecognized option' pair -d rxe0 --bogus
bad 2 '-d DEV is required' pair
bad 2 'no RDMA device is called "nosuchdev"' pair -d nosuchdev
bad 2 'no RDMA device is called "nosuchdev"' pair -d rxe0 -D nosuchdev
bad 2 'bad message size "12x"' pair -d rxe0 -s 12x
bad 2 'bad pair count "0"' pair -d rxe0 -n 0
bad 2 'bad --op "read"' pair -d rxe0 --op read
bad 2 'bad TOS "256"' pair -d rxe0 --tos 256
bad 2 'GID index 5000 out of range' pair -d rxe0 -g 5000
bad 2 'exclude each other' pair -d rxe0 --hold --fork-hold
bad 2 '-n COUNT is required' many -d rxe0
bad 2 'bad --state "rtr"' many -d rxe0 -n 2 --state rtr
bad 2 '-t SECONDS is required' churn -d rxe0
bad 2 'unexpected argument "extra"' rate -d rxe0 -n 1 extra
bad 1 'GID index 7 is empty' pair -d rxe0 -g 7
check_eq "$(qp_count)" "$BASE" "QPs after bad input"
log_test "bad input: a sentence on stderr and exit 2 (an empty GID: exit 1)"

rxe_del rxe1
rxe_del rxe0
kmsg_check
