#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmarks: build, boot the guest, print the tables. Not tests: they
# measure and compare side by side, they do not pass or fail.
#   tests/bench/run.sh [--icount] [qp] [wd] [profile] [devx]   (default: qp wd)
# --icount: the guest under QEMU's -icount (BENCH_ICOUNT, default
# shift=0,sleep=off): its clock counts the instructions it executes, so
# that a row's ratios do not move with the host's load (README). It
# leaves the bpftrace peer out (its start, a compile, takes minutes of
# host time there): BENCH_PEER=1 puts it back. The qp benchmark's rows:
# ROWS (tests/bench/guest-qp-bench.sh), its rounds REPS (the QP rate's
# RATE_REPS, by default REPS but at least 5), its QP rate's loop RATE_QPS
# QPs (default 3000).
set -eu
icount=
if [ "${1:-}" = --icount ]; then
	icount=${BENCH_ICOUNT:-shift=0,sleep=off}
	shift
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
peer=$ROOT/tests/bench/peer-qp-counters.bt
[ -z "$icount" ] || [ "${BENCH_PEER:-}" = 1 ] || peer=
cd "$ROOT"
. tests/kver.sh
make -s module KVER="$KVER" 2>&1 | grep -v BTF || true
make -s user
make -s -C tests/tools
make -s -C "/lib/modules/$KVER/build" M="$ROOT/tests/simnic" modules 2>&1 | grep -v BTF || true
make -s -C "/lib/modules/$KVER/build" M="$ROOT/tests/simrdma" modules 2>&1 | grep -v BTF || true
# What the guest's benchmark takes from the environment.
pass=()
for v in REPS RATE_REPS ROWS RATE_QPS; do
	[ -z "${!v:-}" ] || pass+=("$v=${!v}")
done
out=$(mktemp -d)
floor=$out/floor
tests/bench/build-floor.sh "$floor" "$KVER" 2>&1 | grep -v BTF || true
for b in ${*:-qp wd}; do
	if [ -n "$icount" ]; then
		echo "== $b benchmark (guest: 2 CPUs on one host thread, -icount $icount; $(qemu-system-x86_64 --version | head -n 1); guest $KVER; $(date -u '+%F %H:%M UTC'))"
	else
		echo "== $b benchmark (guest: $(nproc) CPUs under software emulation)"
	fi
	# Under -icount the guest runs at the host's leftover speed: its
	# limit is generous (the guest's own clock is the instructions').
	VM_ICOUNT=$icount VM_TIMEOUT=$([ -n "$icount" ] && echo 14400 || echo 2400) \
		tests/qemu/vm.sh "$out" env ICOUNT="$icount" "${pass[@]}" \
		FLOOR_MODULE="$floor/rocectl.ko" \
		FLOOR_MLX5="$floor/rocectl_mlx5.ko" \
		PEER_SCRIPT="$peer" \
		bash "tests/bench/guest-$b-bench.sh" > /dev/null 2>&1 || true
	cat "$out/job.log"
done
rm -rf "$out"
