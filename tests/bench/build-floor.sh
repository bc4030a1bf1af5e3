#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The qp benchmark's floor: rocectl.ko built with ROCECTL_PROBE_FLOOR=y
# (every probe in place, every handler returning at once) from a copy of
# the sources in DIR, so that the real build is left alone.
#   tests/bench/build-floor.sh DIR KVER
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1 kver=$2
mkdir -p "$dir"
# Sources only: objects of an in-tree build must not stand in for the floor's.
tar -C "$ROOT" --exclude='*.o' --exclude='.*.cmd' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' -cf - Kbuild kernel include | tar -C "$dir" -xf -
make -s -C "/lib/modules/$kver/build" M="$dir" ROCECTL_PROBE_FLOOR=y modules
test -f "$dir/rocectl.ko"
