# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the run's own traffic (perftest, bounded
# in rate and time, on DSCP 0 unless --dscp), its QPs against rdma(8)
# while it runs, and their hardware counters bound by rocectl against
# rdma statistic.

PERF_PIDS=
PERF_RATE=${PERF_RATE:-100}	# MiB/s, perftest's software rate limiter
OWN_BOUND=			# "DEV:QPN" bound by this run

# The index of DEV's RoCE v2 GID for an IPv4 address on PORT, and that
# address: "INDEX ADDRESS", or nothing.
own_gid() {
	local dir=/sys/class/infiniband/$1/ports/$2 f i g
	for f in "$dir"/gid_attrs/types/*; do
		i=${f##*/}
		[ "$(cat "$f" 2>/dev/null)" = "RoCE v2" ] || continue
		g=$(cat "$dir/gids/$i")
		case $g in
		0000:0000:0000:0000:0000:ffff:*)
			printf '%s %d.%d.%d.%d\n' "$i" "0x${g:30:2}" "0x${g:32:2}" "0x${g:35:2}" "0x${g:37:2}"
			return ;;
		esac
	done
}

# perftest_start DEV PORT [unlimited]: ib_write_bw for SECS seconds:
# server and client on DEV's own GID (loopback), or the client alone
# against --peer; at PERF_RATE unless unlimited.
# Each process is bounded by SECS and a minute: before its SECS it opens
# the device, calibrates its rate limiter and exchanges its keys over TCP,
# which takes tens of seconds on a slow or loaded host.
perftest_start() {
	local g idx addr tcp=$((20000 + RANDOM % 10000))
	local args=(-d "$1" -i "$2" -D "$SECS" -p "$tcp" --tclass=$((DSCP << 2)))
	[ -n "${3:-}" ] || args+=(--rate_limit="$PERF_RATE" --rate_units=M --rate_limit_type=SW)
	g=$(own_gid "$1" "$2")
	[ -n "$g" ] || return 1
	read -r idx addr <<< "$g"
	PERF_PIDS=
	if [ -z "$PEER" ]; then
		timeout $((SECS + 60)) ib_write_bw "${args[@]}" -x "$idx" > "$HW_WORK/perf.server" 2>&1 &
		PERF_PIDS=$!
		# The client once the server listens (a busy host is slow to).
		for _ in $(seq 100); do
			ss -Hltn "sport = :$tcp" 2>/dev/null | grep -q . && break
			perftest_alive || break
			sleep 0.1
		done
	else
		addr=$PEER
	fi
	timeout $((SECS + 60)) ib_write_bw "${args[@]}" -x "$idx" "$addr" > "$HW_WORK/perf.client" 2>&1 &
	PERF_PIDS="$PERF_PIDS $!"
}

# Whether any of perftest's bounding timeouts still runs.
perftest_alive() {
	local p
	for p in $PERF_PIDS; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

# The pids of perftest's processes, as a JSON array.
perftest_pids() {
	local p c
	for p in $PERF_PIDS; do
		# The job may be a shell above timeout: two levels down.
		for c in $(pgrep -P "$p"); do
			if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = ib_write_bw ]; then
				echo "$c"
			else
				pgrep -P "$c" -x ib_write_bw
			fi
		done
	done | jq -sc .
}

# QPs as "LQPN:STATE:RQPN:PID:COMM" lines, from rocectl and from rdma(8),
# of DEV, either of the pids (a JSON array) or the QPNs (a JSON array).
qps_rocectl() {
	rc -j qp show dev "$1" | jq -r --argjson pids "$2" --argjson qpns "$3" \
		'.[] | select((.pid as $p | $pids | index($p)) or (.lqpn as $q | $qpns | index($q))) |
		"\(.lqpn):\(.state):\(.rqpn // "-"):\(.pid // "-"):\(.comm // "-")"' | sort -n
}
qps_rdma() {
	timeout "$T" rdma -j res show qp link "$1" | jq -r --argjson pids "$2" --argjson qpns "$3" \
		'.[] | select((.pid as $p | $pids | index($p)) or (.lqpn as $q | $qpns | index($q))) |
		"\(.lqpn):\(.state):\(.rqpn // "-"):\(.pid // "-"):\(.comm // "-")"' | sort -n
}

