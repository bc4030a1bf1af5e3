#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: what tracking QPs costs. Every measurement alternates runs
# with rocectl loaded and not loaded (REPS each) and reports medians and
# their ratio. Prints a table; asserts nothing. Bandwidth, latency and the
# QP rate are also measured with FLOOR_MODULE, rocectl built with every
# probe and handlers that do nothing: what the kernel's probe mechanism
# costs by itself. And with the peer an operator would otherwise use
# (PEER_SCRIPT: a bpftrace script counting per-QP packets and CE on the
# same functions), rocectl not loaded.
. "$(dirname "$0")/guest-rows.sh"
# Under -icount the rounds repeat each other: 3 of them.
REPS=${REPS:-$([ -z "${ICOUNT:-}" ] && echo 5 || echo 3)}
# ROWS: which of them (bw lat wbw wlat rate, and dump: the dump, the
# scrape and the memory, with 10,000 QPs held); all by default.
ROWS=${ROWS:-bw lat wbw wlat rate dump}
has_row() { case " $ROWS " in *" $1 "*) return 0 ;; esac; return 1; }
timed=
for m in bw lat wbw wlat rate; do has_row $m && timed="$timed $m"; done
W=$(mktemp -d)

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

loaded() { grep -q '^rocectl ' /proc/modules; }

# The floor says so when it arms its probes on rdma_rxe.
floor_load() {
	MODULE=$FLOOR_MODULE module_load &&
		dmesg | tail -n 5 | grep -q 'counting nothing (benchmark floor build)'
}

# The peer, attached: bpftrace says so once its probes are in place.
# Through timeout(1), which passes SIGINT on: a non-interactive shell
# starts background commands with SIGINT ignored.
peer_start() {
	timeout -s INT 900 bpftrace "$PEER_SCRIPT" > "$W/peer.out" 2>&1 &
	PEER=$!
	busywait 120000 grep -q '^Attaching' "$W/peer.out" && sleep 1 && kill -0 $PEER 2>/dev/null
}
peer_stop() {	# bpftrace prints its maps and exits on SIGINT
	kill -INT $PEER 2>/dev/null
	busywait 60000 eval '! kill -0 $PEER 2>/dev/null' || { echo "# bpftrace did not stop on SIGINT"; kill -KILL $PEER; }
	wait $PEER
}

modes="on off"
[ -f "${FLOOR_MODULE:-}" ] && modes="on floor off"
command -v bpftrace > /dev/null && [ -f "${PEER_SCRIPT:-}" ] && modes="$modes peer"
for m in bw lat wbw wlat rate; do : > "$W/$m.on"; : > "$W/$m.floor"; : > "$W/$m.peer"; : > "$W/$m.off"; done
for i in $(seq "$REPS"); do
	for mode in $modes; do
		module_unload
		case $mode in
		on) module_load ;;
		floor) floor_load || { echo "# the floor module did not load or arm"; continue; } ;;
		peer) peer_start || { echo "# bpftrace did not attach: $(head -c 300 "$W/peer.out")"; continue; } ;;
		esac
		for m in $timed; do
			$m >> "$W/$m.$mode"
		done
		if [ $mode = peer ]; then
			peer_stop
			# What it counted, so that a peer counting nothing is seen.
			echo "# bpftrace run $i: $(grep -c '^@rx_packets' "$W/peer.out") QPs with rx_packets, $(awk -F': ' '/^@rx_packets/ {s += $2} END {print s + 0}' "$W/peer.out") packets"
		fi
	done
done
module_unload

line() { printf '| %-40s | %10s | %11s | %11s | %11s | %6s | %9s | %8s | %8s | %9s |\n' "$@"; }

ratio() { [ -s "$1" ] && echo "$(median < "$1") $(median < "$2")" | awk '{printf "%.3f", $1 / $2}' || echo -; }

# The rounds' own ratios (round i's A against its B): their lowest and
# highest, so that one boot's noise shows beside the medians' ratio.
spread() {	# A B
	[ -s "$2" ] && [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] || { echo -; return; }
	paste "$1" "$2" | awk '{r = $1 / $2; if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r}
		END {printf "%.2f-%.2f", lo, hi}'
}

row() {	# name unit measurement
	local on off floor=- peer=-
	on=$(median < "$W/$3.on")
	off=$(median < "$W/$3.off")
	[ -s "$W/$3.floor" ] && floor=$(median < "$W/$3.floor")
	[ -s "$W/$3.peer" ] && peer=$(median < "$W/$3.peer")
	line "$1 ($2)" "$on" "$floor" "$peer" "$off" \
		"$(ratio "$W/$3.on" "$W/$3.off")" "$(ratio "$W/$3.floor" "$W/$3.off")" \
		"$(ratio "$W/$3.peer" "$W/$3.off")" "$(ratio "$W/$3.on" "$W/$3.floor")" "$(spread "$W/$3.on" "$W/$3.floor")"
}

