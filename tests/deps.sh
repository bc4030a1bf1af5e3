#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, everything rocectl needs to build and to run its
# tests and demo on Debian 12 (flex ... libssl-dev: the debug lane's kernel
# build, tests/debug/; prometheus and prometheus-node-exporter: the
# exporter's tests run their own in the guest, so the services the packages
# start here are stopped and disabled; apache2-utils: htpasswd, whose own
# bcrypt makes the hashes of the exporter's password test, independent of the
# system's crypt the exporter checks them with). Idempotent; needs root.
#
# The other kernels the module is built and booted against (tests/run's
# extra lanes): Debian 12's 6.12 from bookworm-backports and Debian 11's
# 5.10 from bullseye. Both suites are added with the archive's own keyring
# and pinned below bookworm (priority 100 and 90), so that nothing else is
# ever upgraded or taken from them; their kernels are installed by exact
# package name. bullseye's 5.10 headers build with the compiler that kernel
# was built with, gcc-10, and their kbuild links libssl1.1: both come from
# bullseye too and install beside bookworm's gcc-12 and libssl3 (apt
# resolves them; nothing is unpacked by hand).
#
# Linux 7.x (tests/run's 7.x lane) comes from trixie-backports, and its
# headers need trixie's gcc-14 and libc: they are installed in a trixie
# chroot made by debootstrap (tests/trixie.sh: where, and how the lane uses
# it), never on this machine, whose libc they would upgrade. The chroot's
# kernel modules are linked at /lib/modules/RELEASE, where the guest looks.
#
# The kernel's netlink spec tools (ynl-gen, the ynl CLI: tests/ynl.sh) come
# from linux-source-6.12 in bookworm-backports, at the exact version
# tests/ynl.sh pins so that regenerating from the spec is reproducible;
# only tools/net/ynl and Documentation/netlink are extracted, into a cache.
#
# QEMU comes from bookworm-backports too (10.0): bookworm's 7.2, emulating
# two vCPUs on two threads, can keep running a stale copy of kernel text
# that another vCPU has just patched (a static key or kprobe turned on or
# off): the guest then takes an int3 that is no longer in memory over and
# over, a soft lockup at the patched site (tests/README).
set -eu
# shellcheck source=tests/trixie.sh
. "$(dirname "$0")/trixie.sh"
# shellcheck source=tests/ynl.sh
. "$(dirname "$0")/ynl.sh"
PACKAGES="gcc make libc6-dev pkg-config libmnl-dev sparse python3
	linux-image-amd64 linux-headers-amd64 linux-source-6.1 xz-utils
	busybox-static cpio kmod iproute2 procps
	rdma-core ibverbs-utils perftest libibverbs-dev linux-perf jq ethtool traceroute tcpdump
	dkms openssl udev systemd man-db groff-base
	libmicrohttpd-dev libsystemd-dev libyaml-dev libcrypt-dev apache2-utils
	curl prometheus prometheus-node-exporter bpftrace
	flex bison bc libelf-dev libssl-dev debootstrap python3-yaml python3-jsonschema"
KERNELS="linux-headers-6.12.95+deb12-amd64 linux-image-6.12.95+deb12-amd64
	linux-headers-5.10.0-32-amd64 linux-image-5.10.0-32-amd64"

QEMU_MIN=1:10.0

# tests/deps.sh debug-kernel: only what the debug lane's kernel build
# (tests/debug/build-kernel.sh) needs, so that CI (.ci/run) can start that
# build, most of an hour of one core, before the rest is installed; and
# debootstrap, so that the second stage makes the trixie chroot beside
# its own installs.
DEBUG_KERNEL_PACKAGES="gcc make libc6-dev linux-source-6.1 xz-utils kmod cpio
	flex bison bc libelf-dev libssl-dev debootstrap"
case ${1:-} in
"") stage=all ;;
debug-kernel) stage=debug-kernel PACKAGES=$DEBUG_KERNEL_PACKAGES KERNELS= ;;
*) echo "usage: tests/deps.sh [debug-kernel]" >&2; exit 2 ;;
esac

missing=
qemu=
for p in $PACKAGES $KERNELS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
ynl=
trixie=
if [ $stage = all ]; then
	dpkg --compare-versions "$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null)" ge "$QEMU_MIN" ||
		qemu=qemu-system-x86
	ynl_source_ok || ynl="$YNL_SOURCE=$YNL_SOURCE_VERSION"
	trixie_ready > /dev/null || trixie=$TRIXIE
