#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: a priority the watchdog cleared is set back, or stays held,
# shown and retried -- on every path that could otherwise leave it lossy
# with no watch holding it, each taken during a held storm on the
# simulated NIC (tests/simnic), with and without a driver that refuses
# (fail_setpfc): the watched direction changed; the netdev unregistered
# (its PFC kept "in firmware" across a re-creation, simnic's
# pfc_in_firmware); the netdev moved to another network namespace; a
# hardware backend (simnic_backend.ko, test-only) leaving and arriving.
# The reference for PFC is dcb(8); for events, rocectl monitor.
. "$(dirname "$0")/lib.sh"
plan 10
W=$(mktemp -d)
BACKEND=$ROOT/tests/simnic/simnic_backend.ko
NS=rocectl-wd-hold

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
module_load || fail "load"
EV=$W/ev.json
"$ROCECTL" -j monitor watchdog > "$EV" &
mon=$!
sleep 1
log_test "setup"

events() { jq -s "[.[] | select(.ifname == \"$1\" and .event == \"$2\")] | length" "$EV"; }
# held DEV DIR PRIO: the watch shows the priority held (pfc_cleared true).
held() {
	rc -j watchdog show | jq -e ".[] | select(.ifname == \"$1\") | .prios[] |
		select(.direction == \"$2\" and .prio == $3 and .pfc_cleared)" > /dev/null
}
shown() { rc -j watchdog show | jq -e ".[] | select(.ifname == \"$1\")" > /dev/null; }
# hold DEV: a forward watch on priority 3 whose storm holds PFC off; the
# restoration time is long, so that the hold lasts through the test.
hold() {
	dcb pfc set dev "$1" prio-pfc 3:on 4:on
	rc watchdog set dev "$1" prio 3 detect 50 restore 60000 interval 10 action forward ||
		fail "watch $1"
	storm "$1" 3 1000
	busywait 10000 held "$1" rx 3 || fail "$1: no hold: $(rc watchdog show dev "$1")"
	check_eq "$(pfc "$1")" "[4]" "$1: PFC while the storm is held"
}
reset() {
	local d
	for d in "$@"; do
		[ -d "$SIM/$d" ] || continue
		storm "$d" 3 0
		echo 0 > "$SIM/$d/fail_setpfc"
		rc watchdog del dev "$d" > /dev/null 2>&1
		dcb pfc set dev "$d" prio-pfc 3:off 4:off
	done
}

# --- a direction dropped while it holds --------------------------------------
hold sim0
rc watchdog set dev sim0 direction tx || fail "direction tx"
held sim0 rx 3 || fail "the rx hold vanished from the watch when rx stopped being watched"
storm sim0 3 0
rc watchdog set dev sim0 restore 200 || fail "restore 200"
busywait 10000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back: $(pfc sim0)"
busywait 5000 eval '! held sim0 rx 3' || fail "still shown held after the restore"
check_eq "$(rc -j watchdog show dev sim0 | jq -c '[.[0].prios[] | .direction] | unique')" '["tx"]' \
	"directions shown once the rx hold is set back"
log_test "direction changed during a held storm: the dropped direction's hold stays shown and is set back"
reset sim0

# --- the netdev unregistered: set back before it goes ----------------------------
echo Y > $SIM/pfc_in_firmware
simnic_pair sim2 sim3 || fail "sim2"
g0=$(events sim2 gone)
hold sim2
echo sim2 > $SIM/del_pair || fail "del_pair"
busywait 5000 eval '[ "$(events sim2 gone)" = $((g0 + 1)) ]' || fail "no gone event"
shown sim2 && fail "a watch is left for the unregistered sim2"
simnic_pair sim2 sim3 || fail "sim2 again"
check_eq "$(pfc sim2)" "[3,4]" "PFC of the re-created sim2 (kept in firmware)"
log_test "netdev unregistered during a held storm: PFC set back before it goes (a re-created netdev finds it on)"
reset sim2

# --- ... while the driver refuses: the watch stays, gone, and sets it back ------------
hold sim2
echo -1 > $SIM/sim2/fail_setpfc
echo sim2 > $SIM/del_pair || fail "del_pair"
check_eq "$(rc -j watchdog show | jq -c '.[] | select(.ifname == "sim2") | [.netdev_gone, .prios[0].pfc_cleared]')" \
	"[true,true]" "the watch left behind"
rc watchdog show | grep -q 'sim2: .*netdev_gone true' || fail "text: $(rc watchdog show)"
simnic_pair sim2 sim3 || fail "sim2 again"
busywait 10000 eval '[ "$(pfc sim2)" = "[3,4]" ]' || fail "PFC not set back on the re-created sim2: $(pfc sim2)"
busywait 5000 eval '! held sim2 rx 3' || fail "still held"
check_eq "$(rc -j watchdog show dev sim2 | jq -c '.[0].netdev_gone // false')" false "gone after it came back"
log_test "netdev unregistered while the driver refuses: the watch stays (netdev_gone, pfc_cleared) and sets PFC back when it comes back"
reset sim2

# The operator drops a watch that waits for a netdev that never comes back.
hold sim2
echo -1 > $SIM/sim2/fail_setpfc
echo sim2 > $SIM/del_pair || fail "del_pair"
shown sim2 || fail "no watch left behind"
rc watchdog del dev sim2 || fail "del of the gone netdev's watch"
shown sim2 && fail "still shown after del"
rc watchdog del dev sim2 2> "$W/err" && fail "a second del succeeded"
check_match "$(cat "$W/err")" "no netdev has this name" "second del's message"
echo N > $SIM/pfc_in_firmware
log_test "the watch of a netdev gone for good is dropped by watchdog del NAME, once"

# --- the netdev moved to another namespace -------------------------------------------
ip netns add $NS
hold sim0
g0=$(events sim0 gone)
ip link set sim0 netns $NS && ip -n $NS link set sim0 up || fail "netns move"
check_eq "$(pfc $NS sim0)" "[3,4]" "PFC in the new namespace"
busywait 5000 eval '[ "$(events sim0 gone)" = $((g0 + 1)) ]' || fail "no gone event"
shown sim0 && fail "a watch is left for the moved sim0"
ip -n $NS link set sim0 netns 1 && ip link set sim0 up || fail "back"
log_test "netdev moved to another namespace during a held storm: PFC set back, the watch goes"
reset sim0

hold sim0
# Refused from now on, the hold cannot lapse: restorations retried twice a second.
echo -1 > $SIM/sim0/fail_setpfc
rc watchdog set dev sim0 restore 500 || fail "restore 500"
ip link set sim0 netns $NS && ip -n $NS link set sim0 up || fail "netns move"
held sim0 rx 3 || fail "the hold is not shown after the move"
check_eq "$(pfc $NS sim0)" "[4]" "PFC in the new namespace while refused"
f=$(rc -j watchdog stats | jq '.[] | select(.ifname == "sim0") | .prios[0].actions_failed')
busywait 5000 eval '[ "$(rc -j watchdog stats | jq ".[] | select(.ifname == \"sim0\") | .prios[0].actions_failed")" -gt "$f" ]' ||
	fail "no retry in the new namespace"
storm sim0 3 0
echo 0 > $SIM/sim0/fail_setpfc
busywait 10000 eval '[ "$(pfc $NS sim0)" = "[3,4]" ]' || fail "PFC not set back in the new namespace: $(pfc $NS sim0)"
busywait 5000 eval '! shown sim0' || fail "the watch stayed once nothing was held"
ip -n $NS link set sim0 netns 1 && ip link set sim0 up || fail "back"
ip netns del $NS
log_test "netdev moved while the driver refuses: the watch follows it, holding, retries, sets PFC back, then goes"
reset sim0

# --- a backend leaving while the driver refuses, and arriving during a hold ---------
insmod "$BACKEND" || fail "simnic_backend"
hold sim0
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].backend')" simnic "backend of sim0"
echo -1 > $SIM/sim0/fail_setpfc
rmmod simnic_backend || fail "rmmod simnic_backend"
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].backend // "none"')" none "backend after it left"
held sim0 rx 3 || fail "the hold was dropped with the backend: $(rc watchdog show dev sim0)"
check_eq "$(pfc sim0)" "[4]" "PFC while refused"
storm sim0 3 0
echo 0 > $SIM/sim0/fail_setpfc
rc watchdog set dev sim0 restore 200 || fail "restore 200"
busywait 10000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back through the generic view: $(pfc sim0)"
log_test "backend leaves while the driver refuses: the hold stays shown and is set back through the generic view"
reset sim0

hold sim0
insmod "$BACKEND" || fail "simnic_backend"
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].backend // "none"')" none "backend while holding"
held sim0 rx 3 || fail "hold lost when the backend arrived"
storm sim0 3 0
rc watchdog set dev sim0 restore 200 || fail "restore 200"
busywait 10000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back: $(pfc sim0)"
busywait 5000 eval '[ "$(rc -j watchdog show dev sim0 | jq -r ".[0].backend // \"none\"")" = simnic ]' ||
	fail "the backend never took the watch over"
reset sim0
rmmod simnic_backend || fail "rmmod simnic_backend"
log_test "backend arrives during a hold: the hold is set back as before, then the backend takes the watch"

kill $mon 2>/dev/null
wait $mon 2>/dev/null
module_unload || fail "unload"
kmsg_check