line "measurement (median of $REPS)" "rocectl on" "probe floor" "bpftrace" "rocectl off" on/off floor/off peer/off on/floor "by round"
line ---------------------------------------- ---------- ----------- ----------- ----------- ------ --------- -------- -------- ---------
lat_name="ib_write_lat typical"
[ "$LAT" = ib_write_lat ] || lat_name="$LAT -e typical"
has_row bw && row "ib_write_bw 64 KiB, loopback" "MB/s" bw
has_row lat && row "$lat_name, loopback" "us" lat
has_row wbw && row "ib_write_bw 64 KiB, veth wire" "MB/s" wbw
has_row wlat && row "$lat_name, veth wire" "us" wlat
has_row rate && row "QP create+INIT+destroy$([ -z "${ICOUNT:-}" ] || echo ', one CPU')" "QPs/s" rate
# Under -icount a round repeats the next: each round's figures, so that
# two boots can be compared round by round.
[ -z "${ICOUNT:-}" ] || for m in $timed; do
	for mode in $modes; do echo "# rounds $m $mode: $(tr '\n' ' ' < "$W/$m.$mode")"; done
done
has_row dump || { module_unload; rm -rf "$W"; exit 0; }

slab_kb() { awk '/^(Slab|Percpu):/ {s += $2} END {print s}' /proc/meminfo; }

# Memory per tracked QP: loading rocectl picks up the QPs that exist. What
# a load costs with 10,000 QPs to pick up, less what it costs with none:
# the driver's own objects are there either way.
load_kb() {
	local m0
	module_unload
	sync; echo 3 > /proc/sys/vm/drop_caches
	m0=$(slab_kb)
	module_load
	echo $(( $(slab_kb) - m0 ))
}
load_kb > "$W/mem.none"
module_unload
"$QPT" many -d rxe0 -n 10000 --state init --hold > "$W/many.json" &
many=$!
busywait 300000 test -s "$W/many.json"
load_kb > "$W/mem.many"

# Dumping 10,000 QPs: rocectl against rdma, both with the module loaded.
: > "$W/dump.rocectl"; : > "$W/dump.rdma"
for i in $(seq "$REPS"); do
	t0=$(date +%s%N); "$ROCECTL" -j qp show > "$W/d1.json"; t1=$(date +%s%N)
	rdma -j resource show qp > "$W/d2.json"; t2=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 )) >> "$W/dump.rocectl"
	echo $(( (t2 - t1) / 1000000 )) >> "$W/dump.rdma"
done
[ -z "${ICOUNT:-}" ] || echo "# rounds dump: rocectl $(tr '\n' ' ' < "$W/dump.rocectl")rdma $(tr '\n' ' ' < "$W/dump.rdma")"
line "dump 10,000 QPs (ms): rocectl/rdma" \
	"$(median < "$W/dump.rocectl")" - - "$(median < "$W/dump.rdma")" \
	"$(ratio "$W/dump.rocectl" "$W/dump.rdma")" - - - "$(spread "$W/dump.rocectl" "$W/dump.rdma")"
echo "# QPs dumped: rocectl $(jq length "$W/d1.json"), rdma $(jq length "$W/d2.json")"

# The exporter scraped with the same 10,000 QPs: a scrape's time against
# rdma's dump of them, and the exporter's CPU time per scrape.
"$ROCECTL" exporter listen 127.0.0.1:9798 2> /dev/null &
ex=$!
busywait 20000 curl -sf -o /dev/null http://127.0.0.1:9798/metrics
: > "$W/scrape"
cpu0=$(awk '{ print $14 + $15 }' /proc/$ex/stat)
for i in $(seq "$REPS"); do
	t0=$(date +%s%N); curl -sf -o "$W/m.txt" http://127.0.0.1:9798/metrics; t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 )) >> "$W/scrape"
done
[ -z "${ICOUNT:-}" ] || echo "# rounds scrape: $(tr '\n' ' ' < "$W/scrape")"
cpu1=$(awk '{ print $14 + $15 }' /proc/$ex/stat)
kill $ex; wait $ex
line "scrape of 10,000 QPs (ms): exporter/rdma" \
	"$(median < "$W/scrape")" - - "$(median < "$W/dump.rdma")" \
	"$(ratio "$W/scrape" "$W/dump.rdma")" - - - "$(spread "$W/scrape" "$W/dump.rdma")"
echo "# exporter: $(( (cpu1 - cpu0) * 1000 / $(getconf CLK_TCK) / REPS )) ms of CPU a scrape, $(grep -c '^rocectl_' "$W/m.txt") series, $(wc -c < "$W/m.txt") bytes"
n=$(jq '.qpns | length' "$W/many.json")
line "kernel memory per tracked QP (B)" \
	$(( ($(cat "$W/mem.many") - $(cat "$W/mem.none")) * 1024 / n )) - - - - - - - -
echo "# Slab+Percpu growth of a load: $(cat "$W/mem.many") KiB with $n QPs held, $(cat "$W/mem.none") KiB with none; $(nproc) CPUs"
kill $many; wait $many
module_unload
rm -rf "$W"
