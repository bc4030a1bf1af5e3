# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the watchdog in alert mode and each
# lossless priority's pause counters, against ethtool -S and dcb(8).
#
# rocectl shows pause frames as the watchdog's evidence: last_storm_frames,
# the frames of a storm from the poll that first saw it to its
# restoration. Around a storm that begins and ends inside the check, that
# is ethtool's rx_prioP_pause delta less the frames of the polls it did not
# judge stormy (the storm's first and last, partly paused). A loopback makes
# no pause frames: without a pause source (a peer, or the simulated NIC's
# knob in the test guest) the lines say nothing moved.

OWN_WATCHES=	# netdevs this run set a watch on

# The priorities PFC is enabled on, "3,4", or nothing.
lossless() {
	local p
	p=$(dcb_pfc "$1")
	[ "$p" = none ] || echo "$p"
}

# ethtool_pause NETDEV PRIO: rx_prioP_pause, or nothing.
ethtool_pause() {
	ethtool -S "$1" 2>/dev/null | awk -v k="rx_prio$2_pause:" '$1 == k {print $2}'
}

# A watch of the run's own on NETDEV, alert only, on PRIOS; fails (and
# sets none) if NETDEV has a watch already: that one is left as it is.
own_watch() {
	[ "$(rc -j watchdog show dev "$1" 2>/dev/null | jq 'length')" = 0 ] || return 1
	rc watchdog set dev "$1" prio "$2" action alert detect 200 restore 400 interval 50 > /dev/null || return 1
	OWN_WATCHES="$OWN_WATCHES $1"
}

del_watch() {
	rc watchdog del dev "$1" > /dev/null 2>&1
	OWN_WATCHES=${OWN_WATCHES/ $1/}
}

hw_watch_cleanup() {
	local n
	for n in $OWN_WATCHES; do
		del_watch "$n"
	done
}

# wd_field NETDEV PRIO FIELD: one field of the priority's watchdog stats.
wd_field() {
	rc -j watchdog stats dev "$1" | jq -r --argjson p "$2" ".[0].prios[] | select(.prio == \$p and (.direction // \"rx\") != \"tx\") | .$3" | head -n 1
}

# The watchdog in alert mode on every lossless priority for a few
# seconds: no storm, PFC as dcb(8) read it before.
hw_check_watchdog() {
	local n prios pfc0 pfc1 e0 e1 p storms src
	export HW_CHECK=watchdog
	for n in $(hw_netdevs); do
		prios=$(lossless "$n")
		[ -n "$prios" ] || { hw_skip "watchdog/$n" "PFC on no priority (dcb pfc show): no lossless priority to watch"; continue; }
		pfc0=$(timeout "$T" dcb -j pfc show dev "$n")
		if ! own_watch "$n" "$prios"; then
			hw_incomplete "watchdog/$n" "$n has a watch already: left as it is"
			continue
		fi
		e0=$(for p in ${prios//,/ }; do ethtool_pause "$n" "$p"; done | paste -sd+ -)
		src="no pause source: a loopback makes none"
		if standin_nic "$n"; then
			src="the simulated NIC's XON frames"
			for p in ${prios//,/ }; do standin_pause "$n" "$p" xon 1000; done
		fi
		sleep 3
		if standin_nic "$n"; then
			for p in ${prios//,/ }; do standin_pause "$n" "$p" xon 0; done
		fi
		e1=$(for p in ${prios//,/ }; do ethtool_pause "$n" "$p"; done | paste -sd+ -)
		storms=$(rc -j watchdog stats dev "$n" | jq '[.[0].prios[].storms] | add')
		pfc1=$(timeout "$T" dcb -j pfc show dev "$n")
		del_watch "$n"
		local delta=$(( ${e1:-0} - ${e0:-0} ))
		if [ "$storms" = 0 ] && [ "$pfc0" = "$pfc1" ]; then
			hw_result PASS "watchdog/$n" "storms=0" "pfc_unchanged,rx_pause+$delta" \
				"$([ $delta -gt 0 ] && echo yes || echo no)" "prio $prios, 3 s; $src"
		else
			hw_result FAIL "watchdog/$n" "storms=$storms" \
				"$([ "$pfc0" = "$pfc1" ] && echo pfc_unchanged || echo pfc_changed),rx_pause+$delta" \
				"$([ $delta -gt 0 ] && echo yes || echo no)" "prio $prios: a storm or a PFC change with no storm made"
		fi
	done
}

# Each lossless priority's received pause frames: the storm's frames as
# rocectl's watchdog counted them against ethtool -S's delta around it.
hw_check_pause() {
	local n prios p e0 e1 frames restores0 restores i
	export HW_CHECK=pause
	for n in $(hw_netdevs); do
		prios=$(lossless "$n")
		[ -n "$prios" ] || { hw_skip "pause/$n" "PFC on no priority: pause frames are neither honoured nor counted"; continue; }
		for p in ${prios//,/ }; do
			[ -n "$(ethtool_pause "$n" "$p")" ] ||
				{ hw_skip "pause/$n/$p" "ethtool -S $n has no rx_prio${p}_pause"; continue; }
			if ! own_watch "$n" "$p"; then
				hw_incomplete "pause/$n/$p" "$n has a watch already: left as it is"
				continue
			fi
			restores0=$(wd_field "$n" "$p" restores)
			e0=$(ethtool_pause "$n" "$p")
			if standin_nic "$n"; then
				standin_pause "$n" "$p" storm 1000
				sleep 1
				standin_pause "$n" "$p" storm 0
			else
				sleep 1
			fi
			# The storm restored (restore 400 ms after it ends).
			for i in $(seq 50); do
				restores=$(wd_field "$n" "$p" restores)
				[ "$restores" = "$restores0" ] || break
				[ "$(wd_field "$n" "$p" state)" = storm ] || [ "$i" -lt 10 ] || break
				sleep 0.1
			done
			e1=$(ethtool_pause "$n" "$p")
			frames=$(wd_field "$n" "$p" last_storm_frames)
			if [ "$restores" = "$restores0" ]; then
				frames=0
			fi
			del_watch "$n"
			if [ $((e1 - e0)) = 0 ] && [ "$frames" = 0 ]; then
				hw_result PASS "pause/$n/$p" 0 "+0" no "no pause source: a loopback makes none (--peer)"
			elif [ "$restores" = "$restores0" ]; then
				hw_result SKIP "pause/$n/$p" "no_storm" "+$((e1 - e0))" yes \
					"pause frames without a storm: rocectl counts a storm's frames only"
			else
				# The watchdog counts the frames of the polls it judged
				# stormy: a storm's first and last polls, paused for
				# part of their interval, may be left out. So at most
				# what ethtool counted, and no less than nine tenths of
				# it (a 1 s storm, polls every 50 ms).
				local ref=$((e1 - e0)) why
				why="a storm's frames (last_storm_frames) against rx_prio${p}_pause's delta: at most it, at least 9/10 of it$(standin_nic "$n" && echo "; the simulated NIC's storm knob, 1 s")"
				if [ "$frames" -gt 0 ] && [ "$frames" -le "$ref" ] && [ $((10 * frames)) -ge $((9 * ref)) ]; then
					hw_result PASS "pause/$n/$p" "$frames" "$ref" yes "$why"
				else
					hw_result FAIL "pause/$n/$p" "$frames" "$ref" yes "out of bounds; $why"
				fi
			fi
		done
	done
}
