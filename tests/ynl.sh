# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by tests/deps.sh, include/netlink/generate.sh and the tests: the
# kernel's own netlink spec tools (tools/net/ynl: ynl-gen-c.py, cli.py and
# their lib/; Documentation/netlink: the spec schemas), taken from Debian's
# linux-source-6.12 at exactly YNL_SOURCE_VERSION so that regenerating
# include/uapi/linux/rocectl.h and kernel/netlink_gen.[ch] from the spec
# gives the same bytes everywhere. Only those two directories are extracted
# from the source tarball, once, into a cache directory keyed by version
# (the guest sees it too: it shares this machine's root). They need
# python3-yaml and python3-jsonschema.

YNL_SOURCE=linux-source-6.12
YNL_SOURCE_VERSION=6.12.118-1~deb12u1
YNL_TARBALL=/usr/src/$YNL_SOURCE.tar.xz
YNL_DIR=${ROCECTL_YNL:-${ROCECTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rocectl}/ynl-$YNL_SOURCE_VERSION}
YNL_GEN=$YNL_DIR/tools/net/ynl/ynl-gen-c.py
YNL_CLI=$YNL_DIR/tools/net/ynl/cli.py

# ynl_source_ok: the pinned linux-source package is installed.
ynl_source_ok() {
	[ "$(dpkg-query -W -f='${Version}' "$YNL_SOURCE" 2>/dev/null)" = "$YNL_SOURCE_VERSION" ] &&
		[ -r "$YNL_TARBALL" ]
}

# ynl_ready: the tools are extracted; else says what is missing.
ynl_ready() {
	[ -f "$YNL_GEN" ] && [ -f "$YNL_CLI" ] && return 0
	echo "the kernel's ynl tools are not in $YNL_DIR: run tests/deps.sh" \
		"($YNL_SOURCE $YNL_SOURCE_VERSION)" >&2
	return 1
}

# ynl_extract: extract the tools from the installed tarball (made aside and
# moved in place once complete); quick when they are there already.
ynl_extract() {
	local top=$YNL_SOURCE
	[ -f "$YNL_GEN" ] && [ -f "$YNL_CLI" ] && return 0
	ynl_source_ok || {
		echo "$YNL_SOURCE $YNL_SOURCE_VERSION is not installed" >&2
		return 1
	}
	mkdir -p "$(dirname "$YNL_DIR")"
	rm -rf "$YNL_DIR.new"
	mkdir "$YNL_DIR.new"
	tar -xJf "$YNL_TARBALL" -C "$YNL_DIR.new" --strip-components=1 \
		"$top/tools/net/ynl" "$top/Documentation/netlink" || return 1
	rm -rf "$YNL_DIR"
	mv "$YNL_DIR.new" "$YNL_DIR"
}
