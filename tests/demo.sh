#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo on a machine without RoCE hardware: build rocectl, boot Debian's
# kernel under QEMU and show it at work on soft-RoCE.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. tests/kver.sh
echo "== building rocectl.ko for $KVER and the rocectl tool"
make -s module KVER="$KVER" 2>&1 | grep -v BTF || true
make -s user
out=$(mktemp -d)
echo "== booting the guest (software emulation, about 10 s)"
code=0
VM_TIMEOUT=300 tests/qemu/vm.sh "$out" bash tests/demo/guest-demo.sh > /dev/null 2>&1 || code=$?
cat "$out/job.log" 2>/dev/null || tail -n 30 "$out/console.log"
rm -rf "$out"
exit $code
