#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the hardware acceptance kit (tests/hw/accept.sh, make
# check-hw) run against the stand-ins: soft-RoCE (rxe0, perftest's
# loopback) over the simulated DCB NIC (simA: PFC on priority 3, pause
# frames from its knobs) and the simulated RDMA device (srd0 over simB:
# hardware counters). Asserts:
#   - every check with a stand-in PASSes with moved=yes, the mlx5 checks
#     SKIP saying why, exit 0, and a module it loaded unloaded after;
#   - for each check, one side made to lie (a rdma, ethtool, dcb, ip or
#     dmesg that changes one value while that check runs) makes exactly
#     that check FAIL, exit 1;
#   - the refusals: other users' QPs without --force (exit 2, nothing
#     loaded); with --force their owner redacted in the report;
#   - no change without --allow-changes: PFC, ETS and the APP table
#     (trust, DSCP) as dcb(8) reads them identical before and after;
#   - a loaded rocectl used as it is: still loaded, a watch and a counter
#     binding of someone else's untouched;
#   - the report (text, JSON) redacted: no address or GID, unless
#     --no-redact.
. "$(dirname "$0")/lib.sh"
plan 17
W=$(mktemp -d)
KIT=$ROOT/tests/hw/accept.sh

kmsg_mark
simnic_pair simA simB || fail "simnic pair"
ip addr add 192.0.2.1/24 dev simA && ip addr add 192.0.2.2/24 dev simB || fail "addresses"
timeout "$T" dcb pfc set dev simA prio-pfc 3:on || fail "PFC on simA"
rxe_add rxe0 simA || fail "rxe0"
simrdma_dev srd0 simB || fail "srd0"
busywait 10000 eval '[ "$(rdma -j link show rxe0/1 | jq -r ".[0].state")" = ACTIVE ]' || fail "rxe0 active"

# kit [ARGS...]: the kit, its report in $W/r (fresh), its output in
# $W/out, its exit status in $W/code.
kit() {
	rm -rf "$W/r"
	timeout 240 "$KIT" --report "$W/r" --seconds 2 "$@" > "$W/out" 2> "$W/err"
	echo $? > "$W/code"
}
# The result lines as "RESULT NAME MOVED".
lines() { sed -nE 's/^(PASS|FAIL|SKIP) ([^:]+): .* moved=(yes|no).*/\1 \2 \3/p' "$W/out"; }
dcb_state() {
	local c
	for c in pfc ets app; do timeout "$T" dcb -j "$c" show dev simA; done
}

# --- the kit against the stand-ins ---------------------------------------------------
STANDIN="devices/rxe0 devices/srd0 link/rxe0/1 link/srd0/1 pfc/simA qps/rxe0 qps/srd0 hw_counters/srd0 watchdog/simA pause/simA/3 check/rxe0 check/srd0 kmsg"
dcb_state > "$W/dcb0"
kit
cat "$W/out" "$W/err"
cp "$W/out" "$W/base"
check_eq "$(cat "$W/code")" 0 "exit status"
for c in $STANDIN; do
	check_match "$(lines)" "^PASS $c yes$" "$c"
done
# The rest SKIP: what has no stand-in or does not apply (simB has no PFC,
# soft-RoCE no hardware counters).
check_eq "$(lines | grep -v '^PASS .* yes$' | awk '{print $1, $2}' | paste -sd' ')" \
	"SKIP pfc/simB SKIP hw_counters/rxe0 SKIP watchdog/simB SKIP pause/simB SKIP mlx5/sport_qpc SKIP mlx5/devx SKIP mlx5/dcqcn SKIP mlx5/ce_cnp" \
	"lines other than PASS moved=yes"
log_test "every check with a stand-in PASSes with moved=yes, exit 0"

