#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the debug guest (tests/debug/run.sh boots it): the guest runner,
# tests/guest/run.sh, once per scenario so that each one's results and time
# are kept apart, then the final kmemleak scan (kmemleak.sh).
#
#   bash tests/debug/guest-job.sh SCENARIO...
#
# Writes to $ROCECTL_OUT: sc/NN-SCENARIO/results.tap (the scenario's result
# lines), times (one "SCENARIO SECONDS EXIT" line per scenario), kmemleak
# (the final report) and kmemleak-baseline (objects unreferenced before the
# first scenario: boot-time allocations, cleared from later reports).
here=$(cd "$(dirname "$0")" && pwd)
out=${ROCECTL_OUT:-${TMPDIR:-/tmp}}
kml=/sys/kernel/debug/kmemleak
mkdir -p "$out/sc"
: > "$out/times"

echo "# debug guest: $(uname -r), $(nproc) cpus, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
echo "# debug guest: T=${T:-20} SCENARIO_TIMEOUT=${SCENARIO_TIMEOUT:-300}"

# What was unreferenced before the suite ran is the boot's, not the
# project's: report it apart, then clear it so the final scan shows only
# what leaked while the scenarios ran.
if [ -w "$kml" ]; then
	t0=$(date +%s)
	echo scan > "$kml"
	cat "$kml" > "$out/kmemleak-baseline"
	echo clear > "$kml"
	# The scans that judge are this job's own (kmemleak.sh, faults.sh):
	# the thread that scans every 10 min takes the CPUs for tens of seconds
	# each time under emulation, in the middle of timed scenarios.
	echo scan=off > "$kml"
	echo "rocectl-debug: kmemleak baseline done" > /dev/kmsg
	echo "# kmemleak: baseline scan in $(( $(date +%s) - t0 )) s," \
		"$(grep -c '^unreferenced object' "$out/kmemleak-baseline") boot-time object(s) cleared"
fi

i=0
for s in "$@"; do
	i=$((i + 1))
	d=$out/sc/$(printf '%02d' $i)-$s
	mkdir -p "$d"
	t0=$(date +%s)
	ROCECTL_OUT=$d SCENARIOS=$s bash "$here/../guest/run.sh"
	code=$?
	t=$(( $(date +%s) - t0 ))
	echo "$s $t $code" >> "$out/times"
	echo "# debug: scenario $s took $t s"
done

bash "$here/kmemleak.sh"
