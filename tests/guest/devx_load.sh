#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: DevX QP commands under a loaded firmware. simrdma's simulated
# firmware takes a second per command ("slow"), commands come from many
# tasks at once, and rocectl_mlx5 follows only 4 at a time
# (devx_instances=4), so that most are missed, as on a ConnectX host whose
# command interface is backed up. Against the simulated firmware's own
# list of QPs:
#   - every create either lists its QP or counts a miss on the device
#     (dev stats devx_missed, the exporter's counter), never both or none;
#   - the DevX QPs live at a miss are marked incomplete;
#   - a missed destroy leaves an entry, marked, until the QPN's next
#     create replaces it: no ghost outlives the firmware's reuse of it;
#   - simrdma's own QP verbs (their commands carry a uid, as mlx5_ib's)
#     are never listed as DevX QPs, and from Linux 5.15 hold no place.
. "$(dirname "$0")/lib.sh"
plan 7
W=$(mktemp -d)
D=$SRD/srd0
N=16

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
simrdma_dev srd0 sim0 || fail "simrdma srd0"
module_load || fail "load"
modprobe mlx5_core || fail "modprobe mlx5_core"
insmod "$ROOT/rocectl_mlx5.ko" devx_cmd_fn=simrdma_devx_cmd devx_instances=4 ||
	fail "insmod rocectl_mlx5 devx_cmd_fn=simrdma_devx_cmd devx_instances=4"

devx() { echo "$*" > "$D/devx"; }
kernel_hooks_user_create() {
	local major minor
	IFS=. read -r major minor _ <<< "$(uname -r)"
	[ "$major" -gt 5 ] || [ "${minor%%[!0-9]*}" -ge 15 ]
}
# The simulated firmware's QPs, and rocectl's DevX QPs, by QPN.
fw_qps() { awk '$2 == "qp" {print $1}' "$D/devx" | sort -n | tr '\n' ' '; }
listed() { rc -j qp show dev srd0 type devx | jq -r '[.[].lqpn] | sort | .[]' | tr '\n' ' '; }
missed() { rc -j dev stats srd0 | jq '.[] | select(.scope == "qps") | .devx_missed'; }
incomplete() { rc -j qp show dev srd0 type devx | jq -c "[.[] | select(.lqpn == ($1)) | .incomplete == true] | unique"; }
# Listed on every kernel: before 5.15 a DevX QP is listed from its first move.
move_all() { local q; for q in $1; do devx rst2init "$q" uid=5 || return 1; done; }
words() { wc -w <<< "$1"; }

