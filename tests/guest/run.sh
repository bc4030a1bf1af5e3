#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs in the guest: every scenario in turn, each bounded in time and
# started from a clean slate, its results in scenarios/SCENARIO.tap and
# appended to results.tap with one more: the scenario against its plan
# (tests/results.sh). Exit status 0 once every scenario has run.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/results.sh
. "$here/../results.sh"
out=${ROCECTL_OUT:-${TMPDIR:-/tmp}}
RESULTS=$out/results.tap
: > "$RESULTS"
: > "$out/times"
mkdir -p "$out/scenarios"

SCENARIOS=${SCENARIOS:-"install devices qps rxe_sender qp_hooks qp_errors netns blocking qp_counters hw_counters hw_congestion hw_budget qp_sport_hw qp_stress reconcile fabric_path watchdog wd_hold blast faults fuzz permissions visibility simnic check devx devx_load pods pods_exclusive exporter journal qptraffic races mlx5"}

clean_slate() {
	grep -q '^rocectl_mlx5 ' /proc/modules && rmmod rocectl_mlx5
	grep -q '^rocectl ' /proc/modules && rmmod rocectl
	grep -q '^simrdma ' /proc/modules && rmmod simrdma
	for l in $(rdma link show 2>/dev/null | awk '{print $2}' | cut -d/ -f1); do
		timeout 20 rdma link del "$l"
	done
	for v in $(ip -o link show type veth | awk -F': ' '{print $2}' | cut -d@ -f1); do
		ip link del "$v" 2>/dev/null
	done
	grep -q '^rdma_rxe ' /proc/modules && rmmod rdma_rxe
	grep -q '^simnic ' /proc/modules && rmmod simnic
	# The two-device routing of a scenario (see the test-guest notes).
	for pref in 100 101 1000; do
		while ip rule del pref $pref 2>/dev/null; do :; done
	done
	ip route flush table 100 2>/dev/null
	ip route flush table 101 2>/dev/null
	ip rule show | grep -q '^0:' || ip rule add pref 0 lookup local
	return 0
}

# Only the install scenario may use the DKMS-installed module: the others
# test the build tree's, and expect "not loaded" to mean it (the family
# alias would otherwise have the kernel load the installed one on demand).
hide_installed_module() {
	local dir=/lib/modules/$(uname -r)/updates/dkms
	[ -d "$dir" ] && ! mountpoint -q "$dir" && mount -t tmpfs none "$dir"
	return 0
}

show_installed_module() {
	local dir=/lib/modules/$(uname -r)/updates/dkms
	! mountpoint -q "$dir" || umount "$dir"
}

for s in $SCENARIOS; do
	clean_slate
	if [ "$s" = install ]; then
		show_installed_module
	else
		hide_installed_module
	fi
	echo "# scenario $s"
	limit=${SCENARIO_TIMEOUT:-300}
	# races: four races of RACE_SECONDS each, and their checks.
	[ "$s" = races ] && limit=$((limit + 4 * ${RACE_SECONDS:-60}))
	# blast: seven storms, most of them restored 8 s after they end.
	[ "$s" = blast ] && limit=$((limit + 120))
	# fabric_path: a third leaf, and three localizations after traffic.
	[ "$s" = fabric_path ] && limit=$((limit + 300))
	# hw_accept: five runs of the hardware kit, 200-310 s each on a
	# loaded machine (its lying tools cost more), each bounded at 600 s.
	[ "$s" = hw_accept ] && limit=$((limit + 2700))
	# pods: two storms, a job's filter, sums and failure besides the pods'.
	[ "$s" = pods ] && limit=$((limit + 90))
	# soak: SOAK_SECONDS of it, then 10,000 scrapes.
	[ "$s" = soak ] && limit=$((limit + ${SOAK_SECONDS:-300} + 1800))
	sc=$out/scenarios/$s.tap
	: > "$sc"
	t0=$(date +%s)
	SCENARIO=$s RESULTS=$sc timeout -k 5 "$limit" bash "$here/$s.sh"
	code=$?
	grep -E '^(not )?ok - ' "$sc" >> "$RESULTS"
	plan_check "$s" "$sc" "$code" "$limit"
	# The guest's seconds for it (the lanes' budget in tests/README).
	echo "$s $(( $(date +%s) - t0 ))" >> "$out/times"
done
clean_slate
exit 0
