#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the debug guest after the last scenario (every module unloaded by
# the runner's clean slate): two kmemleak scans a pause apart (an object is
# reported only once it has stayed unreferenced for 5 s and across scans),
# then the report, saved to $ROCECTL_OUT/kmemleak. tests/debug/run.sh
# judges it; an empty report is a clean run.
out=${ROCECTL_OUT:-${TMPDIR:-/tmp}}
kml=/sys/kernel/debug/kmemleak
rm -f "$out/kmemleak"
if [ ! -w "$kml" ]; then
	echo "# kmemleak: $kml is missing: is this the debug kernel?"
	exit 1
fi
t0=$(date +%s)
echo scan > "$kml"
sleep 6
echo scan > "$kml"
cat "$kml" > "$out/kmemleak"
echo "# kmemleak: final scans in $(( $(date +%s) - t0 )) s," \
	"$(grep -c '^unreferenced object' "$out/kmemleak") suspected leak(s)"
exit 0
