#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: each QP's UDP source port from the hardware's own QP context --
# mlx5's raw resource dump (RDMA_NLDEV_CMD_RES_QP_GET_RAW), here the
# simulated RDMA device's (tests/simrdma, loaded with driver_mlx5=1: its
# devices take mlx5's driver id, which is how rocectl tells that a raw
# context has mlx5's layout). Through the real RDMA core and its netlink:
#   - before any change, each RC QP's port is the hardware's, equal to the
#     kernel's rule's (computed here from the two QPNs) and to what
#     "rdma res show qp -r" (iproute2) dumps, parsed here from the layout;
#   - after a port is changed behind the kernel's back (simrdma's knob, as
#     mlx5dv_modify_qp_udp_sport or DevX would), qp show gives the
#     hardware's, keeps the rule's beside it and says so; rdma(8) agrees;
#   - without CAP_NET_ADMIN (the raw dump's price) the rule's port, silently,
#     the JSON's source saying why;
#   - check's ecmp weighs the hardware's ports;
#   - the kernel log clean.
. "$(dirname "$0")/lib.sh"
plan 6
W=$(mktemp -d)
D=$SRD/srd0

# rule_port LQPN RQPN: the kernel's rule (rdma_get_udp_sport with no flow
# label): the two QPNs' product folded to 20 bits, then 14.
rule_port() {
	local v=$(($1 * $2))
	v=$((v ^ (v >> 20)))
	v=$(((v ^ (v >> 40)) & 0xfffff))
	echo $((0xc000 | ((v & 0x3fff) ^ ((v & 0xfc000) >> 14))))
}

# "QPN SPORT" of every QP whose raw context rdma(8) dumps, read from its
# bytes as mlx5_ifc.h lays them out: segments of a header dword (length in
# dwords, type), the resource segment (type <= 0xfeff) holding index1 (the
# QPN) at byte 8 and the QUERY_QP output from byte 16, in which
# qpc.primary_address_path.udp_sport is at byte 24 + 24 + 34. A QP the
# dump lists twice (iproute2 6.1's JSON repeats them) is said once, unless
# its two contexts differ.
rdma_raw_sports() {
	rdma -j res show qp link srd0 -r > "$W/raw.json" 2> "$W/raw.err" || return 1
	python3 - "$W/raw.json" <<'PY'
import json, struct, sys
seen = set()
for e in json.load(open(sys.argv[1])):
    b = bytes(e["data"])
    off = 0
    while off + 4 <= len(b):
        length, typ = struct.unpack_from(">HH", b, off)
        if typ <= 0xfeff:
            qpn, = struct.unpack_from(">I", b, off + 8)
            sport, = struct.unpack_from(">H", b, off + 16 + 24 + 24 + 34)
            seen.add((qpn, sport))
            break
        off += 4 * length
for qpn, sport in sorted(seen):
    print(qpn, sport)
PY
}
# "QPN SPORT SOURCE RULE HW" of srd0's RC QPs as rocectl shows them.
rc_sports() {
	"$@" -j qp show dev srd0 | jq -r '.[] | select(.type == "RC") |
		"\(.lqpn) \(.sport) \(.sport_source) \(.sport_rule) \(.sport_hw)"' | sort -n
}

kmsg_mark
veth_pair 1 2
{ modprobe ib_core && insmod "$ROOT/tests/simrdma/simrdma.ko" driver_mlx5=1 &&
	echo "srd0 veth1" > "$SRD/new_device"; } || fail "simrdma srd0 (driver_mlx5=1)"
module_load || fail "load"
echo "create 4" > "$D/qps" && echo "modify all rts" > "$D/qps" || fail "4 QPs to RTS"
qpns=$(rdma -j res show qp link srd0 | jq -r '.[] | select(.type == "RC") | .lqpn' | sort -n)
check_eq "$(echo "$qpns" | wc -l)" 4 "RC QPs rdma(8) lists"
check_eq "$(rc -j -d dev show srd0 | jq -r '.. | objects | select(.ifname? == "srd0") | .backend')" mlx5 \
	"srd0's driver as the module reports it"

# --- before: hardware = rule = rdma(8)'s dump ----------------------------------------
want=
for q in $qpns; do
	p=$(rule_port "$q" "$q")
	want+="$q $p hardware $p $p"$'\n'
done
check_eq "$(rc_sports rc)" "${want%$'\n'}" "each RC QP: port, source, rule's, hardware's"
q1=$(echo "$qpns" | head -n 1)
p1=$(rule_port "$q1" "$q1")
check_match "$(rc qp show dev srd0 lqpn "$q1")" "lqpn $q1 .* sport $p1 \(hardware\) " "qp show's text"
log_test "before a change: each RC QP's port is the hardware context's, the kernel's rule's"

raw=$(rdma_raw_sports) || fail "rdma res show qp -r: $(cat "$W/raw.err")"
check_eq "$(echo "$raw" | sort -n | grep -Ew "^($(echo "$qpns" | paste -sd'|'))")" \
	"$(rc_sports rc | awk '{print $1, $5}')" "rdma res show qp -r's ports against rocectl's"
log_test "rdma res show qp -r (iproute2): the raw contexts' ports, parsed from the layout, are rocectl's"

# --- after a change behind the kernel's back ----------------------------------------------
q2=$(echo "$qpns" | sed -n 2p)
p2=$(rule_port "$q2" "$q2")
echo "sport $q2 50000" > "$D/qps" || fail "sport knob"
check_eq "$(rc_sports rc | grep "^$q2 ")" "$q2 50000 hardware $p2 50000" "the changed QP"
check_eq "$(rc_sports rc | grep -v "^$q2 ")" "$(printf '%s' "$want" | grep -v "^$q2 ")" "the others"
check_match "$(rc qp show dev srd0 lqpn "$q2")" \
	"lqpn $q2 .* sport 50000 \(hardware; rule $p2: changed behind the kernel" "qp show's text"
check_eq "$(rdma_raw_sports | grep "^$q2 ")" "$q2 50000" "rdma res show qp -r"
log_test "a port changed behind the kernel's back: qp show gives the hardware's, the rule's beside it, as rdma(8) dumps it"

# --- without CAP_NET_ADMIN ---------------------------------------------------------------
mkdir -m 755 "$W/nb" && chmod 755 "$W" && install -m 755 "$ROCECTL" "$W/nb/rocectl"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }
out=$(rc_sports nobody timeout "$T" "$W/nb/rocectl" 2> "$W/nb.err")
check_eq "$(echo "$out" | grep "^$q2 ")" "$q2 $p2 rule-no-cap-net-admin $p2 null" "the changed QP, unprivileged"
check_eq "$(echo "$out" | wc -l)" 4 "RC QPs, unprivileged"
check_eq "$(cat "$W/nb.err")" "" "nothing on stderr"
log_test "without CAP_NET_ADMIN: the rule's port, silently, its source saying why"

# --- check's ecmp weighs the hardware's ports ------------------------------------------
q3=$(echo "$qpns" | sed -n 3p)
echo "sport $q3 50000" > "$D/qps" || fail "sport knob"
out=$(rc check dev srd0 2>&1)
check_match "$(printf '%s\n' "$out" | grep -E '^(PASS|WARN|FAIL|SKIP) ecmp ')" \
	"^WARN ecmp srd0/1 .*4 QPs .* over 3 source ports \(port 50000 carries 2 of them\)" "ecmp's line"
log_test "check ecmp: two QPs the hardware puts on one port share it"

kmsg_check
