#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocectl's hardware acceptance run (make check-hw): each of rocectl's
# hardware paths checked against the host's own tools (rdma, ethtool, dcb,
# perftest), one line per check, and a report beside it. Safe on a host in
# production: see --help and tests/README ("On a ConnectX host").
#
# Files: lib.sh (result lines, report, redaction), checks_dev.sh (devices,
# ports, PFC state), checks_qp.sh (perftest, the QP set, hardware
# counters), checks_changes.sh (the one change, with --allow-changes),
# checks_sport.sh (the QPs' source ports against mlx5's raw QP
# context), checks_pause.sh (watchdog, pause counters), checks_host.sh
# (rocectl check, the kernel log, the mlx5 checks), standin.sh (the test
# suite's simulated devices, which stand in for hardware in its guest).
set -u
HW_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HW_DIR/../.." && pwd)

usage() {
	cat <<'USAGE'
Usage: tests/hw/accept.sh [ --dev DEV ] [ --peer ADDR ] [ --report DIR ]
                          [ --force ] [ --allow-changes ] [ --no-redact ]
                          [ --dscp D ] [ --seconds N ] [ --help ]
Checks rocectl on this host's RDMA devices against rdma(8), ethtool(8),
dcb(8) and perftest. One line per check:
  PASS|FAIL|SKIP NAME: rocectl=V reference=V moved=yes|no [# WHY]
moved=no: the compared quantity did not move (nothing was exercised).
  --dev DEV         only this RDMA device (default: every one)
  --peer ADDR       perftest against a server the operator runs on ADDR
                    (default: one port's loopback, its own GID)
  --report DIR      where report.txt, report.json and perftest's output
                    (perftest-DEV.txt) go (default: ./rocectl-hw-report)
  --force           run although other users' QPs are on the devices
  --allow-changes   allow PFC, trust, DSCP or DCQCN changes (each set
                    back); this version makes one: PFC on one more
                    priority of each DCB netdev, seen by rocectl, and
                    off again
  --no-redact       keep serial numbers, GIDs, addresses and other users'
                    QP owners in the report
  --dscp D          perftest's DSCP (default 0, a lossy priority)
  --seconds N       perftest's duration (default 4, at most 30)
Uses a loaded rocectl as it is; loads (and afterwards unloads) only what
is not loaded, building it for the running kernel when needed. Watches,
counter bindings and QPs it did not make are left alone.
Exit status: 0 every applicable check passed and exercised something,
1 a check failed, 2 refused or usage error, 3 incomplete (a check that
applies moved nothing or could not run).
USAGE
}

FORCE=0 ALLOW_CHANGES=0 PEER='' DEV_ONLY='' HW_REPORT=$PWD/rocectl-hw-report
HW_NO_REDACT=0 DSCP=0 SECS=4
while [ $# -gt 0 ]; do
	case $1 in
	--force) FORCE=1 ;;
	--allow-changes) ALLOW_CHANGES=1 ;;
	--no-redact) HW_NO_REDACT=1 ;;
	--peer|--dev|--report|--dscp|--seconds)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		case $1 in
		--peer) PEER=$2 ;;
		--dev) DEV_ONLY=$2 ;;
		--report) HW_REPORT=$2 ;;
		--dscp) DSCP=$2 ;;
		--seconds) SECS=$2 ;;
		esac
		shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
case $DSCP in ''|*[!0-9]*) usage >&2; exit 2 ;; esac
case $SECS in ''|*[!0-9]*) usage >&2; exit 2 ;; esac
[ "$DSCP" -le 63 ] && [ "$SECS" -ge 1 ] && [ "$SECS" -le 30 ] || { usage >&2; exit 2; }
export HW_NO_REDACT

# HW_CHECK names the family of checks running, for the tools they run
# (the test suite's lying stand-ins of rdma, ethtool and dcb key on it).
export HW_CHECK=start
# Every command that could hang is bounded by this many seconds.
T=${T:-20}
ROCECTL=$ROOT/user/rocectl
rc() { timeout "$T" "$ROCECTL" "$@"; }

