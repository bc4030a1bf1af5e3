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

# perftest, server on device $2, client on $3 to address $4: $1 is
# ib_write_bw (MB/s of 64 KiB writes) or ib_write_lat (typical us).
perftest() {
	local server what=bandwidth opt="-s 65536 -D 3"
	[ "$1" = ib_write_lat ] && what=latency opt="-n 2000"
	timeout 60 "$1" -d "$2" -x 1 -F $opt --output=$what > /dev/null 2>&1 &
	server=$!
	sleep 1
	timeout 60 "$1" -d "$3" -x 1 -F $opt --output=$what "$4" 2>/dev/null | tail -n 1
	wait $server	# not the peer, which runs in the background too
}
bw() { perftest ib_write_bw rxe0 rxe0 192.0.2.1; }
lat() { perftest ib_write_lat rxe0 rxe0 192.0.2.1; }
wbw() { perftest ib_write_bw rxe2 rxe1 192.0.2.4; }
wlat() { perftest ib_write_lat rxe2 rxe1 192.0.2.4; }
rate() { "$QPT" rate -d rxe0 -n 3000 | jq .per_second; }
