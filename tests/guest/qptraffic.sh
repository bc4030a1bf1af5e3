#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the qptraffic test tool moves real RC traffic over soft-RoCE
# (loopback on one device, and across a veth between two devices), and its
# QPs appear in and vanish from rdma(8) exactly when they should: held,
# handed to a forked child, by the thousand, and under create/destroy churn.
# Build the tool first: make -C tests/tools.
#
# Every program started in the guest costs up to a second or more (the root
# comes over 9p), so results are parsed with bash itself, not python.
. "$(dirname "$0")/lib.sh"
plan 19
QPT=$ROOT/tests/tools/build/qptraffic
W=$(mktemp -d)
HOLDER=

if [ ! -x "$QPT" ]; then
	fail "$QPT missing: run make -C tests/tools on the host"
	log_test "tool built"
	exit 0
fi

# --- helpers -----------------------------------------------------------------------

# Observations for whoever reads the log (not results).
note() {
	echo "# $SCENARIO: $*"
}

qpt() {
	timeout "$T" "$QPT" "$@"
}

# nap SECONDS: sleep without starting a program.
mkfifo "$W/tick"
exec {TICK}<>"$W/tick"
nap() {
	read -r -t "$1" -u "$TICK"
}

# waitfor SECONDS CMD...: poll CMD (a shell function) until true or timeout.
waitfor() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		nap 0.1
	done
	return 0
}

# alive PID: running, not a zombie (an orphan is not necessarily reaped at once).
alive() {
	local st
	{ st=$(< "/proc/$1/status"); } 2>/dev/null || return 1
	[[ ! $st =~ State:[[:space:]]*Z ]]
}

