# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: rocectl check's findings, the checks only
# a ConnectX can exercise, and the kernel log.

# rocectl check on each device: it runs, every finding cites the value it
# judged, and its mtu finding's MTU is the netdev's as ip(8) reads it.
hw_check_rocectl_check() {
	local d out n bare mtu ref
	export HW_CHECK=check
	for d in $DEVS; do
		out=$(rc -j check dev "$d" 2>/dev/null)
		if ! jq -e 'type == "array" and length > 0' <<< "$out" > /dev/null 2>&1; then
			hw_result FAIL "check/$d" "no_findings" - no "rocectl check dev $d printed no finding"
			continue
		fi
		n=$(jq length <<< "$out")
		bare=$(jq -r '[.[] | select(.result != "SKIP" and ((.evidence // "") | test("[0-9]") | not)) | .check] | join(",")' <<< "$out")
		# The netdev's MTU as the mtu finding cites it ("simA's MTU 1500",
		# "simA's MTU is 1500", "simA has 1500").
		mtu=$(jq -r '[.[] | select(.check == "mtu") | .netdev as $n | .evidence |
			capture($n + "(.s MTU( is)?| has) (?<m>[0-9]+)") | .m][0] // empty' <<< "$out")
		ref=$(jq -r '[.[] | select(.check == "mtu") | .netdev][0] // empty' <<< "$out")
		[ -z "$ref" ] || [ "$ref" = - ] || ref=$(ip -j link show dev "$ref" | jq -r '.[0].mtu')
		if [ -n "$bare" ]; then
			hw_result FAIL "check/$d" "mtu=$mtu" "mtu=$ref" yes "$n findings; citing no value: $bare"
		else
			hw_compare "check/$d" "mtu=$mtu" "mtu=$ref" yes "$n findings, each citing its value"
		fi
	done
}

# The checks that need a ConnectX (mlx5): DevX through mlx5dv, DCQCN
# against the driver's view, CE/CNP optional counters per QP (6.15+). (The
# QP context's source port is checked with the QPs: checks_sport.sh.)
hw_check_mlx5() {
	local d drv any=
	for d in $DEVS; do
		drv=$(basename "$(readlink -f "/sys/class/infiniband/$d/device/driver" 2>/dev/null)" 2>/dev/null)
		[ "$drv" = mlx5_core ] && any="$any $d"
	done
	local c
	for c in devx dcqcn ce_cnp; do
		if [ -z "$any" ]; then
			hw_skip "mlx5/$c" "no mlx5 (ConnectX) device here"
		else
			# Applies and cannot run yet: counted as not exercised.
			hw_incomplete "mlx5/$c" "on$any: not in this version of the kit (issue 54)"
		fi
	done
}

# No kernel warning during the run: the lines the kernel logged since it
# began, against its bad patterns; rocectl's own lines counted beside them.
hw_check_kmsg() {
	local new bad ours
	export HW_CHECK=kmsg
	new=$(dmesg | tail -n +$((KMSG_START + 1)))
	bad=$(grep -cE 'BUG:|WARNING:|Oops|general protection|Kernel panic|KASAN|UBSAN|refcount_t:|Call Trace|list_add corruption|list_del corruption' <<< "$new")
	ours=$(grep -c 'rocectl' <<< "$new")
	if [ "$bad" = 0 ]; then
		hw_result PASS kmsg "warnings=0" "dmesg_warnings=0" yes "$(wc -l <<< "$new") new kernel log lines, $ours from rocectl"
	else
		hw_result FAIL kmsg "warnings=0" "dmesg_warnings=$bad" yes \
			"$(grep -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|Call Trace' <<< "$new" | head -n 2 | tr '\n' '|')"
	fi
}
