# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by every part of the suite: the result lines, plans, the check of
# a scenario against its plan, and the closing line.
#
# A result is a line "ok - NAME", "ok - NAME # SKIP WHY" (a skip, reported
# as such, never as a pass) or "not ok - NAME # WHY". A scenario (a guest
# scenario, a host-side check script) declares its plan, the number of
# results it reports, before the first: "plan N" prints "1..N". The plan
# holds in every path: a test that cannot run reports a SKIP line, so a
# scenario that reports fewer or more results than planned stopped early
# (or counted wrong), and plan_check says so as a failure.

# report LINE: LINE on stdout and, if $RESULTS names a file, appended to it.
report() {
	echo "$1"
	[ -z "${RESULTS:-}" ] || echo "$1" >> "$RESULTS"
}

# plan N: this scenario reports N results.
plan() {
	report "1..$1"
}

# plan_check NAME FILE CODE [LIMIT]: one result line for the scenario NAME
# whose output is FILE and exit status CODE: the results in FILE are as many
# as its plan said, declared before them. With LIMIT (the seconds timeout(1)
# gave it), a CODE of 124 or 137 says it was killed there: a failure too.
plan_check() {
	local name=$1 file=$2 code=$3 limit=${4:-} planned got first why=
	read -r planned got first < <(awk '
		/^1\.\.[0-9]+$/ && planned == "" { planned = substr($0, 4); if (!got) first = 1 }
		/^(not )?ok - / { got++ }
		END { print (planned == "" ? "-" : planned), got + 0, first + 0 }' "$file" 2> /dev/null)
	planned=${planned:--}
	got=${got:-0}
	if [ -n "$limit" ] && { [ "$code" = 124 ] || [ "$code" = 137 ]; }; then
		why="timed out after $limit s"
	elif [ "$planned" = - ]; then
		why="no plan (1..N) declared"
	elif [ "${first:-0}" != 1 ]; then
		why="plan declared after the first result"
	elif [ "$got" -lt "$planned" ]; then
		why="stopped early (exit $code)"
	elif [ "$got" -gt "$planned" ]; then
		why="more results than planned"
	fi
	if [ -z "$why" ]; then
		report "ok - $name: planned $planned tests, got $got"
	else
		report "not ok - $name: planned ${planned/-/no} tests, got $got # $why"
	fi
}

# results_summary FILE: the closing line, "N passed, N failed, N skipped",
# for the results in FILE; status 0 only if none failed.
results_summary() {
	local ok skipped failed
	ok=$(grep -c '^ok - ' "$1")
	skipped=$(grep -ciE '^ok - .* # skip( |$)' "$1")
	failed=$(grep -c '^not ok - ' "$1")
	echo "$((ok - skipped)) passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}

# words_minus "A B C" "B": the words of the first list that the second
# lacks, in order, space-separated (a lane's list against another).
words_minus() {
	local w out=
	for w in $1; do
		case " $2 " in *" $w "*) ;; *) out="$out $w" ;; esac
	done
	echo "${out# }"
}

# times_line FILE: a runner's "SCENARIO SECONDS ..." lines as one
# "NAME=SECONDS ..." line.
times_line() {
	awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }' "$1"
}