check_eq "$(grep -c '^SKIP mlx5/' "$W/out")" 4 "mlx5 SKIPs"
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
kit --no-redact
check_match "$(cat "$W/r/report.txt")" '192\.0\.2\.1' "the address with --no-redact"
log_test "report: addresses and GIDs redacted, kept with --no-redact"

# --- one side lying: a stand-in of a reference tool first in PATH that changes one value
# while that check runs (HW_CHECK) ----------------------------------------------------
mkdir "$W/shim"
for t in rdma ethtool dcb ip dmesg; do
	real=$(command -v "$t")
	cat > "$W/shim/$t" <<SHIM
#!/bin/bash
# A lying $t: LIE names the check it lies to, LIE_JQ or LIE_SED the lie,
# LIE_ARGS the arguments it lies on; LIE_FROM: only from that call on.
out=\$("$real" "\$@"); code=\$?
n=\$(( \$(cat "$W/shim/$t.n" 2>/dev/null || echo 0) + 1 ))
if [ "\${HW_CHECK:-}" = "\${LIE:-}" ] && [ "\$*" = "\${LIE_ARGS:-}" ]; then
	echo \$n > "$W/shim/$t.n"
	if [ \$n -ge "\${LIE_FROM:-1}" ]; then
		if [ -n "\${LIE_JQ:-}" ]; then out=\$(jq -c "\$LIE_JQ" <<< "\$out"); else out=\$(sed -E "\$LIE_SED" <<< "\$out"); fi
	fi
fi
printf '%s\n' "\$out"
exit \$code
SHIM
	chmod +x "$W/shim/$t"
done
# lie CHECK-LINE TOOL CHECK ARGS JQ|SED: the kit with that tool lying; exactly that
# line FAILs, every other line as in the run above.
lie() {
	local want=$1 tool=$2
	rm -f "$W/shim/"*.n
	PATH=$W/shim:$PATH LIE=$3 LIE_ARGS=$4 LIE_JQ=${LIE_JQ:-} LIE_SED=${LIE_SED:-} LIE_FROM=${LIE_FROM:-1} kit
	check_eq "$(cat "$W/code")" 1 "exit status with $tool lying"
	check_eq "$(lines | awk '$1 == "FAIL" {print $2}')" "$want" "the failing lines with $tool lying"
	check_eq "$(lines | awk -v w="$want" '$2 != w' | paste -sd' ')" \
		"$(sed -nE 's/^(PASS|FAIL|SKIP) ([^:]+): .* moved=(yes|no).*/\1 \2 \3/p' "$W/base" | awk -v w="$want" '$2 != w' | paste -sd' ')" \
		"the other lines with $tool lying"
	grep "^FAIL $want:" "$W/out"
}
LIE_JQ='map(if .ifname == "rxe0" then .state = "DOWN" else . end)' lie devices/rxe0 rdma devices "-j link show"
log_test "rdma(8) saying a port is DOWN: devices/rxe0 alone FAILs"
LIE_SED='s/Link detected: yes/Link detected: no/' lie link/rxe0/1 ethtool devices "simA"
log_test "ethtool saying simA has no link: link/rxe0/1 alone FAILs"
LIE_JQ='(map(select(.type == "RC") | .lqpn) | max) as $m | map(select(.lqpn != $m))' lie qps/srd0 rdma qps "-j res show qp link srd0"
log_test "rdma(8) hiding one of the kit's QPs: qps/srd0 alone FAILs"
LIE_JQ='map(.out_of_sequence += 1)' lie hw_counters/srd0 rdma hw_counters "-j statistic qp show link srd0/1"
log_test "rdma statistic's counter off by one: hw_counters/srd0 alone FAILs"
LIE_JQ='.prio_pfc."4" = true' lie pfc/simA dcb pfc "-j pfc show dev simA"
log_test "dcb(8) saying PFC is on priority 4 too: pfc/simA alone FAILs"
LIE_FROM=3 LIE_JQ='.prio_pfc."5" = true' lie watchdog/simA dcb watchdog "-j pfc show dev simA"
log_test "dcb(8) saying PFC changed during the watch: watchdog/simA alone FAILs"
LIE_FROM=3 LIE_SED='s/(rx_prio3_pause: )([0-9]+)/echo "\1$((\2 + 1000))"/e' lie pause/simA/3 ethtool pause "-S simA"
log_test "ethtool -S's rx_prio3_pause 1000 more after the storm: pause/simA/3 alone FAILs"
LIE_JQ='map(.mtu += 1)' lie check/rxe0 ip check "-j link show dev simA"
log_test "ip(8) saying another MTU: check/rxe0 alone FAILs"
LIE_SED='$a [ 9.999] WARNING: CPU: 0 PID: 1 at rocectl (a lie)' lie kmsg dmesg kmsg ""
log_test "dmesg holding a warning: kmsg alone FAILs"

