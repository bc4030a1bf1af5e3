#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: CE marks on a real wire reach exactly the receiving QP; thousands
# of QPs; create/destroy churn under dumps; unloading rocectl under traffic;
# devices and rdma_rxe going away under rocectl.
. "$(dirname "$0")/lib.sh"
plan 9
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
TR=/sys/kernel/tracing

kmsg_mark
two_rxe_hosts
module_load || fail "load"

# --- CE on the wire --------------------------------------------------------------
tc qdisc add dev veth1 clsact
tc filter add dev veth1 egress protocol ip u32 match ip protocol 17 0xff \
	match ip dport 4791 0xffff action pedit munge ip tos set 0x3 pipe action csum ip
echo > $TR/trace
echo 1 > $TR/events/rocectl/qp_congestion/enable
t0=$(date +%s%3N)
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 1 -m 200 -s 1024 --hold > "$W/wire.json" 2> "$W/wire.err" &
wire=$!
"$QPT" pair -d rxe0 -g 1 -n 1 -m 200 -s 1024 --hold > "$W/loop.json" 2> "$W/loop.err" &
loop=$!
busywait 60000 eval 'test -s "$W/wire.json" && test -s "$W/loop.json"' || fail "traffic: $(cat "$W/wire.err" "$W/loop.err")"
t1=$(date +%s%3N)
echo 0 > $TR/events/rocectl/qp_congestion/enable
rc -j qp stats > "$W/st.json"
grep qp_congestion $TR/trace > "$W/cong.txt"
kill $wire $loop; wait $wire $loop
tc qdisc del dev veth1 clsact
python3 - "$W/wire.json" "$W/loop.json" "$W/st.json" "$W/cong.txt" $((t1 - t0)) <<'PY' > "$W/ce.txt" || fail "$(cat "$W/ce.txt")"
import json, re, sys
wire, loop = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
qps = {(q["ifname"], q["lqpn"]): q["counters"] for q in json.load(open(sys.argv[3])) if "counters" in q}
a = qps[("rxe0", wire["pairs"][0]["a_qpn"])]
b = qps[("rxe1", wire["pairs"][0]["b_qpn"])]
bad = []
if not (b["rx_ecn_ce"] == b["rx_packets"] == 200):
    bad.append(f"receiving QP: rx_ecn_ce {b['rx_ecn_ce']} of {b['rx_packets']}, expected 200 of 200")
others = {k: v["rx_ecn_ce"] for k, v in qps.items() if v is not b and v["rx_ecn_ce"]}
if others:
    bad.append(f"other QPs counted CE: {others}")
ev = [dict(kv.split("=") for kv in re.findall(r"\w+=\S+", l)) for l in open(sys.argv[4])]
mine = [e for e in ev if e["dev"] == "rxe1" and int(e["qpn"]) == wire["pairs"][0]["b_qpn"]]
# Each event carries the QP's totals then: rising, at most what it counted.
ce = [int(e["ce"]) for e in mine]
if not ce or ce[0] == 0 or ce != sorted(ce) or ce[-1] > b["rx_ecn_ce"]:
    bad.append(f"qp_congestion events of the receiving QP: {mine[:3]}")
if len(ev) != len(mine):
    bad.append(f"qp_congestion events for other QPs: {[e for e in ev if e not in mine][:3]}")
limit = int(sys.argv[5]) / 100 + 2  # one per 100 ms at most
if len(mine) > limit:
    bad.append(f"{len(mine)} qp_congestion events in {sys.argv[5]} ms")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
log_test "CE marked on the wire: only the receiving QP counts it (200 of 200); qp_congestion rate-limited"

# --- thousands of QPs --------------------------------------------------------------
base=$(rc -j qp show | jq length)
"$QPT" many -d rxe0 -n 2000 --state init --hold > "$W/many.json" 2> "$W/many.err" &
many=$!
busywait 120000 test -s "$W/many.json" || fail "many: $(cat "$W/many.err")"
rc -j qp show > "$W/all.json" || fail "dump"
rdma -j resource show qp > "$W/rdma.json"
check_eq "$(jq length "$W/all.json")" $((base + 2000)) "QPs in the dump"
check_eq "$(jq -c '[.[] | [.ifname, .lqpn]] | unique | length' "$W/all.json")" $((base + 2000)) "unique (dev, qpn)"
check_eq "$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/all.json")" \
	"$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/rdma.json")" "same QPs as rdma resource show"
