#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo on a machine without RoCE hardware: build what it needs (the
# module, the tool, the simulated DCB NIC, the test tools), boot Debian's
# kernel under QEMU and show rocectl at work on soft-RoCE. A step that
# fails stops the demo with a sentence naming it, and exit status 1.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
. tests/kver.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

stop() {	# stop SENTENCE
	echo "demo: $*" >&2
	exit 1
}

# step WHAT COMMAND...: run a build step, its output kept back unless it fails.
step() {
	local what=$1 code
	shift
	echo "== $what"
	"$@" > "$out/step.log" 2>&1
	code=$?
	if [ $code -ne 0 ]; then
		tail -n 20 "$out/step.log" >&2
		stop "the step \"$what\" failed (exit $code)."
	fi
}

step "building rocectl.ko and rocectl_mlx5.ko for $KVER" make -s module KVER="$KVER"
step "building the rocectl tool" make -s user
step "building the simulated DCB NIC and RDMA device (tests/simnic, tests/simrdma) for $KVER" make -s simnic KVER="$KVER"
step "building the test tools (qptraffic)" make -s test-tools

echo "== booting the guest (software emulation, about 10 s)"
code=0
VM_TIMEOUT=300 tests/qemu/vm.sh "$out/vm" bash tests/demo/guest-demo.sh > "$out/vm.log" 2>&1 || code=$?
if [ -f "$out/vm/job.log" ]; then
	cat "$out/vm/job.log"
else
	tail -n 30 "$out/vm/console.log" 2> /dev/null
fi
case $code in
0) ;;
125) tail -n 5 "$out/vm.log" >&2; stop "the guest died before the demo finished." ;;
124) stop "the demo did not finish in the guest's 300 s." ;;
*) stop "the demo stopped in the guest (exit $code): see the step it names above." ;;
esac
