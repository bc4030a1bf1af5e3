#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: every QP tracked from create to destroy, with its identity and
# its soft-RoCE counters, checked against real RDMA traffic, rxe's own port
# counters, rdma(8), tracepoints and a CE-marking path.
. "$(dirname "$0")/lib.sh"
plan 12
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
veth_pair 1 2
rxe_add rxe0 veth1 || fail "rxe0"
module_load || fail "load"

# port_counters DEV: rxe's own sent_pkts and rcvd_pkts.
port_counters() {
	rdma -j statistic show link "$1/1" | jq -r '.[0] | "\(.sent_pkts) \(.rcvd_pkts)"'
}

# pair traffic: ARGS... -> $W/pair.json, with the QPs held until release_hold;
# in cgroup $HOLD_CG where set.
# HOLDER: its pid; HOLDER_JOB: the job to wait for, where that is another.
hold_pair() {
	HOLDER_JOB=
	if [ -n "${HOLD_CG:-}" ]; then
		in_cgroup "$HOLD_CG" "$W/holder.pid" "$QPT" pair "$@" --hold > "$W/pair.json" 2> "$W/pair.err" &
		HOLDER_JOB=$!
	else
		"$QPT" pair "$@" --hold > "$W/pair.json" 2> "$W/pair.err" &
		HOLDER=$!
	fi
	busywait 20000 test -s "$W/pair.json" || { fail "qptraffic: $(cat "$W/pair.err")"; return 1; }
	[ -z "$HOLDER_JOB" ] || HOLDER=$(cat "$W/holder.pid")
}
release_hold() {
	kill "$HOLDER" 2>/dev/null
	wait "${HOLDER_JOB:-$HOLDER}"
	HOLDER_JOB=
}
pair_qpn() {	# pair_qpn a|b [N]
	jq ".pairs[${2:-0}].$1_qpn" "$W/pair.json"
}

# --- counts that RoCE implies, cross-checked with rxe's port counters ---------
for op in send write; do
	for size in 0 1024 4096; do
		[ "$op$size" = write0 ] && continue
		before=$(port_counters rxe0)
		hold_pair -d rxe0 -g 1 -n 1 -m 50 -s $size --op $op || break
		rc -j qp stats dev rxe0 > "$W/st.json" || fail "qp stats"
		after=$(port_counters rxe0)
		python3 - "$W/pair.json" "$W/st.json" $before $after <<'PY' > "$W/check.txt" || fail "$op $size: $(cat "$W/check.txt")"
