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
# rounds N ROW...: N rounds of the rows, each round every mode in turn. A
# round that gives no figure says so (it is left out of the median).
rounds() {
	local n=$1 i mode m v
	shift
	for i in $(seq "$n"); do
		for mode in $modes; do
			module_unload
			case $mode in
			on) module_load ;;
			floor) floor_load || { echo "# the floor module did not load or arm"; continue; } ;;
			peer) peer_start || { echo "# bpftrace did not attach: $(head -c 300 "$W/peer.out")"; continue; } ;;
			esac
			for m in "$@"; do
				v=$($m)
				[ -n "$v" ] && echo "$v" >> "$W/$m.$mode" || echo "# $m, round $i, $mode: no figure"
			done
			if [ $mode = peer ]; then
				peer_stop
				# What it counted, so that a peer counting nothing is seen.
				echo "# bpftrace run $i: $(grep -c '^@rx_packets' "$W/peer.out") QPs with rx_packets, $(awk -F': ' '/^@rx_packets/ {s += $2} END {print s + 0}' "$W/peer.out") packets"
			fi
		done
	done
}
# The QP rate in rounds of its own, after the packet rows: following them
# in each round, its rounds under -icount ranged up to 26 % in one mode
# (6,478-8,177 QPs/s, elapsed), where alone they stay within 5 %; hence
# also 5 rounds, not 3.
packet_rows=${timed/ rate/}
[ -z "$packet_rows" ] || rounds "$REPS" $packet_rows
RATE_REPS=${RATE_REPS:-$(( REPS > 5 ? REPS : 5 ))}
has_row rate && rounds "$RATE_REPS" rate
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
has_row rate && row "QP create+INIT+destroy$([ -z "${ICOUNT:-}" ] || echo ', one CPU')$([ "$RATE_REPS" = "$REPS" ] || echo ", of $RATE_REPS")" "QPs/s" rate
# Under -icount a round repeats the next: each round's figures, so that
# two boots can be compared round by round.
[ -z "${ICOUNT:-}" ] || for m in $timed; do
	for mode in $modes; do echo "# rounds $m $mode: $(tr '\n' ' ' < "$W/$m.$mode")"; done
done
has_row dump || { module_unload; rm -rf "$W"; exit 0; }

slab_kb() { awk '/^(Slab|Percpu):/ {s += $2} END {print s}' /proc/meminfo; }
# in_use_bytes DIR: what the objects in use in the slab cache DIR
# (/sys/kernel/slab/NAME) take, a slab's bytes shared among the objects it
# holds; 0 if there is no such cache. Shrunk first: SLUB then takes back
# the slabs the CPUs hold, whose free objects "objects" would count as in
# use, and the count is exact -- unless a CPU takes a slab again before
# it is read, hence builtins only in between (a process started takes a
# PID, and its IDR xarray nodes).
in_use_bytes() {
	local objects order per_slab
	[ -r "$1/objects" ] || { echo 0; return; }
	read -r order < "$1/order"
	read -r per_slab < "$1/objs_per_slab"
	echo 1 > "$1/shrink"
	read -r objects _ < "$1/objects"
	echo $(( objects * (PAGE_BYTES << order) / per_slab ))
}
PAGE_BYTES=$(getconf PAGESIZE)