# count_connected DEV PIDS: how many of those processes' QPs rdma says are
# connected: in RTS, or RTR (ib_write_bw's server never moves its QP on to
# RTS: it only receives).
count_connected() {
	timeout "$T" rdma -j res show qp link "$1" | jq --argjson pids "$2" \
		'[.[] | select((.pid as $p | $pids | index($p)) and (.state == "RTS" or .state == "RTR"))] | length'
}

# perftest_connect DEV PORT [unlimited]: perftest started and its QPs
# connected (one each for the server and the client of a loopback): their
# processes' pids (a JSON array) in PERF_QP_PIDS, PERF_CONNECTED the most
# of their QPs seen connected at once. (Not in a command substitution:
# PERF_PIDS is the caller's.) The pids are looked up until all are found,
# then kept: on a slow host each look-up costs time perftest runs out of.
PERF_QP_PIDS=[]
PERF_CONNECTED=0
perftest_connect() {
	local n c
	PERF_QP_PIDS=[]
	PERF_CONNECTED=0
	perftest_start "$@" || return 1
	n=$([ -z "$PEER" ] && echo 2 || echo 1)
	for _ in $(seq 100); do
		[ "$(jq length <<< "$PERF_QP_PIDS")" -ge "$n" ] || PERF_QP_PIDS=$(perftest_pids)
		c=$(count_connected "$1" "$PERF_QP_PIDS")
		[ "${c:-0}" -le "$PERF_CONNECTED" ] || PERF_CONNECTED=$c
		[ "$PERF_CONNECTED" -lt "$n" ] || break
		perftest_alive || break
		sleep 0.1
	done
}

# Whether DEV is software RDMA (soft-RoCE, siw: a parent netdev, no NIC of
# its own): its loopback never reaches a NIC or the wire.
soft_rdma() {
	[ -e "/sys/class/infiniband/$1/parent" ]
}

# A QP's hardware counters as "NAME=VALUE" words, from rocectl qp stats
# and from rdma statistic qp show (its counter CNTN).
hwc_rocectl() {
	rc -j qp stats dev "$1" qpn "$2" | jq -r '.[0].hw_counters.counters // {} | to_entries | map("\(.key)=\(.value)") | join(",")'
}
hwc_rdma() {
	timeout "$T" rdma -j statistic qp show link "$1/$2" | jq -r --argjson c "$3" \
		'.[] | select(.cntn == $c) | del(.ifname, .port, .ifindex, .cntn, ."qp-type", .pid, .comm, .lqpn) |
		to_entries | map("\(.key)=\(.value)") | join(",")'
}