import json, sys
pair = json.load(open(sys.argv[1]))
qps = {q["lqpn"]: q for q in json.load(open(sys.argv[2]))}
sent0, rcvd0, sent1, rcvd1 = map(int, sys.argv[3:7])
size, mtu, m = pair["size"], pair["mtu"], pair["messages"]
a = qps[pair["pairs"][0]["a_qpn"]]["counters"]
b = qps[pair["pairs"][0]["b_qpn"]]["counters"]
pkts = m * (1 if size == 0 else -(-size // mtu))
bad = []
def eq(what, got, want):
    if got != want:
        bad.append(f"{what}: got {got}, expected {want}")
eq("requester tx_packets", a["tx_packets"], pkts)
eq("requester tx_bytes", a["tx_bytes"], m * size)
eq("responder rx_packets", b["rx_packets"], pkts)
eq("responder rx_bytes", b["rx_bytes"], m * size)
eq("ACKs sent = ACKs received", b["tx_packets"], a["rx_packets"])
if b["tx_packets"] < 1:
    bad.append("no ACK")
for c in ("tx_retrans", "rx_dup", "rx_out_of_seq", "rx_nak_seq", "rx_ecn_ce"):
    eq(c, a[c] + b[c], 0)
# The sums over the device's QPs equal what rxe itself counted.
eq("sum tx_packets vs rxe sent_pkts delta",
   sum(q["counters"]["tx_packets"] for q in qps.values() if "counters" in q), sent1 - sent0)
eq("sum rx_packets vs rxe rcvd_pkts delta",
   sum(q["counters"]["rx_packets"] for q in qps.values() if "counters" in q), rcvd1 - rcvd0)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
		release_hold
	done
done
log_test "50 messages of 0, 1024, 4096 bytes (send, write): per-QP packets and bytes exact, sums equal rxe's port counters"

# --- the QP list against rdma resource show ---------------------------------
compare_rdma() {	# the QPs rdma lists, as rocectl lists them
	rdma -j resource show qp > "$W/rdma.json"
	rc -j qp show > "$W/qps.json"
	python3 - "$W/rdma.json" "$W/qps.json" <<'PY'
import json, sys
rdma = {(q["ifname"], q["lqpn"]): q for q in json.load(open(sys.argv[1]))}
ours = {(q["ifname"], q["lqpn"]): q for q in json.load(open(sys.argv[2]))}
assert rdma.keys() == ours.keys(), (sorted(rdma), sorted(ours))
for k, r in rdma.items():
    o = ours[k]
    assert r["type"] == o["type"] and r["state"] == o["state"], (r, o)
    assert r.get("port") == o.get("port") or r.get("port") is None, (r, o)
    if "pid" in r:
        assert r["pid"] == o["pid"] and r["comm"] == o["comm"], (r, o)
    if "rqpn" in r:
        assert r["rqpn"] == o["rqpn"], (r, o)
PY
}
compare_rdma || fail "idle: $(cat "$W/rdma.json")"
hold_pair -d rxe0 -g 1 -n 3 -m 10 -s 64
compare_rdma || fail "3 pairs held"
check_eq "$(rc -j qp show pid "$HOLDER" | jq length)" 6 "filter pid"
check_eq "$(rc -j qp show dev rxe0 type GSI | jq -c '[.[].lqpn]')" "[1]" "filter type"
check_eq "$(rc -j qp show state RTS type RC | jq length)" 6 "filter state"
check_eq "$(rc -j qp show qpn "$(pair_qpn a 1)" | jq -c '[.[].rqpn]')" "[$(pair_qpn b 1)]" "qpn without dev"
release_hold
compare_rdma || fail "after release"
check_eq "$(rc -j qp show type RC | jq length)" 0 "RC QPs left"
log_test "qp show agrees with rdma resource show (QPNs, type, state, pid, comm); filters"

# --- QP types by name ------------------------------------------------------------
hold_pair -d rxe0 -g 1 -n 1 -m 1 -s 8
check_eq "$(rc -j qp show dev rxe0 | jq -c '[.[] | [.lqpn, .type]] | sort')" \
	"$(jq -c '[[1, "GSI"], [.pairs[0].a_qpn, "RC"], [.pairs[0].b_qpn, "RC"]] | sort' "$W/pair.json")" "types in JSON"
check_match "$(rc qp show dev rxe0 qpn 1)" "lqpn 1 type GSI " "GSI in text"
check_match "$(rc qp show dev rxe0 qpn "$(pair_qpn a)")" " type RC " "RC in text"
check_eq "$(rc -j qp show type DRIVER | jq -c .)" "[]" "no QP of a driver's own type on soft-RoCE"
out=$(rc qp show type NOSUCH 2>&1)
check_match "$out" "XRC_INI XRC_TGT DRIVER\." "DRIVER among the types"
release_hold
log_test "QP types: GSI and RC by name in text and JSON; DRIVER a type to filter by (none on soft-RoCE)"

# --- identity and path ---------------------------------------------------------
# In a cgroup of its own: the owner's cgroup is taken where the module first
# sees a user QP (its create hook; its first modify before 5.15). The debug
# kernel has no cgroups: there, as on a host without them, nothing to take.
cg_on=; cg_mounted=
if grep -qw cgroup2 /proc/filesystems; then
	cg_on=1
	mountpoint -q "$CG" || { mount -t cgroup2 none "$CG" && cg_mounted=1; } || fail "cgroup2"
	mkdir -p "$CG/qps-owner" || fail "cgroup"
else
	echo "# this kernel has no cgroup v2: no QP owner's cgroup to check"
fi
HOLD_CG=${cg_on:+/qps-owner} hold_pair -d rxe0 -g 1 -n 1 -m 5 -s 64 --tos 106
a=$(pair_qpn a)
rc -j -d qp show dev rxe0 qpn "$a" > "$W/one.json" || fail "doit"
check_eq "$(jq -r '.[0] | "\(.sgid) \(.dgid) \(.dscp) \(.ecn) \(.mtu) \(.comm) \(.retry_cnt) \(.rnr_retry) \(.timeout)"' "$W/one.json")" \
	"192.0.2.1 192.0.2.1 26 2 1024 qptraffic 7 7 14" "path and identity"
check_eq "$(jq '.[0].pid' "$W/one.json")" "$HOLDER" "pid"
[ -z "$cg_on" ] || check_eq "$(jq -c '.[0] | [.cgroup, .cgroup_id]' "$W/one.json")" \
	"[\"$(sed -n 's/^0:://p' "/proc/$HOLDER/cgroup")\",$(stat -c %i "$CG/qps-owner")]" \
	"cgroup: /proc/PID/cgroup's path and the directory's inode number"
release_hold
if [ -n "$cg_on" ]; then
	rmdir "$CG/qps-owner"
	[ -z "$cg_mounted" ] || umount "$CG"
fi
log_test "identity: GIDs as addresses, DSCP/ECN of the traffic class, MTU, retries, pid, comm, cgroup"

"$QPT" pair -d rxe0 -g 1 -n 1 -m 5 -s 64 --fork-hold > "$W/fork.json" 2>&1 || fail "fork-hold"
creator=$(jq .pid "$W/fork.json")
holder=$(jq .holder_pid "$W/fork.json")
busywait 5000 eval '! kill -0 '"$creator"' 2>/dev/null' || fail "creator still alive"
rc -j qp show type RC > "$W/fork-qps.json"
check_eq "$(jq -c '[.[] | [.pid, .comm]] | unique' "$W/fork-qps.json")" "[[$creator,\"qptraffic\"]]" \
	"owner after the creator exited"
kill "$holder"
busywait 10000 eval '[ "$(rc -j qp show type RC | jq length)" = 0 ]' || fail "QPs not gone after the holder"
log_test "owner pid and comm survive the creator's exit until the QP is destroyed"

# --- events --------------------------------------------------------------------
"$ROCECTL" -j monitor qp > "$W/mon.json" &
mon=$!
sleep 1
"$QPT" pair -d rxe0 -g 1 -n 1 -m 20 -s 100 > "$W/p.json" || fail "pair"
busywait 10000 eval '[ "$(grep -c destroy "$W/mon.json")" -ge 2 ]' || fail "destroy events"
kill $mon
why=$(python3 - "$W/mon.json" "$(jq '.pairs[0].a_qpn' "$W/p.json")" 2>&1 <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
a = int(sys.argv[2])
mine = [e for e in ev if e["lqpn"] == a]
kinds = [e["event"] for e in mine]
assert kinds == ["create", "modify", "modify", "modify", "destroy"], kinds
assert [e["state"] for e in mine[1:4]] == ["INIT", "RTR", "RTS"], mine
assert [e["prev_state"] for e in mine[1:4]] == ["RESET", "INIT", "RTR"], mine
d = mine[-1]
c = d.get("counters", {})
if d.get("counters_source") != "module" or c.get("tx_packets") != 20 or c.get("tx_bytes") != 2000:
    sys.exit("destroy counters: tx_packets %s tx_bytes %s tx_retrans %s, expected 20 and 2000: %s"
             % (c.get("tx_packets"), c.get("tx_bytes"), c.get("tx_retrans"), d))
assert d["lifetime_ns"] > 0, d
PY
) || fail "events: $(printf '%s' "${why:-?}" | tr '\n' ' ') $(head -c 300 "$W/mon.json" | tr '\n' ' ')"
log_test "monitor qp: create, INIT/RTR/RTS with previous states, destroy with lifetime counters"

# --- tracepoints ---------------------------------------------------------------
TR=/sys/kernel/tracing
echo > $TR/trace
echo 1 > $TR/events/rocectl/enable
"$QPT" pair -d rxe0 -g 1 -n 1 -m 30 -s 100 > "$W/p.json" || fail "pair"
echo 0 > $TR/events/rocectl/enable
a=$(jq '.pairs[0].a_qpn' "$W/p.json")
cat $TR/trace > "$W/trace.txt"
check_match "$(cat "$W/trace.txt")" "qp_create: dev=rxe0 qpn=$a type=2 pid=[0-9]+ comm=qptraffic kernel=0" "qp_create"
check_match "$(cat "$W/trace.txt")" "qp_modify: dev=rxe0 qpn=$a old_state=2 new_state=3 port=1" "qp_modify RTR->RTS"
# The QP's own line, whole, so that a failure says what it counted (tx_retrans).
check_match "$(grep -o "qp_destroy: dev=rxe0 qpn=$a .*" "$W/trace.txt")" \
	"^qp_destroy: dev=rxe0 qpn=$a type=2 pid=[0-9]+ comm=qptraffic lifetime_ns=[0-9]+ tx_packets=30 rx_packets=30 tx_bytes=3000 .* tx_retrans=0$" "qp_destroy totals"
out=$(timeout 60 perf stat -x, -e rocectl:qp_create -e rocectl:qp_destroy -- "$QPT" pair -d rxe0 -g 1 -n 2 -m 1 -s 8 2>&1 >/dev/null)
check_match "$out" "^4,,rocectl:qp_create" "perf stat qp_create: $out"
check_match "$out" "^4,,rocectl:qp_destroy" "perf stat qp_destroy"
log_test "tracepoints: qp_create, qp_modify, qp_destroy fields in ftrace; perf stat counts them"

# --- device-scope counters, labelled ------------------------------------------------
hold_pair -d rxe0 -g 1 -n 2 -m 40 -s 2000
rc -j dev stats rxe0 > "$W/ds.json" || fail "dev stats"
rdma -j statistic show link rxe0/1 > "$W/rs.json"
rc -j qp stats dev rxe0 > "$W/qs.json"
release_hold
check_eq "$(jq -c '[.[] | [.scope, .source]]' "$W/ds.json")" \
	'[["port","driver"],["qps","module"],["destroyed-qps","module"],["unattributed","module"],["device","module"]]' "scopes and sources"
check_eq "$(jq -c '.[0].counters | [.sent_pkts, .rcvd_pkts]' "$W/ds.json")" \
	"$(jq -c '.[0] | [.sent_pkts, .rcvd_pkts]' "$W/rs.json")" "port counters as rdma statistic shows them"
check_eq "$(jq -c '.[1].counters | [.tx_packets, .rx_bytes]' "$W/ds.json")" \
	"$(jq -c '[(map(.counters.tx_packets // 0) | add), (map(.counters.rx_bytes // 0) | add)]' "$W/qs.json")" "sum of the QPs' counters"
check_eq "$(rc qp stats dev rxe0 | grep -c sent_pkts)" 0 "no port counter under a QP"
out=$(rc dev stats nosuch 2>&1); code=$?
check_eq "$code" 4 "dev stats of an unknown device"
log_test "dev stats: port counters (driver) and the QPs' sum (module), each labelled with scope and source"

# --- the module's device counters close against rxe's ---------------------------------
# QPs that send and are destroyed: their counts leave the live QPs' sum for
# destroyed-qps; the device total moves exactly as rxe's own port counters.
dev_total() {	# dev_total SCOPE: tx_packets rx_packets tx_bytes rx_bytes of a scope
	rc -j dev stats rxe0 | jq -r ".[] | select(.scope == \"$1\") | .counters |
		\"\(.tx_packets) \(.rx_packets) \(.tx_bytes) \(.rx_bytes)\""
}
p0=$(port_counters rxe0); t0=$(dev_total device); g0=$(dev_total destroyed-qps)
gx0=$(rc -j dev stats rxe0 | jq '.[] | select(.scope == "destroyed-qps") | .counters.tx_retrans')
"$QPT" pair -d rxe0 -g 1 -n 4 -m 50 -s 3000 > "$W/close.json" 2> "$W/close.err" || fail "pair: $(cat "$W/close.err")"
p1=$(port_counters rxe0)
read -r ps0 pr0 <<< "$p0"; read -r ps1 pr1 <<< "$p1"
read -r tt0 tr0 tb0 _ <<< "$t0"
# The last QPs' counts join destroyed-qps a grace period after their destroy.
busywait 5000 eval 'read -r tt1 tr1 _ _ <<< "$(dev_total device)";
	[ $((tt1 - tt0)) = $((ps1 - ps0)) ] && [ $((tr1 - tr0)) = $((pr1 - pr0)) ]'
t1=$(dev_total device); g1=$(dev_total destroyed-qps)
read -r tt1 tr1 tb1 _ <<< "$t1"
read -r gt0 gr0 gb0 _ <<< "$g0"; read -r gt1 gr1 gb1 _ <<< "$g1"
check_eq "$((tt1 - tt0)) $((tr1 - tr0))" "$((ps1 - ps0)) $((pr1 - pr0))" "device total's packets against rxe's sent_pkts, rcvd_pkts"
check_eq "$((gt1 - gt0)) $((gr1 - gr0)) $((gb1 - gb0))" "$((tt1 - tt0)) $((tr1 - tr0)) $((tb1 - tb0))" "destroyed QPs' share: all of it"
# Retransmitted payload is sent, and counted, again (a slow guest's timers).
retrans=$(( $(rc -j dev stats rxe0 | jq '.[] | select(.scope == "destroyed-qps") | .counters.tx_retrans') - gx0 ))
if [ "$retrans" = 0 ]; then
	check_eq "$((gb1 - gb0))" $((4 * 50 * 3000)) "payload bytes sent by the destroyed QPs"
else
	[ "$((gb1 - gb0))" -gt $((4 * 50 * 3000)) ] ||
		fail "payload bytes sent by the destroyed QPs: $((gb1 - gb0)), with $retrans retransmissions, not above $((4 * 50 * 3000))"
fi
[ "$((tt1 - tt0))" -gt 0 ] || fail "no packets counted"
echo "# closing: $((tt1 - tt0)) sent, $((tr1 - tr0)) received, $retrans retransmitted; rxe: $((ps1 - ps0)), $((pr1 - pr0))"
log_test "dev stats closes: live QPs + destroyed QPs + unattributed move exactly as rxe's port counters"

# --- bad input -------------------------------------------------------------------
out=$(rc qp show dev nosuch 2>&1); code=$?
check_eq "$code" 4 "unknown device"; check_match "$out" "no RDMA device has this name" "unknown device message"
out=$(rc qp show dev rxe0 qpn 9999 2>&1); code=$?
check_eq "$code" 4 "unknown QPN"
check_eq "$out" "Error: rocectl: the device has no QP with this number (attribute qp-num)." "unknown QPN message"
out=$(rc qp show qpn 16777216 2>&1); code=$?
check_eq "$code" 2 "QPN range"; check_match "$out" "not a number from 0 to 16777215" "QPN range message"
out=$(rc qp show state BUSY 2>&1); code=$?
check_eq "$code" 2 "state"; check_match "$out" 'state "BUSY" is not one of: RESET INIT RTR RTS SQD SQE ERR' "state message"
out=$(rc qp stats watch 0 2>&1); code=$?
check_eq "$code" 2 "watch interval"
out=$(rc qp stats count 3 2>&1); code=$?
check_eq "$code" 2 "count without watch"
python3 - <<'PY' || fail "raw netlink"
import errno, os, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from nlraw import GenlSocket, attr_u32, attr_str, attr, NLM_F_REQUEST, NLM_F_DUMP, missing, spec
CMD_QP_GET = spec().cmd("qp-get")
A_DEV_NAME, A_QP_NUM, A_QP_STATE, A_QP_PREV_STATE = (
    spec().attr(a) for a in ("dev-name", "qp-num", "qp-state", "qp-prev-state"))
s = GenlSocket()
r = s.request(CMD_QP_GET, attr_str(A_DEV_NAME, "rxe0"))
assert missing(r, A_QP_NUM, "required attribute is missing"), vars(r)
r = s.request(CMD_QP_GET, attr_str(A_DEV_NAME, "rxe0") + attr_u32(A_QP_NUM, 1 << 24))
assert r.error == errno.ERANGE and r.offs == 20 + 12, vars(r)
r = s.request(CMD_QP_GET, attr(A_QP_STATE, b"\x09"), flags=NLM_F_REQUEST | NLM_F_DUMP)
assert r.error == errno.ERANGE and r.msg, vars(r)
r = s.request(CMD_QP_GET, attr(A_QP_PREV_STATE, b"\x01"), flags=NLM_F_REQUEST | NLM_F_DUMP)
assert r.error == errno.EINVAL, vars(r)
r = s.request(CMD_QP_GET, attr_u32(A_QP_NUM, 1), flags=NLM_F_REQUEST | NLM_F_DUMP)
assert r.error == errno.EINVAL and "takes no QP number" in r.msg, vars(r)
r = s.request(CMD_QP_GET, attr_str(A_DEV_NAME, "rxe0") + attr_u32(A_QP_NUM, 1))
assert r.error == 0 and r.messages, vars(r)
PY
log_test "bad input: unknown device or QPN, out-of-range values, malformed attributes"

# --- the load-time scan losing the race to the create hook --------------------------
# scan_hold (test-only) holds rxe0's scan at load with the hooks in: a
# pair created and connected meanwhile is tracked by the hooks, then found
# by the scan too. The scan's own entries go unrecorded: no destroyed QP
# while the pair lives, exactly its two once it is gone.
# retired_qps: the QPs of rxe0's destroyed group of qptraffic (0: none).
retired_qps() {
	python3 - <<'PY'
import errno, os, struct, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from nlraw import GenlSocket, attr_str, attr_u32, spec
sp = spec()
A = {a: sp.attr(a) for a in ("dev-name", "qp-port", "qp-comm", "qp-retired-qps")}
r = GenlSocket().request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "rxe0") +
                         attr_u32(A["qp-port"], 1) + attr_str(A["qp-comm"], "qptraffic"))
if r.error == errno.ENOENT:
    print(0)
else:
    assert r.error in (0, None) and len(r.messages) == 1, (r.error, r.msg)
    print(struct.unpack("=Q", dict(r.messages[0][1])[A["qp-retired-qps"]])[0])
PY
}
module_unload || fail "unload"
# The pair's process opens rxe0 first: while the scan holds the device's
# client add, a process starting then connected nothing before the scan
# was over; one that has the device open creates and connects QPs.
"$QPT" pair -d rxe0 -g 1 -n 1 -m 10 -T 60 --create-after "$W/go_create" --hold \
	> "$W/pair.json" 2> "$W/pair.err" &
