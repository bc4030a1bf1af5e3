#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Style gates: checkpatch (from linux-source-6.1) and sparse on the kernel
# code, -Werror on the tool, and the files generated from the netlink spec
# being what it generates. Prints "ok - style: ..." lines; exit 1 on failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. tests/kver.sh
# shellcheck source=tests/results.sh
. tests/results.sh
plan 8	# checkpatch, sparse, the bottom-half lock gate, kernel/'s graph, user/'s graph, the tool's -Werror build, the generated netlink files, the README's length
cache=${ROCECTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rocectl}
status=0

result() {
	if [ "$2" = 0 ]; then
		echo "ok - style: $1"
	else
		echo "not ok - style: $1 # $3"
		status=1
	fi
}

# checkpatch.pl and its data files, taken once from the kernel source tarball.
cp_dir=$cache/checkpatch
if [ ! -x "$cp_dir/checkpatch.pl" ]; then
	# 6.1's, not the newest tarball's (linux-source-6.12 is there for ynl).
	tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null)
	if [ -n "$tarball" ]; then
		mkdir -p "$cp_dir"
		top=$(basename "$tarball" .tar.xz)
		tar -xJf "$tarball" -C "$cp_dir" --strip-components=2 \
			"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch" 2>/dev/null
	fi
fi
if [ -x "$cp_dir/checkpatch.pl" ]; then
	files=$(ls kernel/*.[ch] kernel/*/*.[ch] include/uapi/linux/*.h include/*.h \
		tests/simnic/*.[ch] tests/simrdma/*.[ch] | grep -v 'compat.h\|trace.h\|\.mod\.c')
	checkpatch() { "$cp_dir/checkpatch.pl" --no-tree --strict --terse --show-types "$@" 2>&1; }
	# One checkpatch per file, as many at once as there are cpus: it reads
	# each file on its own (-f), and most of its time is perl's start.
	export -f checkpatch
	export cp_dir
	# The compat header is where version checks belong; nowhere else.
	# shellcheck disable=SC2086 # a list of files
	out=$( { printf '%s\n' $files | xargs -P "$(nproc)" -n 4 bash -c \
			'checkpatch --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "$@"' checkpatch
		checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f kernel/compat.h tests/simrdma/compat.h tests/simnic/compat.h
		# TRACE_EVENT() layout is the tracing subsystem's, not --strict's.
		"$cp_dir/checkpatch.pl" --no-tree --terse --show-types -f kernel/trace.h 2>&1
		} | grep -E '(ERROR|WARNING|CHECK):')
	[ -z "$out" ]
	result "checkpatch --strict clean on kernel/, include/, tests/simnic/ and tests/simrdma/" $? "$(echo "$out" | head -n 5 | tr '\n' '|')"
else
	result "checkpatch available (install linux-source-6.1)" 1 "no checkpatch.pl"
fi

if command -v sparse > /dev/null; then
	out=$( { make -s -j"$(nproc)" -C "/lib/modules/$KVER/build" M="$ROOT" C=2 \
		CF="-D__CHECK_ENDIAN__" modules
		make -s -j"$(nproc)" -C "/lib/modules/$KVER/build" M="$ROOT/tests/simnic" C=2 \
		CF="-D__CHECK_ENDIAN__" modules
		make -s -j"$(nproc)" -C "/lib/modules/$KVER/build" M="$ROOT/tests/simrdma" C=2 \
		CF="-D__CHECK_ENDIAN__" modules; } 2>&1 | grep -E "^$ROOT/(kernel|include|tests/simnic|tests/simrdma)/.*(warning|error):")
	[ -z "$out" ]
	result "sparse (C=2) clean on kernel/, tests/simnic/ and tests/simrdma/" $? "$(echo "$out" | head -n 5 | tr '\n' '|')"
else
	result "sparse available (install sparse)" 1 "no sparse"
fi

# The module's locks are taken from kprobe handlers, which 5.10 runs with
# interrupts off (a kretprobe's return handler, under the kprobes' hash
# lock): a bottom-half lock's unlock there may run softirqs and turn
# interrupts back on inside that lock. So no _bh lock, nor local_bh_*,
# anywhere in the module: irqsave (kernel/README, locking).
out=$(grep -nE '\b(spin|xa|read|write)_(un)?lock_bh\(|\blocal_bh_(enable|disable)\(' \
	kernel/*.[ch] kernel/*/*.[ch])
[ -z "$out" ]
result "no bottom-half lock in the module (probe handlers run with interrupts off on 5.10)" $? \
	"$(echo "$out" | head -n 5 | tr '\n' '|')"

# Calls run one way (kernel/README, Structure): no file of kernel/ calls
# or includes, through any chain, one that reaches back to it.
out=$(python3 tests/call_graph.py kernel 2>&1)
result "kernel/'s include and call graph has no loop between files" $? \
	"$(echo "$out" | cut -c 1-400 | head -n 3 | tr '\n' '|')"

# The same for the tool (user/README), and between its folders too.
out=$(python3 tests/call_graph.py user --folders 2>&1)
result "user/'s include and call graph has no loop between files or folders" $? \
	"$(echo "$out" | cut -c 1-400 | head -n 3 | tr '\n' '|')"

out=$(make -s -C user clean && make -s -j"$(nproc)" -C user CFLAGS="-O2 -g" 2>&1)
result "the tool builds with -Wall -Wextra -Werror" $? "$(echo "$out" | tail -n 5 | tr '\n' '|')"

# The uapi header, the kernel's policies and ops, the tool's and the
# fuzzer's attribute tables, regenerated from the spec with the pinned
# ynl-gen and its spec library: nothing may change (make spec writes them).
out=$(include/netlink/generate.sh --check 2>&1)
result "the files generated from include/netlink/specs/rocectl.yaml are what it generates" \
	$? "$(echo "$out" | head -n 8 | tr '\n' '|')"

# The README is the operator's document, read in one sitting: the reference
# goes to the man pages, lane internals and run logs to tests/README.
lines=$(wc -l < README)
[ "$lines" -le 250 ]
result "the README is at most 250 lines" $? "$lines lines: move details to the man pages or tests/README"
exit $status
