#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: failures injected where the kernel allows it.
#
# Allocation failures (failslab, CONFIG_FAILSLAB; a debug kernel: Debian's
# has no CONFIG_FAULT_INJECTION), task-filtered so that only the test
# programs' allocations fail:
#   - fail-nth sweeps (tests/tools/nlfuzz faults): the 1st, 2nd, ... fault
#     point of one request fails in turn, for dumps (dev, qp, watch), doits
#     (dev, watch), CONG_GET and WD_SET: an error is reported, or the answer
#     is complete; a refused WD_SET leaves no watch;
#   - the tool (nlfuzz faultexec): every fault point of a rocectl run in
#     turn: the same output, or an error said, never a crash;
#   - QP churn while rocectl's QP entries cannot be allocated (failslab
#     aimed at their cache, rocectl_qp, alone, in every task: the hooks take
#     entries from a pool refilled by a worker, and allocate GFP_ATOMIC
#     only when it ran dry): the pool drains, the RDMA core still creates
#     the QPs, rocectl says it does not track them; the QPs end as rdma(8)
#     sees them; allocations back, tracking resumes. (Failing every allocation of
#     the churn finds rdma_rxe's own error-path bug -- ODEBUG and lockdep in
#     rxe_qp_do_cleanup for a QP it failed to create -- and can take the
#     guest's 9p root away: not done.)
# A driver refusing ieee_setpfc (simnic's fail_setpfc), always:
#   - the forward action fails, is reported (action-failed event, counter)
#     and retried until it succeeds;
#   - the restoration fails, is reported and retried: PFC comes back;
#   - watchdog del while the driver refuses: no priority is left lossy with
#     no watch holding it;
#   - the big red switch with a refusing driver: the refusal is reported;
#   - rocectl unloaded while the driver refuses once: logged;
#   - nothing leaks (the module and simnic unload; kmemleak if present).
. "$(dirname "$0")/lib.sh"
plan 11
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
NLFUZZ=$ROOT/tests/tools/build/nlfuzz
FS=/sys/kernel/debug/failslab
DBG=/sys/kernel/debug
# The pool drains in the first run; later runs repeat it with fresh QPs.
RUNS=${FAULT_RUNS:-8}

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
dcb pfc set dev sim1 prio-pfc 3:on
two_rxe_hosts
module_load || fail "load"
log_test "setup"

qps_match() {
	[ "$(rc -j qp show | jq -c '[.[] | [.ifname, .lqpn]] | sort')" = \
	  "$(rdma -j resource show qp | jq -c '[.[] | [.ifname, .lqpn]] | sort')" ]
}
base=$(rdma -j resource show qp | jq length)
qps_back() {	# qps_back WHAT: rocectl and rdma agree, at the baseline
	busywait 10000 eval 'qps_match && [ "$(rc -j qp show | jq length)" = "$base" ]' ||
		fail "$1: QPs: rocectl $(rc -j qp show | jq length), rdma $(rdma -j resource show qp | jq length), baseline $base"
}

# --- failslab --------------------------------------------------------------------------
config=/boot/config-$(uname -r)
fi_knobs="probability interval times space verbose task-filter ignore-gfp-wait cache-filter"
fs_save() {
	local d f
	: > "$W/fi.saved"
	for d in $DBG/fail*; do
		for f in $fi_knobs; do
			[ -f "$d/$f" ] && echo "$d/$f $(cat "$d/$f")" >> "$W/fi.saved"
		done
	done
}
fs_restore() {
	local f v
	while read -r f v; do echo "$v" > "$f"; done < "$W/fi.saved"
}
# Only the tasks marked with make-it-fail (fail-nth is per task anyway),
# every allocation counted, no stack dumps in the log.
fs_base() {
	local d
	for d in $DBG/fail*; do
		[ -f "$d/verbose" ] && echo 0 > "$d/verbose"
	done
	echo 0 > $FS/probability
	echo 1 > $FS/interval
	echo 0 > $FS/space
	echo Y > $FS/task-filter
	echo N > $FS/ignore-gfp-wait
}

