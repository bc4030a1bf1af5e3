#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The OFED lane, run by hand: rocectl built against NVIDIA's MLNX_OFED /
# DOCA-OFED kernel stack (mlnx-ofa_kernel) instead of the kernel's own, and
# loaded beside it in the test guest (tests/guest/ofed.sh). make check does
# not run it: OFED is not in Debian's archive, and CI reaches nothing else.
#
#   tests/ofed/run.sh [TREE]
#
# TREE is OFED's kernel tree for KVER, either
#   - the one OFED's packages install, /usr/src/ofa_kernel/$(uname -m)/KVER
#     (the default), its modules installed for KVER; or
#   - an mlnx-ofa_kernel source tree configured and built for KVER
#     (./configure --kernel-version=KVER --kernel-sources=... --with-core-mod
#     --with-user_access-mod --with-addr_trans-mod --with-mlx5-mod
#     --with-mlxfw-mod, then make): the guest loads its modules from a
#     module root made under build/ (modprobe -d); nothing is installed here.
# Without a tree every test is a SKIP that says so. Results as make
# check's, then "N passed, N failed, N skipped"; the exit status is 0 only
# if none failed. Logs in build/ofed-KVER/.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
. tests/kver.sh
# shellcheck source=tests/results.sh
. tests/results.sh
# shellcheck source=tests/tree.sh
. tests/tree.sh

TREE=${1:-/usr/src/ofa_kernel/$(uname -m)/$KVER}
W=$ROOT/build/ofed-$KVER
RESULTS=$W/results.tap
rm -rf "$W"
mkdir -p "$W"
: > "$RESULTS"

result() {	# result NAME OK [WHY]
	if [ "$2" = 0 ]; then
		report "ok - ofed: $1"
	else
		report "not ok - ofed: $1 # ${3:-failed}"
	fi
}

T_BUILD="rocectl.ko and rocectl_mlx5.ko build against OFED's tree with zero warnings"
T_SYMS="every symbol rocectl imports from OFED's modules carries OFED's version (its Module.symvers)"
T_GUEST="the guest booted with OFED's modules, ran the ofed scenario and powered off"
T_KLOG="the guest's whole kernel log clean"

if [ ! -f "$TREE/Module.symvers" ] || [ ! -f "$TREE/include/linux/compat-2.6.h" ]; then
	why="no OFED kernel tree for $KVER at $TREE (Module.symvers, include/linux/compat-2.6.h)"
	for t in "$T_BUILD" "$T_SYMS" "$T_GUEST" "$T_KLOG"; do
		report "ok - ofed: $t # SKIP $why"
	done
	results_summary "$RESULTS"
	exit 0
fi
TREE=$(cd "$TREE" && pwd)

# The version: a source tree's Debian changelog, else the compat base name.
version=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$TREE/debian/changelog" 2>/dev/null)
[ -n "$version" ] || version=$(cat "$TREE/compat_base" 2>/dev/null)
echo "# OFED ${version:-of unknown version} at $TREE; kernel $KVER"

# --- build against the tree, in a copy of this one ---------------------------------
src=$W/src
copy_tree "$src"
make -s -C "$src" module KVER="$KVER" OFED="$TREE" > "$W/module.log" 2>&1
code=$?
warn=$(grep -E 'warning:|error:' "$W/module.log" | head -n 3)
[ $code -eq 0 ] && [ -z "$warn" ]
result "$T_BUILD" $? "$warn$(tail -n 5 "$W/module.log")"
built=$code

# --- symbol versions: OFED's, not the kernel's ----------------------------------------
# modprobe --dump-modversions: what the module was linked against;
# Module.symvers of OFED and of the kernel: what each exports.
if [ $built = 0 ]; then
	for ko in rocectl rocectl_mlx5; do
		modprobe --dump-modversions "$src/$ko.ko"
	done | awk -v ofed="$TREE/Module.symvers" -v kern="/lib/modules/$KVER/build/Module.symvers" '
		BEGIN {
			while ((getline l < ofed) > 0) { split(l, f, "\t"); o[f[2]] = f[1] }
			while ((getline l < kern) > 0) { split(l, f, "\t"); k[f[2]] = f[1] }
		}
		{ crc = tolower($1); sym = $2 }
		sym in o { n++; if (tolower(o[sym]) != crc) { bad++; print "# " sym ": " crc ", OFED exports " o[sym] }
			   else if (sym in k && tolower(k[sym]) != crc) diff++ }
		END { printf "# %d imports from OFED, all of its version but %d; %d of them differ from the kernel'"'"'s own\n", n, bad, diff
		      exit !(n > 0 && !bad) }' > "$W/symbols.log" 2>&1
	code=$?
	cat "$W/symbols.log"
	result "$T_SYMS" $code "$(tail -n 3 "$W/symbols.log" | tr '\n' '|')"
else
	report "ok - ofed: $T_SYMS # SKIP the module did not build"
fi

# --- the guest ----------------------------------------------------------------------
# A source tree's modules go into a module root of their own (the kernel's
# modules linked in, OFED's in updates/), which the guest sees through the
# shared root; an installed OFED's are where modprobe looks already.
modroot=/
if find "$TREE" -name ib_core.ko -print -quit | grep -q .; then
	modroot=$W/modroot
	m=$modroot/lib/modules/$KVER
	mkdir -p "$m/updates/ofed"
	ln -s "/lib/modules/$KVER/kernel" "$m/kernel"
	cp /lib/modules/"$KVER"/modules.order /lib/modules/"$KVER"/modules.builtin* "$m/"
	find "$TREE" -name '*.ko' -not -path '*/compat/build/*' -not -path '*/compat/modtest/*' -exec cp {} "$m/updates/ofed/" \;
	depmod -b "$modroot" "$KVER" > "$W/depmod.log" 2>&1 ||
		echo "# depmod -b $modroot failed: $(tail -n 3 "$W/depmod.log")"
	echo "# OFED's modules for the guest: $(find "$m/updates/ofed" -name '*.ko' | wc -l) in $m/updates/ofed"
fi
if [ $built = 0 ] && { make -s -C "$src/user" && make -s -C "$src" simnic KVER="$KVER" OFED="$TREE"; } > "$W/tools.log" 2>&1; then
	(cd "$src" && KVER=$KVER tests/qemu/vm.sh "$W/guest" env ROCECTL_DKMS=0 \
		OFED_MODROOT="$modroot" SCENARIOS=ofed bash tests/guest/run.sh) > "$W/guest.log" 2>&1
	code=$?
	[ ! -f "$W/guest/results.tap" ] || grep -E '^(not )?ok - ' "$W/guest/results.tap" | tee -a "$RESULTS"
	[ $code -eq 0 ]
	result "$T_GUEST" $? "exit $code: $(tail -n 5 "$W/guest.log" | tr '\n' '|')"
	bad=$(grep -E 'BUG:|WARNING:|Oops|general protection|Kernel panic|KASAN|UBSAN|Call Trace|lockdep|possible circular|disagrees about version' \
		"$W/guest/dmesg" 2>/dev/null | head -n 3)
	[ -z "$bad" ] && [ -s "$W/guest/dmesg" ]
	result "$T_KLOG" $? "$bad"
else
	why="the module, the tool or the simulated NIC did not build ($(tail -n 2 "$W/tools.log" 2>/dev/null | tr '\n' '|'))"
	result "$T_GUEST" 1 "$why"
	report "ok - ofed: $T_KLOG # SKIP no guest"
fi
results_summary "$RESULTS"
