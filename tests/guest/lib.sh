# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scenarios: results, waiting, kernel-log checks and
# the soft-RoCE topologies. Results are lines "ok - SCENARIO: TEST",
# "ok - SCENARIO: TEST # SKIP WHY" or "not ok - SCENARIO: TEST # WHY", on
# stdout and in $RESULTS (tests/results.sh).
#
# A scenario declares its plan first: "plan N", N the results it reports
# (log_test, log_skip, kmsg_check and anything else writing to $RESULTS)
# in every path it can take when nothing fails. A test that cannot run
# there reports a SKIP (log_skip), so that the count holds. The guest
# runner (run.sh) fails a scenario that reports fewer or more results than
# it planned, or is killed at its time limit.

export ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROCECTL=$ROOT/user/rocectl
MODULE=$ROOT/rocectl.ko
NLRAW="python3 $ROOT/tests/tools/nlraw.py"
# The kernel's ynl CLI (YNL_CLI, tests/ynl.sh) with the family's spec. The
# spec is checked against its schema on the build machine (make spec, the
# style gate): here jsonschema's seconds under emulation are spared. Its
# pure-Python YAML parse of the spec alone takes seconds there: 3 T.
# shellcheck source=tests/ynl.sh
. "$ROOT/tests/ynl.sh"
ynl() {
	timeout $((3 * T)) python3 "$YNL_CLI" --spec "$ROOT/include/netlink/specs/rocectl.yaml" \
		--no-schema "$@"
}
RESULTS=${RESULTS:-${ROCECTL_OUT:-${TMPDIR:-/tmp}}/results.tap}
export -n RESULTS	# the scenario's own: not for the programs it runs
SCENARIO=${SCENARIO:-$(basename "$0" .sh)}
# Every command that could hang is bounded by this many seconds.
T=${T:-20}

# --- results ---------------------------------------------------------------
# shellcheck source=tests/results.sh
. "$ROOT/tests/results.sh"
RET=0
MSG=
TEST_START=$SECONDS

# Record a failure of the current test (the first reason is kept).
fail() {
	if [ $RET -eq 0 ]; then
		MSG="$*"
	fi
	RET=1
}

# check_eq ACTUAL EXPECTED WHAT
check_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# check_match TEXT REGEX WHAT
check_match() {
	printf '%s' "$1" | grep -Eq -- "$2" || fail "$3: '$2' not in: $(printf '%s' "$1" | head -c 300)"
}

# log_test NAME: report the current test and reset for the next one.
log_test() {
	local line
	if [ $RET -eq 0 ]; then
		line="ok - $SCENARIO: $1"
	else
		line="not ok - $SCENARIO: $1 # $MSG"
	fi
	report "$line"
	test_took
}

# After each result, on stdout only: how long the test took (where the
# lanes spend their time).
test_took() {
	echo "#   ($((SECONDS - TEST_START)) s)"
	TEST_START=$SECONDS
	RET=0
	MSG=
}

# log_skip NAME WHY: report a test that cannot run here as skipped.
log_skip() {
	report "ok - $SCENARIO: $1 # SKIP $2"
	test_took
}

# --- waiting ---------------------------------------------------------------
# busywait TIMEOUT_MS CMD...: poll CMD until it succeeds or time runs out.
busywait() {
	local timeout_ms=$1 start now
	shift
	start=$(date +%s%3N)
	while :; do
		"$@" && return 0
		now=$(date +%s%3N)
		[ $((now - start)) -ge "$timeout_ms" ] && return 1
		sleep 0.05
	done
}

# --- kernel log ------------------------------------------------------------
KMSG_BAD='BUG:|WARNING:|Oops|general protection|Kernel panic|KASAN|UBSAN|kmemleak|lockdep|possible circular|possible recursive|inconsistent lock|suspicious RCU|refcount_t:|Call Trace|list_add corruption|list_del corruption|ODEBUG'
KMSG_MARK=0

kmsg_mark() {
	KMSG_MARK=$(dmesg | wc -l)
}

# The bad lines logged since the last mark.
kmsg_bad() {
	dmesg | tail -n +$((KMSG_MARK + 1)) | grep -E "$KMSG_BAD"
}

