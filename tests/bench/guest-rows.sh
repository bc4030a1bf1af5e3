# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the guest benchmarks: the qp benchmark's devices and rows.
# Loopback: rxe0 on veth1, to itself (the probe on rdma_rxe's receive
# function). The wire: rxe1 on veth3 and rxe2 on veth4, routed as two
# hosts, so that their packets cross the IP layer (the netfilter hooks).
. "$(dirname "${BASH_SOURCE[0]}")/../guest/lib.sh"
QPT=$ROOT/tests/tools/build/qptraffic

veth_pair 1 2
rxe_add rxe0 veth1
veth_pair 3 4
two_hosts veth3 192.0.2.3 veth4 192.0.2.4
rxe_add rxe1 veth3
rxe_add rxe2 veth4

# The latency rows' tool. Under -icount (ICOUNT, run.sh --icount) the
# vCPUs take turns on one host thread, and ib_write_lat, whose two sides
# spin on memory, times the turns (a round trip is a turn: 575 us, rocectl
# on or off): there it is ib_send_lat -e, each side asleep until its
# completion, so that a round trip is the path's instructions and wakeups.
LAT=ib_write_lat
[ -z "${ICOUNT:-}" ] || LAT=ib_send_lat

# perftest, server on device $2, client on $3 to address $4: $1 is
# ib_write_bw (MB/s of 64 KiB writes), ib_write_lat or ib_send_lat
# (typical us).
perftest() {
	local server what=bandwidth opt="-s 65536 -D 3"
	# Under -icount a fixed amount of work (64 MiB), not of guest seconds:
	# a guest second is a billion instructions, tens of host seconds.
	[ -z "${ICOUNT:-}" ] || opt="-s 65536 -n 1000"
	case $1 in
	ib_write_lat) what=latency opt="-n 2000" ;;
	ib_send_lat) what=latency opt="-n 2000 -e" ;;
	esac
	timeout 60 "$1" -d "$2" -x 1 -F $opt --output=$what > /dev/null 2>&1 &
	server=$!
	# The client once the server listens (perftest's port, 18515): a fixed
	# second was not enough under -icount, where the guest's clock jumps
	# ahead while it waits on the host (the tools' files over 9p), and a
	# round whose client found no server printed nothing.
	busywait 30000 eval '[ -n "$(ss -Hltn "sport = :18515")" ]'
	timeout 60 "$1" -d "$3" -x 1 -F $opt --output=$what "$4" 2>/dev/null | tail -n 1
	wait $server	# not the peer, which runs in the background too
}
bw() { perftest ib_write_bw rxe0 rxe0 192.0.2.1; }
lat() { perftest "$LAT" rxe0 rxe0 192.0.2.1; }
wbw() { perftest ib_write_bw rxe2 rxe1 192.0.2.4; }
wlat() { perftest "$LAT" rxe2 rxe1 192.0.2.4; }
# The QP rate. Under -icount with the other CPUs offline: with two vCPUs
# taking turns on one host thread, rounds of one mode ranged 6,060-9,782
# QPs/s and two boots' on/floor 1.214 and 0.664; on one CPU, in the loop's
# CPU time, two boots' medians within 0.3 % (tests/bench/README). Why two
# vCPUs vary so was not established. The dump rows take them offline too.
cpus_online() {	# 0 or 1: every CPU but the first
	local c
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -e "$c" ] && echo "$1" > "$c"
	done
	return 0
}
# Under -icount QPs a second of the loop's own CPU time, as the dump's rows
# are CPU time: elapsed, one boot's rounds of one mode ranged 6,298-9,059
# QPs/s, a round as fast as the work the verbs defer let it be.
rate() {
	[ -z "${ICOUNT:-}" ] || cpus_online 0
	"$QPT" rate -d rxe0 -n "${RATE_QPS:-3000}" |
		jq "$([ -z "${ICOUNT:-}" ] && echo .per_second || echo .per_cpu_second)"
	[ -z "${ICOUNT:-}" ] || cpus_online 1
}
