#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a test-only rdma_rxe from Debian's linux-source-6.1, for the 6.1
# kernel KVER, into OUT/rdma_rxe.ko, with FORM's patch:
#   index    Linux 6.10-6.16's form (index-form.patch: sk_user_data holds
#            the QP's pool index, not the QP); the default
#   movable  a device the RDMA core can move into another network
#            namespace (movable.patch)
# The guest loads it instead of the distribution's when ROCECTL_RXE_KO
# names it (tests/guest/lib.sh). Only 6.1: the source package must be the
# one the kernel was built from (checked), so that the module is that
# kernel's.
#
#   tests/rxe_index/build.sh KVER OUT [FORM]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
kver=$1 out=$2 form=${3:-index}
case $form in
index) patch=index-form.patch ;;
movable) patch=movable.patch ;;
*) echo "rxe_index: no form $form (index or movable)" >&2; exit 2 ;;
esac
tarball=/usr/src/linux-source-6.1.tar.xz
case $kver in
6.1.*) ;;
*) echo "rxe_index: only for the 6.1 series, not $kver" >&2; exit 2 ;;
esac
src=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
img=$(dpkg-query -W -f='${Version}' "linux-image-$kver" 2>/dev/null || true)
if [ ! -r "$tarball" ] || [ -z "$src" ]; then
	echo "rxe_index: linux-source-6.1 is not installed: run tests/deps.sh" >&2
	exit 1
fi
if [ "$src" != "$img" ]; then
	echo "rxe_index: linux-source-6.1 is $src, linux-image-$kver is ${img:-not installed}: not the same kernel" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"
tar -xJf "$tarball" -C "$out" --strip-components=1 linux-source-6.1/drivers/infiniband/sw/rxe
patch -s -p1 -d "$out" < "$here/$patch"
make -s -C "/lib/modules/$kver/build" M="$out/drivers/infiniband/sw/rxe" CONFIG_RDMA_RXE=m modules
cp "$out/drivers/infiniband/sw/rxe/rdma_rxe.ko" "$out/rdma_rxe.ko"
echo "rxe_index: $out/rdma_rxe.ko (linux-source-6.1 $src with $patch)"