HOLDER=$!
busywait 20000 eval 'ls -l /proc/$HOLDER/fd | grep -q uverbs' || fail "qptraffic did not open rxe0"
insmod "$MODULE" scan_hold=1 &
LOADER=$!
if busywait 20000 eval 'dmesg | grep -q "rxe0: the QP scan waits for scan_hold"'; then
	# Connected while the scan is held: the race made to happen.
	touch "$W/go_create"
	busywait 50000 test -s "$W/pair.json" || fail "qptraffic: $(cat "$W/pair.err")"
	echo 0 > /sys/module/rocectl/parameters/scan_hold
	wait $LOADER || fail "insmod with scan_hold"
	pair="[.[] | select(.pid == $HOLDER and .state == \"RTS\")] | length"
	check_eq "$(rdma -j resource show qp | jq "[.[] | select(.ifname == \"rxe0\")] | $pair")" 2 \
		"rdma: the pair's two QPs in RTS"
	check_eq "$(rc -j qp show dev rxe0 | jq "$pair")" \
		"$(rdma -j resource show qp | jq "[.[] | select(.ifname == \"rxe0\")] | $pair")" \
		"the pair's QPs in RTS: rocectl against rdma"
	# A record would come from an RCU callback: given 5 s to show.
	busywait 5000 eval '[ "$(retired_qps)" != 0 ]'
	check_eq "$(retired_qps)" 0 "no destroyed QP while the pair lives"
	release_hold
	busywait 10000 eval '[ "$(retired_qps)" -ge 2 ]'
	check_eq "$(retired_qps)" 2 "the pair's two QPs destroyed, once each"
else
	fail "the scan did not wait: $(dmesg | tail -n 3)"
	wait $LOADER
fi
log_test "the load-time scan that loses the race to the create hook records no destroyed QP"

kmsg_check
rm -rf "$W"
