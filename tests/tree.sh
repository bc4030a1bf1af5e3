# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the lanes that build in a copy of the checkout (tests/run's
# other kernels, the debug lane, the OFED lane and its detection check).

# copy_tree DIR: DIR made anew with the sources of the tree at $ROOT, tracked
# and untracked as the work tree has them, without build output.
copy_tree() {
	rm -rf "$1" && mkdir -p "$1" || return 1
	if git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
		(cd "$ROOT" && git ls-files -co --exclude-standard -z | cpio -pdm0 --quiet "$1")
	else
		tar -C "$ROOT" -c --exclude=./build --exclude='*.o' --exclude='*.ko' \
			--exclude='*.cmd' . | tar -x -C "$1"
	fi
}

# copy_host_builds DIR: the tool's and the test tools' build output of $ROOT,
# where built, copied into the tree copy DIR with their times: they are this
# machine's programs whatever kernel the copy is for, so DIR's make finds
# them up to date (and builds what is missing or older than its sources).
copy_host_builds() {
	local f
	for f in "$ROOT"/user/*.o "$ROOT"/user/*.d "$ROOT"/user/*/*.o "$ROOT"/user/*/*.d "$ROOT"/user/rocectl; do
		[ -e "$f" ] && cp -p "$f" "$1/${f#"$ROOT"/}"
	done
	[ ! -d "$ROOT/tests/tools/build" ] || cp -pR "$ROOT/tests/tools/build" "$1/tests/tools/"
	return 0
}