# Memory per tracked QP: loading rocectl picks up the QPs that exist. What
# a load costs with 10,000 QPs to pick up, less what it costs with none:
# the driver's own objects are there either way. Measured where a QP's
# memory lives: rocectl's QP cache and the xarray nodes of the QPN index
# (radix_tree_node), the objects in use in each. The QP cache may be
# merged into another of its size (SLUB's merging; "aliases" counts them),
# which outlives rocectl: what counts is the merged cache's change, found
# by a first load. The page cache's xarrays share radix_tree_node: the
# first load also reads what loading reads (modprobe, insmod and the
# modules), so that no load after it adds page cache; and each reading
# waits for the nodes an unload frees. Beside it, as a check that the
# QP's memory is all there, the growth of the whole slab and of the
# per-CPU allocator (Slab+Percpu in /proc/meminfo), which other work
# moves by hundreds of KiB from load to load.
module_unload
module_load
qp_cache=$(readlink -f /sys/kernel/slab/rocectl_qp)
qp_cache_aliases=$(cat /sys/kernel/slab/rocectl_qp/aliases)
nodes=$(readlink -f /sys/kernel/slab/radix_tree_node)
own_bytes() { echo $(( $(in_use_bytes "$qp_cache") + $(in_use_bytes "$nodes") )); }
# An xarray frees its nodes after an RCU grace period: read once what was
# freed is back, two readings a tenth of a second apart the same.
own_settled() {
	local a b i
	b=$(own_bytes)
	for i in $(seq 50); do
		sleep 0.1
		a=$b b=$(own_bytes)
		[ "$a" != "$b" ] || break
	done
	echo "$b"
}
load_mem() {
	local m0 o0
	module_unload
	o0=$(own_settled) m0=$(slab_kb)
	module_load
	echo "$(( $(own_settled) - o0 )) $(( $(slab_kb) - m0 ))"
}
for i in $(seq "$REPS"); do load_mem; done > "$W/load.none"
module_unload
"$QPT" many -d rxe0 -n 10000 --state init --hold > "$W/many.json" &
many=$!
busywait 300000 test -s "$W/many.json"
for i in $(seq "$REPS"); do load_mem; done > "$W/load.many"
for w in none many; do
	cut -d' ' -f1 < "$W/load.$w" > "$W/own.$w"
	cut -d' ' -f2 < "$W/load.$w" > "$W/mem.$w"
done

# Under -icount the dump and the scrape run on one CPU, as the QP rate
# does: two vCPUs taking turns on one host thread made their rounds range
# 223-7,420 ms when these rows ran alone (tests/bench/README).
[ -z "${ICOUNT:-}" ] || cpus_online 0

# Dumping 10,000 QPs: rocectl against rdma, both with the module loaded.
# Spans read from bash's own clock: a date(1) started for each reading put
# its fork and exec inside the span. Under -icount a span would include
# idle jumps (the clock skipping to the next timer while every CPU waits):
# the scrape's took 216 ms in one boot and 608 in the next, where the
# exporter's CPU time was the same. There these rows are CPU time, the
# kernel's work for the program included: perf stat's task-clock of the
# dump, the exporter's threads' scheduler time for a scrape.
ms_since() { printf '%d.%03d\n' $(( ($2 - $1) / 1000 )) $(( ($2 - $1) % 1000 )); }
what=$([ -z "${ICOUNT:-}" ] && echo "ms" || echo "ms of CPU, one CPU")
timed_run() {	# timed_run OUT CMD...: CMD's ms (elapsed, or CPU under -icount)
	local out=$1 t0 t1
	shift
	if [ -n "${ICOUNT:-}" ]; then
		perf stat -x, -e task-clock -o "$W/pstat" -- "$@" > "$out" &&
			awk -F, '$3 == "task-clock" {print $1}' "$W/pstat"
	else
		t0=${EPOCHREALTIME/./}; "$@" > "$out"; t1=${EPOCHREALTIME/./}
		ms_since "$t0" "$t1"
	fi
}

# One untimed dump of each first: a program's first run in the boot reads
# it over 9p (406 ms against 139-141 for the next rounds under -icount).
"$ROCECTL" -j qp show > /dev/null; rdma -j resource show qp > /dev/null
: > "$W/dump.rocectl"; : > "$W/dump.rdma"
for i in $(seq "$REPS"); do
	timed_run "$W/d1.json" "$ROCECTL" -j qp show >> "$W/dump.rocectl"
	timed_run "$W/d2.json" rdma -j resource show qp >> "$W/dump.rdma"
