#!/bin/bash
# Boot Debian's kernel under QEMU (software emulation) with this machine's
# root shared read-only, run one job in it and bring its results back.
#
#   tests/qemu/vm.sh OUTDIR COMMAND [ARG...]
#
# OUTDIR receives job.log (the job's output), status (its exit code),
# dmesg (the guest's kernel log) and console.log. The exit status is the
# job's, or 125 if the guest died before the job finished.
# Environment: KVER (guest kernel), VM_TIMEOUT (seconds, default 1800),
# VM_MEM (MiB, default 2048). Another kernel than Debian's /boot/vmlinuz-KVER
# (the debug lane's): ROCECTL_KERNEL=IMAGE ROCECTL_KVER=RELEASE (its modules
# in /lib/modules/RELEASE); VM_APPEND adds to the kernel command line.
# VM_ICOUNT=OPTS runs the guest under -icount OPTS (e.g. shift=0,sleep=off:
# guest time counts instructions, one vCPU thread; tests/bench/run.sh
# --icount); unset, the vCPUs run in parallel on host time, as always.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ -z "${ROCECTL_KVER:-}" ] || KVER=$ROCECTL_KVER
. "$here/../kver.sh"
kernel=${ROCECTL_KERNEL:-/boot/vmlinuz-$KVER}

out=$1; shift
[ $# -gt 0 ] || { echo "usage: $0 OUTDIR COMMAND [ARG...]" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/status" "$out/job.log" "$out/dmesg" "$out/console.log"

initrd=$("$here/mkinitramfs.sh" "$KVER")

printf '%s\n' "$PWD" > "$out/cwd"
# The job stops in time for the guest to save its kernel log.
echo $(( ${VM_TIMEOUT:-1800} - 60 )) > "$out/limit"
# The kernel's ynl tools, where this machine's cache has them (the guest's
# HOME is its own).
# shellcheck source=tests/ynl.sh
. "$here/../ynl.sh"
{
	printf 'export KVER=%q\n' "$KVER"
	printf 'export ROCECTL_YNL=%q\n' "$YNL_DIR"
	printf '%q ' "$@"
	echo
} > "$out/job"

# The kernel log holds a whole lane (16 MiB, not the default 128 KiB): the
# scenarios find what the kernel said since a mark by counting lines, and
# a log that wrapped would show them nothing -- a failure, or worse, a
# "kernel log clean" that read nothing.
# VM_SMP: the cpus (default 2). The debug lane's kernel has no ACPI and
# finds its cpus in the BIOS's MP table, which lists one cpu per socket:
# it asks for two sockets.
timeout --foreground -k 10 "${VM_TIMEOUT:-1800}" \
	qemu-system-x86_64 -m "${VM_MEM:-2048}" -smp "${VM_SMP:-2}" -cpu max \
	-display none -monitor none -nic none -no-reboot \
	${VM_ICOUNT:+-icount "$VM_ICOUNT"} \
	-serial "file:$out/console.log" \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 log_buf_len=16M ROCECTL_GUEST_INIT=$here/guest-init.sh${VM_APPEND:+ $VM_APPEND}" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=results,security_model=none" \
	</dev/null >"$out/qemu.log" 2>&1 || true

if [ ! -s "$out/status" ]; then
	echo "guest died before its job finished; console:" >&2
	tail -n 40 "$out/console.log" >&2 || true
	exit 125
fi
exit "$(cat "$out/status")"