# A test of its own: the kernel said nothing bad during the scenario.
kmsg_check() {
	local bad
	bad=$(kmsg_bad)
	[ -z "$bad" ] || fail "kernel log: $(echo "$bad" | head -n 3 | tr '\n' '|')"
	log_test "kernel log clean"
}

# --- module and devices ----------------------------------------------------
rc() {
	timeout "$T" "$ROCECTL" "$@"
}

module_load() {
	modprobe ib_core && insmod "$MODULE"
}

module_unload() {
	! grep -q '^rocectl ' /proc/modules || rmmod rocectl
}

# veth pair veth$1/veth$2 carrying 192.0.2.$1/24 and 192.0.2.$2/24.
veth_pair() {
	ip link add "veth$1" type veth peer name "veth$2" || return 1
	ip addr add "192.0.2.$1/24" dev "veth$1"
	ip addr add "192.0.2.$2/24" dev "veth$2"
	ip link set "veth$1" up && ip link set "veth$2" up
}

# rdma_rxe loaded: the kernel's, or the build ROCECTL_RXE_KO names (the
# index-form lane, tests/rxe_index) with the kernel's modules it needs.
rxe_load() {
	if [ -z "${ROCECTL_RXE_KO:-}" ]; then
		modprobe rdma_rxe
	elif ! grep -q '^rdma_rxe ' /proc/modules; then
		modprobe -a ib_uverbs udp_tunnel ip6_udp_tunnel && insmod "$ROCECTL_RXE_KO"
	fi
}

# rxe_add NAME NETDEV
rxe_add() {
	rxe_load && timeout "$T" rdma link add "$1" type rxe netdev "$2"
}

rxe_del() {
	timeout "$T" rdma link del "$1"
}

# gid_index DEV ADDRESS [NETNS]: the index of DEV's GID for ADDRESS, as
# ibv_devinfo lists it ("GID[  3]:  ::ffff:192.0.2.11, RoCE v2"), seen
# from NETNS if given; nothing if DEV has none.
gid_index() {
	${3:+ip netns exec "$3"} ibv_devinfo -v -d "$1" |
		awk -v a="$2" 'index($0, a) && match($0, /GID\[ *[0-9]+\]/) {
			g = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", g); print g; exit }'
}

# The kubelet's view, made for the pods scenarios: cgroup v2 on CG (mounted
# if it is not) and /var/log on a tmpfs for /var/log/pods entries.
# kubepods_mount PATH...: those cgroups made; kubepods_unmount PATH...:
# each removed with its emptied parents, and both mounts undone.
CG=/sys/fs/cgroup
kubepods_mount() {
	kubepods_cg_mounted=
	if ! mountpoint -q $CG; then
		mount -t cgroup2 none $CG || return 1
		kubepods_cg_mounted=1
	fi
	mount -t tmpfs tmpfs /var/log && mkdir -p "${@/#/$CG}"
}
kubepods_unmount() {
	local p
	for p in "$@"; do
		while [ "$p" != / ]; do rmdir "$CG$p" 2>/dev/null; p=$(dirname "$p"); done
	done
	umount /var/log
	[ -z "${kubepods_cg_mounted:-}" ] || umount $CG
}
# in_cgroup PATH PIDFILE CMD...: CMD run from inside the cgroup, as a
# container's process; its pid in PIDFILE.
in_cgroup() {
	sh -c 'echo $$ > "$2" && echo $$ > "$1/cgroup.procs" && shift 2 && exec "$@"' sh "$CG$1" "$2" "${@:3}"
}

