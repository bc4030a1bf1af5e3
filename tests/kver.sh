# Sourced: pick the guest kernel, KVER, unless the caller set it: Debian 12's
# own kernel series (6.1), the newest one that has both an image in /boot and
# a build tree; failing that, the newest kernel that has both. The other
# kernels installed (tests/deps.sh: 5.10, 6.12) are tests/run's extra lanes,
# as is 7.2, which lives in a chroot and is never listed here (tests/trixie.sh).
rocectl_kernels() {	# every kernel with an image and a build tree, newest first
	local k
	for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -rV); do
		[ ! -d "/lib/modules/$k/build" ] || echo "$k"
	done
}
if [ -z "${KVER:-}" ]; then
	KVER=$(rocectl_kernels | grep -m 1 '^6\.1\.')
	[ -n "$KVER" ] || KVER=$(rocectl_kernels | head -n 1)
fi
if [ -z "${KVER:-}" ]; then
	echo "no kernel with both /boot/vmlinuz-VER and /lib/modules/VER/build: install linux-image-amd64 and linux-headers-amd64" >&2
	exit 1
fi
export KVER
