#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl check's sysfs checks (ecn, pcie) and its command line, on the
# host, against a fake sysfs tree (ROCECTL_TEST_SYSFS): an mlx5-like RDMA
# port whose netdev has ECN switches and a PCI device, and a second one
# with neither. No kernel module is needed: the ports come from the tree.
# One line per case: "ok - check sysfs: ..." or "not ok - check sysfs:
# ... # WHY"; exit status 0 only if all are ok.
#
#   [ROCECTL=path/to/rocectl] tests/check_sysfs.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=$(realpath "${ROCECTL:-$ROOT/user/rocectl}")
F=$(mktemp -d)
trap 'rm -rf "$F"' EXIT
status=0
# shellcheck source=tests/results.sh
. "$ROOT/tests/results.sh"
plan 19

result() {	# result WHAT OK [WHY]
	if [ "$2" = 0 ]; then
		echo "ok - check sysfs: $1"
	else
		echo "not ok - check sysfs: $1 # ${3:-failed}"
		status=1
	fi
}

# port DEV NETDEV: an ACTIVE RoCE port 1 with one RoCE v2 GID on NETDEV.
port() {
	local p=$F/class/infiniband/$1/ports/1
	mkdir -p "$p/gids" "$p/gid_attrs/types" "$p/gid_attrs/ndevs" "$F/class/net/$2"
	echo "4: ACTIVE" > "$p/state"
	echo "fe80:0000:0000:0000:0200:00ff:fe00:0001" > "$p/gids/0"
	echo "RoCE v2" > "$p/gid_attrs/types/0"
	echo "$2" > "$p/gid_attrs/ndevs/0"
}
port mlx5_0 ckfake0
port rxe9 ckfake1
ECN=$F/class/net/ckfake0/ecn
mkdir -p "$ECN/roce_rp/enable" "$ECN/roce_np/enable"
for p in 0 1 2 3 4 5 6 7; do
	echo 1 > "$ECN/roce_rp/enable/$p"
	echo 1 > "$ECN/roce_np/enable/$p"
done
BDF=0000:3b:00.0
PCI=$F/bus/pci/devices/$BDF
mkdir -p "$PCI/link"
ln -s "../../../bus/pci/devices/$BDF" "$F/class/net/ckfake0/device"
echo 0 > "$PCI/link/l0s_aspm"
echo 0 > "$PCI/link/l1_aspm"
echo "16.0 GT/s PCIe" > "$PCI/current_link_speed"
echo "16.0 GT/s PCIe" > "$PCI/max_link_speed"
echo 16 > "$PCI/current_link_width"
echo 16 > "$PCI/max_link_width"

# run ARGS...: rocectl with the fake tree; output in $out, status in $code.
run() {
	out=$(ROCECTL_TEST_SYSFS=$F timeout 10 "$ROCECTL" "$@" 2> "$F.err")
	code=$?
	err=$(cat "$F.err")
}

# line CHECK [DEV]: the finding of CHECK (of DEV's port 1) in $out.
line() {
	printf '%s\n' "$out" | grep -E "^(PASS|WARN|FAIL|SKIP) $1 ${2:-mlx5_0}/1 "
}

# expect WHAT CHECK RESULT REGEX [DEV]: the finding's result and evidence.
expect() {
	local l
	l=$(line "$2" "${5:-}")
	[[ $l == "$3 $2 "* ]] && printf '%s' "$l" | grep -qE -- "$4"
	result "$1" $? "got: ${l:-no $2 line in: $(printf '%s' "$out" | head -c 300)}"
}

run check prio 3
expect "ecn: PASS with roce_rp and roce_np enabled on the priority" ecn PASS \
	'reaction point .* on for priority 3 \(ecn/roce_rp/enable/3: 1\); ECN notification point .* on for priority 3'
expect "ecn: SKIP on a netdev without ECN sysfs, saying why" ecn SKIP \
	'no ECN sysfs \(.*/class/net/ckfake1/ecn\): not a ConnectX \(mlx5\) netdev' rxe9
expect "pcie: PASS with ASPM off and the link at its full speed and width" pcie PASS \
	"ASPM L0s and L1 off for $BDF.*full 16.0 GT/s PCIe x16"
expect "pcie: SKIP on a netdev without a PCI device" pcie SKIP \
	'ckfake1 is not a PCI device \(no device link: a virtual netdev\)' rxe9

echo 0 > "$ECN/roce_np/enable/3"
run check prio 3 dev mlx5_0
expect "ecn: WARN with the notification point off, and the command that enables it" ecn WARN \
	'notification point .* off on priority 3 \(ecn/roce_np/enable/3: 0\); fix: echo 1 > /sys/class/net/ckfake0/ecn/roce_np/enable/3$'
n=$(printf '%s\n' "$out" | grep -c ' rxe9/1 ')
result "dev DEV: only its ports are checked" "$([ "$n" = 0 ] && echo 0 || echo 1)" "$n lines of rxe9"
echo 1 > "$ECN/roce_np/enable/3"

