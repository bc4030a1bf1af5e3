#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bash completion (user/completion/rocectl) in a plain bash, without the
# bash-completion package: drives _rocectl as readline would and checks what
# it offers. Device names are checked against "$ROCECTL -j dev show"; with
# the module not loaded, completing a device must offer and print nothing.
# DCQCN parameter names are checked against "$ROCECTL dcqcn help" (the
# aliases) and, through a stand-in rocectl that answers "-j dcqcn show" as
# the module would for a ConnectX port, against the canonical names.
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
# shellcheck source=tests/results.sh
. "$ROOT/tests/results.sh"
# Eleven groups; the device names alone with COMPLETION_DEVICES_ONLY=1.
if [ -n "${COMPLETION_DEVICES_ONLY:-}" ]; then plan 1; else plan 14; fi
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

# Device names, against the tool's own device list. COMPLETION_DEVICES_ONLY=1
# runs only this group (the test guest: every other case needs no device).
device_names() {
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
			"rocectl qp stats type RC dev " "rocectl qp counters bind dev " \
			"rocectl dcqcn show dev " "rocectl dcqcn set dev "; do
			expect "$line" "${rdma[@]}"
		done
		for line in "rocectl watchdog set dev " "rocectl watchdog stats dev " \
			"rocectl apply cfg dev " "rocectl check dev "; do
			expect "$line" "${rdma[@]}" "${netdevs[@]}"
		done
		expect "rocectl dev show ${rdma[0]:-x} "
		result "device names: RDMA devices (${rdma[*]}), for watchdog and check also netdevs (${netdevs[*]})"
	else
		PRINTED=$W/printed.dev
		: > "$PRINTED"
		for line in "rocectl dev show " "rocectl dev stats " "rocectl qp show dev " \
			"rocectl watchdog set dev " "rocectl watchdog show dev r" \
			"rocectl apply dev " "rocectl qp counters show dev " \
			"rocectl dcqcn show dev " "rocectl dcqcn set dev " "rocectl check dev "; do
			expect "$line"
		done
		[ -s "$PRINTED" ] && fail "the completion printed: $(head -c 200 "$PRINTED" | tr '\n' ' ')"
		result "device names: none offered, nothing printed (no module: $ROCECTL -j dev show fails)"
	fi
}

if [ -n "${COMPLETION_DEVICES_ONLY:-}" ]; then
	device_names
	exit $FAILED
fi

OBJECTS="dev qp watchdog dcqcn check monitor exporter apply version help"
OPTIONS="-j -p -d -V -h --json --pretty --details --Version --help"
FILTER="dev qpn pid port type state pod namespace job"
TYPES="RC UC UD GSI SMI RAW_PACKET XRC_INI XRC_TGT DRIVER"
STATES="RESET INIT RTR RTS SQD SQE ERR"
COUNTERS="tx_packets tx_bytes rx_packets rx_bytes rx_ecn_ce rx_cnp tx_cnp
	rx_becn rx_nak_seq tx_nak_seq rx_rnr_nak tx_rnr_nak tx_retrans rx_dup
	rx_out_of_seq"
WD_SET="dev port prio detect restore interval action direction nic-stall-prevention"
QPC_TARGET="dev qpn counter"	# bind, unbind; port once dev is given
# The aliases "rocectl dcqcn help" lists: its "  ALIAS  NAME" lines.
DCQCN_ALIASES=$("$ROCECTL" dcqcn help 2> /dev/null |
	awk '/^[ \t]+[a-z][a-z0-9-]*[ \t]+[a-z][a-z0-9_]*[ \t]*$/ { print $1 }' | paste -sd ' ')

