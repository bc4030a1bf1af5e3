#!/bin/bash
# Runs as PID 1 inside the guest, chrooted into the build machine's root
# (read-only). Gives the guest fresh kernel filesystems, a writable /tmp and
# /run, mounts the results share, runs the job the host wrote there, saves
# its status and the kernel log, and powers off.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mkdir -p /tmp/out /run/netns
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /tmp/out

export HOME=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export ROCECTL_OUT=/tmp/out
ip link set lo up
ulimit -c 0
echo 1 > /proc/sys/kernel/panic_on_oops

cd "$(cat /tmp/out/cwd)"
timeout -k 5 "$(cat /tmp/out/limit)" bash /tmp/out/job 2>&1 | tee /tmp/out/job.log
echo "${PIPESTATUS[0]}" > /tmp/out/status
dmesg > /tmp/out/dmesg
sync
umount /tmp/out
echo o > /proc/sysrq-trigger
sleep 10