# jget KEY FILE: a member of a qptraffic result (number or string).
jget() {
	local text
	text=$(< "$2")
	[[ $text =~ \"$1\":\"?([^\",}]*) ]] && echo "${BASH_REMATCH[1]}"
}

# qpns_of FILE: the QPNs a qptraffic result lists, space-separated.
qpns_of() {
	local text out=
	text=$(< "$1")
	[[ $text =~ \"qpns\":\[([0-9,]*)\] ]] && out=${BASH_REMATCH[1]//,/ }
	while [[ $text =~ \"[ab]_qpn\":([0-9]+)(.*) ]]; do
		out+=" ${BASH_REMATCH[1]}"
		text=${BASH_REMATCH[2]}
	done
	echo $out
}

# distinct WORD...: how many different words.
distinct() {
	local -A seen=()
	local w
	for w in "$@"; do
		seen[$w]=1
	done
	echo ${#seen[@]}
}

# qp_scan: the QPs rdma lists, GSI left out, as "QPN STATE PID COMM" rows in
# QP_ROWS (PID and COMM "-" when rdma shows none).
qp_scan() {
	local lines line f i qpn state pid comm type
	QP_ROWS=()
	mapfile -t lines < <(timeout "$T" rdma resource show qp)
	for line in "${lines[@]}"; do
		read -ra f <<< "$line"
		qpn= state= pid=- comm=- type=
		for ((i = 2; i + 1 < ${#f[@]}; i += 2)); do
			case ${f[i]} in
			lqpn) qpn=${f[i + 1]} ;;
			type) type=${f[i + 1]} ;;
			state) state=${f[i + 1]} ;;
			pid) pid=${f[i + 1]} ;;
			comm) comm=${f[i + 1]} ;;
			esac
		done
		[ "$type" = GSI ] || QP_ROWS+=("$qpn $state $pid $comm")
	done
}

qp_count() {
	qp_scan
	echo ${#QP_ROWS[@]}
}

qp_count_is() {
	[ "$(qp_count)" = "$1" ]
}

# shown QPN...: how many of these QPNs the last qp_scan found.
shown() {
	local -A want=()
	local q row n=0
	for q in "$@"; do
		want[$q]=1
	done
	for row in "${QP_ROWS[@]}"; do
		[ -z "${want[${row%% *}]}" ] || n=$((n + 1))
	done
	echo $n
}

# owners: the distinct "STATE PID COMM" of the last qp_scan, sorted-ish.
owners() {
	local -A seen=()
	local row
	for row in "${QP_ROWS[@]}"; do
		seen[${row#* }]=1
	done
	echo "${!seen[@]}"
}

# counters DEV: rxe's port counters into the associative array CTR_DEV.
declare -A CTR_BEFORE CTR_AFTER
read_counters() {	# read_counters DEV ARRAY
	local -n arr=$2
	local f i
	read -ra f <<< "$(timeout "$T" rdma statistic show link "$1/1")"
	for ((i = 2; i + 1 < ${#f[@]}; i += 2)); do
		arr[$1.${f[i]}]=${f[i + 1]}
	done
}

# counters_around DEV... -- CMD...: run CMD with its output in $W/out.json
# and leave the counters of each DEV around it; CMD's status returns.
counters_around() {
	local devs=() d code
	while [ "$1" != -- ]; do devs+=("$1"); shift; done
	shift
	for d in "${devs[@]}"; do
		read_counters "$d" CTR_BEFORE
	done
	"$@" > "$W/out.json"
	code=$?
	for d in "${devs[@]}"; do
		read_counters "$d" CTR_AFTER
	done
	return $code
}

# delta DEV COUNTER (after counters_around)
delta() {
	echo $(( ${CTR_AFTER[$1.$2]:-0} - ${CTR_BEFORE[$1.$2]:-0} ))
}

# Packets a message of SIZE bytes needs at MTU bytes: at least one.
req_pkts() {
	local n=$(( ($1 + $2 - 1) / $2 ))
	[ "$n" -gt 0 ] || n=1
	echo "$n"
}

# first_line TEXT
first_line() {
	local line=${1%%$'\n'*}
	echo "$line"
}

# check_re TEXT REGEX WHAT: like check_match, without starting grep.
check_re() {
	[[ $1 =~ $2 ]] || fail "$3: '$2' not in: ${1:0:300}"
}

# Routing for two rxe devices whose traffic really crosses the veth, as in
# the test-guest notes; undone at exit, since later scenarios share the guest.
SYSCTL_SAVED=
routing_up() {
	local i
	SYSCTL_SAVED=$(sysctl -n net.ipv4.conf.all.rp_filter net.ipv4.conf.default.rp_filter \
		net.ipv4.conf.all.accept_local net.ipv4.conf.default.accept_local)
	sysctl -qw net.ipv4.conf.{all,default,veth1,veth2}.rp_filter=0 \
		net.ipv4.conf.{all,default,veth1,veth2}.accept_local=1 &&
	ip -batch - <<-EOF
	rule add pref 100 iif lo to 192.0.2.2 lookup 100
	route add 192.0.2.2 dev veth1 src 192.0.2.1 table 100
	rule add pref 101 iif lo to 192.0.2.1 lookup 101
	route add 192.0.2.1 dev veth2 src 192.0.2.2 table 101
	rule add pref 1000 lookup local
	rule del pref 0
	EOF
}

routing_down() {
	[ -n "$SYSCTL_SAVED" ] || return 0
	ip -force -batch - <<-EOF 2>/dev/null
	rule add pref 0 lookup local
	rule del pref 1000
	rule del pref 100
	rule del pref 101
	route flush table 100
	route flush table 101
	EOF
	set -- $SYSCTL_SAVED
	sysctl -qw net.ipv4.conf.all.rp_filter="$1" net.ipv4.conf.default.rp_filter="$2" \
		net.ipv4.conf.all.accept_local="$3" net.ipv4.conf.default.accept_local="$4"
	SYSCTL_SAVED=
}

cleanup() {
	[ -z "$HOLDER" ] || kill "$HOLDER" 2>/dev/null
	kill $(jobs -p) 2>/dev/null
	tc qdisc del dev veth1 clsact 2>/dev/null
	tc qdisc del dev veth2 clsact 2>/dev/null
	routing_down
	rm -rf "$W"
}
trap cleanup EXIT

kmsg_mark

# --- one device: loopback ---------------------------------------------------------
veth_pair 1 2 || fail "veth"
rxe_add rxe0 veth1 || fail "rxe0"
rdma_state() { [[ $(timeout "$T" rdma link show "$1/1") =~ state\ ACTIVE ]]; }
waitfor 10 rdma_state rxe0 || fail "rxe0 not ACTIVE"
MTU=$(ibv_devinfo -d rxe0)
[[ $MTU =~ active_mtu:[[:space:]]*([0-9]+) ]] && MTU=${BASH_REMATCH[1]}
note "rxe0 on veth1 (MTU $(< /sys/class/net/veth1/mtu)): RoCE active MTU $MTU"
BASE=$(qp_count)
check_eq "$MTU" 1024 "active MTU"
log_test "soft-RoCE up: rxe0 on veth1"

M=100
counters_around rxe0 -- qpt pair -d rxe0 -m $M -s 1024 --op send || fail "pair send: exit $?"
check_eq "$(jget op "$W/out.json") $(jget messages "$W/out.json") $(jget size "$W/out.json")" \
	"send $M 1024" "op, messages, size"
check_eq "$(jget bytes "$W/out.json") $(jget mtu "$W/out.json")" "$((M * 1024)) $MTU" "bytes, mtu"
check_eq "$(distinct $(qpns_of "$W/out.json"))" 2 "two distinct QPNs"
[ "$(jget elapsed_us "$W/out.json")" -gt 0 ] || fail "elapsed_us"
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
		check_eq "$(jget bytes "$W/out.json")" $((M * size)) "$op $size: bytes"
		note "loopback $op $M x $size B: sent_pkts +$sent rcvd_pkts +$rcvd" \
			"(requests >= $req, so ACKs <= $((sent - req)))" \
			"rdma_sends +$(delta rxe0 rdma_sends) rdma_recvs +$(delta rxe0 rdma_recvs)"
	done
done
log_test "pair loopback, send and write at 0, 1024, 4096 B: at least M*ceil(S/MTU) request packets"

counters_around rxe0 -- qpt pair -d rxe0 -n 8 -m 200 -s 4096 --op write || fail "8 pairs: exit $?"
check_eq "$(distinct $(qpns_of "$W/out.json"))" 16 "16 distinct QPNs"
check_eq "$(jget bytes "$W/out.json")" $((8 * 200 * 4096)) "bytes"
[ "$(delta rxe0 sent_pkts)" -ge $((8 * 200 * 4)) ] || fail "sent_pkts +$(delta rxe0 sent_pkts)"
note "8 pairs x 200 writes x 4096 B loopback: $(jget elapsed_us "$W/out.json") us"
log_test "pair loopback, 8 pairs at once"

check_eq "$(qp_count)" "$BASE" "QPs left behind"
log_test "pair destroys its QPs on exit"

# --- two devices, traffic across the veth -------------------------------------------
routing_up || fail "routing"
rxe_add rxe1 veth2 || fail "rxe1"
waitfor 10 rdma_state rxe1 || fail "rxe1 not ACTIVE"
log_test "second device rxe1 on veth2, routed so traffic crosses the veth"

for op in send write; do
	for size in 0 1024 4096; do
		M=50
		tx0=$(< /sys/class/net/veth1/statistics/tx_packets)
		counters_around rxe0 rxe1 -- qpt pair -d rxe0 -D rxe1 -m $M -s $size --op $op ||
			fail "$op $size across: exit $?"
		tx=$(( $(< /sys/class/net/veth1/statistics/tx_packets) - tx0 ))
		req=$((M * $(req_pkts $size "$MTU")))
		a_sent=$(delta rxe0 sent_pkts); a_rcvd=$(delta rxe0 rcvd_pkts)
		b_sent=$(delta rxe1 sent_pkts); b_rcvd=$(delta rxe1 rcvd_pkts)
		[ "$a_sent" -ge "$req" ] || fail "$op $size: rxe0 sent_pkts +$a_sent < $req"
		check_eq "$b_rcvd" "$a_sent" "$op $size: rxe1 received what rxe0 sent"
		check_eq "$a_rcvd" "$b_sent" "$op $size: rxe0 received what rxe1 sent (ACKs)"
		[ "$b_sent" -ge 1 ] || fail "$op $size: no ACKs"
		[ "$tx" -ge "$a_sent" ] || fail "$op $size: veth1 sent $tx packets, rxe0 $a_sent"
		check_eq "$(jget a_dev "$W/out.json") $(jget b_dev "$W/out.json")" "rxe0 rxe1" "devices"
		note "across $op $M x $size B: requests rxe0->rxe1 $a_sent ($((a_sent / M))/msg," \
			"ceil(S/MTU)=$(req_pkts $size "$MTU")), ACKs rxe1->rxe0 $b_sent" \
			"($((b_sent / M))/msg), veth1 tx $tx," \
			"rdma_sends rxe0 +$(delta rxe0 rdma_sends) rdma_recvs rxe1 +$(delta rxe1 rdma_recvs)"
	done
done
counters_around rxe0 rxe1 -- qpt pair -d rxe0 -D rxe1 -m 10 -s 131072 --op write ||
	fail "128 KiB writes: exit $?"
[ "$(delta rxe0 sent_pkts)" -ge 1280 ] || fail "128 KiB: sent_pkts +$(delta rxe0 sent_pkts)"
note "across write 10 x 131072 B: requests $(delta rxe0 sent_pkts), ACKs $(delta rxe1 sent_pkts)"
log_test "pair across rxe0 -> rxe1: request packets cross veth1, ACKs come back"

counters_around rxe0 rxe1 -- qpt pair -d rxe0 -D rxe1 -n 4 -m 500 -s 1024 --tos 96 ||
	fail "4 pairs across: exit $?"
check_eq "$(jget tos "$W/out.json") $(distinct $(qpns_of "$W/out.json"))" "96 8" "TOS, QPNs"
[ "$(delta rxe0 sent_pkts)" -ge 2000 ] || fail "sent_pkts +$(delta rxe0 sent_pkts)"
note "4 pairs x 500 sends x 1024 B across: $(jget elapsed_us "$W/out.json") us"
log_test "pair across, 4 pairs with a traffic class"

# A peer that never answers (veth2's ingress drops everything). rxe treats
# retry_cnt 7 as "retry forever" (rxe_comp.c), so only the -T deadline ends
# it: a message, exit 1, and the QPs are still destroyed.
tc qdisc add dev veth2 clsact && tc filter add dev veth2 ingress matchall action drop ||
	fail "tc drop on veth2 ingress"
start=$SECONDS
out=$(qpt pair -d rxe0 -D rxe1 -m 5 --op write -T 3 2>&1 >/dev/null); code=$?
tc qdisc del dev veth2 clsact
check_eq "$code" 1 "exit code"
check_re "$out" "timed out after 3 s with 0 of 5 completions" "message"
check_re "$out" "pair 0 \(QP [0-9]+ -> [0-9]+\): 0 of 5 written" "per-pair detail"
[ $((SECONDS - start)) -lt 15 ] || fail "took $((SECONDS - start)) s"
check_eq "$(qp_count)" "$BASE" "QPs left behind"
note "silent peer, -T 3: '$(first_line "$out")' after $((SECONDS - start)) s"
log_test "pair with a silent peer: the -T deadline, exit 1, QPs destroyed"

# --- --hold ------------------------------------------------------------------------------
BASE=$(qp_count)
timeout -k 5 120 "$QPT" pair -d rxe0 -n 2 -m 10 --hold > "$W/hold.json" 2> "$W/hold.err" &
hold=$!
waitfor 20 test -s "$W/hold.json" || fail "no result from --hold"
qp_scan
check_eq "$(shown $(qpns_of "$W/hold.json"))" 4 "QPs shown while held"
check_eq "${#QP_ROWS[@]}" $((BASE + 4)) "QP count while held"
check_eq "$(owners)" "RTS $(jget pid "$W/hold.json") qptraffic" "state, pid, comm in rdma"
alive "$hold" || fail "exited while holding"
kill "$hold"
wait "$hold"; check_eq "$?" 0 "exit status on SIGTERM"
check_eq "$(qp_count)" "$BASE" "QPs after SIGTERM"
check_eq "$(< "$W/hold.err")" "" "stderr"
log_test "--hold: QPs in rdma resource show qp until SIGTERM, gone after, exit 0"

# Released by stdin EOF.
mkfifo "$W/fifo"
timeout -k 5 120 "$QPT" many -d rxe0 -n 6 --state init --hold < "$W/fifo" > "$W/eof.json" &
hold=$!
exec {feed}> "$W/fifo"
waitfor 20 test -s "$W/eof.json" || fail "no result"
qp_scan
check_eq "$(shown $(qpns_of "$W/eof.json"))" 6 "QPs shown while held"
check_eq "$(owners)" "INIT $(jget pid "$W/eof.json") qptraffic" "state, pid, comm in rdma"
exec {feed}>&-
not_alive() { ! alive "$1"; }
waitfor 20 not_alive "$hold" || fail "still running after stdin EOF"
wait "$hold"; check_eq "$?" 0 "exit status on stdin EOF"
check_eq "$(qp_count)" "$BASE" "QPs after EOF"
log_test "--hold: stdin EOF releases too"

# --- --fork-hold: the creator exits, its child keeps the QPs ----------------------------
qpt pair -d rxe0 -m 10 --fork-hold > "$W/fork.json"
check_eq "$?" 0 "parent exit status"
HOLDER=$(jget holder_pid "$W/fork.json")
parent=$(jget pid "$W/fork.json")
[ -n "$HOLDER" ] && [ "$HOLDER" != "$parent" ] || fail "holder_pid '$HOLDER', pid '$parent'"
waitfor 10 not_alive "$parent" || fail "parent $parent still there"
alive "$HOLDER" || fail "holder $HOLDER is gone"
qp_scan
check_eq "$(shown $(qpns_of "$W/fork.json"))" 2 "QPs shown after the creator exited"
note "after fork-hold (creator pid $parent exited, holder pid $HOLDER):" \
	"rdma shows 'STATE PID COMM' = '$(owners)' ('-' = not shown)"
kill "$HOLDER"
waitfor 10 not_alive "$HOLDER" || fail "holder survived SIGTERM"
HOLDER=
waitfor 10 qp_count_is "$BASE" || fail "QPs after the holder died: $(qp_count), base $BASE"
log_test "--fork-hold: QPs outlive their creator until the child is killed"

# --- many --------------------------------------------------------------------------------
start=$SECONDS
timeout -k 5 300 "$QPT" many -d rxe0 -n 2000 --hold > "$W/many.json" 2> "$W/many.err" &
hold=$!
waitfor 120 test -s "$W/many.json" || fail "no result from many"
created_s=$((SECONDS - start))
qpns=$(qpns_of "$W/many.json")
check_eq "$(distinct $qpns)" 2000 "distinct QPNs"
qp_scan
check_eq "${#QP_ROWS[@]}" $((BASE + 2000)) "QP count"
check_eq "$(shown $qpns)" 2000 "listed QPNs shown"
check_eq "$(owners)" "RTS $(jget pid "$W/many.json") qptraffic" "state, pid, comm in rdma"
kill "$hold"
wait "$hold"; check_eq "$?" 0 "exit status"
check_eq "$(qp_count)" "$BASE" "QPs after SIGTERM"
note "many -n 2000 --state rts --hold: result after ~$created_s s, released in $((SECONDS - start)) s"
log_test "many -n 2000: 2000 more QPs in rdma resource show qp, all RTS, gone after"

start=$SECONDS
timeout 120 "$QPT" many -d rxe0 -n 10000 > "$W/many.json"
check_eq "$?" 0 "exit status"
check_eq "$(distinct $(qpns_of "$W/many.json"))" 10000 "distinct QPNs"
check_eq "$(qp_count)" "$BASE" "QPs after exit"
note "many -n 10000 (create, connect in pairs, destroy): ~$((SECONDS - start)) s"
log_test "many -n 10000 --state rts"

qpt many -d rxe0 -n 3 --state reset > "$W/reset.json" || fail "reset: exit $?"
check_eq "$(jget state "$W/reset.json") $(distinct $(qpns_of "$W/reset.json"))" "reset 3" "result"
log_test "many --state reset"

# --- churn and rate -------------------------------------------------------------------------
qpt churn -d rxe0 -t 5 > "$W/churn.json"
check_eq "$?" 0 "exit status"
created=$(jget created "$W/churn.json")
check_eq "$(jget destroyed "$W/churn.json")" "$created" "destroyed == created"
[ "${created:-0}" -gt 0 ] || fail "nothing created: $(< "$W/churn.json")"
check_eq "$(qp_count)" "$BASE" "QP count after churn"
note "churn -t 5: $(< "$W/churn.json")"
log_test "churn -t 5: created == destroyed, QP count back to baseline"

qpt rate -d rxe0 -n 1000 > "$W/rate.json"
check_eq "$?" 0 "exit status"
check_eq "$(jget count "$W/rate.json")" 1000 "count"
check_re "$(jget per_second "$W/rate.json")" '^[1-9][0-9]*\.[0-9]$' "per_second"
check_re "$(jget per_cpu_second "$W/rate.json")" '^[1-9][0-9]*\.[0-9]$' "per_cpu_second"
# One thread: its CPU time within the span it ran in (read inside it; two
# clocks, the monotonic one slewed by up to 500 ppm, read to the us).
cpu_us=$(jget cpu_us "$W/rate.json") elapsed_us=$(jget elapsed_us "$W/rate.json")
[ "${cpu_us:-x}" -gt 0 ] 2> /dev/null && [ "$cpu_us" -le $(( elapsed_us + elapsed_us / 2000 + 2 )) ] ||
	fail "cpu_us not within elapsed_us: $(< "$W/rate.json")"
note "rate -n 1000: $(< "$W/rate.json")"
log_test "rate -n 1000"

# --- bad input ----------------------------------------------------------------------------------
bad() {	# bad EXPECTED-CODE REGEX ARGS...
	local want=$1 re=$2 out code
	shift 2
	out=$(qpt "$@" 2>&1 >/dev/null); code=$?
	check_eq "$code" "$want" "qptraffic $*: exit"
	check_re "$out" "$re" "qptraffic $*: message"
}
bad 2 'missing subcommand'
bad 2 'unknown subcommand "bogus"' bogus -d rxe0
bad 2 'unrecognized option' pair -d rxe0 --bogus
bad 2 '-d DEV is required' pair
bad 2 'no RDMA device is called "nosuchdev"' pair -d rxe0 -D nosuchdev
bad 2 'bad message size "12x"' pair -d rxe0 -s 12x
bad 2 'bad pair count "0"' pair -d rxe0 -n 0
bad 2 'bad --op "read"' pair -d rxe0 --op read
bad 2 'GID index 5000 out of range' pair -d rxe0 -g 5000
bad 2 'exclude each other' pair -d rxe0 --hold --fork-hold
bad 2 'bad --state "rtr"' many -d rxe0 -n 2 --state rtr
bad 2 '-t SECONDS is required' churn -d rxe0
bad 2 'unexpected argument "extra"' rate -d rxe0 -n 1 extra
bad 1 'GID index 7 is empty' pair -d rxe0 -g 7
check_eq "$(qp_count)" "$BASE" "QPs after bad input"
log_test "bad input: a sentence on stderr and exit 2 (an empty GID: exit 1)"

rxe_del rxe1
rxe_del rxe0
kmsg_check
