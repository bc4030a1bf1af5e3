#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the guest: soft-RoCE over the simulated DCB NIC, QPs
# with live counters, then a PFC storm that the watchdog detects, forwards
# and restores. A step that fails stops the demo with a sentence naming
# it, and exit status 1.
. "$(dirname "$0")/../guest/lib.sh"
QPT=$ROOT/tests/tools/build/qptraffic
SIM=/sys/kernel/debug/simnic

stop() { printf '\ndemo: %s\n' "$*"; exit 1; }
# say [-s STATUS] CMD...: show CMD and run it; the demo stops unless it
# exits with STATUS (0).
say() {
	local want=0 code
	if [ "$1" = -s ]; then want=$2; shift 2; fi
	printf '\n\033[1m$ %s\033[0m\n' "$*"
	"$@"
	code=$?
	[ $code = "$want" ] || stop "the step \"$*\" failed (exit $code, expected $want)."
}
note() { printf '\n\033[1;34m# %s\033[0m\n' "$*"; }

note "two simulated DCB NICs wired to each other, soft-RoCE on each"
simnic_pair sim0 sim1 || stop "the simulated NIC pair could not be set up (tests/simnic/simnic.ko: make simnic)."
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
say dcb pfc set dev sim0 prio-pfc 3:on
say dcb app add dev sim0 dscp-prio 26:3
dcb pfc set dev sim1 prio-pfc 3:on; dcb app add dev sim1 dscp-prio 26:3
modprobe ib_core
say insmod "$MODULE"
{ rxe_add rxe0 sim0 && rxe_add rxe1 sim1; } || stop "soft-RoCE could not be added on sim0 and sim1."
say "$ROCECTL" dev show

note "RDMA traffic on 3 QP pairs (DSCP 26, priority 3); QPs held open"
gid=$(gid_index rxe0 192.0.2.11)
"$QPT" pair -d rxe0 -D rxe1 -g "${gid:-1}" -n 3 -m 300 -s 4096 --tos 104 --hold > "$TMPDIR/pair.json" 2> "$TMPDIR/pair.err" &
busywait 30000 test -s "$TMPDIR/pair.json" ||
	stop "the QP pairs never came up: $(tail -n 2 "$TMPDIR/pair.err" 2> /dev/null) (tests/tools/build/qptraffic: make test-tools)."
say "$ROCECTL" qp show type RC
say "$ROCECTL" qp stats dev rxe1 type RC sort rx_bytes

note "the watchdog on sim0, priority 3; events in the background"
"$ROCECTL" monitor watchdog > $TMPDIR/events &
sleep 0.5
# restore 2000: the watchdog gives PFC back that long after its action
# (the NIC's counters are silent meanwhile), and the traffic below must
# fall inside that one storm on a slow guest too.
say "$ROCECTL" watchdog set dev rxe0 prio 3 detect 200 restore 2000 interval 20 action forward
say "$ROCECTL" watchdog show
note "rocectl check: rxe0's lossless configuration audited (PFC, trust, MTU, pause, watchdog)"
say "$ROCECTL" check dev rxe0
note "a received-pause storm on sim0 priority 3 (the switch keeps pausing us)"
say sh -c "echo '3 2000' > $SIM/sim0/rx_storm"
sleep 0.5
say dcb pfc show dev sim0
say -s 1 "$ROCECTL" watchdog stats check
echo "exit status 1: a priority is in storm"
note "traffic still moves: priority 3 is lossy while the storm lasts"
printf '\n\033[1m$ %s\033[0m\n' "$QPT pair -d rxe0 -D rxe1 -n 1 -m 100 -s 4096 --tos 104 (a new process)"
"$QPT" pair -d rxe0 -D rxe1 -g "${gid:-1}" -n 1 -m 100 -s 4096 --tos 104 -T 10 > "$TMPDIR/storm.json" &
sender=$!
wait $sender || stop "the QP pair during the storm failed."
sent=$(jq .bytes "$TMPDIR/storm.json")
cat "$TMPDIR/storm.json"
say sh -c "echo '3 0' > $SIM/sim0/rx_storm"
restores() {
	"$ROCECTL" -j watchdog stats dev sim0 |
		jq '.[0].prios[] | select(.prio == 3 and .direction == "rx") | .restores'
}
busywait 5000 eval '[ "$(restores)" -ge 1 ]' || stop "PFC was not given back after the storm."
say dcb pfc show dev sim0
say "$ROCECTL" watchdog stats
note "the storm names the process that sent during it (pid $sender, $sent bytes by its own count), gone since"
named=$("$ROCECTL" -j watchdog stats dev sim0 | jq ".[0].prios[] | select(.prio == 3 and .direction == \"rx\") | .affected[] | select(.pid == $sender) | .bytes")
[ -n "$named" ] && [ "$named" -ge "$sent" ] ||
	stop "the storm's blast radius does not name the sender $sender with its $sent bytes (got: ${named:-nothing})."
echo "pid $sender: $named bytes during the storm"
note "what rocectl monitor watchdog printed"
cat $TMPDIR/events
kill $(jobs -p) 2>/dev/null
sleep 1