# shellcheck disable=SC2086,SC2046 # word lists split on purpose below
{
expect "rocectl " $OBJECTS
expect "rocectl wa" watchdog
expect "rocectl v" version
expect "rocectl dc" dcqcn
expect "rocectl c" check
expect "rocectl d" dev dcqcn
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
expect "rocectl qp " show stats errors path counters help
expect "rocectl qp c" counters
expect "rocectl qp counters " show bind unbind follow optional help
expect "rocectl q c " show bind unbind follow optional help	# abbreviated object and command
expect "rocectl qp counters b" bind
expect "rocectl qp counters help "
expect "rocectl dcqcn " show set help
expect "rocectl dcqcn s" show set
expect "rocectl dc h "
expect "rocectl watchdog " set del show stats big-red-switch help
expect "rocectl watchdog s" set show stats
expect "rocectl monitor " all dev qp watchdog journal
expect "rocectl dev help "
expect "rocectl w b " on off	# abbreviated object and command
expect "rocectl watchdog big-red-switch on "
result "commands of each object"

expect "rocectl qp show " $FILTER
expect "rocectl q s " $FILTER
expect "rocectl qp stats " $FILTER sort watch
expect "rocectl qp stats watch " $FILTER sort count
expect "rocectl qp stats watch 0.5 " $FILTER sort count
expect "rocectl qp errors " dev
expect "rocectl qp path " $FILTER rate max-hops wait links window
expect "rocectl qp path rate 5 " dev qpn pid port type state pod namespace job max-hops wait links window
expect "rocectl qp path links window 30 " dev qpn pid port type state pod namespace job rate max-hops wait
expect "rocectl qp path type " RC UC UD GSI SMI RAW_PACKET XRC_INI XRC_TGT DRIVER devx
expect "rocectl qp errors dev rxe0 "
expect "rocectl watchdog set " ${WD_SET/port /}	# port once dev is given
expect "rocectl watchdog set dev eth0 " ${WD_SET/dev /}
expect "rocectl watchdog del dev eth0 " port prio
expect "rocectl watchdog show " dev
expect "rocectl watchdog stats dev eth0 " port check
expect "rocectl apply cfg " dev
expect "rocectl qp counters show " dev
expect "rocectl qp counters show dev rxe0 " port
expect "rocectl qp counters bind " $QPC_TARGET
expect "rocectl qp counters bind dev mlx5_0 " port qpn counter
expect "rocectl qp c unbind dev mlx5_0 " port qpn counter
expect "rocectl dcqcn show " dev
expect "rocectl dcqcn show dev mlx5_0 " port
expect "rocectl dcqcn set " dev
result "keywords of each command"

expect "rocectl qp show type " $TYPES devx
expect "rocectl qp counters follow dev mlx5_0 type " $TYPES
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
expect "rocectl watchdog set dev eth0 nic-stall-prevention " off auto
expect "rocectl watchdog set dev eth0 prio 3 nic-stall-prevention a" auto
result "enumerated values (type, state, sort, prio, action, direction, nic-stall-prevention)"

for kw in qpn pid port; do
	expect "rocectl qp show $kw "
done
expect "rocectl qp stats watch count "
for kw in port qpn counter; do
	expect "rocectl qp counters bind dev mlx5_0 $kw "
done
expect "rocectl qp counters unbind dev mlx5_0 lqpn "
expect "rocectl dcqcn show dev mlx5_0 port "
expect "rocectl dcqcn set dev mlx5_0 port "
expect "rocectl dcqcn set dev mlx5_0 alpha-gain "
expect "rocectl dcqcn set dev mlx5_0 port 1 cnp-dscp 48 rp_gd "
for kw in port detect restore interval; do
	expect "rocectl watchdog set dev eth0 $kw "
done
result "numeric arguments offer nothing"

expect "rocectl qp show type RC " dev qpn pid port state pod namespace job
expect "rocectl qp show state RTS qpn 17 pid 5 " dev port type pod namespace job
expect "rocectl qp show lqpn 17 " dev pid port type state pod namespace job
expect "rocectl qp stats sort tx_bytes watch 2 count 3 " $FILTER
expect "rocectl watchdog set dev eth0 prio 3 detect 200 action alert " \
	port restore interval direction nic-stall-prevention
expect "rocectl watchdog set dev eth0 priority 3 port 1 " \
	detect restore interval action direction nic-stall-prevention
expect "rocectl watchdog stats check " dev
expect "rocectl monitor qp dev " all watchdog journal
expect "rocectl qp counters bind dev mlx5_0 qpn 178 " port counter
expect "rocectl qp counters unbind dev mlx5_0 lqpn 178 port 1 " counter
expect "rocectl qp counters show dev rxe0 port 1 "
expect "rocectl watchdog set dev eth0 nic-stall-prevention 200 prio 3 " \
	port detect restore interval action direction
expect "rocectl dcqcn show dev mlx5_0 port 1 "
result "a keyword already given is not offered again"

# DCQCN parameter names for a device the module does not answer for (none
# has this name; or no module): the aliases only.
[ -n "$DCQCN_ALIASES" ] || fail "\"$ROCECTL dcqcn help\" lists no aliases"
expect "rocectl dcqcn set dev nosuch0 " port $DCQCN_ALIASES
expect "rocectl dcqcn set dev nosuch0 port 1 " $DCQCN_ALIASES
expect "rocectl dcqcn set dev nosuch0 alpha-gain 7 " $(tr ' ' '\n' <<< "$DCQCN_ALIASES" | grep -vx alpha-gain)
expect "rocectl dcqcn set dev nosuch0 port 2 cnp-dscp 48 min-rate 10 " \
	$(tr ' ' '\n' <<< "$DCQCN_ALIASES" | grep -vxE 'cnp-dscp|min-rate')
expect "rocectl dc se dev nosuch0 cnp-" $(tr ' ' '\n' <<< "$DCQCN_ALIASES" | grep '^cnp-')
expect "rocectl dcqcn set dev nosuch0 t" $(tr ' ' '\n' <<< "$DCQCN_ALIASES" | grep '^t')
result "dcqcn set: parameter aliases from rocectl dcqcn help (no DCQCN from the module for the device)"

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

expect "rocectl qp counters follow " dev type comm pid max file
expect "rocectl qp counters follow dev x " port type comm pid max
expect "rocectl qp c f type RC " dev comm pid max
expect "rocectl qp counters follow type " $TYPES
expect "rocectl qp counters follow max "
expect "rocectl qp counters follow file $W/files/conf." "$W/files/conf.a"
expect "rocectl qp counters optional " show set unset dev
expect "rocectl qp counters optional set " dev
expect "rocectl qp c o show dev x " port
result "qp counters follow and optional: keywords, port only after dev, QP types, nothing for numbers, files for file"

expect "rocectl check " dev prio dscp mtu conf help
expect "rocectl c " dev prio dscp mtu conf help	# abbreviated object
expect "rocectl check help "
expect "rocectl check dev x " port prio dscp mtu conf
expect "rocectl check dev x port 1 " prio dscp mtu conf
expect "rocectl check prio " 0 1 2 3 4 5 6 7
expect "rocectl check prio 3 " dev dscp mtu conf
expect "rocectl check conf $W/files/conf." "$W/files/conf.a"
expect "rocectl check conf $W/files/conf.a " dev prio dscp mtu
expect "rocectl check dscp "
expect "rocectl check mtu "
expect "rocectl check dev x port "
result "check: keywords, port only after dev, priorities, nothing for numbers, files for conf"

expect "rocectl exporter " listen web-config owners top top-by textfile print help
expect "rocectl e " listen web-config owners top top-by textfile print help	# abbreviated object
expect "rocectl exporter listen "
expect "rocectl exporter listen 127.0.0.1:9798 " web-config owners top top-by
expect "rocectl exporter top-by rx_e" rx_ecn_ce
expect "rocectl exporter textfile $W/files/conf" "$W/files/confdir"
expect "rocectl exporter textfile /tmp " interval owners top top-by
expect "rocectl exporter print " owners top top-by
expect "rocectl exporter print owners " top top-by
expect "rocectl exporter web-config $W/files/conf." "$W/files/conf.a"
expect "rocectl exporter web-config $W/files/conf.a " listen owners top top-by
expect "rocectl exporter owners listen 127.0.0.1:9798 " web-config top top-by
expect "rocectl exporter help "
result "exporter: commands, keywords, QP counters for top-by, directories for textfile, files for web-config, owners a flag"
}