done
[ -z "${ICOUNT:-}" ] || echo "# rounds dump: rocectl $(tr '\n' ' ' < "$W/dump.rocectl")rdma $(tr '\n' ' ' < "$W/dump.rdma")"
line "dump 10,000 QPs ($what): rocectl/rdma" \
	"$(median < "$W/dump.rocectl")" - - "$(median < "$W/dump.rdma")" \
	"$(ratio "$W/dump.rocectl" "$W/dump.rdma")" - - - "$(spread "$W/dump.rocectl" "$W/dump.rdma")"
echo "# QPs dumped: rocectl $(jq length "$W/d1.json"), rdma $(jq length "$W/d2.json"); $(rdma resource show | tr -s ' ' | paste -sd ';')"

# The exporter scraped with the same 10,000 QPs: a scrape's time against
# rdma's dump of them, and the exporter's CPU time per scrape.
"$ROCECTL" exporter listen 127.0.0.1:9798 owners 2> /dev/null &
ex=$!
busywait 20000 curl -sf -o /dev/null http://127.0.0.1:9798/metrics
ex_ns() { awk '{s += $1} END {print s}' /proc/$ex/task/*/schedstat; }
# Each round waits out the exporter's sharing window (SHARE_S, 1 s): a
# scrape it computes, not the last one served again (44-69 ms against
# 452-508 under -icount). One such scrape untimed first (736 ms against
# 215-244 for the next).
sleep 1.2; curl -sf -o /dev/null http://127.0.0.1:9798/metrics
: > "$W/scrape"; : > "$W/scrape.cpu"
for i in $(seq "$REPS"); do
	sleep 1.2
	c0=$(ex_ns); t0=${EPOCHREALTIME/./}
	curl -sf -o "$W/m.txt" http://127.0.0.1:9798/metrics
	t1=${EPOCHREALTIME/./}; c1=$(ex_ns)
	ms_since "$t0" "$t1" >> "$W/scrape"
	ms_since $((c0 / 1000)) $((c1 / 1000)) >> "$W/scrape.cpu"
done
kill $ex; wait $ex
sc=$W/scrape
[ -z "${ICOUNT:-}" ] || { cpus_online 1; sc=$W/scrape.cpu; echo "# rounds scrape: $(tr '\n' ' ' < "$sc")"; }
line "scrape of 10,000 QPs ($what): exporter/rdma" \
	"$(median < "$sc")" - - "$(median < "$W/dump.rdma")" \
	"$(ratio "$sc" "$W/dump.rdma")" - - - "$(spread "$sc" "$W/dump.rdma")"
echo "# exporter: $(median < "$W/scrape.cpu") ms of CPU a scrape (median), $(grep -c '^rocectl_' "$W/m.txt") series, $(wc -c < "$W/m.txt") bytes"
n=$(jq '.qpns | length' "$W/many.json")
med() { median < "$1" | awk '{printf "%d", $1}'; }
line "kernel memory per tracked QP (B)" \
	"$(awk -v a="$(med "$W/own.many")" -v b="$(med "$W/own.none")" -v n="$n" 'BEGIN {printf "%.1f", (a - b) / n}')" - - - - - - - -
echo "# a load's objects in rocectl's QP cache and the index's nodes: $(med "$W/own.many") B with $n QPs held, $(med "$W/own.none") B with none (medians of $REPS: $(tr '\n' ' ' < "$W/own.many")and $(tr '\n' ' ' < "$W/own.none" | sed 's/ $//')); caches merged with rocectl_qp: $qp_cache_aliases"
echo "# Slab+Percpu growth of a load: $(( ($(med "$W/mem.many") - $(med "$W/mem.none")) * 1024 / n )) B per QP; $(med "$W/mem.many") KiB with $n QPs held, $(med "$W/mem.none") KiB with none (medians of $REPS: $(tr '\n' ' ' < "$W/mem.many")and $(tr '\n' ' ' < "$W/mem.none" | sed 's/ $//')); $(nproc) CPUs"
kill $many; wait $many
module_unload
rm -rf "$W"
