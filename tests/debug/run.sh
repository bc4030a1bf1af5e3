#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug-kernel lane: the guest suite on a kernel with KASAN, lockdep
# (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_OBJECTS and fault
# injection. Builds the kernel once (cached, tests/debug/build-kernel.sh),
# builds the project's modules and tools against it in a copy of the
# checkout (the checkout's own build products stay Debian's), boots it under
# QEMU running the scenarios, scans for leaks at the end and fails on any
# KASAN, lockdep, kmemleak, DEBUG_OBJECTS or WARN report.
#
#   tests/debug/run.sh [full | all | --list | SCENARIO...]
#
# One result line per test, each "debug: "-prefixed (ROCECTL_DEBUG_TAG
# instead of "debug", where set: make check runs the lane in two guests),
# each scenario's checked against its plan by the guest runner, then "N
# passed, N failed, N skipped" (tests/results.sh); exit status 0 only if
# none failed. Scenarios default to
# $ROCECTL_DEBUG_SCENARIOS, else the lane's list below (tests/README);
# full (make check-debug): that list and the two make check leaves out;
# all: every scenario of the guest runner; --list: print the default list.
# Environment: ROCECTL_DEBUG_T (T, each bounded guest command, default 120
# s), ROCECTL_DEBUG_SCENARIO_TIMEOUT (per scenario, default 900 s),
# ROCECTL_DEBUG_VM_TIMEOUT (the whole guest, default 3000 s),
# ROCECTL_DEBUG_MEM (MiB, default 4096), ROCECTL_DEBUG_RACE_SECONDS (each
# race of races, default 30), ROCECTL_DEBUG_FAULT_RUNS (faults' QP churn
# runs, default 8), ROCECTL_DEBUG_FAULT_EXEC (the tool's dumps faults runs
# under fail-nth, default "dev qp watchdog"), ROCECTL_DEBUG_GUEST_ENV (VAR=VALUE
# words for the guest's scenarios, e.g. FUZZ_COUNT=20000),
# ROCECTL_DEBUG_KEEP=1 keeps the copy.
set -u
# All of it is read before it runs: the checkout may change meanwhile.
main() {
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
# shellcheck source=tests/results.sh
. tests/results.sh
# shellcheck source=tests/tree.sh
. tests/tree.sh

# The lane's scenarios (its default list, make check-full's): those that
# drive the module's kernel paths (netlink, QP tracking, the packet path,
# the watchdog, unloads, races, injected faults, DevX QPs). make check runs
# a shorter list of them (tests/run's DEBUG_CHECK: QP tracking and its
# packet path, DevX, the races, injected faults), sized to CI's budget
# beside the cold kernel build (tests/README, "The tiers"). Left to "full" (make
# check-debug): watchdog and permissions, about 510 s there, whose kernel
# paths wd_hold, races, faults and fuzz drive too (the watchdog's state
# machine, PFC changes and refusals, unloads in a storm; unprivileged
# requests); what only they cover -- sent-pause storms, stall prevention,
# the permission and namespace checks -- runs on 6.1 (permissions on 6.12
# too) in make check. Also left to "full": hw_counters, whose kernel code
# is the simulated RDMA device's (rocectl's QP hooks it drives, qps drives
# too). Also left to "full": qp_stress (about 290 s here), whose QP
# churn under dumps and unloads under traffic races drives (its exact CE
# count and 2000-QP burst run in every normal lane). Left to "all": install
# (DKMS and udev), qp_counters (the RDMA core's own netlink), simnic and
# qptraffic (the test tools' self-tests), check, fabric_path (the tool's probes and
# router namespaces: no kernel path of the module that qps and rxe_sender
# do not drive), and reconcile: this
# kernel sends too slowly to congest its 40 Mbit/s bottleneck (RED marks
# nothing; the counts still match tc exactly), and a bottleneck slow
# enough holds skbs in its queue past rdma_rxe's QP clean-up, whose
# use-after-free (rxe_skb_tx_dtor) KASAN then reports -- rdma_rxe's bug,
# not rocectl's (tests/README). A scenario of the guest runner
# that is not run is named in the output, never left out silently. faults
# goes last: a lockdep report turns lockdep off for the rest of the boot,
# and its injected allocation failures reach the kernel's own error paths.
DEFAULT_SCENARIOS="devices qps rxe_sender wd_hold fuzz mlx5 devx devx_load races faults"
FULL_SCENARIOS="${DEFAULT_SCENARIOS/ faults/} qp_stress watchdog permissions hw_counters faults"
all=$(sed -n 's/^SCENARIOS=\${SCENARIOS:-"\(.*\)"}$/\1/p' tests/guest/run.sh)
if [ "$*" = --list ]; then
	# The lane's scenarios, as make check splits them over two guests.
	for s in ${ROCECTL_DEBUG_SCENARIOS:-$DEFAULT_SCENARIOS}; do
		[ -f "tests/guest/$s.sh" ] && echo "$s"
	done
	exit 0
elif [ "$*" = all ]; then
	scenarios="${all/ faults/} faults"
elif [ "$*" = full ]; then
	scenarios=" $FULL_SCENARIOS"
elif [ $# -gt 0 ]; then
	scenarios="$*"
else
	scenarios=
	for s in ${ROCECTL_DEBUG_SCENARIOS:-$DEFAULT_SCENARIOS}; do
		[ -f "tests/guest/$s.sh" ] && scenarios="$scenarios $s"
	done
fi
dT=${ROCECTL_DEBUG_T:-120}
dST=${ROCECTL_DEBUG_SCENARIO_TIMEOUT:-900}
dVMT=${ROCECTL_DEBUG_VM_TIMEOUT:-3000}
# Messages per fuzz phase: the normal lanes' 100,000 (about 2 minutes a
# phase here), so that KASAN, lockdep and kmemleak watch as many.
dFUZZ=${ROCECTL_DEBUG_FUZZ_COUNT:-100000}
# qp_stress's unloads under churning events: a cycle takes about 90 s here
# (the normal lane's five, 450 s); two still race each unload with events.
dCYCLES=${ROCECTL_DEBUG_UNLOAD_CYCLES:-2}
# Each of races' four races: 30 s here (the normal lane's 60 s); one takes
# about 60 s of this kernel's time with its set-up and checks.
dRACE=${ROCECTL_DEBUG_RACE_SECONDS:-30}
# faults' QP churn while entries cannot be allocated, repeated (the first
# drains the pool; each later one, about 13 s here, with fresh QPs).
dFAULTS=${ROCECTL_DEBUG_FAULT_RUNS:-8}
# faults' runs of the tool with each of its fault points failing in turn:
# these dumps' (about 100 points each, 0.7 s a point here).
dFEXEC=${ROCECTL_DEBUG_FAULT_EXEC:-dev qp watchdog}

left=$(words_minus "$all" "$scenarios")
# A part of the lane (ROCECTL_DEBUG_TAG: make check runs it in two guests)
# leaves the others' to them; make check names those it leaves out.
[ -z "$left" ] || [ -n "${ROCECTL_DEBUG_TAG:-}" ] ||
	echo "# debug lane: scenarios of tests/guest/run.sh not run on the debug kernel: $left"

# The prefix of every result line: "debug", or the part's (make check).
tag=${ROCECTL_DEBUG_TAG:-debug}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-debug-logs.XXXXXX")
RESULTS=$OUT/results.tap
: > "$RESULTS"
lane_start=$(date +%s)

result() {	# result NAME OK [WHY]
	if [ "$2" = 0 ]; then
		report "ok - $tag: $1"
	else
		report "not ok - $tag: $1 # $(printf '%s' "${3:-failed}" | tr '\n' '|' | cut -c1-600)"
	fi
}

# waive: turn "not ok - NAME # WHY" into "ok - NAME # SKIP ..." where
# tests/debug/timing-waivers has NAME (exactly) with a pattern (Python re)
# that WHY matches: assertions about time or scale that only the debug
# kernel's slowness breaks. Every other failure stays one.
waive() {
	python3 -c '
import re, sys
rules = []
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    if not l.startswith("#") and len(f) == 3:
        rules.append(f)
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("not ok - "):
        name, _, why = line[9:].partition(" # ")
        for n, pat, reason in rules:
            if name == n and re.search(pat, why):
                line = "ok - %s # SKIP debug kernel: %s; failed with: %s" % (name, reason, why[:300])
                break
    print(line)
' "$ROOT/tests/debug/timing-waivers"
}

finish() {
	echo "# debug lane: logs in $OUT; $(( $(date +%s) - lane_start )) s in all"
	results_summary "$RESULTS"
	exit
}

# --- the debug kernel ---------------------------------------------------------------
t0=$(date +%s)
tests/debug/build-kernel.sh > "$OUT/build-kernel.log" 2>&1
code=$?
t=$(( $(date +%s) - t0 ))
dir=$(tests/debug/build-kernel.sh --dir)
if [ $code -ne 0 ] || [ ! -f "$dir/stamp" ]; then
	result "build: the debug kernel (KASAN, lockdep, kmemleak, DEBUG_OBJECTS, failslab) from linux-source-6.1" 1 \
		"$(tail -n 8 "$OUT/build-kernel.log")"
	finish
fi
rel=$(cat "$dir/release")
if grep -q '^build-kernel: built' "$OUT/build-kernel.log"; then
	how="built in $t s"
else
	how="cached, built once in $(cat "$dir/build-seconds") s"
fi
result "build: debug kernel $rel (KASAN, lockdep, kmemleak, DEBUG_OBJECTS, failslab; $how)" 0
echo "# debug kernel: $dir"

# --- a copy of the checkout, built against it ---------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rocectl-debug.XXXXXX")
[ "${ROCECTL_DEBUG_KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
copy_tree "$work"
copy_host_builds "$work"
chmod 755 "$work"
cd "$work"

# KASAN's stack redzones make frames larger than in a production build:
# the project's -Wframe-larger-than=1024 (Kbuild) is the normal lane's to
# enforce; here such warnings are listed, not counted. Any other warning
# fails.
frames() {	# frames LOG: the frame-size warnings, one comment line each
	grep -E 'warning: the frame size of [0-9]+ bytes' "$1" |
		sed -E "s|^$work/||; s|^|# debug: KASAN-sized frame: |"
}
make -s -j"$(nproc)" module KVER="$rel" KERNELDIR="$dir/src" > "$OUT/module.log" 2>&1
code=$?
frames "$OUT/module.log"
warn=$(grep -E 'warning:|error:' "$OUT/module.log" | grep -v 'Wframe-larger-than' | head -n 3)
[ $code -eq 0 ] && [ -z "$warn" ] && [ -f rocectl.ko ] && [ -f rocectl_mlx5.ko ]
result "build: rocectl.ko and rocectl_mlx5.ko build for $rel with no warning but frame sizes" $? \
	"$warn$(tail -n 5 "$OUT/module.log")"

{ make -s -j"$(nproc)" -C "$dir/src" M="$work/tests/simnic" modules &&
	make -s -j"$(nproc)" -C "$dir/src" M="$work/tests/simrdma" modules; } > "$OUT/simnic.log" 2>&1
code=$?
frames "$OUT/simnic.log"
warn=$(grep -E 'warning:|error:' "$OUT/simnic.log" | grep -v 'Wframe-larger-than' | head -n 3)
[ $code -eq 0 ] && [ -z "$warn" ]
result "build: simnic.ko and simrdma.ko build for $rel with no warning but frame sizes" $? "$warn$(tail -n 5 "$OUT/simnic.log")"

{ make -s -j"$(nproc)" -C user && make -s -j"$(nproc)" -C tests/tools; } > "$OUT/user.log" 2>&1
result "build: rocectl and the test tools build" $? "$(tail -n 5 "$OUT/user.log")"

# --- the guest --------------------------------------------------------------------
nsc=$(echo $scenarios | wc -w)
echo "# debug guest: scenarios: $scenarios"
# Warnings reach the console too (should the guest die); the whole run's
# log fits the buffer (tests/qemu/vm.sh's 16 MiB, as every guest's); every
# KASAN report, not only the first; RCU stall
# reports only past 60 s (emulation). slub_debug=A,rocectl_qp marks
# rocectl's QP cache for failslab's cache-filter (6.1's sysfs attribute is
# read-only), so that fault injection can aim at those entries alone.
append="loglevel=5 kasan_multi_shot rcupdate.rcu_cpu_stall_timeout=60 slub_debug=A,rocectl_qp"
# Two sockets of one cpu: this kernel has no ACPI, and the BIOS's MP table
# lists one cpu a socket.
ROCECTL_KERNEL=$dir/bzImage ROCECTL_KVER=$rel VM_MEM=${ROCECTL_DEBUG_MEM:-4096} VM_TIMEOUT=$dVMT \
VM_SMP=2,sockets=2,cores=1,threads=1 \
VM_APPEND="$append" \
	tests/qemu/vm.sh "$OUT/guest" env ROCECTL_DKMS=0 T="$dT" SCENARIO_TIMEOUT="$dST" FUZZ_COUNT="$dFUZZ" UNLOAD_CYCLES="$dCYCLES" RACE_SECONDS="$dRACE" FAULT_RUNS="$dFAULTS" FAULT_EXEC="$dFEXEC" \
	${ROCECTL_DEBUG_GUEST_ENV:-} bash tests/debug/guest-job.sh $scenarios > "$OUT/guest.log" 2>&1
code=$?
# Every scenario's lines, in order, "debug: "-prefixed; the failures that
# timing-waivers names, with the symptom it names, become SKIPs.
for f in "$OUT"/guest/sc/*/results.tap; do
	[ -f "$f" ] && cat "$f"
done | waive | sed -E "s|^(not )?ok - |&$tag: |" | tee -a "$RESULTS"
# The job's own lines are in job.log; guest.log has what vm.sh says (a death).
grep -E '^# (debug|kmemleak)' "$OUT/guest/job.log" 2> /dev/null
ran=$(wc -l < "$OUT/guest/times" 2> /dev/null || echo 0)
[ "$ran" -eq 0 ] || echo "# debug lane: scenario seconds: $(times_line "$OUT/guest/times")"
# 124: the job outran its time limit (the guest's timeout), 125: the guest died.
[ $code -ne 125 ] && [ $code -ne 124 ] && [ "$ran" -eq "$nsc" ]
result "guest: the debug kernel booted, ran $ran of $nsc scenarios and the final scan, and powered off" $? \
	"exit $code$([ $code = 124 ] && echo " (the job's time limit, $((dVMT - 60)) s, ran out)"); $(tail -n 5 "$OUT/guest.log" "$OUT/guest/job.log" 2> /dev/null)"

# --- leaks and the kernel log --------------------------------------------------------
if [ -f "$OUT/guest/kmemleak" ]; then
	n=$(grep -c '^unreferenced object' "$OUT/guest/kmemleak")
	[ "$n" -eq 0 ]
	result "kmemleak: a scan after the last scenario finds no leak" $? \
		"$n suspected leak(s): $(grep -vE '^\s*(hex dump|[0-9a-f]{2} )' "$OUT/guest/kmemleak" | head -n 12)"
else
	result "kmemleak: a scan after the last scenario finds no leak" 1 "no report saved (guest died or kmemleak missing)"
fi

# Reports of KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak, DEBUG_OBJECTS,
# list debugging, refcount, RCU, hung tasks, and any WARN, BUG or oops. Not
# reports: kmemleak's start-up line, and its count of boot-time objects in
# the baseline scan before the first scenario (kmemleak-baseline).
BAD='BUG: |WARNING: |Oops|general protection fault|Kernel panic|Call Trace:|UBSAN|KASAN|kmemleak: |ODEBUG: |possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|turning off the locking correctness validator|Disabling lock debugging|list_add corruption|list_del corruption|refcount_t: |INFO: task .* blocked for more than|rcu: INFO: .*stall'
log=$OUT/guest/dmesg
[ -s "$log" ] || log=$OUT/guest/console.log	# the guest died: what reached the console
bad=$(awk '/rocectl-debug: kmemleak baseline done/ {base = 1}
	!base && /kmemleak: [0-9]+ new suspected memory leaks/ {next}
	/kmemleak: Kernel memory leak detector initialized/ {next}
	{print}' "$log" 2> /dev/null | grep -E "$BAD" | head -n 5)
complete=0
grep -q 'Linux version' "$log" 2> /dev/null && complete=1
[ -z "$bad" ] && [ $complete = 1 ] && [ -s "$OUT/guest/dmesg" ]
result "no KASAN/lockdep/kmemleak/DEBUG_OBJECTS/WARN report in the kernel log" $? \
	"$( [ $complete = 1 ] || echo "kernel log incomplete or missing; ")$bad"

finish
}
main "$@"
exit
