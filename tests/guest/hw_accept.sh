#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the hardware acceptance kit (tests/hw/accept.sh, make
# check-hw) run against the stand-ins: soft-RoCE (rxe0, perftest's
# loopback) over the simulated DCB NIC (simA: PFC on priority 3, pause
# frames from its knobs) and the simulated RDMA device (srd0 over simB,
# with mlx5's driver id: hardware counters, raw QP contexts in mlx5's
# layout). Asserts:
#   - every check with a stand-in PASSes with moved=yes, the mlx5 checks
#     SKIP saying why, exit 0, and a module it loaded unloaded after;
#   - for each check, one side made to lie (a rdma, ethtool, dcb, ip or
#     dmesg that changes one value while that check runs) makes exactly
#     that check FAIL, exit 1;
#   - the refusals: other users' QPs without --force (exit 2, nothing
#     loaded); with --force their owners redacted in the report, their
#     QPs untouched;
#   - no change without --allow-changes: PFC, ETS and the APP table
#     (trust, DSCP) as dcb(8) reads them identical before and after;
#   - a loaded rocectl used as it is: still loaded, a watch and a counter
#     binding of someone else's untouched;
#   - the report (text, JSON) redacted: no address or GID, unless
#     --no-redact.
. "$(dirname "$0")/lib.sh"
plan 11
W=$(mktemp -d)
KIT=$ROOT/tests/hw/accept.sh

kmsg_mark
simnic_pair simA simB || fail "simnic pair"
ip addr add 192.0.2.1/24 dev simA && ip addr add 192.0.2.2/24 dev simB || fail "addresses"
timeout "$T" dcb pfc set dev simA prio-pfc 3:on || fail "PFC on simA"
rxe_add rxe0 simA || fail "rxe0"
# srd0 with mlx5's driver id: its raw QP contexts in mlx5's layout.
{ modprobe ib_core && insmod "$ROOT/tests/simrdma/simrdma.ko" driver_mlx5=1 &&
	echo "srd0 simB" > "$SRD/new_device"; } || fail "simrdma srd0 (driver_mlx5=1)"
busywait 10000 eval '[ "$(rdma -j link show rxe0/1 | jq -r ".[0].state")" = ACTIVE ]' || fail "rxe0 active"

# kit [ARGS...]: the kit, its report in $W/r (fresh), its output in
# $W/out, its exit status in $W/code.
kit() {
	rm -rf "$W/r"
	timeout 600 "$KIT" --report "$W/r" --seconds 15 "$@" > "$W/out" 2> "$W/err"
	echo $? > "$W/code"
}
# The result lines as "RESULT NAME MOVED".
lines() { sed -nE 's/^(PASS|FAIL|SKIP) ([^:]+): .* moved=(yes|no).*/\1 \2 \3/p' "${1:-$W/out}"; }
# The lines (of lines) of checks no lie is aimed at, on one line.
# (--allow-changes's lines are checked apart.)
others() { awk -v want="$W/want" 'BEGIN {while ((getline l < want) > 0) w[l]} !($2 in w) && $2 !~ /^pfc_change\//' | paste -sd' '; }
dcb_state() {
	local c
	for c in pfc ets app; do timeout "$T" dcb -j "$c" show dev simA; done
}

# --- the kit against the stand-ins ---------------------------------------------------
STANDIN="devices/rxe0 devices/srd0 link/rxe0/1 link/srd0/1 pfc/simA qps/rxe0 qps/srd0 sport_qpc/srd0 hw_counters/srd0 watchdog/simA pause/simA/3 check/rxe0 check/srd0 kmsg"
dcb_state > "$W/dcb0"
kit
cat "$W/out" "$W/err"
grep -q '^PASS qps/rxe0' "$W/out" || cat "$W/r/perftest-rxe0.txt"
cp "$W/out" "$W/base"
check_eq "$(cat "$W/code")" 0 "exit status"
for c in $STANDIN; do
	check_match "$(lines)" "^PASS $c yes$" "$c"
done
# The rest SKIP: what has no stand-in or does not apply (simB has no PFC,
# soft-RoCE no hardware counters).
check_eq "$(lines | grep -v '^PASS .* yes$' | awk '{print $1, $2}' | paste -sd' ')" \
	"SKIP pfc/simB SKIP sport_qpc/rxe0 SKIP hw_counters/rxe0 SKIP watchdog/simB SKIP pause/simB SKIP pfc_change/simA SKIP pfc_change/simB SKIP mlx5/devx SKIP mlx5/dcqcn SKIP mlx5/ce_cnp" \
	"lines other than PASS moved=yes"
log_test "every check with a stand-in PASSes with moved=yes, exit 0"

check_eq "$(grep -c '^SKIP mlx5/' "$W/out")" 3 "mlx5 SKIPs"
check_eq "$(grep '^SKIP mlx5/' "$W/out" | grep -vc '# no mlx5 (ConnectX) device here$')" 0 "each SKIP says why"
check_eq "$(jq -r '.exit_status' "$W/r/report.json")" 0 "the report's exit status"
check_eq "$(jq '.lines | length' "$W/r/report.json")" "$(grep -cE '^(PASS|FAIL|SKIP) ' "$W/out")" "the report's lines"
log_test "mlx5's checks SKIP with why; the report holds every line"

