#!/bin/bash
# Build (once, cached) the guest's initramfs: busybox and the virtio/9p
# modules of kernel $1. Prints the path of the image.
set -eu
kver=$1
here=$(cd "$(dirname "$0")" && pwd)
cache=${ROCECTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rocectl}
key=$(cat "$here/initramfs-init" /bin/busybox | sha256sum | cut -c1-16)
img=$cache/initramfs-$kver-$key.cpio.gz
if [ -s "$img" ]; then
	echo "$img"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,modules,newroot}
cp /bin/busybox "$work/bin/busybox"
cp "$here/initramfs-init" "$work/init"
chmod +x "$work/init"
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
	 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
	f=$(find "/lib/modules/$kver/kernel" -name "$m.ko*" | head -n 1)
	[ -n "$f" ] || continue	# built in
	case $f in
	*.ko.xz) xz -dc "$f" > "$work/modules/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" > "$work/modules/$m.ko" ;;
	*) cp "$f" "$work/modules/$m.ko" ;;
	esac
done
(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) > "$img.tmp"
mv "$img.tmp" "$img"
echo "$img"
