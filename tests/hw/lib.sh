# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the result lines, their tally and the
# report (text and JSON) with its redaction.
#
# A result line: "PASS|FAIL|SKIP NAME: rocectl=V reference=V moved=yes|no
# [# WHY]". moved says whether the quantity compared changed during the
# check (a counter's delta) or, for a state, whether there was any to
# compare (a device, an enabled PFC bit): a PASS with moved=no proves
# nothing and makes the run incomplete.

HW_LINES=		# the report's lines file (set by hw_report_init)
HW_FAILED=0
HW_UNEXERCISED=0

# hw_result RESULT NAME ROCECTL REFERENCE MOVED [WHY]
hw_result() {
	local res=$1 name=$2 r=$3 ref=$4 moved=$5 why=${6:-} line
	r=$(hw_value "$r")
	ref=$(hw_value "$ref")
	line="$res $name: rocectl=$r reference=$ref moved=$moved"
	if [ "$res" = PASS ] && [ "$moved" = no ]; then
		why="not exercised: the compared quantity did not move${why:+; $why}"
		HW_UNEXERCISED=$((HW_UNEXERCISED + 1))
	fi
	[ "$res" != FAIL ] || HW_FAILED=$((HW_FAILED + 1))
	[ -z "$why" ] || line="$line # $why"
	echo "$line"
	[ -z "$HW_LINES" ] || {
		echo "$line" >> "$HW_LINES.txt"
		jq -nc --arg result "$res" --arg name "$name" --arg rocectl "$r" \
			--arg reference "$ref" --arg moved "$moved" --arg why "$why" \
			'{$result, $name, $rocectl, $reference, moved: ($moved == "yes"), why: $why}' \
			>> "$HW_LINES.json"
	}
}

# hw_compare NAME ROCECTL REFERENCE MOVED [WHY]: PASS when equal, else FAIL.
hw_compare() {
	if [ "$2" = "$3" ]; then
		hw_result PASS "$@"
	else
		hw_result FAIL "$1" "$2" "$3" "$4" "differ${5:+; $5}"
	fi
}

# hw_skip NAME WHY
hw_skip() {
	hw_result SKIP "$1" - - no "$2"
}

# hw_incomplete NAME WHY: a check that applies here and could not run: a
# SKIP that makes the run incomplete.
hw_incomplete() {
	hw_result SKIP "$1" - - no "$2"
	HW_UNEXERCISED=$((HW_UNEXERCISED + 1))
}

# A value as one word of a result line (no spaces, never empty).
hw_value() {
	local v=${1:--}
	v=${v//$'\n'/;}
	printf '%s' "${v// /_}"
}

# The exit status: 1 a check failed, 3 incomplete (a check that applies
# exercised nothing), 0 otherwise.
hw_status() {
	if [ "$HW_FAILED" -gt 0 ]; then
		echo 1
	elif [ "$HW_UNEXERCISED" -gt 0 ]; then
		echo 3
	else
		echo 0
	fi
}

# --- the report ------------------------------------------------------------
# hw_report_init DIR: the report's files start empty there.
hw_report_init() {
	mkdir -p "$1" || return 1
	HW_LINES=$1/lines
	: > "$HW_LINES.txt"
	: > "$HW_LINES.json"
	: > "$1/host.json"
}

# hw_host_fact KEY JSON: one fact about the host for the report.
hw_host_fact() {
	jq -c --arg k "$1" '{($k): .}' <<< "$2" >> "$HW_REPORT/host.json" 2>/dev/null ||
		jq -nc --arg k "$1" --arg v "$2" '{($k): $v}' >> "$HW_REPORT/host.json"
}

# What the report hides unless --no-redact: serial numbers, GIDs and
# addresses (IPv4, IPv6, MAC), other users' QP owners (redacted where
# they are recorded).
hw_redact() {
	if [ "${HW_NO_REDACT:-0}" = 1 ]; then
		cat
		return
	fi
	sed -E \
		-e 's/("(serial_number|board\.serial_number|serial)"[[:space:]]*:[[:space:]]*")[^"]*"/\1[redacted]"/g' \
		-e 's/(serial_number|serial) [^ ,"]+/\1 [redacted]/g' \
		-e 's/([0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}/[mac]/g' \
		-e 's/([0-9a-fA-F]{4}:){7}[0-9a-fA-F]{4}/[gid]/g' \
		-e 's/::ffff:[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/[gid]/g' \
		-e 's/\b([0-9]{1,3}\.){3}[0-9]{1,3}(\/[0-9]+)?\b/[ipv4]/g' \
		-e 's/\b([0-9a-fA-F]{1,4}:){1,6}(:[0-9a-fA-F]{1,4}){1,6}(\/[0-9]+)?\b/[ipv6]/g' \
		-e 's/\b([0-9a-fA-F]{1,4}:){1,7}:(\/[0-9]+)?/[ipv6]/g'
}

# hw_report_write STATUS: report.txt and report.json from the host facts
# and the lines, redacted.
hw_report_write() {
	local dir=$HW_REPORT
	jq -s --argjson status "$1" --slurpfile lines "$HW_LINES.json" \
		'{host: (add // {}), lines: $lines, exit_status: $status}' "$dir/host.json" |
		hw_redact > "$dir/report.json"
	{
		echo "rocectl hardware acceptance report"
		jq -r '.host | to_entries[] | "\(.key): \(.value | if type == "string" then . else tojson end)"' \
			"$dir/report.json"
		echo
		cat "$HW_LINES.txt"
		echo
		echo "exit status $1"
	} | hw_redact > "$dir/report.txt"
	rm -f "$dir/host.json" "$HW_LINES.txt" "$HW_LINES.json"
}
