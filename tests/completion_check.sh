#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bash completion (user/completion/rocectl) in a plain bash, without the
# bash-completion package: drives _rocectl as readline would and checks what
# it offers. Device names are checked against "$ROCECTL -j dev show"; with
# the module not loaded, completing a device must offer and print nothing.
# One line per group of cases: "ok - completion: ..." or
# "not ok - completion: ... # WHY". Exit status 0 only if all passed.
#
#   [ROCECTL=path/to/rocectl] tests/completion_check.sh

# No rc files, no BASH_ENV: nothing but bash and the script under test.
if [ -z "${COMPLETION_CHECK_PLAIN:-}" ]; then
	exec env -u BASH_ENV COMPLETION_CHECK_PLAIN=1 bash --norc --noprofile "$0" "$@"
fi
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=$(realpath "${ROCECTL:-$ROOT/user/rocectl}")
PATH=$(dirname "$ROCECTL"):$PATH
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
PRINTED=$W/printed
: > "$PRINTED"

unset -f _init_completion _filedir
# shellcheck source-path=SCRIPTDIR/.. source=user/completion/rocectl
. "$ROOT/user/completion/rocectl"

FAILED=0
RET=0
MSG=

fail() {
	[ $RET -eq 0 ] && MSG="$*"
	RET=1
}

# result WHAT: report the current group and start the next one.
result() {
	if [ $RET -eq 0 ]; then
		echo "ok - completion: $1"
	else
		echo "not ok - completion: $1 # $MSG"
		FAILED=1
	fi
	RET=0
	MSG=
}