# --- safety ------------------------------------------------------------------------------
idx=$(gid_index rxe0 192.0.2.1)
timeout 60 ibv_rc_pingpong -d rxe0 -g "$idx" -p 18999 > /dev/null 2>&1 &
other=$!
busywait 10000 eval '[ "$(rdma -j res show qp link rxe0 | jq "[.[] | select(.type == \"RC\")] | length")" = 1 ]' ||
	fail "the other user's QP"
kit
check_eq "$(cat "$W/code")" 2 "exit status beside another user's QP"
check_match "$(cat "$W/err")" 'QP\(s\) of other users on .*--force' "its message"
check_eq "$(grep -c '^rocectl ' /proc/modules)" 0 "nothing loaded"
check_eq "$(grep -cE '^(PASS|FAIL|SKIP) ' "$W/out")" 0 "no check ran"
log_test "refused (exit 2) with another user's QP on the device, nothing loaded"

kit --force --dev rxe0
check_match "$(grep '^PASS qps/rxe0' "$W/out")" 'moved=yes' "qps/rxe0 with --force"
check_eq "$(jq -r '.host.other_users_qps, .host.other_users_qp_owners' "$W/r/report.json" | paste -sd' ')" "1 [redacted]" "the other user in the report"
check_eq "$(grep -c ibv_rc_pingpong "$W/r/report.txt")" 0 "the other user's owner in the report"
check_eq "$(rdma -j res show qp link rxe0 | jq "[.[] | select(.type == \"RC\")] | length")" 1 "the other user's QP untouched"
log_test "--force: run beside it, its owner redacted, its QP untouched"
kill "$other" 2>/dev/null
wait "$other" 2>/dev/null

module_load || fail "load rocectl"
rc watchdog set dev simA prio 3 action alert > /dev/null || fail "someone's watch"
echo "create 1" > "$SRD/srd0/qps" && q=$(awk '$1 != 1 {print $1}' "$SRD/srd0/qps" | head -n 1) &&
	echo "modify $q rts" > "$SRD/srd0/qps" || fail "someone's QP"
rc qp counters bind dev srd0 qpn "$q" > /dev/null || fail "someone's binding"
rc -j watchdog show > "$W/wd0"; rdma -j statistic qp show > "$W/bound0"
kit --force
check_match "$(cat "$W/out")" "SKIP watchdog/simA: .* # simA has a watch already: left as it is" "the watchdog check beside a watch"
check_eq "$(grep -c '^rocectl ' /proc/modules)" 1 "rocectl still loaded"
check_eq "$(rc -j watchdog show)" "$(cat "$W/wd0")" "the watch as it was"
check_eq "$(rdma -j statistic qp show)" "$(cat "$W/bound0")" "the binding as it was"
check_eq "$(cat "$W/code")" 3 "exit status (incomplete: the watched checks skipped)"
log_test "an already loaded rocectl used as it is: its watch and binding untouched, still loaded"
rc watchdog del dev simA > /dev/null
echo "destroy all" > "$SRD/srd0/qps"
module_unload

kmsg_check
rm -rf "$W"
