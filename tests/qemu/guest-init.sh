#!/bin/bash
# Runs as PID 1 inside the guest, its root the build machine's root
# (read-only, moved over the initramfs' root: no chroot, so user namespaces
# can be made). Gives the guest fresh kernel filesystems and a writable /run
# (TMPDIR and HOME are in it: /tmp stays the build machine's, where the
# checkout under test may live), mounts the results share, runs the job the
# host wrote there, saves its status and the kernel log, and powers off.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /run/out /run/tmp /run/netns
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /run/out

export TMPDIR=/run/tmp HOME=/run/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export ROCECTL_OUT=/run/out
ip link set lo up
ulimit -c 0
echo 1 > /proc/sys/kernel/panic_on_oops

cd "$(cat /run/out/cwd)"
timeout -k 5 "$(cat /run/out/limit)" bash /run/out/job 2>&1 | tee /run/out/job.log
echo "${PIPESTATUS[0]}" > /run/out/status
dmesg > /run/out/dmesg
sync
umount /run/out
# A kernel without ACPI (the debug lane's) cannot power off, and once it
# has tried, its devices are shut down: it reboots instead, on which QEMU
# exits (-no-reboot).
if [ -d /sys/firmware/acpi ]; then
	echo o > /proc/sysrq-trigger
else
	echo b > /proc/sysrq-trigger
fi
sleep 10
