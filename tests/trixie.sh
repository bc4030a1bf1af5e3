# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by tests/deps.sh and tests/run: the Linux 7.x lane's chroot.
# trixie-backports' 7.2 headers need trixie's gcc-14 and libc, which would
# upgrade this Debian 12 machine's libc: they live in a trixie chroot made by
# debootstrap (ROCECTL_TRIXIE), with the kernel's image and modules. The
# module, simnic and simrdma are built there. The kernel is installed as
# its image's two parts, linux-binary (vmlinuz in the modules' directory)
# and linux-modules, without the linux-image package, which would pull in
# dracut, systemd and udev to make an initramfs that the guest does not use
# (it has its own, tests/qemu). The chroot's /usr/lib/modules/RELEASE is
# linked at /lib/modules/RELEASE on the host, where the guest (whose root is
# the host's) and its modprobe look, and the guest boots the vmlinuz there.
# Nothing goes to /boot: tests/kver.sh's list of host kernels never offers it.

TRIXIE=${ROCECTL_TRIXIE:-/var/cache/rocectl/trixie}
# The exact kernel (ABI) trixie-backports carries, as tests/deps.sh's others.
TRIXIE_KVER=7.2.12+deb13-amd64
TRIXIE_PACKAGES="make binutils kmod linux-headers-$TRIXIE_KVER linux-binary-$TRIXIE_KVER
	linux-modules-$TRIXIE_KVER"

# trixie_run DIR COMMAND...: COMMAND, as root, in the chroot's /src, which is
# DIR bind-mounted there (DIR -: nothing), with /proc, in a mount namespace
# of its own: the mounts go with it, and two runs never see each other's.
trixie_run() {
	local dir=$1
	shift
	unshare --mount --propagation private -- sh -c '
		t=$1 d=$2
		shift 2
		{ [ "$d" = - ] || mount --bind "$d" "$t/src"; } &&
			mount -t proc proc "$t/proc" &&
			exec chroot "$t" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
				HOME=/root LANG=C.UTF-8 sh -c "cd /src && exec \"\$@\"" sh "$@"
	' sh "$TRIXIE" "$dir" "$@"
}

# trixie_ready: the chroot has TRIXIE_PACKAGES (its dpkg database read from
# here) and the host's /lib/modules/TRIXIE_KVER is the chroot's; else says
# what is not.
trixie_ready() {
	local mod=$TRIXIE/usr/lib/modules/$TRIXIE_KVER p
	for p in $TRIXIE_PACKAGES; do
		if ! dpkg-query --admindir="$TRIXIE/var/lib/dpkg" -W -f='${Status}' "$p" 2> /dev/null |
			grep -q "install ok installed"; then
			echo "no trixie chroot with $p in $TRIXIE (tests/deps.sh)"
			return 1
		fi
	done
	if [ "$(readlink "/lib/modules/$TRIXIE_KVER")" != "$mod" ]; then
		echo "/lib/modules/$TRIXIE_KVER is not a link to $mod (tests/deps.sh)"
		return 1
	fi
}
