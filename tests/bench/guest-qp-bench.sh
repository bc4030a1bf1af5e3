#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: what tracking QPs costs. Every measurement alternates runs
# with rocectl loaded and not loaded (REPS each) and reports medians and
# their ratio. Prints a table; asserts nothing.
. "$(dirname "$0")/../guest/lib.sh"
QPT=$ROOT/tests/tools/build/qptraffic
REPS=${REPS:-5}
W=$(mktemp -d)

veth_pair 1 2
rxe_add rxe0 veth1

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

bw() {	# MB/s of ib_write_bw over rxe0 loopback
	timeout 60 ib_write_bw -d rxe0 -x 1 -F -s 65536 -D 3 --output=bandwidth > /dev/null 2>&1 &
	sleep 1
	timeout 60 ib_write_bw -d rxe0 -x 1 -F -s 65536 -D 3 --output=bandwidth 192.0.2.1 2>/dev/null | tail -n 1
	wait
}

lat() {	# median (typical) latency in us of ib_write_lat
	timeout 60 ib_write_lat -d rxe0 -x 1 -F -n 2000 --output=latency > /dev/null 2>&1 &
	sleep 1
	timeout 60 ib_write_lat -d rxe0 -x 1 -F -n 2000 --output=latency 192.0.2.1 2>/dev/null | tail -n 1
	wait
}

rate() { "$QPT" rate -d rxe0 -n 1000 | jq .per_second; }

loaded() { grep -q '^rocectl ' /proc/modules; }

for m in bw lat rate; do : > "$W/$m.on"; : > "$W/$m.off"; done
for i in $(seq "$REPS"); do
	for mode in on off; do
		if [ $mode = on ]; then module_load; else module_unload; fi
		for m in bw lat rate; do
			$m >> "$W/$m.$mode"
		done
	done
done

row() {	# name unit on-file off-file
	local on off
	on=$(median < "$3")
	off=$(median < "$4")
	printf '| %-34s | %12s | %12s | %6.3f |\n' "$1 ($2)" "$on" "$off" "$(echo "$on $off" | awk '{print $1 / $2}')"
}

echo "| measurement (median of $REPS)         | rocectl on   | rocectl off  | ratio  |"
echo "|------------------------------------|--------------|--------------|--------|"
row "ib_write_bw 64 KiB" "MB/s" "$W/bw.on" "$W/bw.off"
row "ib_write_lat typical" "us" "$W/lat.on" "$W/lat.off"
row "QP create+INIT+destroy" "QPs/s" "$W/rate.on" "$W/rate.off"

slab_kb() { awk '/^(Slab|Percpu):/ {s += $2} END {print s}' /proc/meminfo; }

# Memory per tracked QP: what creating 10,000 QPs costs with rocectl loaded,
# less what it costs without (the driver's own objects).
for mode in off on; do
	if [ $mode = on ]; then module_load; else module_unload; fi
	sync; echo 3 > /proc/sys/vm/drop_caches
	m0=$(slab_kb)
	"$QPT" many -d rxe0 -n 10000 --state init --hold > "$W/many.json" &
	many=$!
	busywait 300000 test -s "$W/many.json"
	m1=$(slab_kb)
	echo $((m1 - m0)) > "$W/mem.$mode"
	[ $mode = on ] && break
	kill $many; wait $many
done

# Dumping 10,000 QPs: rocectl against rdma, both with the module loaded.
: > "$W/dump.rocectl"; : > "$W/dump.rdma"
for i in $(seq "$REPS"); do
	t0=$(date +%s%N); "$ROCECTL" -j qp show > "$W/d1.json"; t1=$(date +%s%N)
	rdma -j resource show qp > "$W/d2.json"; t2=$(date +%s%N)
	echo $(( (t1 - t0) / 1000000 )) >> "$W/dump.rocectl"
	echo $(( (t2 - t1) / 1000000 )) >> "$W/dump.rdma"
done
printf '| %-34s | %12s | %12s | %6.3f |\n' "dump 10,000 QPs (ms): rocectl/rdma" \
	"$(median < "$W/dump.rocectl")" "$(median < "$W/dump.rdma")" \
	"$(echo "$(median < "$W/dump.rocectl") $(median < "$W/dump.rdma")" | awk '{print $1 / $2}')"
echo "# QPs dumped: rocectl $(jq length "$W/d1.json"), rdma $(jq length "$W/d2.json")"
n=$(jq '.qpns | length' "$W/many.json")
echo "| kernel memory per tracked QP (bytes) | $(( ($(cat "$W/mem.on") - $(cat "$W/mem.off")) * 1024 / n )) | | |"
echo "# Slab+Percpu growth for $n QPs: $(cat "$W/mem.on") KiB with rocectl, $(cat "$W/mem.off") KiB without; $(nproc) CPUs"
kill $many; wait $many
module_unload
rm -rf "$W"