# rxe's own error, retry and sequence counters, all devices: rxe_errors >
# BEFORE, then rxe_errors_since BEFORE names the ones that rose (its word
# on why a QP ended in error, independent of rocectl).
rxe_errors() {
	rdma -j statistic show 2>/dev/null |
		jq -c 'map({(.ifname): with_entries(select(.key | test("_err$|retry|seq|rnr|dup")))}) | add // {}'
}
rxe_errors_since() {
	rxe_errors | jq -r --slurpfile b "$1" '. as $a | [$a | to_entries[] | .key as $d |
		.value | to_entries[] | select(.value > ($b[0][$d][.key] // 0)) |
		"\($d) \(.key) +\(.value - ($b[0][$d][.key] // 0))"] | join(", ")'
}

# rc_sent_once FILE: the RC QPs' sent bytes, each resent packet taken off
# once: "[0,1000]" for a pair's ten 100-byte messages (one packet each)
# counted once, resends or not (a slow first round trip resends; the wire
# carries those packets twice, and the module counts both, as tx_retrans
# says). The stats it judged stay in FILE: rc_sent_raw FILE shows them.
rc_sent_once() {
	rc -j qp stats type RC > "$1" && jq -c '[.[].counters | .tx_bytes - 100 * .tx_retrans] | sort' "$1"
}
rc_sent_raw() {
	jq -c '[.[].counters | {tx_bytes, tx_retrans}]' "$1"
}

# json PYTHON-EXPR FILE: evaluate an expression over the JSON document j.
json() {
	python3 -c "import json,sys; j=json.load(open(sys.argv[2])); print($1)" "$1" "$2"
}

# Background helpers (monitors, traffic) never outlive their scenario.
trap 'kill $(jobs -p) 2>/dev/null' EXIT

# two_hosts DEV_A IP_A DEV_B IP_B: make traffic between two local addresses
# cross the wire from DEV_A to DEV_B and back, not lo (see the test-guest
# notes): policy routes per destination, the local table moved behind them.
# The addresses must already be on the devices.
two_hosts() {
	local i
	for i in all default "$1" "$3"; do
		sysctl -qw net.ipv4.conf.$i.rp_filter=0 net.ipv4.conf.$i.accept_local=1
	done
	ip rule add pref 100 iif lo to "$4" lookup 100
	ip route add "$4" dev "$1" src "$2" table 100
	ip rule add pref 101 iif lo to "$2" lookup 101
	ip route add "$2" dev "$3" src "$4" table 101
	ip rule add pref 1000 lookup local
	ip rule del pref 0
}

# The simulated DCB NIC (tests/simnic): its debugfs knobs.
SIM=/sys/kernel/debug/simnic

# pfc [NETNS] DEV: the priorities PFC is enabled on, as dcb(8) reads them.
pfc() {
	local ns=()
	[ $# = 2 ] && { ns=(ip netns exec "$1"); shift; }
	timeout "$T" "${ns[@]}" dcb -j pfc show dev "$1" | jq -c '[.prio_pfc | to_entries[] | select(.value) | .key | tonumber]'
}

# storm DEV PRIO RATE: the simulated NIC receives pause frames on PRIO at
# RATE frames/s (0 ends the storm).
storm() { echo "$2 $3" > "$SIM/$1/rx_storm"; }

# The simulated DCB NIC: the module loaded if it is not, a
# connected pair of netdevs $1/$2 created and up. PFC is the caller's.
simnic_pair() {
	grep -q '^simnic ' /proc/modules || insmod "$ROOT/tests/simnic/simnic.ko" || return 1
	echo "$1 $2" > "$SIM/new_pair" && ip link set "$1" up && ip link set "$2" up
}

# Whether this kernel's RDMA core binds optional counters to a QP's
# counter set (Linux 6.15 and later).
kernel_binds_optional() {
	local major minor
	IFS=. read -r major minor _ <<< "$(uname -r)"
	[ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "${minor%%[!0-9]*}" -ge 15 ]; }
}

# The simulated RDMA device with hardware counters (tests/simrdma): the
# module loaded if it is not, device $1 made over netdev $2.
SRD=/sys/kernel/debug/simrdma
simrdma_dev() {
	grep -q "^simrdma " /proc/modules || { modprobe ib_core && insmod "$ROOT/tests/simrdma/simrdma.ko"; } || return 1
	echo "$1 $2" > "$SRD/new_device"
}

# rxe0 on veth1 (192.0.2.1) and rxe1 on veth2 (192.0.2.2), routed as two
# hosts: their traffic really crosses the veth (see two_hosts).
two_rxe_hosts() {
	rxe_load
	veth_pair 1 2
	two_hosts veth1 192.0.2.1 veth2 192.0.2.2
	rxe_add rxe0 veth1 || fail "rxe0"
	rxe_add rxe1 veth2 || fail "rxe1"
}