echo 1 > "$PCI/link/l1_aspm"
echo "8.0 GT/s PCIe" > "$PCI/current_link_speed"
echo 8 > "$PCI/current_link_width"
run check prio 3 dev ckfake0
expect "pcie: WARN for ASPM L1 on and a link trained below its maximum, with fixes" pcie WARN \
	"ASPM L1 is on for $BDF \(link/l1_aspm: 1\).*trained at 8.0 GT/s PCIe x8, below its 16.0 GT/s PCIe x16.*fix: echo 0 > /sys/bus/pci/devices/$BDF/link/l1_aspm"

rm "$PCI/link/l0s_aspm" "$PCI/link/l1_aspm"
run -j check prio 3 dev mlx5_0
j=$(printf '%s' "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert isinstance(j, list) and j, "not a non-empty array"
for o in j:
    for k in ("dev", "port", "netdev", "check", "result", "evidence"):
        assert k in o, "no %s in %s" % (k, o)
    assert o["result"] in ("PASS", "WARN", "FAIL", "SKIP"), o
    assert ("fix" not in o) or o["result"] in ("WARN", "FAIL"), o
p = [o for o in j if o["check"] == "pcie"][0]
assert (p["dev"], p["port"], p["netdev"], p["result"]) == ("mlx5_0", 1, "ckfake0", "WARN"), p
assert "no ASPM controls" in p["evidence"], p
assert [o["check"] for o in j] == ["device", "pfc", "trust", "mtu", "pause", "watchdog", "ecn", "pcie", "ecmp"], j
print("ok")' 2>&1)
result "JSON: an array of {dev, port, netdev, check, result, evidence, fix?}, the checks in order" \
	"$([ "$j" = ok ] && echo 0 || echo 1)" "$(printf '%s' "$j" | tail -n 1)"

run check dev nosuchdev0
[ $code = 2 ] && [ -z "$out" ] && [[ $err == *'no RDMA device or RoCE netdev is called "nosuchdev0"'* ]]
result "unknown dev: exit 2 with a sentence" $? "status $code, stderr: $err"
run check dev mlx5_0 port 2
[ $code = 2 ] && [[ $err == *"mlx5_0 has no port 2."* ]]
result "unknown port: exit 2 with a sentence" $? "status $code, stderr: $err"
bad=0
for args in "prio 8" "prio x" "prio" "dscp 64" "dscp -1" "mtu 67" "mtu 65536" "port 1" \
	"dev" "dev mlx5_0 port 0" "frobnicate"; do
	# shellcheck disable=SC2086 # split on purpose
	run check $args
	if [ $code != 2 ] || [ -n "$out" ] || [[ $err != Error:*. ]]; then
		bad=1
		echo "# rocectl check $args: status $code, stdout '$out', stderr '$err'" >&2
	fi
done
result "bad values (prio 8, dscp 64, mtu 67, port without dev, ...): exit 2, a sentence, no findings" $bad
# rocectl.conf's check lines: the intent per port, the command line first.
C=$F/rocectl.conf
printf '%s\n' '# the intent' 'watchdog set dev ckfake0 prio 3' 'check prio 5' \
	'check dev ckfake0 prio 3	# mlx5_0 by its netdev' > "$C"
echo 0 > "$ECN/roce_np/enable/5"
run check conf "$C"
expect "conf: the line naming the port's netdev gives its priority" ecn PASS 'on for priority 3 '
run check conf "$C" prio 5 dev mlx5_0
expect "conf: the command line wins over the file" ecn WARN 'off on priority 5 '
printf 'check dev mlx5_0 port 1 prio 5\n' >> "$C"
run check conf "$C" dev mlx5_0
expect "conf: a line naming the port wins over one naming its device" ecn WARN 'off on priority 5 '
echo 1 > "$ECN/roce_np/enable/5"
printf 'check dev mlx5_0 mtu 9000\ncheck dev rxe9 prio 8\n' >> "$C"
run check conf "$C"
[ $code = 2 ] && [ -z "$out" ] && [ "$err" = "$C:7: Error: prio takes a priority from 0 to 7, not \"8\"." ]
result "conf: a bad check line: exit 2, FILE:LINE and a sentence, no findings" $? "status $code, stdout '$out', stderr '$err'"
run check conf "$F/nosuch.conf"
[ $code = 2 ] && [ "$err" = "Error: cannot open the policy file $F/nosuch.conf: No such file or directory." ]
result "conf: a conf FILE that does not exist: exit 2" $? "status $code, stderr '$err'"
printf 'check prio 3\n  c dev mlx5_0 dscp 24 # abbreviated\n' > "$F/checks.conf"
run -j apply "$F/checks.conf"
[ $code = 0 ] && [ "$(printf '%s' "$out" | jq -c '[.applied, .failed, .check_lines]')" = "[0,0,2]" ] 2>/dev/null
result "conf: apply leaves check lines to rocectl check, counted (no module needed)" $? "status $code, $out $err"
printf 'check dev mlx5_0\ncheck mtu 9000 mtu\n' >> "$F/checks.conf"
run apply "$F/checks.conf"
[ $code = 2 ] && [ "$err" = "$F/checks.conf:4: Error: mtu takes a netdev MTU in bytes from 68 to 65535, not \"\"." ] &&
	[[ $out == *"0 applied, 1 failed, 3 check lines (rocectl check's intent)" ]]
result "conf: apply reports a bad check line as FILE:LINE" $? "status $code, stderr '$err'"

run check help
[ $code = 0 ] && [[ $out == Usage:* ]]
result "check help" $? "status $code"
exit $status