# Every page the marked programs may fault in is read first: a failed
# allocation in a marked task reading a page from the guest's 9p root can
# fail a 9p request, and 9p then takes its client for disconnected: the
# guest loses its root file system (seen: exec and loads fail, EINVAL).
warm() {
	local f
	for f in "$@" $(ldd "$@" 2>/dev/null | awk '/=>/ {print $3} /^\t\/[^ ]*ld-linux/ {print $1}') \
		/usr/lib/x86_64-linux-gnu/libibverbs/*.so /etc/libibverbs.d/*; do
		[ -f "$f" ] && cat "$f" > /dev/null
	done
}

if [ -d $FS ] && [ -e /proc/self/fail-nth ]; then
	fs_save
	fs_base
	warm "$ROCECTL" "$QPT" "$NLFUZZ"
	echo "# failslab present, fail-nth present"

	# --- fail-nth sweeps over single requests ---
	rc watchdog set dev sim0 prio 3,4 action forward || fail "watch sim0"
	sweeps=""
	for spec in dev-dump qp-dump wd-dump dev-get wd-get:sim0 wd-set:sim1 cong-get; do
		req=${spec%%:*}
		dev=${spec#*:}; [ "$dev" = "$spec" ] && dev=sim0
		"$NLFUZZ" faults -r "$req" -d "$dev" -D rxe0 -N 3000 > "$W/sweep.json" 2> "$W/sweep.err"
		code=$?
		echo "# fail-nth $spec: $(cat "$W/sweep.json")"
		check_eq "$code" 0 "fail-nth $spec: $(tail -c 300 "$W/sweep.err" | tr '\n' '|') $(cat "$W/sweep.json")"
		sweeps="$sweeps $req:$(jq .points "$W/sweep.json" 2>/dev/null)"
		rc dev show > /dev/null || fail "module not answering after $spec"
	done
	check_eq "$(rc -j watchdog show | jq -c '[.[].ifname]')" '["sim0"]' "watches after the sweeps"
	rc watchdog del dev sim0
	check_eq "$(pfc sim0) $(pfc sim1)" "[3,4] [3]" "PFC after the sweeps"
	log_test "failslab: every fault point of a request failing in turn ($sweeps): errors reported, answers complete, no watch left behind"

	# --- the tool, every fault point of its run in turn ---
	tools=""
	install -m 755 "$ROCECTL" "$W/rocectl"	# its pages from tmpfs, not 9p
	# FAULT_EXEC: which of the tool's dumps (make check's debug lane: dev).
	for what in ${FAULT_EXEC:-dev qp watchdog}; do
		args="-j $what show"
		"$NLFUZZ" faultexec -N "${FAULT_NTH_MAX:-1500}" -- "$W/rocectl" $args > "$W/fx.json" 2> "$W/fx.err"
		code=$?
		echo "# fail-nth rocectl $args: $(cat "$W/fx.json")"
		check_eq "$code" 0 "rocectl $args under fail-nth: $(tail -c 300 "$W/fx.err" | tr '\n' '|')"
		tools="$tools $what:$(jq .points "$W/fx.json" 2>/dev/null)"
	done
	log_test "failslab: the tool's dumps with each of their fault points failing (points:$tools): the same answer, or an error said; never a crash"

	# --- QP creation while rocectl's QP entries cannot be allocated ---
	# Their own cache only (cache-filter, the cache marked by the kernel's
	# slub_debug=A,rocectl_qp), in every task: the hooks take entries from
	# a pool that a worker refills, so the refill fails, the pool runs dry,
	# and the hooks' own GFP_ATOMIC fallback fails: a QP is created and
	# rocectl cannot track it ("not tracked" in the log, with its QPN: the
	# RDMA core made it). Nothing else allocates from that cache.
	"$ROCECTL" -j monitor qp > "$W/mon-fs.json" 2>&1 &
	monfs=$!
	mark=$(dmesg | wc -l)
	slab=/sys/kernel/slab/rocectl_qp
	[ "$(cat $slab/failslab 2> /dev/null)" = 1 ] ||
		fail "failslab cannot aim at rocectl_qp alone: boot with slub_debug=A,rocectl_qp"
	echo N > $FS/task-filter
	echo Y > $FS/cache-filter
	echo N > $FS/ignore-gfp-wait	# the refill's GFP_KERNEL fails too
	echo 100 > $FS/probability
	echo -1 > $FS/times
	for i in $(seq "$RUNS"); do
		"$QPT" churn -d rxe0 -t 2 -b 4 > "$W/churn.json" 2> "$W/churn.err"
		qps_back "failing run $i ($(head -c 200 "$W/churn.err"))"
	done
	echo 0 > $FS/probability
	echo N > $FS/ignore-gfp-wait
	echo N > $FS/cache-filter
	echo Y > $FS/task-filter
	untracked=$(dmesg | tail -n +$((mark + 1)) | grep -c 'not tracked: out of memory')
	echo "# QP churn with rocectl's entries unallocatable: $RUNS runs, rocectl could not track $untracked QPs (log lines, rate-limited)"
	[ "$untracked" -ge 1 ] || fail "rocectl's allocation never failed in $RUNS runs"
	# Allocations back: the pool refills and new QPs are tracked again.
	"$QPT" churn -d rxe0 -t 1 -b 4 > "$W/churn.json" 2> "$W/churn.err"
	qps_back "after the failures"
	"$QPT" many -d rxe0 -n 2 --state init --hold -T 30 < /dev/null > "$W/hold.json" 2>&1 &
	hold=$!
	busywait 10000 eval '[ "$(rc -j qp show | jq length)" -ge $((base + 2)) ]' ||
		fail "QPs not tracked once allocations work again: rocectl $(rc -j qp show | jq length), baseline $base"
	kill $hold 2> /dev/null; wait $hold 2> /dev/null
	kill $monfs; wait $monfs
	log_test "failslab: rocectl's QP entries unallocatable during QP churn: the RDMA core creates QPs rocectl cannot track (and says so); all end as rdma sees them; tracked again after"

	fs_restore
else
	if grep -q '^CONFIG_FAILSLAB=y' "$config" 2>/dev/null; then
		why="failslab not in debugfs"
	else
		why="kernel without CONFIG_FAILSLAB"
	fi
	for t in "fail-nth sweeps over single requests" "the tool with each of its fault points failing" \
		"rocectl's QP entries failing at random in QP churn"; do
		log_skip "failslab: $t" "$why"
	done
fi

# --- a driver refusing ieee_setpfc -----------------------------------------------------------
EV=$W/ev.json
"$ROCECTL" -j monitor watchdog > "$EV" &
mon=$!
sleep 1
events() { jq -s "[.[] | select(.ifname == \"$1\" and .event == \"$2\")] | length" "$EV"; }
prio3() { rc -j watchdog stats dev sim0 | jq -c ".[0].prios[] | select(.prio == 3) | $1"; }

# The forward action refused three times, then taken. With PFC cleared,
# the restoration is tried a restoration time after the action, storm or
# not (the counters are silenced): the restore's refusals are armed as soon
# as the action is seen, two seconds before the first try, and nothing else
# calls setpfc in between. Armed any later, a slow guest can restore first.
rc watchdog set dev sim0 prio 3 detect 50 restore 2000 interval 10 action forward || fail "watch"
f0=$(events sim0 action-failed)
echo 3 > $SIM/sim0/fail_setpfc
storm sim0 3 1000
busywait 30000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "the action was never taken: $(pfc sim0)"
left=$(cat $SIM/sim0/fail_setpfc)
echo 2 > $SIM/sim0/fail_setpfc
check_eq "$left" 0 "refusals used up"
# A slow guest may already have tried (and been refused) a restore: each
# refusal it used counts as a failed action too. Read the counters between
# two equal readings of what is left of the two.
for i in $(seq 20); do
	r0=$(cat $SIM/sim0/fail_setpfc)
	got=$(prio3 '[.actions_failed, .actions >= 1, .pfc_cleared]')
	[ "$(cat $SIM/sim0/fail_setpfc)" = "$r0" ] && break
done
[ "$r0" = 2 ] || echo "# a restore tried before the counters were read: $((2 - r0)) of its refusals used"
# With both used, the third try may have restored PFC: the hold is not asserted then.
[ "$r0" != 0 ] || got=$(echo "$got" | jq -c '.[2] = true')
check_eq "$got" "[$((3 + 2 - r0)),true,true]" "counters, the hold"
busywait 2000 eval '[ "$(events sim0 action-failed)" -ge $((f0 + 3)) ]' || fail "action-failed events: $(( $(events sim0 action-failed) - f0 ))"
log_test "setpfc refused three times: each refusal reported (event, counter), the action retried and taken"

# The restoration refused twice, then done; the storm ends meanwhile, so
# that nothing is detected once PFC is back. Events counted from before
# the action's refusals: the first restore may already have been refused.
storm sim0 3 0
# Each try a restoration time after the last.
busywait 30000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC never set back: $(pfc sim0)"
busywait 3000 eval '[ "$(prio3 .state)" = "\"monitoring\"" ]' || fail "state $(prio3 .state)"
check_eq "$(cat $SIM/sim0/fail_setpfc)" 0 "restore refusals used up"
check_eq "$(prio3 '[.actions_failed, .restores >= 1, .pfc_cleared, .state]')" '[5,true,false,"monitoring"]' "counters after the restore"
busywait 2000 eval '[ "$(events sim0 action-failed)" -ge $((f0 + 5)) ]' || fail "restore failures not reported: $(( $(events sim0 action-failed) - f0 - 3 ))"
log_test "setpfc refused twice on restore: reported, retried, PFC back"

# The watch deleted while it holds PFC cleared and the driver refuses.
storm sim0 3 1000
busywait 5000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "no action"
storm sim0 3 0
echo -1 > $SIM/sim0/fail_setpfc
out=$(rc watchdog del dev sim0 2>&1); code=$?
held=$(rc -j watchdog show dev sim0 2>/dev/null | jq -c '[.[0].prios[] | select(.pfc_cleared) | .prio]' 2>/dev/null)
echo "# watchdog del under a refusing driver: exit $code, PFC $(pfc sim0), still held by a watch: ${held:-no watch} ($out)"
if [ "$(pfc sim0)" != "[3,4]" ] && [ "$held" != "[3]" ]; then
	fail "priority 3 left without PFC and without a watch holding it (del exit $code: $out)"
fi
echo 0 > $SIM/sim0/fail_setpfc
rc watchdog show dev sim0 > /dev/null 2>&1 && rc watchdog del dev sim0
[ "$(pfc sim0)" = "[3,4]" ] || dcb pfc set dev sim0 prio-pfc 3:on 4:on	# for what follows
log_test "watchdog del while the driver refuses: no priority left lossy without a watch that sets it back"

# The big red switch when the driver refuses.
rc watchdog set dev sim0 prio 3,4 action alert || fail "watch"
f0=$(events sim0 action-failed)
echo -1 > $SIM/sim0/fail_setpfc
out=$(rc watchdog big-red-switch on 2>&1); code=$?
sleep 0.5
af=$(rc -j watchdog stats dev sim0 | jq '[.[0].prios[].actions_failed] | add')
echo "# big-red-switch on under a refusing driver: exit $code, PFC $(pfc sim0), action-failed events $(( $(events sim0 action-failed) - f0 )), actions_failed $af ($out)"
[ "$code" != 0 ] || [ "$(events sim0 action-failed)" -gt "$f0" ] || [ "$af" -gt 0 ] ||
	fail "the switch could not clear PFC ($(pfc sim0)) and nothing said so: exit 0, no event, no counter"
echo 0 > $SIM/sim0/fail_setpfc
rc watchdog big-red-switch off || fail "brs off"
check_eq "$(pfc sim0)" "[3,4]" "PFC after the switch"
rc watchdog del dev sim0
log_test "big red switch with a refusing driver: the refusal is reported"

# rocectl unloaded while it holds PFC and the driver refuses once.
rc watchdog set dev sim0 prio 3 detect 50 restore 5000 interval 10 action forward || fail "watch"
storm sim0 3 1000
busywait 5000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "no action"
kill $mon; wait $mon
mark=$(dmesg | wc -l)
echo 1 > $SIM/sim0/fail_setpfc
module_unload || fail "unload"
storm sim0 3 0
warn=$(dmesg | tail -n +$((mark + 1)) | grep 'sim0: could not set PFC back on priority 3')
echo "# unload under a refusing driver: PFC $(pfc sim0), log: ${warn:-nothing}"
[ "$(pfc sim0)" = "[3,4]" ] || [ -n "$warn" ] || fail "PFC left $(pfc sim0) after unload, and nothing logged"
echo 0 > $SIM/sim0/fail_setpfc
dcb pfc set dev sim0 prio-pfc 3:on 4:on
log_test "unload while the driver refuses: PFC set back or the failure logged"

# --- leaks -----------------------------------------------------------------------------------
module_load || fail "reload"
module_unload || fail "unload again"
rxe_del rxe0; rxe_del rxe1
rmmod simnic &
pid=$!
for i in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && fail "rmmod simnic hangs: a netdev reference leaked"
wait $pid || fail "rmmod simnic"
if [ -f $DBG/kmemleak ]; then
	timeout 300 sh -c "echo scan > $DBG/kmemleak; sleep 5; echo scan > $DBG/kmemleak"
	leaks=$(grep -c 'unreferenced object' $DBG/kmemleak)
	mine=$(grep -A30 'unreferenced object' $DBG/kmemleak | grep -c 'rocectl\|simnic')
	echo "# kmemleak: $leaks unreferenced objects, $mine frames in rocectl or simnic"
	check_eq "$mine" 0 "kmemleak: rocectl or simnic in a leak's backtrace"
fi
log_test "no leak: the module and simnic unload$([ -f $DBG/kmemleak ] && echo ', kmemleak clean' || echo ' (no kmemleak in this kernel)')"

kmsg_check
rm -rf "$W"