check_eq "$(grep -c '^rocectl ' /proc/modules)" 0 "rocectl unloaded (the kit loaded it)"
check_eq "$(dcb_state)" "$(cat "$W/dcb0")" "dcb pfc, ets, app before and after"
check_eq "$(rdma -j statistic qp show | jq '[.[] | .lqpn[]?] | length')" 0 "counter bindings left"
check_eq "$(awk '$1 != 1' "$SRD/srd0/qps" | wc -l)" 0 "simrdma QPs left"
log_test "no change without --allow-changes (dcb pfc, ets, app identical); what it loaded and made is gone"

# --- the report's redaction ---------------------------------------------------------
check_eq "$(grep -cE '192\.0\.2\.|ffff:c000' "$W/r/report.txt" "$W/r/report.json" | awk -F: '{s += $2} END {print s}')" 0 "addresses or GIDs in the redacted report"
check_match "$(cat "$W/r/report.txt")" '\[ipv4\]' "redaction marks"
jq -e . "$W/r/report.json" > /dev/null || fail "report.json is not JSON"
log_test "report: addresses and GIDs redacted (kept with --no-redact: below)"

# --- one side lying: a stand-in of a reference tool first in PATH that changes one value
# while one check runs (HW_CHECK). Each lie is scoped to one check, so the lies of one run
# cannot reach each other's checks: a run with several makes exactly their lines FAIL. The
# two lies of one check family (devices: rdma and ethtool; dcb in pfc and watchdog) are
# in different runs.
mkdir "$W/shim"
for t in rdma ethtool dcb ip dmesg; do
	real=$(command -v "$t")
	cat > "$W/shim/$t" <<SHIM
#!/bin/bash
# A lying $t: each line of LIES (fields separated by 0x1f) reads CHECK, TOOL,
# ARGS, FROM, jq|sed, EXPRESSION: while HW_CHECK is CHECK, on those arguments,
# from that call on, its output through the expression.
out=\$("$real" "\$@"); code=\$?
i=0
while IFS=\$'\x1f' read -r check tool args from kind expr; do
	i=\$((i + 1))
	[ "\$tool" = $t ] && [ "\${HW_CHECK:-}" = "\$check" ] && [ "\$*" = "\$args" ] || continue
	n=\$(( \$(cat "$W/shim/lie\$i.n" 2>/dev/null || echo 0) + 1 ))
	echo \$n > "$W/shim/lie\$i.n"
	[ \$n -ge "\$from" ] || continue
	if [ "\$kind" = jq ]; then out=\$(jq -c "\$expr" <<< "\$out"); else out=\$(sed -E "\$expr" <<< "\$out"); fi
done < "\${LIES:-/dev/null}"
printf '%s\n' "\$out"
exit \$code
SHIM
	chmod +x "$W/shim/$t"
done
# lie LINE CHECK TOOL ARGS FROM jq|sed EXPRESSION: one lie for the next run,
# which LINE it must make FAIL.
: > "$W/lies"
: > "$W/want"
lie() {
	printf '%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\n' "$2" "$3" "$4" "$5" "$6" "$7" >> "$W/lies"
	echo "$1" >> "$W/want"
}
# lied [KIT ARGS]: the kit with the lies: exit 1, exactly their lines FAIL,
# every other line as in the first run.
lied() {
	local want
	want=$(sort "$W/want" | paste -sd' ')
	rm -f "$W/shim/"*.n
	PATH=$W/shim:$PATH LIES=$W/lies kit "$@"
	cat "$W/out"
	check_eq "$(cat "$W/code")" 1 "exit status with the lies"
	check_eq "$(lines | awk '$1 == "FAIL" {print $2}' | sort | paste -sd' ')" "$want" "the failing lines"
	check_eq "$(lines | others)" "$(lines "$W/base" | others)" "the other lines"
	: > "$W/lies"
	: > "$W/want"
}
lie devices/rxe0 devices rdma "-j link show" 1 jq 'map(if .ifname == "rxe0" then .state = "DOWN" else . end)'
lie qps/srd0 qps rdma "-j res show qp link srd0" 1 jq '(map(select(.type == "RC") | .lqpn) | max) as $m | map(select(.lqpn != $m))'
lie hw_counters/srd0 hw_counters rdma "-j statistic qp show link srd0/1" 1 jq 'map(.out_of_sequence += 1)'
# Byte 135 of srd0's dump: the low byte of the QP context's udp_sport (an info
# segment of 16 bytes, a command segment of 20, then the resource segment's
# 16 and query_qp_out's 82: mlx5_ifc.h).
lie sport_qpc/srd0 sport rdma "-j res show qp link srd0 -r" 1 jq 'map(if .data then .data[135] = ((.data[135] + 1) % 256) else . end)'
lie pfc/simA pfc dcb "-j pfc show dev simA" 1 jq '.prio_pfc[4] = true'
lie pause/simA/3 pause ethtool "-S simA" 3 sed 's/(rx_prio3_pause: )([0-9]+)/echo "\1$((\2 + 1000))"/e'
lie check/rxe0 check ip "-j link show dev simA" 1 jq 'map(.mtu += 1)'
lie kmsg kmsg dmesg "" 1 sed '$a [ 9.999] WARNING: CPU: 0 PID: 1 at rocectl (a lie)'
lied
log_test "one side lying (rdma: a port DOWN, a QP hidden, a counter off by one, a source port changed; dcb: PFC on priority 4 too; ethtool: 1000 more pause frames after the storm; ip: another MTU; dmesg: a warning): exactly those checks FAIL"

