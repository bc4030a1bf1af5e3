#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmarks: build, boot the guest, print the tables. Not tests: they
# measure and compare side by side, they do not pass or fail.
#   tests/bench/run.sh [qp] [wd] [profile] [devx]   (default: qp wd)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
. tests/kver.sh
make -s module KVER="$KVER" 2>&1 | grep -v BTF || true
make -s user
make -s -C tests/tools
make -s -C "/lib/modules/$KVER/build" M="$ROOT/tests/simnic" modules 2>&1 | grep -v BTF || true
make -s -C "/lib/modules/$KVER/build" M="$ROOT/tests/simrdma" modules 2>&1 | grep -v BTF || true
out=$(mktemp -d)
floor=$out/floor
tests/bench/build-floor.sh "$floor" "$KVER" 2>&1 | grep -v BTF || true
for b in ${*:-qp wd}; do
	echo "== $b benchmark (guest: $(nproc) CPUs under software emulation)"
	VM_TIMEOUT=2400 tests/qemu/vm.sh "$out" env FLOOR_MODULE="$floor/rocectl.ko" \
		FLOOR_MLX5="$floor/rocectl_mlx5.ko" \
		PEER_SCRIPT="$ROOT/tests/bench/peer-qp-counters.bt" \
		bash "tests/bench/guest-$b-bench.sh" > /dev/null 2>&1 || true
	cat "$out/job.log"
done
rm -rf "$out"
