#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, everything rocectl needs to build and to run its
# tests and demo on Debian 12 (flex ... libssl-dev: the debug lane's kernel
# build, tests/debug/). Idempotent; needs root.
set -eu
PACKAGES="gcc make libc6-dev pkg-config libmnl-dev sparse python3
	linux-image-amd64 linux-headers-amd64 linux-source-6.1 xz-utils
	qemu-system-x86 busybox-static cpio kmod iproute2 procps
	rdma-core ibverbs-utils perftest libibverbs-dev linux-perf jq ethtool
	dkms openssl udev systemd man-db groff-base
	flex bison bc libelf-dev libssl-dev"

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing -- run this as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $missing
