# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the test suite's simulated devices, which
# stand in for hardware in its guest (tests/README, "The hardware kit").
# On a real host none is present and nothing here acts.
#
#   simnic (tests/simnic): a DCB NIC whose debugfs knobs make pause frames
#     arrive (a loopback makes none): XON frames, counted and never
#     pausing, for the watchdog's no-false-storm check, and a short
#     received-pause storm for the pause counters' check.
#   simrdma (tests/simrdma): an RDMA device with hardware counters on
#     which perftest cannot run (no verbs provider in user space): the run
#     makes its own QPs through its debugfs knob and its "traffic" is
#     counter events injected on them. Loaded with driver_mlx5=1, its raw
#     QP contexts are in mlx5's layout, each with its UDP source port.

SIMNIC_DBG=/sys/kernel/debug/simnic
SIMRDMA_DBG=/sys/kernel/debug/simrdma

# standin_nic NETDEV: NETDEV is a simulated DCB NIC.
standin_nic() {
	[ "$(ethtool -i "$1" 2>/dev/null | sed -n 's/^driver: //p')" = simnic ] &&
		[ -d "$SIMNIC_DBG/$1" ]
}

# standin_pause NETDEV PRIO xon|storm RATE: that pause source on (RATE 0:
# off).
standin_pause() {
	local knob=rx_storm
	[ "$3" = xon ] && knob=xon
	echo "$2 $4" > "$SIMNIC_DBG/$1/$knob"
}

# standin_rdma DEV: DEV is the simulated RDMA device.
standin_rdma() {
	[ -d "$SIMRDMA_DBG/$1" ] && [ -e "$SIMRDMA_DBG/$1/inject" ]
}

# standin_raw_mlx5 DEV: DEV is the simulated RDMA device with mlx5's
# driver id, whose raw QP contexts (rdma res show qp -r) have mlx5's layout.
standin_raw_mlx5() {
	standin_rdma "$1" && [ "$(cat /sys/module/simrdma/parameters/driver_mlx5 2>/dev/null)" = Y ]
}

# The simulated device's QPs, "QPN STATE COUNTER" lines, QP1 left out.
standin_qps() {
	awk '$1 != 1 && $1 ~ /^[0-9]+$/ {print $1}' "$SIMRDMA_DBG/$1/qps" | sort -n
}

# standin_make_qps DEV N: N RC QPs made and moved to RTS on DSCP's traffic
# class; their QPNs printed, and remembered in HW_WORK for the clean-up.
standin_make_qps() {
	local before after new q
	before=$(standin_qps "$1")
	echo "create $2" > "$SIMRDMA_DBG/$1/qps" || return 1
	after=$(standin_qps "$1")
	# comm(1) needs its inputs in its own (lexical) order: numerically
	# sorted QPNs across a power of ten (99, 100) are not.
	new=$(comm -13 <(sort <<< "$before") <(sort <<< "$after") | sort -n)
	for q in $new; do
		echo "$1 $q" >> "$HW_WORK/standin_qps"
		echo "modify $q rts $((DSCP << 2))" > "$SIMRDMA_DBG/$1/qps" || return 1
	done
	echo "$new"
}

# standin_inject DEV QPN COUNTER N: N events of COUNTER on that QP.
standin_inject() {
	echo "$2 $3 $4" > "$SIMRDMA_DBG/$1/inject"
}

standin_cleanup() {
	local d q
	[ -f "$HW_WORK/standin_qps" ] || return 0
	while read -r d q; do
		echo "destroy $q" > "$SIMRDMA_DBG/$d/qps" 2>/dev/null
	done < "$HW_WORK/standin_qps"
	rm -f "$HW_WORK/standin_qps"
}
