#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once, cached outside the checkout) the debug kernel of the debug
# lane: Debian's linux-source-6.1 configured as allnoconfig with
# tests/debug/config (KCONFIG_ALLCONFIG): only what the test guest uses,
# plus KASAN, lockdep, kmemleak, DEBUG_OBJECTS and fault injection.
#
#   tests/debug/build-kernel.sh            build, or reuse a complete build
#   tests/debug/build-kernel.sh --dir      print the cache directory only
#
# The cache directory, ${ROCECTL_DEBUG_CACHE:-${XDG_CACHE_HOME:-~/.cache}/
# rocectl/debug-kernel}/KEY, is keyed by the fragment, the source package's
# version and BUILD_VERSION below. It holds
#   src/        the configured build tree (after make clean: enough to build
#               out-of-tree modules with M=; KERNELDIR)
#   bzImage     the kernel image
#   mod/lib/modules/RELEASE/   the installed modules
#   release     the kernel release (uname -r in the guest)
#   build.log   the build's log; build-seconds: its wall time
#   stamp       written last: the build is complete
#   patches.stamp, patches.log  the module fixes installed (below)
# The lane's fixes to the kernel's own modules, tests/debug/patches/*.patch
# (each says why), are applied to pristine copies of the directories they
# touch, built with M= and installed over the modules built: keyed apart
# from the kernel, so a new fix costs a module build, not a kernel build.
# The guest sees /lib/modules/RELEASE through the shared root: this script
# points /lib/modules/RELEASE at the cache (a symlink; needs root once).
set -eu
# Bump when this script changes what it produces.
BUILD_VERSION=2

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/config
tarball=${ROCECTL_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
if [ ! -r "$tarball" ] || [ -z "$srcver" ]; then
	echo "build-kernel: linux-source-6.1 is not installed ($tarball): run tests/deps.sh" >&2
	exit 1
fi
key=$( { cat "$fragment"; echo "linux-source-6.1 $srcver"; echo "build-kernel $BUILD_VERSION"; } |
	sha256sum | cut -c1-16)
base=${ROCECTL_DEBUG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rocectl/debug-kernel}
dir=$base/$key

if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi

# Point /lib/modules/RELEASE at the cached modules, where the guest's
# modprobe looks (the guest sees this machine's root, read-only).
link_modules() {
	local rel want cur
	rel=$(cat "$dir/release")
	want=$dir/mod/lib/modules/$rel
	cur=$(readlink "/lib/modules/$rel" 2>/dev/null || true)
	[ "$cur" = "$want" ] && return 0
	if [ -e "/lib/modules/$rel" ] && [ ! -L "/lib/modules/$rel" ]; then
		echo "build-kernel: /lib/modules/$rel exists and is not this lane's symlink: leaving it" >&2
		return 1
	fi
	if ! ln -sfn "$want" "/lib/modules/$rel" 2>/dev/null; then
		echo "build-kernel: cannot link /lib/modules/$rel -> $want (run as root once)" >&2
		return 1
	fi
	echo "build-kernel: /lib/modules/$rel -> $want"
}

# Build the module directories tests/debug/patches/*.patch touch from
# pristine sources with the patches applied, and install them over the
# kernel's. Idempotent: patches.stamp holds the patches' hash.
patch_modules() {
	local patches=("$here"/patches/*.patch) sum rel d dirs plog=$dir/patches.log
	[ -e "${patches[0]}" ] || return 0
	sum=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
	[ "$(cat "$dir/patches.stamp" 2>/dev/null)" = "$sum" ] && return 0
	rel=$(cat "$dir/release")
	dirs=$(sed -n 's|^+++ b/\(.*\)/[^/]*$|\1|p' "${patches[@]}" | sort -u)
	rm -f "$dir/patches.stamp"
	date > "$plog"
	for d in $dirs; do
		rm -rf "${dir:?}/src/$d"
		tar -xJf "$tarball" -C "$dir/src" --strip-components=1 "linux-source-6.1/$d" >> "$plog" 2>&1 ||
			{ echo "build-kernel: cannot extract $d from $tarball" >&2; return 1; }
	done
	for p in "${patches[@]}"; do
		patch -p1 -d "$dir/src" < "$p" >> "$plog" 2>&1 ||
			{ echo "build-kernel: $p does not apply (see $plog)" >&2; return 1; }
	done
	for d in $dirs; do
		make -C "$dir/src" M="$dir/src/$d" modules >> "$plog" 2>&1 &&
			make -C "$dir/src" M="$dir/src/$d" INSTALL_MOD_PATH="$dir/mod" \
				INSTALL_MOD_STRIP=1 INSTALL_MOD_DIR="kernel/$d" DEPMOD=true \
				modules_install >> "$plog" 2>&1 ||
			{ echo "build-kernel: building the patched $d failed (see $plog)" >&2; return 1; }
		make -C "$dir/src" M="$dir/src/$d" clean >> "$plog" 2>&1
	done
	echo "$sum" > "$dir/patches.stamp"
	echo "build-kernel: installed patched modules of $dirs ($(cd "$here/patches" && echo ./*.patch))"
}

if [ -f "$dir/stamp" ]; then
	echo "build-kernel: reusing $dir ($(cat "$dir/release"), built in $(cat "$dir/build-seconds") s)"
	mkdir -p "$base"
	exec 9> "$base/$key.lock"
	flock 9
	patch_modules || exit 1
	link_modules
	exit
fi

mkdir -p "$base"
# One builder per key; a second caller waits for the first.
exec 9> "$base/$key.lock"
flock 9
if [ -f "$dir/stamp" ]; then
	echo "build-kernel: reusing $dir (built meanwhile)"
	patch_modules || exit 1
	link_modules
	exit
fi

rm -rf "$dir"
mkdir -p "$dir/src"
log=$dir/build.log
start=$(date +%s)
echo "build-kernel: building the debug kernel in $dir (log: $log); cold, this takes a while"
fail() {
	echo "build-kernel: $* -- last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 1
}

{
	echo "# key $key: linux-source-6.1 $srcver, build-kernel $BUILD_VERSION, $(nproc) cpus"
	date
} > "$log"
tar -xJf "$tarball" -C "$dir/src" --strip-components=1 >> "$log" 2>&1 || fail "extracting $tarball failed"
cp "$fragment" "$dir/config.fragment"

cd "$dir/src"
# Everything the fragment does not name is off: the smallest kernel that
# boots the guest and runs the suite.
make KCONFIG_ALLCONFIG="$fragment" allnoconfig >> "$log" 2>&1 || fail "configuring failed"

# Kconfig silently drops options whose dependencies are unmet: every line
# of the fragment must be in the final .config as written.
missing=
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" .config || missing="$missing
  want $line, have: $(grep -E "^(# )?${line%%=*}[= ]" .config || echo absent)" ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		! grep -qE "^$opt=" .config || missing="$missing
  want $line, have: $(grep -E "^$opt=" .config)" ;;
	esac
done < "$fragment"
if [ -n "$missing" ]; then
	echo "build-kernel: the final .config lacks options of $fragment:$missing" | tee -a "$log" >&2
	exit 1
fi
cp .config "$dir/config"

jobs=$(nproc)
make -j"$jobs" bzImage modules >> "$log" 2>&1 || fail "make bzImage modules failed"
make -s kernelrelease > "$dir/release.tmp" 2>> "$log" || fail "make kernelrelease failed"
rel=$(cat "$dir/release.tmp")
make INSTALL_MOD_PATH="$dir/mod" INSTALL_MOD_STRIP=1 modules_install >> "$log" 2>&1 ||
	fail "make modules_install failed"
cp arch/x86/boot/bzImage "$dir/bzImage"
# make clean leaves what out-of-tree modules build against (.config,
# headers, scripts, Module.symvers) and frees the objects' gigabytes.
make clean >> "$log" 2>&1 || fail "make clean failed"
# The installed tree's build link names the build tree: modprobe, modinfo
# and make -C /lib/modules/RELEASE/build all work in the guest and here.
ln -sfn "$dir/src" "$dir/mod/lib/modules/$rel/build"
rm -f "$dir/mod/lib/modules/$rel/source"
mv "$dir/release.tmp" "$dir/release"
end=$(date +%s)
echo $((end - start)) > "$dir/build-seconds"
echo "# built in $((end - start)) s: $(date)" >> "$log"
touch "$dir/stamp"
echo "build-kernel: built $rel in $((end - start)) s ($((jobs)) jobs): $dir"
patch_modules || exit 1
link_modules
