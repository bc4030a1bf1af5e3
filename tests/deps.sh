#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, everything rocectl needs to build and to run its
# tests and demo on Debian 12 (flex ... libssl-dev: the debug lane's kernel
# build, tests/debug/; prometheus and prometheus-node-exporter: the
# exporter's tests run their own in the guest, so the services the packages
# start here are stopped and disabled). Idempotent; needs root.
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
# QEMU comes from bookworm-backports too (10.0): bookworm's 7.2, emulating
# two vCPUs on two threads, can keep running a stale copy of kernel text
# that another vCPU has just patched (a static key or kprobe turned on or
# off): the guest then takes an int3 that is no longer in memory over and
# over, a soft lockup at the patched site (tests/README).
set -eu
PACKAGES="gcc make libc6-dev pkg-config libmnl-dev sparse python3
	linux-image-amd64 linux-headers-amd64 linux-source-6.1 xz-utils
	busybox-static cpio kmod iproute2 procps
	rdma-core ibverbs-utils perftest libibverbs-dev linux-perf jq ethtool
	dkms openssl udev systemd man-db groff-base
	libmicrohttpd-dev libsystemd-dev curl prometheus prometheus-node-exporter bpftrace
	flex bison bc libelf-dev libssl-dev"
KERNELS="linux-headers-6.12.95+deb12-amd64 linux-image-6.12.95+deb12-amd64
	linux-headers-5.10.0-32-amd64 linux-image-5.10.0-32-amd64"

QEMU_MIN=1:10.0

missing=
qemu=
for p in $PACKAGES $KERNELS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
dpkg --compare-versions "$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null)" ge "$QEMU_MIN" ||
	qemu=qemu-system-x86
[ -n "$missing$qemu" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing${qemu:+ $qemu (bookworm-backports)} -- run this as root" >&2
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

export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=120 update -q
[ -z "$missing" ] ||
	apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends $missing
# QEMU in a transaction of its own, with -t: its dependencies that the
# suite has newer (qemu-system-common, qemu-system-data, seabios, libbrlapi)
# come from there too, as the pin alone would not allow (apt then finds
# nothing to install). Nothing outside QEMU's dependencies is touched.
[ -z "$qemu" ] ||
	apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends \
		-t bookworm-backports $qemu
# The packages' own Prometheus and node_exporter services are not the tests'.
case " $missing " in
*" prometheus "* | *" prometheus-node-exporter "*)
	if [ -d /run/systemd/system ]; then
		systemctl disable --now prometheus.service prometheus-node-exporter.service \
			prometheus-node-exporter-apt.timer prometheus-node-exporter-smartmon.timer \
			> /dev/null 2>&1 || true
	fi ;;
esac