lie link/rxe0/1 devices ethtool "simA" 1 sed 's/Link detected: yes/Link detected: no/'
lie watchdog/simA watchdog dcb "-j pfc show dev simA" 3 jq '.prio_pfc[5] = true'
dcb_state > "$W/dcb1"
lied --no-redact --allow-changes
check_match "$(cat "$W/r/report.txt")" '192\.0\.2\.1' "the address with --no-redact"
log_test "one side lying (ethtool: simA without link; dcb: PFC changed during the watch): exactly those checks FAIL; --no-redact keeps the addresses"
check_eq "$(lines | awk '$2 ~ /^pfc_change\//' | paste -sd' ')" "PASS pfc_change/simA yes PASS pfc_change/simB yes" "--allow-changes's lines"
check_match "$(grep '^PASS pfc_change/simA' "$W/out")" "rocectl=3,7 reference=3,7 .*PFC on priority 7 too" "simA's change as rocectl and dcb saw it"
check_eq "$(dcb_state)" "$(cat "$W/dcb1")" "dcb pfc, ets, app before and after"
log_test "--allow-changes: PFC on one more priority of each DCB netdev, seen by rocectl as dcb(8) shows it, set back (dcb pfc, ets, app as before)"

# --- safety ------------------------------------------------------------------------------
idx=$(gid_index rxe0 192.0.2.1)
timeout 900 ibv_rc_pingpong -d rxe0 -g "$idx" -p 18999 > /dev/null 2>&1 &
other=$!
busywait 10000 eval '[ "$(rdma -j res show qp link rxe0 | jq "[.[] | select(.type == \"RC\")] | length")" = 1 ]' ||
	fail "the other user's QP"
kit
check_eq "$(cat "$W/code")" 2 "exit status beside another user's QP"
check_match "$(cat "$W/err")" 'QP\(s\) of other users on .*--force' "its message"
check_eq "$(grep -c '^rocectl ' /proc/modules)" 0 "nothing loaded"
check_eq "$(grep -cE '^(PASS|FAIL|SKIP) ' "$W/out")" 0 "no check ran"
log_test "refused (exit 2) with another user's QP on the device, nothing loaded"

# Beside that QP, with rocectl loaded already: someone's watch, QP and
# counter binding on srd0.
module_load || fail "load rocectl"
rc watchdog set dev simA prio 3 action alert > /dev/null || fail "someone's watch"
echo "create 1" > "$SRD/srd0/qps" && q=$(awk '$1 != 1 {print $1}' "$SRD/srd0/qps" | head -n 1) &&
	echo "modify $q rts" > "$SRD/srd0/qps" || fail "someone's QP"
rc qp counters bind dev srd0 qpn "$q" > /dev/null || fail "someone's binding"
rc -j watchdog show > "$W/wd0"; rdma -j statistic qp show > "$W/bound0"
rdma -j res show qp > "$W/qps0"
kit --force
cat "$W/out"
check_match "$(grep '^PASS qps/rxe0' "$W/out")" 'moved=yes' "qps/rxe0 with --force"
check_match "$(grep '^PASS qps/srd0' "$W/out")" 'moved=yes' "qps/srd0 with --force"
check_eq "$(jq -r '.host.other_users_qps, .host.other_users_qp_owners' "$W/r/report.json" | paste -sd' ')" "2 [redacted]" "the other users in the report"
check_eq "$(grep -c ibv_rc_pingpong "$W/r/report.txt")" 0 "the other user's owner in the report"
check_eq "$(rdma -j res show qp)" "$(cat "$W/qps0")" "the other users' QPs untouched"
log_test "--force: run beside other users' QPs, their owners redacted, their QPs untouched"
check_match "$(cat "$W/out")" "SKIP watchdog/simA: .* # simA has a watch already: left as it is" "the watchdog check beside a watch"
check_eq "$(grep -c '^rocectl ' /proc/modules)" 1 "rocectl still loaded"
check_eq "$(rc -j watchdog show)" "$(cat "$W/wd0")" "the watch as it was"
check_eq "$(rdma -j statistic qp show)" "$(cat "$W/bound0")" "the binding as it was"
check_eq "$(cat "$W/code")" 3 "exit status (incomplete: the watched checks skipped)"
log_test "an already loaded rocectl used as it is: its watch and binding untouched, still loaded"
kill "$other" 2>/dev/null
wait "$other" 2>/dev/null
rc watchdog del dev simA > /dev/null
echo "destroy all" > "$SRD/srd0/qps"
module_unload

kmsg_check
rm -rf "$W"