check_eq "$(jq -c "[.qpns[]] | sort" "$W/many.json")" \
	"$(jq -c "[.[] | select(.pid == $many) | .lqpn] | sort" "$W/all.json")" "every QP of the holder"
kill $many; wait $many
check_eq "$(rc -j qp show | jq length)" "$base" "back to baseline"
log_test "2000 QPs: dump complete (multi-part), unique, same as rdma resource show"

# --- churn under dumps ---------------------------------------------------------------
# CHURN_SECONDS: make check's 10, make check-full's 30 (the default).
CHURN=${CHURN_SECONDS:-30}
"$QPT" churn -d rxe0 -t "$CHURN" -b 8 > "$W/churn.json" 2> "$W/churn.err" &
churn=$!
dumps=0
while kill -0 $churn 2>/dev/null; do
	rc -j qp show > "$W/d.json" 2> "$W/d.err" || { fail "dump failed: $(cat "$W/d.err")"; break; }
	jq -e 'type == "array"' "$W/d.json" > /dev/null || { fail "dump not a JSON array"; break; }
	dumps=$((dumps + 1))
done
wait $churn || fail "churn: $(cat "$W/churn.err")"
check_eq "$(jq '.created == .destroyed and .created > 0' "$W/churn.json")" true "churn balance $(cat "$W/churn.json")"
[ $dumps -ge 10 ] || fail "only $dumps dumps"
busywait 5000 eval '[ "$(rc -j qp show | jq length)" = "$base" ]' || fail "tracked QPs not back to baseline: $(rc -j qp show | jq length) vs $base"
echo "# churn: $(cat "$W/churn.json"), $dumps dumps"
log_test "$CHURN s of create/destroy churn under parallel dumps: counts return to baseline"

# --- unload and reload rocectl under traffic ----------------------------------------
rxe_errors > "$W/rxe-before.json"
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 2 -m 3000 -s 4096 -T 120 > "$W/bg.json" 2> "$W/bg.err" &
bg=$!
sleep 1
module_unload || fail "unload under traffic"
module_load || fail "reload under traffic"
wait $bg
st=$?
check_eq "$(rc -j qp show type RC | jq length)" 0 "no RC QP left"
# Last, so that a waived traffic failure (debug lane) hides no other one.
[ $st = 0 ] || fail "traffic failed: $(cat "$W/bg.err"); rxe counted: $(rxe_errors_since "$W/rxe-before.json")"
log_test "rocectl unloaded and reloaded under traffic: traffic completes, no entry left"

# --- unload under events, five times ----------------------------------------------------
# QPs churn while a listener takes every event: the family goes while the
# hooks still multicast. Each monitor must end with "module unloaded" (3),
# having printed only whole events; the kernel log is checked at the end.
# The churn lasts until it is killed after the last cycle, however slow the
# cycles (UNLOAD_CYCLES: the debug lane runs fewer, each taking a minute).
cycles=${UNLOAD_CYCLES:-5}
"$QPT" churn -d rxe0 -t 3600 -b 4 > "$W/echurn.json" 2> "$W/echurn.err" &
echurn=$!
for i in $(seq "$cycles"); do
	"$ROCECTL" -j monitor > "$W/emon.json" 2> "$W/emon.err" &
	emon=$!
	# The lane's time scale: the debug kernel takes seconds to start a listener under churn.
	busywait $((T * 1000)) test -s "$W/emon.json" || fail "cycle $i: no event before the unload"
	module_unload || fail "cycle $i: unload under events"
	timeout "$T" tail --pid=$emon -f /dev/null || kill $emon
	wait $emon; code=$?
	check_eq "$code" 3 "cycle $i: monitor's exit at the unload: $(cat "$W/emon.err")"
	jq -e -s 'length > 0 and all(.[]; .object == "qp" and has("event"))' "$W/emon.json" > /dev/null ||
		fail "cycle $i: events: $(tail -c 300 "$W/emon.json")"
	module_load || fail "cycle $i: reload"