# comp LINE: what completing at the end of LINE offers, sorted, one line.
# Anything the completion itself prints goes to $PRINTED.
comp() {
	local COMP_LINE=$1 COMP_POINT=${#1} COMP_WORDS COMP_CWORD COMPREPLY=()
	read -ra COMP_WORDS <<< "$COMP_LINE"
	COMP_CWORD=${#COMP_WORDS[@]}
	if [[ $COMP_LINE == *' ' ]]; then
		COMP_WORDS+=("")
	else
		COMP_CWORD=$((COMP_CWORD - 1))
	fi
	_rocectl rocectl "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}" >> "$PRINTED" 2>&1
	printf '%s\n' "${COMPREPLY[@]}" | sort -u | paste -sd ' '
}

# expect LINE [WORD...]: completing LINE offers exactly the WORDs.
expect() {
	local line=$1 got want
	shift
	got=$(comp "$line")
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort -u | paste -sd ' ')
	[ "$got" = "$want" ] || fail "\"$line\": expected '$want', got '$got'"
}

OBJECTS="dev qp watchdog monitor apply version help"
OPTIONS="-j -p -d -V -h --json --pretty --details --Version --help"
FILTER="dev qpn pid port type state"
TYPES="RC UC UD GSI SMI RAW_PACKET XRC_INI XRC_TGT"
STATES="RESET INIT RTR RTS SQD SQE ERR"
COUNTERS="tx_packets tx_bytes rx_packets rx_bytes rx_ecn_ce rx_cnp tx_cnp
	rx_becn rx_nak_seq tx_nak_seq rx_rnr_nak tx_rnr_nak tx_retrans rx_dup
	rx_out_of_seq"
WD_SET="dev port prio detect restore interval action direction"

# shellcheck disable=SC2086 # word lists split on purpose below
{
expect "rocectl " $OBJECTS
expect "rocectl wa" watchdog
expect "rocectl v" version
expect "rocectl -j " $OBJECTS
expect "rocectl -j -d q" qp
expect "rocectl -" $OPTIONS
expect "rocectl --p" --pretty
expect "rocectl -V "
expect "rocectl --help "
expect "rocectl version "
expect "rocectl help "
result "global options and objects, by prefix"

expect "rocectl dev " show stats help
expect "rocectl qp " show stats help
expect "rocectl watchdog " set del show stats big-red-switch help
expect "rocectl watchdog s" set show stats
expect "rocectl monitor " all dev qp watchdog
expect "rocectl dev help "
expect "rocectl w b " on off	# abbreviated object and command
expect "rocectl watchdog big-red-switch on "
result "commands of each object"

expect "rocectl qp show " $FILTER
expect "rocectl q s " $FILTER
expect "rocectl qp stats " $FILTER sort watch
expect "rocectl qp stats watch " $FILTER sort count
expect "rocectl qp stats watch 0.5 " $FILTER sort count
expect "rocectl watchdog set " ${WD_SET/port /}	# port once dev is given
expect "rocectl watchdog set dev eth0 " ${WD_SET/dev /}
expect "rocectl watchdog del dev eth0 " port prio
expect "rocectl watchdog show " dev
expect "rocectl watchdog stats dev eth0 " port check
expect "rocectl apply cfg " dev
result "keywords of each command"

expect "rocectl qp show type " $TYPES
expect "rocectl qp stats type X" XRC_INI XRC_TGT
expect "rocectl qp show state " $STATES
expect "rocectl qp show state R" RESET RTR RTS
expect "rocectl qp stats sort " $COUNTERS
expect "rocectl qp stats sort rx_r" rx_rnr_nak
expect "rocectl watchdog set dev eth0 prio " 0 1 2 3 4 5 6 7 all
expect "rocectl watchdog del dev eth0 priority " 0 1 2 3 4 5 6 7 all
expect "rocectl watchdog set dev eth0 action " alert forward
expect "rocectl watchdog set dev eth0 direction " rx tx both
expect "rocectl watchdog set dev eth0 direction b" both
result "enumerated values (type, state, sort, prio, action, direction)"

for kw in qpn pid port; do
	expect "rocectl qp show $kw "
done
expect "rocectl qp stats watch count "
for kw in port detect restore interval; do
	expect "rocectl watchdog set dev eth0 $kw "
done
result "numeric arguments offer nothing"

expect "rocectl qp show type RC " dev qpn pid port state
expect "rocectl qp show state RTS qpn 17 pid 5 " dev port type
expect "rocectl qp show lqpn 17 " dev pid port type state
expect "rocectl qp stats sort tx_bytes watch 2 count 3 " $FILTER
expect "rocectl watchdog set dev eth0 prio 3 detect 200 action alert " \
	port restore interval direction
expect "rocectl watchdog set dev eth0 priority 3 port 1 " \
	detect restore interval action direction
expect "rocectl watchdog stats check " dev
expect "rocectl monitor qp dev " all watchdog
result "a keyword already given is not offered again"

mkdir -p "$W/files/confdir"
: > "$W/files/conf.a"
: > "$W/files/conf b"
: > "$W/files/other"
cd "$W/files" || exit 1
expect "rocectl apply " "conf.a" "conf b" confdir other
expect "rocectl apply con" "conf.a" "conf b" confdir
expect "rocectl -j apply ot" other
cd "$ROOT" || exit 1
expect "rocectl apply $W/files/conf." "$W/files/conf.a"
result "apply: FILE by filename completion, then dev"
}

# Device names: the expected ones come from the tool itself.
if json=$("$ROCECTL" -j dev show 2> /dev/null); then
	rdma=() netdevs=()
	re='"(ifname|netdev)":"([^"]*)"'
	while [[ $json =~ $re ]]; do
		if [ "${BASH_REMATCH[1]}" = ifname ]; then
			rdma+=("${BASH_REMATCH[2]}")
		else
			netdevs+=("${BASH_REMATCH[2]}")
		fi
		json=${json#*"${BASH_REMATCH[0]}"}
	done
	for line in "rocectl dev show " "rocectl d stats " "rocectl qp show dev " \
		"rocectl qp stats type RC dev "; do
		expect "$line" "${rdma[@]}"
	done
	for line in "rocectl watchdog set dev " "rocectl watchdog stats dev " \
		"rocectl apply cfg dev "; do
		expect "$line" "${rdma[@]}" "${netdevs[@]}"
	done
	expect "rocectl dev show ${rdma[0]:-x} "
	result "device names: RDMA devices (${rdma[*]}), for watchdog also netdevs (${netdevs[*]})"
else
	PRINTED=$W/printed.dev
	: > "$PRINTED"
	for line in "rocectl dev show " "rocectl dev stats " "rocectl qp show dev " \
		"rocectl watchdog set dev " "rocectl watchdog show dev r" \
		"rocectl apply dev "; do
		expect "$line"
	done
	[ -s "$PRINTED" ] && fail "the completion printed: $(head -c 200 "$PRINTED" | tr '\n' ' ')"
	result "device names: none offered, nothing printed (no module: $ROCECTL -j dev show fails)"
fi

cat "$W"/printed* > "$W/all"
[ -s "$W/all" ] && fail "it printed: $(head -c 300 "$W/all" | tr '\n' ' ')"
result "the completion prints nothing itself (stdout, stderr)"
exit $FAILED
