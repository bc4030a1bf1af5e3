#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kbuild's choice of an MLNX_OFED / DOCA-OFED tree (make check; the OFED
# lane itself, tests/ofed/run.sh, needs a real tree). Fake OFED roots in a
# temporary directory stand for /usr/src/ofa_kernel (ROCECTL_OFA); one
# object of the module is compiled in a copy of the tree for each case,
# and kbuild's own record of the command (kernel/packet/.bth.o.cmd) says whether
# OFED's compat header and include directory were put first.
#
#   tests/ofed/detect.sh [KVER]
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1
[ -z "${1:-}" ] || KVER=$1
. tests/kver.sh
# shellcheck source=tests/results.sh
. tests/results.sh
# shellcheck source=tests/tree.sh
. tests/tree.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
plan 6

arch=$(uname -m)
# fake_tree DIR: what Kbuild looks for in an OFED tree.
fake_tree() {
	mkdir -p "$1/include/linux" "$1/include/uapi" &&
		: > "$1/Module.symvers" &&
		echo '/* a stand-in for OFED'"'"'s compat header */' > "$1/include/linux/compat-2.6.h"
}
fake_tree "$TMP/auto/$arch/$KVER"
fake_tree "$TMP/other/$arch/0.0.0-other"
ln -s "$TMP/other/$arch/0.0.0-other" "$TMP/other/default"
fake_tree "$TMP/deflt/$arch/$KVER"
ln -s "$TMP/deflt/$arch/$KVER" "$TMP/deflt/default"
fake_tree "$TMP/named"
mkdir -p "$TMP/none"

src=$TMP/src
copy_tree "$src"

# used WHAT WANT [MAKE-ARGS...]: compile kernel/packet/bth.o with MAKE-ARGS; WANT
# is the tree whose compat header must come first, or "none".
used() {
	local what=$1 want=$2 cmd got
	shift 2
	rm -f "$src/kernel/packet/bth.o" "$src/kernel/packet/.bth.o.cmd"
	if ! make -s -C "/lib/modules/$KVER/build" M="$src" "$@" kernel/packet/bth.o > "$TMP/make.log" 2>&1; then
		report "not ok - ofed detect: $what # the build failed: $(tail -n 3 "$TMP/make.log" | tr '\n' '|')"
		return
	fi
	cmd=$(head -n 1 "$src/kernel/packet/.bth.o.cmd")
	got=$(printf '%s\n' "$cmd" | grep -o -- "-include [^ ]*/include/linux/compat-2.6.h" | head -n 1)
	got=${got#-include }
	got=${got%/include/linux/compat-2.6.h}
	if [ "$want" != none ] && ! printf '%s\n' "$cmd" | grep -qF -- "-I$want/include "; then
		got="$got (without -I$want/include)"
	fi
	if [ "${got:-none}" = "$want" ]; then
		report "ok - ofed detect: $what"
	else
		report "not ok - ofed detect: $what # OFED tree used: ${got:-none}, expected $want"
	fi
}

used "no OFED tree: the kernel's own RDMA stack" none ROCECTL_OFA="$TMP/none"
used "the tree OFED installs for this kernel (ARCH/KVER) is used" "$TMP/auto/$arch/$KVER" ROCECTL_OFA="$TMP/auto"
used "OFED=no: the kernel's own stack, with OFED's tree present" none ROCECTL_OFA="$TMP/auto" OFED=no
used "default pointing at another kernel's tree is not used" none ROCECTL_OFA="$TMP/other"
used "default pointing at this kernel's tree is used" "$TMP/deflt/$arch/$KVER" ROCECTL_OFA="$TMP/deflt"
used "OFED=DIR is used as named" "$TMP/named" ROCECTL_OFA="$TMP/auto" OFED="$TMP/named"