# shellcheck source=tests/hw/lib.sh
. "$HW_DIR/lib.sh"
# shellcheck source=tests/hw/standin.sh
. "$HW_DIR/standin.sh"
# shellcheck source=tests/hw/checks_dev.sh
. "$HW_DIR/checks_dev.sh"
# shellcheck source=tests/hw/checks_qp.sh
. "$HW_DIR/checks_qp.sh"
# shellcheck source=tests/hw/checks_sport.sh
. "$HW_DIR/checks_sport.sh"
# shellcheck source=tests/hw/checks_pause.sh
. "$HW_DIR/checks_pause.sh"
# shellcheck source=tests/hw/checks_changes.sh
. "$HW_DIR/checks_changes.sh"
# shellcheck source=tests/hw/checks_host.sh
. "$HW_DIR/checks_host.sh"

die() {
	echo "accept.sh: $*" >&2
	exit 2
}

[ "$(id -u)" = 0 ] || die "needs root (rdma statistic, dcb, the module)"
for tool in rdma ethtool dcb jq ib_write_bw; do
	command -v "$tool" > /dev/null || die "needs $tool (iproute2, ethtool, jq, perftest)"
done

# The devices: every RDMA device, or --dev's.
DEVS=$(timeout "$T" rdma -j dev show | jq -r '.[].ifname')
if [ -n "$DEV_ONLY" ]; then
	grep -qx -- "$DEV_ONLY" <<< "$DEVS" || die "no RDMA device $DEV_ONLY (rdma dev show)"
	DEVS=$DEV_ONLY
fi
[ -n "$DEVS" ] || die "no RDMA device (rdma dev show lists none)"

# Other users' QPs (the kernel's own QP0/QP1 aside): a host in use is not
# one to run this on.
OTHER_QPS=$(timeout "$T" rdma -j res show qp | jq -c --arg devs "$DEVS" \
	'[.[] | select((.ifname as $d | $devs | split("\n") | index($d)) and
		(.type != "GSI" and .type != "SMI"))]')
n_other=$(jq length <<< "$OTHER_QPS")
if [ "$n_other" -gt 0 ] && [ $FORCE = 0 ]; then
	echo "accept.sh: $n_other QP(s) of other users on $(echo $DEVS): run it on a drained host, or" \
		"give --force to run beside them (their QPs are left alone)" >&2
	exit 2
fi

hw_report_init "$HW_REPORT" || die "cannot write the report in $HW_REPORT"
HW_WORK=$(mktemp -d)
LOADED=
# Everything this run made goes at its end, whatever path it takes.
cleanup() {
	local m
	hw_cleanup_own
	hw_changes_restore
	for m in $LOADED; do
		rmmod "$m" || echo "accept.sh: could not unload $m, which this run loaded" >&2
	done
	rm -rf "$HW_WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

KMSG_START=$(dmesg | wc -l)

# The module: a loaded one as it is; else built for the running kernel
# (Kbuild picks an OFED tree where there is one, as DKMS does) and loaded,
# and unloaded at the end.
module_built_for() {
	[ -f "$1" ] && [ "$(modinfo -F vermagic "$1" 2>/dev/null | cut -d' ' -f1)" = "$(uname -r)" ]
}
if grep -q '^rocectl ' /proc/modules; then
	MODULE_STATE="loaded before the run (used as it is)"
else
	if ! module_built_for "$ROOT/rocectl.ko" || [ ! -x "$ROCECTL" ]; then
		make -s -C "$ROOT" module user KVER="$(uname -r)" >&2 || die "cannot build rocectl for $(uname -r)"
	fi
	modprobe ib_core && insmod "$ROOT/rocectl.ko" || die "cannot load rocectl.ko"
	LOADED="rocectl"
	MODULE_STATE="loaded by the run"
	# The ConnectX backend probes mlx5's firmware command path: only
	# beside mlx5_core, and only when this run loaded rocectl too.
	if grep -q '^mlx5_core ' /proc/modules && ! grep -q '^rocectl_mlx5 ' /proc/modules &&
		module_built_for "$ROOT/rocectl_mlx5.ko"; then
		insmod "$ROOT/rocectl_mlx5.ko" && LOADED="rocectl_mlx5 $LOADED"
	fi
fi
[ -x "$ROCECTL" ] || make -s -C "$ROOT/user" >&2 || die "cannot build the rocectl tool"

hw_host_facts
hw_check_devices
hw_check_pfc
hw_check_qps
hw_check_watchdog
hw_check_pause
hw_check_changes
hw_check_rocectl_check
hw_check_mlx5
hw_check_kmsg

status=$(hw_status)
hw_report_write "$status"
echo "# report: $HW_REPORT/report.txt, $HW_REPORT/report.json"
exit "$status"
