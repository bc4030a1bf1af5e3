# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the one change the run makes, and only
# with --allow-changes: PFC turned on for one more priority on each DCB
# netdev, seen by rocectl as dcb(8) sees it, then set back, the netdev's
# PFC state as dcb(8) reads it identical to before. A run that dies in
# between sets it back on its way out (hw_changes_restore).

OWN_PFC_CHANGES=	# "NETDEV:PRIO" turned on by this run, not yet set back

# pfc_spare NETDEV: a priority PFC is off on (the highest), or nothing.
pfc_spare() {
	timeout "$T" dcb -j pfc show dev "$1" 2>/dev/null |
		jq -r '[.prio_pfc | to_entries[] | select(.value | not) | .key | tonumber] | max // empty'
}

hw_changes_restore() {
	local e n p
	for e in $OWN_PFC_CHANGES; do
		IFS=: read -r n p <<< "$e"
		timeout "$T" dcb pfc set dev "$n" prio-pfc "$p:off" ||
			echo "accept.sh: could not set PFC on $n priority $p back to off: do it by hand (dcb pfc set dev $n prio-pfc $p:off)" >&2
	done
	OWN_PFC_CHANGES=
}

# pfc_config NETDEV: PFC's configuration as dcb(8) shows it, without its
# counters (requests, indications: pause frames, which traffic moves).
pfc_config() {
	timeout "$T" dcb -j pfc show dev "$1" 2>/dev/null | jq -c 'del(.requests, .indications)'
}

hw_check_changes() {
	local n before p ref r after
	export HW_CHECK=pfc_change
	for n in $(hw_netdevs); do
		if [ "$ALLOW_CHANGES" = 0 ]; then
			hw_skip "pfc_change/$n" "no change without --allow-changes"
			continue
		fi
		if ! before=$(pfc_config "$n") || [ -z "$before" ]; then
			hw_skip "pfc_change/$n" "no DCB on $n (dcb pfc show fails)"
			continue
		fi
		p=$(pfc_spare "$n")
		if [ -z "$p" ]; then
			hw_skip "pfc_change/$n" "PFC is on every priority: none to turn on"
			continue
		fi
		if ! timeout "$T" dcb pfc set dev "$n" prio-pfc "$p:on"; then
			hw_incomplete "pfc_change/$n" "dcb pfc set dev $n prio-pfc $p:on failed"
			continue
		fi
		OWN_PFC_CHANGES="$OWN_PFC_CHANGES $n:$p"
		ref=$(dcb_pfc "$n")
		r=$(rocectl_pfc "$n")
		hw_changes_restore
		after=$(pfc_config "$n")
		if [ "$after" != "$before" ]; then
			hw_result FAIL "pfc_change/$n" "$r" "$ref" yes "not restored: dcb pfc show dev $n differs from before the change"
		else
			hw_compare "pfc_change/$n" "$r" "$ref" yes \
				"PFC on priority $p too (--allow-changes), then off again: dcb pfc show as before"
		fi
	done
}
