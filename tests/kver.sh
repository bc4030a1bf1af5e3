# Sourced: pick the guest kernel, KVER, unless the caller set it: the newest
# Debian kernel that has both an image in /boot and a build tree.
if [ -z "${KVER:-}" ]; then
	for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -rV); do
		if [ -d "/lib/modules/$k/build" ]; then
			KVER=$k
			break
		fi
	done
fi
if [ -z "${KVER:-}" ]; then
	echo "no kernel with both /boot/vmlinuz-VER and /lib/modules/VER/build: install linux-image-amd64 and linux-headers-amd64" >&2
	exit 1
fi
export KVER