# between A B C: each counter of B lies between its values in A and C (A
# and C read by rocectl before and after rdma's B): counters that move
# under traffic compared without a race. Prints the counters that do not.
between() {
	jq -rn --arg a "$1" --arg b "$2" --arg c "$3" '
		def m(s): s | split(",") | map(select(length > 0) | split("=") | {(.[0]): (.[1] | tonumber)}) | add // {};
		m($a) as $a | m($b) as $b | m($c) as $c |
		[($a + $b + $c) | keys[] | select(($a[.] // -1) > ($b[.] // -2) or ($b[.] // -2) > ($c[.] // -1))] | join(",")'
}

# hwc_moved BEFORE AFTER: whether any counter rose.
hwc_moved() {
	jq -rn --arg a "$1" --arg b "$2" '
		def m(s): s | split(",") | map(select(length > 0) | split("=") | {(.[0]): (.[1] | tonumber)}) | add // {};
		m($a) as $a | m($b) | if to_entries | any(.value > ($a[.key] // 0)) then "yes" else "no" end'
}

# hw_counters_check DEV PORT QPN [INJECT]: bind the run's QP, let traffic
# (or, on the simulated device, injected events) move its counters,
# compare, unbind.
hw_counters_check() {
	local d=$1 p=$2 q=$3 out cntn a b c z bad moved
	export HW_CHECK=hw_counters
	if ! out=$(rc -j qp counters bind dev "$d" port "$p" qpn "$q" 2>&1); then
		hw_skip "hw_counters/$d" "rocectl qp counters bind: $(head -n 1 <<< "$out")"
		return
	fi
	OWN_BOUND="$OWN_BOUND $d:$p:$q"
	cntn=$(jq -r '.counter' <<< "$out")
	z=$(hwc_rocectl "$d" "$q")
	[ -z "${4:-}" ] || { standin_inject "$d" "$q" out_of_sequence 7 && standin_inject "$d" "$q" rnr_nak_retry_err 3; }
	[ -n "${4:-}" ] || sleep 1
	a=$(hwc_rocectl "$d" "$q")
	b=$(hwc_rdma "$d" "$p" "$cntn")
	c=$(hwc_rocectl "$d" "$q")
	moved=$(hwc_moved "$z" "$c")
	bad=$(between "$a" "$b" "$c")
	if [ -z "$b" ] || [ -z "$a" ]; then
		hw_result FAIL "hw_counters/$d" "$a" "$b" "$moved" "counter $cntn of QP $q missing on one side"
	elif [ -n "$bad" ]; then
		hw_result FAIL "hw_counters/$d" "$c" "$b" "$moved" "counter $cntn of QP $q: $bad differ"
	else
		hw_result PASS "hw_counters/$d" "$c" "$b" "$moved" "counter $cntn of QP $q"
	fi
	rc qp counters unbind dev "$d" port "$p" qpn "$q" counter "$cntn" > /dev/null 2>&1 &&
		OWN_BOUND=${OWN_BOUND/ $d:$p:$q/}
}

hw_check_qps() {
	local d p pids qpns r ref q limit
	for d in $DEVS; do
		export HW_CHECK=qps
		p=1
		if standin_rdma "$d"; then
			# The simulated device: the run's own QPs made through its
			# knob (no verbs provider in user space for perftest).
			qpns=$(standin_make_qps "$d" 2 | jq -sc .)
			r=$(qps_rocectl "$d" '[]' "$qpns" | paste -sd, -)
			ref=$(qps_rdma "$d" '[]' "$qpns" | paste -sd, -)
			hw_compare "qps/$d" "$r" "$ref" "$([ "$qpns" != '[]' ] && echo yes || echo no)" \
				"traffic: the simulated device's QPs"
			hw_check_sport "$d" "$qpns"
			hw_counters_check "$d" "$p" "$(jq '.[0]' <<< "$qpns")" inject
			standin_cleanup
			continue
		fi
		limit="$PERF_RATE MiB/s"
		if ! perftest_connect "$d" "$p"; then
			hw_incomplete "qps/$d" "port $p has no RoCE v2 IPv4 GID for perftest's loopback"
			hw_check_sport "$d" '[]'
			hw_skip "hw_counters/$d" "no traffic (no RoCE v2 IPv4 GID)"
			continue
		fi
		# perftest's software rate limiter calibrates against the CPU's
		# clock and gives up where it cannot (an emulated CPU). Software
		# RDMA's loopback reaches no NIC and no wire: its rate is the
		# CPU's, bounded by time alone. A NIC's traffic is never unbounded.
		if grep -q "couldn't acquire cpu frequency" "$HW_WORK/perf.client" 2>/dev/null &&
			[ -z "$PEER" ] && soft_rdma "$d"; then
			perftest_wait
			limit="no rate limit: perftest could not calibrate its limiter, and soft RDMA's loopback reaches no NIC"
			perftest_connect "$d" "$p" unlimited
		fi
		pids=$PERF_QP_PIDS
		if [ "$PERF_CONNECTED" -lt "$([ -z "$PEER" ] && echo 2 || echo 1)" ]; then
			hw_incomplete "qps/$d" "perftest's QPs not seen connected (processes $pids, at most $PERF_CONNECTED of their QPs in RTR or RTS at once): $(cat "$HW_WORK"/perf.* 2>/dev/null | grep -E "Failed|[Ee]rror|Couldn't|couldn't" | head -n 3 | tr '\n' ';')$(cat "$HW_WORK"/perf.* 2>/dev/null | grep -v '^ *$' | tail -n 2 | tr '\n' ';')"
			hw_check_sport "$d" '[]'
			hw_skip "hw_counters/$d" "no traffic (perftest made no QP)"
			perftest_wait
			continue
		fi
		r=$(qps_rocectl "$d" "$pids" '[]' | paste -sd, -)
		ref=$(qps_rdma "$d" "$pids" '[]' | paste -sd, -)
		if [ -z "$ref" ] && ! perftest_alive; then
			# Seen connected, gone before they were compared.
			hw_incomplete "qps/$d" "perftest's QPs were gone before they were compared: this host needs a longer --seconds than $SECS"
			hw_check_sport "$d" '[]'
			hw_skip "hw_counters/$d" "no traffic (perftest ended)"
			perftest_wait
			continue
		fi
		[ -n "$ref" ] || ref="none($(cat "$HW_WORK"/perf.* 2>/dev/null | grep -v '^ *$' | tail -n 2 | tr '\n' ';'))"
		hw_compare "qps/$d" "$r" "$ref" "$([ -n "$ref" ] && echo yes || echo no)" \
			"perftest's QPs (ib_write_bw ${PEER:+to the peer}${PEER:-loopback}, DSCP $DSCP, $limit, $SECS s)"
		qpns=$(timeout "$T" rdma -j res show qp link "$d" | jq -c --argjson pids "$pids" \
			'[.[] | select(.pid as $p | $pids | index($p)) | .lqpn]')
		hw_check_sport "$d" "$qpns"
		q=$(jq -r '.[0] // empty' <<< "$qpns")
		if [ -n "$q" ]; then
			hw_counters_check "$d" "$p" "$q"
		else
			hw_skip "hw_counters/$d" "perftest made no QP"
		fi
		perftest_wait
	done
}

# perftest ends within its time (and its bound); its own figures go to the
# report, its whole output beside it (perftest-DEV.txt; its GIDs
# redacted unless --no-redact), each attempt's after the last.
perftest_wait() {
	local p f
	for p in $PERF_PIDS; do
		wait "$p" 2>/dev/null
	done
	PERF_PIDS=
	hw_host_fact "perftest_$d" "\"$(grep -E '^ *[0-9]+ +[0-9]+ ' "$HW_WORK/perf.client" 2>/dev/null | tail -n 1 | tr -s ' ')\""
	for f in server client; do
		[ -f "$HW_WORK/perf.$f" ] || continue
		echo "--- ib_write_bw $f on $d"
		if [ "$HW_NO_REDACT" = 1 ]; then
			cat "$HW_WORK/perf.$f"
		else
			sed -E 's/(GID: ).*/\1[gid]/' "$HW_WORK/perf.$f" | hw_redact
		fi
	done >> "$HW_REPORT/perftest-$d.txt"
}

# What this run made, undone: its counter bindings, its perftest.
hw_cleanup_own() {
	local e d p q
	for e in $OWN_BOUND; do
		IFS=: read -r d p q <<< "$e"
		rc qp counters unbind dev "$d" port "$p" qpn "$q" > /dev/null 2>&1
	done
	OWN_BOUND=
	[ -z "$PERF_PIDS" ] || kill $PERF_PIDS 2>/dev/null
	standin_cleanup
	hw_watch_cleanup
}