# --- at rest: nothing missed ---------------------------------------------------------
for _ in 1 2 3; do devx create_qp uid=5 || fail "create"; done
base=$(fw_qps)
move_all "$base" || fail "moves of $base"
check_eq "$(listed)" "$base" "3 DevX QPs listed, as the firmware holds them"
check_eq "$(missed)" 0 "nothing missed"
rc exporter print > "$W/ex.txt" || fail "exporter print"
check_eq "$(awk '$1 == "rocectl_devx_commands_missed_total{device=\"srd0\"}" {print $2}' "$W/ex.txt")" 0 "exporter: 0"
log_test "at rest: DevX QPs listed as the firmware holds them, no command missed"

# --- N creates at once, each a second in the firmware, 4 followed -----------------------
devx slow 1000 || fail "slow 1000"
for _ in $(seq $N); do devx create_qp uid=5 & done
wait
devx slow 0
all=$(fw_qps)
new=$(comm -13 <(tr ' ' '\n' <<< "$base" | sort) <(tr ' ' '\n' <<< "$all" | sort) | sort -n | tr '\n' ' ')
check_eq "$(words "$new")" $N "the firmware made $N QPs"
m1=$(missed)
move_all "$new" || fail "moves of $new"
got=$(comm -12 <(listed | tr ' ' '\n' | sort) <(tr ' ' '\n' <<< "$new" | sort) | wc -l)
check_eq "$((got + m1))" $N "listed ($got) and missed ($m1) creates add up to the $N made"
[ "$m1" -ge $((N - 4)) ] || fail "$m1 missed with $N commands in the firmware and 4 followed"
log_test "$N creates at once, 4 followed: each is listed or counted missed ($m1) on the device"

bl=$(tr ' ' ',' <<< "${base% }")
busywait 5000 eval '[ "$(incomplete "$bl")" = "[true]" ]' ||
	fail "the 3 DevX QPs live at the misses not marked: $(incomplete "$bl")"
rc exporter print > "$W/ex.txt" || fail "exporter print"
check_eq "$(awk '$1 == "rocectl_devx_commands_missed_total{device=\"srd0\"}" {print $2}' "$W/ex.txt")" "$m1" "exporter: the device's count"
check_match "$(rc dev stats srd0)" "DevX QP commands missed: $m1" "text"
log_test "a miss marks the device's DevX QPs live then incomplete; dev stats and the exporter show the count"

# --- every QP destroyed at once: missed destroys leave marked entries -------------------
before=$(listed)
devx slow 1000
for q in $all; do devx destroy_qp "$q" uid=5 & done
wait
devx slow 0
check_eq "$(fw_qps)" "" "the firmware holds no QP"
m2=$(missed)
ghosts=$(listed)
[ "$((m2 - m1))" -ge $(($(words "$all") - 4)) ] || fail "$((m2 - m1)) destroys missed of $(words "$all") at once, 4 followed"
[ "$(words "$ghosts")" -le "$((m2 - m1))" ] || fail "entries left ($ghosts) with $((m2 - m1)) destroys missed"
[ -z "$ghosts" ] || check_eq "$(incomplete "$(tr ' ' ',' <<< "${ghosts% }")")" "[true]" "entries left are marked"
log_test "destroys at once: $((m2 - m1)) missed, the $(words "$ghosts") entries left of $(words "$before") are all marked incomplete"

# --- the QPNs' next creates replace what is left ---------------------------------------
for _ in $all; do devx create_qp uid=5 || fail "create"; done
again=$(fw_qps)
move_all "$again" || fail "moves"
check_eq "$(listed)" "$again" "DevX QPs listed: exactly the firmware's new ones"
check_eq "$(incomplete "$(tr ' ' ',' <<< "${again% }")")" "[false]" "none of the new ones incomplete"
check_eq "$(missed)" "$m2" "nothing more missed one at a time"
for q in $again; do devx destroy_qp "$q" uid=5 || fail "destroy $q"; done
check_eq "$(listed)" "" "all gone with their destroys"
log_test "no entry outlives its QPN's reuse: the next creates replace every one left"

# --- verbs QPs under the same load ----------------------------------------------------------
devx verbs 1
devx slow 200
m3=$(missed)
for _ in 1 2 3 4 5 6; do echo "create 1" > "$D/qps" & done
wait
devx slow 0
devx verbs 0
vq=$(rc -j qp show dev srd0 | jq -c '[.[] | select(.type == "RC")] | [length, (map(.devx == true) | unique)]')
check_eq "$vq" '[6,[false]]' "6 verbs QPs, none DevX"
check_eq "$(listed)" "" "no DevX QP"
if kernel_hooks_user_create; then
	check_eq "$(missed)" "$m3" "a verb's commands hold no place: none missed"
fi
echo "destroy all" > "$D/qps" || fail "destroy verbs QPs"
log_test "verbs QPs under load are never DevX QPs$(kernel_hooks_user_create && echo ', and their commands are never missed')"

rmmod rocectl_mlx5 && module_unload || fail "unload"
echo "srd0" > "$SRD/del_device"
rmmod simrdma || fail "rmmod simrdma"
rmmod simnic || fail "rmmod simnic"
modprobe -r mlx5_core
kmsg_check
rm -rf "$W"
