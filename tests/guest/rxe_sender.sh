#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the wire path finds each sent packet's QP from the socket
# rdma_rxe sends it on, whatever rdma_rxe keeps there: the QP (most
# kernels) or its pool index (6.10-6.16; the index-form lane loads such a
# build, ROCECTL_RXE_KO). Two soft-RoCE hosts over a veth pair; every
# packet sent is some QP's, none unattributed, and the sums equal rxe's own
# port counters. Messages stay below 64 per QP: the index form's transmit
# destructor loses a veth packet's QP (it looks in the peer's device), and
# its QPs stall after 64 packets in flight.
. "$(dirname "$0")/lib.sh"
plan 3
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
two_rxe_hosts
module_load || fail "load"
echo "# rdma_rxe: ${ROCECTL_RXE_KO:-as the kernel has it}"

port() {	# port DEV FIELD
	rdma -j statistic show link "$1/1" | jq ".[0].$2"
}
unattributed() {	# unattributed DEV FIELD
	rc -j dev stats "$1" | jq ".[] | select(.scope == \"unattributed\") | .counters.$2"
}

s0=$(port rxe0 sent_pkts); r0=$(port rxe1 rcvd_pkts)
u0=$(unattributed rxe0 tx_packets); v0=$(unattributed rxe1 tx_packets)
timeout -k 5 60 "$QPT" pair -d rxe0 -D rxe1 -n 2 -m 20 -s 64 --hold > "$W/pair.json" 2> "$W/pair.err" &
holder=$!
busywait 30000 test -s "$W/pair.json" || fail "qptraffic: $(cat "$W/pair.err")"
rc -j qp stats > "$W/st.json" || fail "qp stats"
s1=$(port rxe0 sent_pkts); r1=$(port rxe1 rcvd_pkts)
u1=$(unattributed rxe0 tx_packets); v1=$(unattributed rxe1 tx_packets)
kill "$holder" 2>/dev/null; wait "$holder"
python3 - "$W/pair.json" "$W/st.json" <<'PY' > "$W/check.txt" || fail "$(cat "$W/check.txt")"
import json, sys
pair = json.load(open(sys.argv[1]))
qps = {(q["ifname"], q["lqpn"]): q.get("counters", {}) for q in json.load(open(sys.argv[2]))}
bad = []
for p in pair["pairs"]:
    a, b = qps[("rxe0", p["a_qpn"])], qps[("rxe1", p["b_qpn"])]
    # A resend (rxe's timer on a slow round trip) is counted too: say so.
    retrans = a.get("tx_retrans")
    for what, got in (("requester tx_packets", a.get("tx_packets")),
                      ("responder rx_packets", b.get("rx_packets"))):
        if got != 20:
            bad.append(f"QP {p['a_qpn']}->{p['b_qpn']} {what}: {got}, expected 20, tx_retrans {retrans}")
    if b.get("tx_packets") != a.get("rx_packets") or not b.get("tx_packets"):
        bad.append(f"ACKs: sent {b.get('tx_packets')}, received {a.get('rx_packets')}")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
log_test "wire: 2 pairs of 20 messages over veth, each QP's packets exact"

check_eq "$((u1 - u0)) $((v1 - v0))" "0 0" "sent packets no QP took (rxe0, rxe1)"
sum=$(jq '[.[] | select(.ifname == "rxe0") | .counters.tx_packets // 0] | add' "$W/st.json")
check_eq "$sum" "$((s1 - s0))" "rxe0's QPs' tx_packets against rxe's sent_pkts"
sum=$(jq '[.[] | select(.ifname == "rxe1") | .counters.rx_packets // 0] | add' "$W/st.json")
check_eq "$sum" "$((r1 - r0))" "rxe1's QPs' rx_packets against rxe's rcvd_pkts"
log_test "wire: every packet sent found its QP (none unattributed); sums equal rxe's port counters"

kmsg_check
rm -rf "$W"
