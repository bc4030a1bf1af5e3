#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the watchdog's detection latency (detection minus the
# detection time, p50/p99 over STORMS storms per setting) and the CPU time
# its polls cost for 8 priorities x 16 simulated netdevs, against the same
# machine idle with the module loaded. Prints tables; asserts nothing.
. "$(dirname "$0")/../guest/lib.sh"
SIM=/sys/kernel/debug/simnic
STORMS=${STORMS:-50}
W=$(mktemp -d)

for i in 0 2 4 6 8 10 12 14; do
	simnic_pair "sim$i" "sim$((i + 1))"
done
for i in $(seq 0 15); do dcb pfc set dev sim$i prio-pfc 0:on 1:on 2:on 3:on 4:on 5:on 6:on 7:on; done
module_load
"$ROCECTL" -j -d monitor watchdog > "$W/ev.json" &
sleep 1

events() { grep -c "\"event\":\"$1\"" "$W/ev.json"; }
pct() {	# pct P < numbers
	sort -n | awk -v p="$1" '{a[NR] = $1} END {i = int((NR - 1) * p / 100 + 0.5) + 1; print a[i]}'
}

echo "| setting (detect/interval ms) | storms | latency - T p50 (ms) | p99 (ms) | max (ms) |"
echo "|------------------------------|--------|----------------------|----------|----------|"
for setting in "200 100" "50 10"; do
	set -- $setting
	rc watchdog set dev sim0 prio 3 detect "$1" restore "$1" interval "$2" action alert
	sleep 0.5
	: > "$W/lat"
	for i in $(seq "$STORMS"); do
		n=$(events detect)
		t0=${EPOCHREALTIME/./}000; echo "3 1000" > $SIM/sim0/rx_storm
		busywait 10000 eval '[ "$(events detect)" -gt '"$n"' ]' || break
		d=$(grep '"event":"detect"' "$W/ev.json" | tail -n 1 | jq '.prios[0].last_detect_ns')
		echo "3 0" > $SIM/sim0/rx_storm
		echo $(( (d - t0) / 1000 - $1 * 1000 )) >> "$W/lat"	# us
		n=$(events restore)
		busywait 10000 eval '[ "$(events restore)" -gt '"$n"' ]'
	done
	rc watchdog del dev sim0
	printf '| %28s | %6d | %20.1f | %8.1f | %8.1f |\n' "$1/$2" "$(wc -l < "$W/lat")" \
		"$(pct 50 < "$W/lat" | awk '{print $1 / 1000}')" \
		"$(pct 99 < "$W/lat" | awk '{print $1 / 1000}')" \
		"$(pct 100 < "$W/lat" | awk '{print $1 / 1000}')"
done

busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }	# user nice system irq softirq
cpu_pct() {	# CPU % of one core over SECONDS
	local b0 b1 t0 t1
	b0=$(busy); t0=${EPOCHREALTIME/./}
	sleep "$1"
	b1=$(busy); t1=${EPOCHREALTIME/./}
	awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", b / hz / (t / 1e6) * 100}'
}
echo
echo "| 8 priorities x 16 netdevs | CPU % of one core | minus idle |"
echo "|---------------------------|-------------------|------------|"
idle=$(cpu_pct 20)
printf '| %25s | %17s | %10s |\n' "idle (module loaded)" "$idle" "-"
for interval in 100 10; do
	for i in $(seq 0 15); do
		rc watchdog set dev sim$i prio all detect 200 restore 200 interval $interval action alert
	done
	sleep 1
	on=$(cpu_pct 20)
	printf '| %25s | %17s | %10s |\n' "interval $interval ms" "$on" "$(awk -v a="$on" -v b="$idle" 'BEGIN {printf "%.2f", a - b}')"
	for i in $(seq 0 15); do rc watchdog del dev sim$i; done
done
echo "# guest: $(nproc) CPUs under software emulation; CPU from /proc/stat, $(getconf CLK_TCK) ticks/s"
kill %1
module_unload
rmmod simnic
rm -rf "$W"