done
kill $echurn 2>/dev/null; wait $echurn
rc -j qp show > /dev/null || fail "the module answers after the reloads"
log_test "unloaded $cycles times under QP churn with a listener: each monitor ends at the unload, whole events only"

# --- more QPs to RTR at once than the counters' pool holds --------------------------------
"$QPT" pair -d rxe0 -g 1 -n 48 -m 5 -s 100 --hold > "$W/burst.json" 2> "$W/burst.err" &
burst=$!
busywait 60000 test -s "$W/burst.json" || fail "burst: $(cat "$W/burst.err")"
rc -j qp stats dev rxe0 type RC > "$W/burst-st.json" || fail "qp stats"
kill $burst; wait $burst
python3 - "$W/burst.json" "$W/burst-st.json" <<'PY' > "$W/burst.txt" || fail "$(cat "$W/burst.txt")"
import json, sys
pairs = json.load(open(sys.argv[1]))["pairs"]
qps = {q["lqpn"]: q["counters"] for q in json.load(open(sys.argv[2]))}
bad = [] if len(pairs) == 48 else [(False, f"{len(pairs)} pairs")]
for p in pairs:
    a, b = qps[p["a_qpn"]], qps[p["b_qpn"]]
    got = (a["tx_packets"], a["tx_bytes"], b["rx_packets"], b["rx_bytes"])
    if got != (5, 500, 5, 500) or b["tx_packets"] != a["rx_packets"] or not a["rx_packets"]:
        bad.append((a["tx_retrans"] > 0, f"pair {p}: {got}, ACKs {b['tx_packets']}/{a['rx_packets']}, "
                    f"tx_retrans {a['tx_retrans']}, rx_dup {b['rx_dup']}"))
# Failures without a resend first: those are never a slow round trip.
bad.sort(key=lambda item: item[0])
print("; ".join(why for _, why in bad[:3]))
sys.exit(1 if bad else 0)
PY
log_test "96 QPs to RTS at once (more than the counters' pool): each counts its packets exactly"

# --- a device deleted with live QPs ----------------------------------------------------
hold_pair() { "$QPT" pair "$@" --hold > "$W/h.json" 2> "$W/h.err" & HOLDER=$!; busywait 20000 test -s "$W/h.json"; }
hold_pair -d rxe1 -g 1 -n 2 -m 10 -s 64 || fail "hold on rxe1"
check_eq "$(rc -j qp show dev rxe1 type RC | jq length)" 4 "QPs on rxe1"
timeout 60 rdma link del rxe1 &
del=$!
# rxe cannot detach user contexts: the delete waits for the holder to go.
busywait 10000 eval '! rc dev show rxe1 >/dev/null 2>&1' || fail "rxe1 still listed while being deleted"
kill $HOLDER; wait $HOLDER
wait $del || fail "rdma link del"
check_eq "$(rc -j qp show | jq -c '[.[] | select(.ifname == "rxe1")] | length')" 0 "rxe1 QPs left"
log_test "rdma link del with live QPs: device and its QPs dropped"

# --- rdma_rxe unloaded under rocectl, and back ----------------------------------------
rxe_del rxe0
rmmod rdma_rxe || fail "rmmod rdma_rxe"
check_eq "$(rc -j qp show | jq length)" 0 "QPs after rdma_rxe left"
rxe_add rxe0 veth1 || fail "rxe back"
"$QPT" pair -d rxe0 -g 1 -n 1 -m 10 -s 100 --hold > "$W/h2.json" 2>&1 &
h2=$!
busywait 20000 test -s "$W/h2.json"
check_eq "$(rc_sent_once "$W/sent.json")" "[0,1000]" "counters after rdma_rxe came back: $(rc_sent_raw "$W/sent.json")"
kill $h2; wait $h2
log_test "rdma_rxe unloaded and reloaded under rocectl: packet hooks follow it"

module_unload
kmsg_check
rm -rf "$W"
