#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark gate (make check-bench): the qp benchmark's packet rows
# under --icount (on/floor, probe floor build included) against the
# baseline kept in tests/bench/baseline. A row fails when its on/floor is
# worse than the baseline's by more than the baseline's threshold, when a
# target the baseline meets is missed, or when it gave no figure. Taken
# with another QEMU or guest kernel than the baseline's, it says so and
# judges by the targets alone until the baseline is renewed (in a commit
# that says why).
#   tests/bench/gate.sh [LOG]
# LOG: judge the output of a `run.sh --icount qp` already taken instead of
# running one. GATE_REPS: rounds (default 3, the figures' medians).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
base=$ROOT/tests/bench/baseline
log=${1:-}
if [ -z "$log" ]; then
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	start=$(date +%s)
	ROWS="bw lat wbw wlat" REPS=${GATE_REPS:-3} \
		"$ROOT/tests/bench/run.sh" --icount qp | tee "$log"
	echo "# the benchmark took $(( $(date +%s) - start )) s"
fi

field() { awk -v k="$1" '$1 == k {sub(/^[^ ]+ +/, ""); print; exit}' "$base"; }
header=$(grep -m 1 '^== qp benchmark' "$log" || true)
want_qemu=$(field qemu)
want_guest=$(field guest)
threshold=$(field threshold)
same=1
case $header in
*"$want_qemu; guest $want_guest;"*) ;;
*)
	same=
	echo "# not the baseline's QEMU or guest kernel (baseline: $want_qemu, guest $want_guest; this run: ${header:-no header}): judged by the targets alone until the baseline is renewed"
	;;
esac

# The on/floor of the table's row whose name matches $1 (column 10).
ratio_of() {
	awk -F'|' -v pat="$1" '$2 ~ pat {gsub(/ /, "", $10); print $10; exit}' "$log"
}

pass=0 fail=0
while read -r key name b better target pat; do
	[ "$key" = row ] || continue
	r=$(ratio_of "$pat")
	if [ -z "$r" ] || [ "$r" = - ]; then
		echo "FAIL $name: no on/floor figure"
		fail=$((fail + 1))
		continue
	fi
	verdict=$(awk -v r="$r" -v b="$b" -v t="$target" -v th="$threshold" \
		-v hi="$better" -v same="$same" 'BEGIN {
		s = (hi == "higher") ? 1 : -1
		met_b = s * (b - t) >= 0; met = s * (r - t) >= 0
		worse = s * (b - r) / b * 100
		if (met_b && !met) { printf "FAIL target %s %s missed, met in the baseline", (s > 0 ? ">=" : "<="), t; exit }
		if (same && worse > th) { printf "FAIL %.2f %% worse than the baseline %s (threshold %s %%)", worse, b, th; exit }
		d = sprintf("%.2f", worse < 0 ? -worse : worse)
		printf "ok (baseline %s: %s; target %s %s %s)", b, (d == "0.00" || d == "-0.00" ? "the same" : d " % " (worse > 0 ? "worse" : "better")), (s > 0 ? ">=" : "<="), t, (met ? "met" : "missed")
	}')
	echo "$name on/floor $r: $verdict"
	case $verdict in FAIL*) fail=$((fail + 1)) ;; *) pass=$((pass + 1)) ;; esac
done < "$base"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