fi
if [ -z "$missing$qemu$trixie$ynl" ]; then
	[ $stage = debug-kernel ] || ynl_extract
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing${qemu:+ $qemu (bookworm-backports)}${ynl:+ $ynl}${trixie:+ the trixie chroot $trixie}" \
		"-- run this as root" >&2
	exit 1
fi
# put FILE: FILE gets this function's standard input, unless it has it already.
put() {
	local new
	new=$(cat)
	[ "$(cat "$1" 2>/dev/null)" = "$new" ] || printf '%s\n' "$new" > "$1"
}
put /etc/apt/sources.list.d/rocectl-kernels.sources <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports bullseye
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
put /etc/apt/preferences.d/rocectl-kernels <<EOF
Package: *
Pin: release n=bookworm-backports
Pin-Priority: 100

Package: *
Pin: release n=bullseye
Pin-Priority: 90
EOF

# The trixie chroot: debootstrap's minimal system, made aside and moved in
# place once complete (its mounts in a namespace of their own), then
# trixie-backports' kernel and headers in it (gcc-14 with them; -t: their
# dependencies that backports has newer, such as linux-base, from there).
# Its own dpkg and downloads: where debootstrap is installed already (CI's
# first stage installs it), it is made beside this machine's installs.
trixie_setup() {
	if [ ! -x "$TRIXIE/usr/bin/apt-get" ]; then
		mkdir -p "$(dirname "$TRIXIE")"
		rm -rf --one-file-system "$TRIXIE.new"
		unshare --mount --propagation private -- \
			debootstrap --variant=minbase trixie "$TRIXIE.new" http://deb.debian.org/debian
		mkdir -p "$TRIXIE.new/src"
		rm -rf --one-file-system "$TRIXIE"
		mv "$TRIXIE.new" "$TRIXIE"
	fi
	put "$TRIXIE/etc/apt/sources.list.d/backports.sources" <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	trixie_run - apt-get -o DPkg::Lock::Timeout=120 update -q
	# shellcheck disable=SC2086 # a list of names
	trixie_run - env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 -o Dpkg::Use-Pty=0 \
		install -y -q --no-install-recommends -t trixie-backports $TRIXIE_PACKAGES
	trixie_run - apt-get clean
	if [ -e "/lib/modules/$TRIXIE_KVER" ] && [ ! -L "/lib/modules/$TRIXIE_KVER" ]; then
		echo "/lib/modules/$TRIXIE_KVER exists and is not a link to the chroot's: leaving it" >&2
		exit 1
	fi
	ln -sfn "$TRIXIE/usr/lib/modules/$TRIXIE_KVER" "/lib/modules/$TRIXIE_KVER"
	trixie_ready
}

export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=120 update -q
trixie_pid=
if [ -n "$trixie" ] && [ $stage = all ] && command -v debootstrap > /dev/null; then
	trixie_log=$(mktemp)
	trixie_setup > "$trixie_log" 2>&1 &
	trixie_pid=$!
	trap 'kill "$trixie_pid" 2> /dev/null' EXIT
fi
[ -z "$missing" ] ||
	apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends $missing
[ $stage = all ] || exit 0
# QEMU in a transaction of its own, with -t: its dependencies that the
# suite has newer (qemu-system-common, qemu-system-data, seabios, libbrlapi)
# come from there too, as the pin alone would not allow (apt then finds
# nothing to install). Nothing outside QEMU's dependencies is touched.
[ -z "$qemu" ] ||
	apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends \
		-t bookworm-backports $qemu
# By exact version (the pin keeps backports below bookworm otherwise).
[ -z "$ynl" ] ||
	apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends "$ynl"
ynl_extract
if [ -n "$trixie_pid" ]; then
	code=0
	wait "$trixie_pid" || code=$?
	trap - EXIT
	cat "$trixie_log"
	rm -f "$trixie_log"
	[ $code = 0 ] || { echo "tests/deps.sh: the trixie chroot failed (exit $code)" >&2; exit 1; }
elif [ -n "$trixie" ]; then
	trixie_setup
fi
# The packages' own Prometheus and node_exporter services are not the tests'.
case " $missing " in
*" prometheus "* | *" prometheus-node-exporter "*)
	if [ -d /run/systemd/system ]; then
		systemctl disable --now prometheus.service prometheus-node-exporter.service \
			prometheus-node-exporter-apt.timer prometheus-node-exporter-smartmon.timer \
			> /dev/null 2>&1 || true
	fi ;;
esac