# Device names: the expected ones come from the tool itself.
device_names

# DCQCN parameter names when the module answers: a stand-in rocectl first on
# PATH answers "-j dcqcn show dev mlx5_0" as the tool prints a ConnectX
# port's DCQCN (the names: rocectl_mlx5's, kernel/mlx5/cong.c), refuses other
# devices as the module does, and leaves everything else to the real tool.
mkdir -p "$W/fake"
CANONICAL="rp_clamp_tgt_rate rp_clamp_tgt_rate_ati rp_time_reset rp_byte_reset
	rp_threshold rp_ai_rate rp_max_rate rp_hai_rate rp_min_dec_fac rp_min_rate
	rp_rate_to_set_on_first_cnp rp_dce_tcp_g rp_dce_tcp_rtt
	rp_rate_reduce_monitor_period rp_initial_alpha_value rp_gd
	np_min_time_between_cnps np_cnp_dscp np_cnp_prio_mode np_cnp_prio"
params=$(for n in $CANONICAL; do printf '"%s":%d,' "$n" 7; done)
cat > "$W/fake/rocectl" <<FAKE
#!/bin/bash
case "\$*" in
"-j dcqcn show dev mlx5_0" | "-j dcqcn show dev mlx5_0 port 1")
	echo '[{"ifname":"mlx5_0","port":1,"dcqcn":{"source":"mlx5","rp_enabled":[3],"np_enabled":[3],"params":{${params%,}}}}]' ;;
"-j dcqcn show dev"*)
	echo "Error: rocectl: no congestion control view: needs rocectl_mlx5 and firmware queries." >&2
	exit 4 ;;
*)	exec "$ROCECTL" "\$@" ;;
esac
FAKE
chmod +x "$W/fake/rocectl"
SAVED_PATH=$PATH
PATH=$W/fake:$PATH
# shellcheck disable=SC2086,SC2046 # word lists split on purpose
{
expect "rocectl dcqcn set dev mlx5_0 " port $DCQCN_ALIASES $CANONICAL
expect "rocectl dcqcn set dev mlx5_0 port 1 rp_gd 7 " \
	$DCQCN_ALIASES $(tr -s ' \t\n' '\n' <<< "$CANONICAL" | grep -vx rp_gd)
expect "rocectl dcqcn set dev mlx5_0 rp_d" rp_dce_tcp_g rp_dce_tcp_rtt
expect "rocectl dcqcn set dev mlx5_0 np_cnp_p" np_cnp_prio_mode np_cnp_prio
expect "rocectl dcqcn set dev rxe0 " port $DCQCN_ALIASES	# the module refuses rxe0
expect "rocectl dcqcn set dev mlx5_0 rp_gd "
}
PATH=$SAVED_PATH
result "dcqcn set: canonical names from rocectl -j dcqcn show when the module answers (a stand-in rocectl)"

cat "$W"/printed* > "$W/all"
[ -s "$W/all" ] && fail "it printed: $(head -c 300 "$W/all" | tr '\n' ' ')"
result "the completion prints nothing itself (stdout, stderr)"
exit $FAILED
