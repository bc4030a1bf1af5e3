#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: one visibility rule for every reader (rocectl(8), PERMISSIONS),
# as a matrix driven from the netlink spec (tests/guest/visibility.py, the
# kernel's ynl library): every operation, the events group and the
# exporter's scrape, for six readers -- root; nobody in the initial pid
# namespace; nobody in a child pid namespace sharing the host's network
# namespace (a hostNetwork pod of another tenant); nobody with the initial
# user namespace's CAP_NET_ADMIN in a child pid namespace; nobody who made
# a user namespace of its own (unshare -Ur: CAP_NET_ADMIN there) with a
# child pid namespace, in the host's network namespace; the same in a
# network namespace of its own too -- during a storm that names root's
# process, after root's QPs failed and were destroyed. Root and nobody in
# the initial namespace see every owner with its pid; the child
# namespace's nobody and the user namespace's root the counts alone, and
# cannot look a hidden group up by name; the initial namespace's
# CAP_NET_ADMIN the command names, no pid; in a network namespace of its
# own the family is not there and the events group's number hears
# nothing; the events name no user owner to anyone; every change is
# refused to all but the initial namespace's CAP_NET_ADMIN. The exporter
# shows no owner label without "owners", and with it what its reader is
# shown. A new operation, owner attribute or group without a row in
# visibility.py fails the spec check.
. "$(dirname "$0")/lib.sh"
plan 12
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
# What nobody runs, where nobody can read it: the checkout and the ynl
# cache may sit where only root can enter.
mkdir -p -m 755 /run/nobody/vis && mkdir -p -m 1777 /run/nobody/vis/ready
install -m 755 "$ROCECTL" /run/nobody/rocectl
install -m 644 "$ROOT/include/netlink/specs/rocectl.yaml" "$ROOT/tests/guest/visibility.py" /run/nobody/vis/
# The spec parsed once: each reader loads it as JSON.
# (Its first line kept: ynl wants the license tag.)
python3 -c 'import json, sys, yaml; o = open(sys.argv[2], "w"); o.write(open(sys.argv[1]).readline()); json.dump(yaml.safe_load(open(sys.argv[1])), o)' \
	/run/nobody/vis/rocectl.yaml /run/nobody/vis/rocectl.json && chmod 644 /run/nobody/vis/rocectl.json || fail "the spec as JSON"
if ynl_ready 2> /dev/null; then
	rm -rf /run/nobody/vis/lib && cp -r "$(dirname "$YNL_CLI")/lib" /run/nobody/vis/lib && chmod -R a+rX /run/nobody/vis
else
	fail "no ynl tools ($YNL_DIR): tests/deps.sh"
fi
NB=/run/nobody/rocectl
VIS="python3 /run/nobody/vis/visibility.py /run/nobody/vis /run/nobody/vis/rocectl.json"

# The readers: each runs "$@" as itself.
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all --)
TO=$((6 * T))	# the listeners' bound is the scenario's
as_root() { timeout $TO "$@"; }
as_nobody() { timeout $TO "${NOBODY[@]}" "$@"; }
as_nspid() { timeout $TO unshare --pid --fork "${NOBODY[@]}" "$@"; }
as_netadmin() { timeout $TO unshare --pid --fork setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all,+net_admin --ambient-caps=+net_admin --bounding-set=-all,+net_admin -- "$@"; }
as_userns() { timeout $TO "${NOBODY[@]}" unshare --user --map-root-user --pid --fork "$@"; }
as_usernet() { timeout $TO "${NOBODY[@]}" unshare --user --map-root-user --net --pid --fork "$@"; }
READERS="root nobody nspid netadmin userns usernet"
HOSTNET="root nobody nspid netadmin userns"	# the family's readers

simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on
dcb pfc set dev sim1 prio-pfc 3:on
module_load || fail "load"
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
rxe_add rxe0 sim0 && rxe_add rxe1 sim1 || fail "rxe over simnic"
for d in sim0 sim1; do dcb app add dev $d dscp-prio 26:3; done
gid=$(gid_index rxe0 192.0.2.11)
gid=${gid:-1}
# Each reader is what it says: nobody's user namespaces hold CAP_NET_ADMIN
# (a user namespace cannot be made from a chroot: the guest's root is not one).
caps() { as_$1 sh -c 'echo "$(id -u) $(grep ^CapEff /proc/self/status | cut -f2)"'; }
FULL=$(grep ^CapEff /proc/self/status | cut -f2)
check_eq "$(caps netadmin)" "65534 0000000000001000" "netadmin: nobody with CAP_NET_ADMIN alone"
check_eq "$(caps userns)" "0 $FULL" "userns: nobody as root of its own user namespace, every capability there"
check_eq "$(caps usernet)" "0 $FULL" "usernet: the same"
check_eq "$(as_userns readlink /proc/self/ns/net)" "$(readlink /proc/self/ns/net)" "userns: the host's network namespace"
[ "$(as_usernet readlink /proc/self/ns/net)" != "$(readlink /proc/self/ns/net)" ] || fail "usernet: a network namespace of its own"
[ "$(as_userns readlink /proc/self/ns/user)" != "$(readlink /proc/self/ns/user)" ] || fail "userns: a user namespace of its own"
log_test "setup: rxe0/rxe1 over simnic sim0/sim1, DSCP 26 on priority 3; the readers' namespaces and capabilities"

# --- the spec: a row for everything ------------------------------------------------------
out=$($VIS check 2>&1) || fail "the matrix misses: $(echo "$out" | tr '\n' '|')"
log_test "the spec's every operation, owner attribute and multicast group has a row in the matrix"

# --- the events, as each reader hears them ---------------------------------------------
# The group's number, for the listener that cannot find the family.
GRP=$($VIS groups) || fail "the groups' numbers"
for r in $READERS; do
	# shellcheck disable=SC2086 # the numbers, one word each
	TO=600 as_$r $VIS listen /run/nobody/vis/stop /run/nobody/vis/ready/$r $GRP > "$W/ntf-$r.json" 2> "$W/ntf-$r.err" &
done
ready() { for r in $READERS; do [ -e /run/nobody/vis/ready/$r ] || return 1; done; }
busywait 120000 ready || fail "listeners not subscribed: $(cat "$W"/ntf-*.err | tail -c 400)"

# Root's processes: one whose QPs go (destroyed after traffic), one whose QP
# fails and is held, one whose QPs hold traffic on priority 3 for the storm.
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 20 -s 256 > "$W/gone.json" 2> "$W/gone.err" ||
	fail "QPs that go: $(cat "$W/gone.err")"
"$QPT" fail -d rxe0 -D rxe1 -g "$gid" --how modify --hold -T 60 > "$W/fail.json" 2> "$W/fail.err" &
F=$!
"$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n 1 -m 50 -s 4096 --tos 104 -T 90 \
	--start-after "$W/go" --hold > "$W/a.json" 2> "$W/a.err" &
A=$!
busywait 30000 test -s "$W/fail.json" || fail "failed QP: $(cat "$W/fail.err")"
busywait 30000 eval '[ "$(rc -j qp show dev rxe0 pid $A | jq "[.[] | select(.state == \"RTS\")] | length")" = 1 ]' ||
	fail "A's QP not connected: $(cat "$W/a.err")"
rc watchdog set dev sim0 prio 3 action forward detect 100 restore 60000 interval 10 || fail "watch sim0"
storm sim0 3 1000
busywait 20000 eval '[ "$(rc -j watchdog stats dev sim0 | jq -c "[.[0].prios[] | select(.prio == 3) | .affected[]?.pid]")" = "[$A]" ]' ||
	fail "the storm does not name A: $(rc -j watchdog stats dev sim0 | head -c 400)"
touch "$W/go"
busywait 60000 test -s "$W/a.json" || fail "A's traffic: $(cat "$W/a.err")"

# --- the reads, as each reader -------------------------------------------------------------
for r in $READERS; do
	as_$r $VIS read dev=rxe0 comm=qptraffic cause=0 > "$W/read-$r.json" 2> "$W/read-$r.err" ||
		fail "$r's reads: $(tail -c 400 "$W/read-$r.err")"
done
for r in $HOSTNET; do echo "# $r: $(jq -c 'map_values(if .user_fields then [.user_records, .user_fields] else . end)' "$W/read-$r.json")"; done
# f READER JQ: a reader's reads through a jq filter.
f() { jq -c "$2" "$W/read-$1.json"; }
Q='"qp-get","qp-error-get","wd-get"'	# a process's or QP's owner: pid, comm
G='"qp-retired-get","qp-error-count-get"'	# groups: comm, no pid
# counts READER: [op, records, records with pid, with comm, with cgroup]
counts() { f "$1" "[($Q,$G) as \$o | .[\$o] | [\$o, .user_records, .with.pid, .with.comm, .with.cgroup]]"; }
admin_errnos() { f "$1" '[to_entries[] | select(.value.errno != null and (.key | endswith(" do") | not)) | [.key, .value.errno]]'; }
EPERM=1; ENOENT=2
for r in $HOSTNET; do echo "# $r: $(counts $r)"; done

check_eq "$(f root "[.[$Q] | .user_records > 0 and .with.pid == .user_records and .with.comm == .user_records] | all")" true \
	"root: pid and command name of every user QP, failure and storm process"
check_eq "$(f root "[.[$G] | .user_records > 0 and .with.pid == null and .with.comm == .user_records] | all")" true \
	"root: the command name of every group of destroyed QPs and failures"
check_eq "$(f root '.["wd-get"].user_owners | map(fromjson | .pid)')" "[$A]" "root: the storm names A"
check_eq "$(f root '[.["qp-retired-get do"].messages, .["qp-error-count-get do"].messages]')" "[1,1]" "root: a group by its name"
check_eq "$(admin_errnos root | jq -c "[.[] | select(.[1] == $EPERM)]")" "[]" "root: no change refused for permission"
check_eq "$(admin_errnos root | jq -c '[.[][0]] | sort')" '["cong-set","wd-brs-set","wd-del","wd-set"]' "root: every change asked"
log_test "root: every owner, pids in the initial namespace; changes reach the family"

check_eq "$(f nobody "[.[$Q,$G].user_owners]")" "$(f root "[.[$Q,$G].user_owners]")" \
	"nobody in the initial pid namespace: root's owners, pids and names"
check_eq "$(admin_errnos nobody | jq -c "[.[] | select(.[1] != $EPERM)]")" "[]" "nobody: every change refused (EPERM)"
check_eq "$(admin_errnos nobody | jq length)" 4 "nobody: every change asked"
log_test "nobody in the initial pid namespace: every owner as root sees it; every change refused"

check_eq "$(counts nspid)" "$(f root "[($Q,$G) as \$o | .[\$o] | [\$o, .user_records, null, null, null]]")" \
	"nobody in a child pid namespace: the same records, no owner field"
check_eq "$(f nspid '[.["qp-retired-get do"].errno, .["qp-error-count-get do"].errno]')" "[$ENOENT,$ENOENT]" \
	"nobody in a child pid namespace: a hidden group cannot be looked up by name"
check_eq "$(admin_errnos nspid | jq -c "[.[] | select(.[1] != $EPERM)]")" "[]" "nspid: every change refused (EPERM)"
log_test "nobody in a child pid namespace (the host's network): counts without owners; no lookup by name; changes refused"

check_eq "$(counts netadmin)" "$(f root "[($Q,$G) as \$o | .[\$o] | [\$o, .user_records, null, .with.comm, .with.cgroup]]")" \
	"the initial user namespace's CAP_NET_ADMIN in a child pid namespace: names and cgroups, no pid"
check_eq "$(f netadmin "[.[$Q,$G].user_owners | map(fromjson)]")" \
	"$(f root "[.[$Q,$G].user_owners | map(fromjson | del(.pid)) | unique]")" "netadmin: root's owners without pids"
check_eq "$(f netadmin '[.["qp-retired-get do"].messages, .["qp-error-count-get do"].messages]')" "[1,1]" "netadmin: a group by its name"
check_eq "$(admin_errnos netadmin | jq -c "[.[] | select(.[1] == $EPERM)]")" "[]" "netadmin: no change refused for permission"
check_eq "$(admin_errnos netadmin | jq length)" 4 "netadmin: every change asked"
log_test "the initial user namespace's CAP_NET_ADMIN in a child pid namespace: command names, no pid; changes not refused"

# CAP_NET_ADMIN in a user namespace any user makes owns nothing of the
# host's network namespace: the tier of nobody in a child pid namespace.
check_eq "$(counts userns)" "$(counts nspid)" "a user namespace of its own (unshare -Ur), the host's network: the records, no owner field"
check_eq "$(f userns '[.["qp-retired-get do"].errno, .["qp-error-count-get do"].errno]')" "[$ENOENT,$ENOENT]" \
	"userns: a hidden group cannot be looked up by name"
check_eq "$(admin_errnos userns | jq -c "[.[] | select(.[1] != $EPERM)]")" "[]" "userns: every change refused (EPERM)"
check_eq "$(admin_errnos userns | jq length)" 4 "userns: every change asked"
log_test "CAP_NET_ADMIN in a user namespace of its own, the host's network namespace: counts without owners; no lookup by name; changes refused"

check_eq "$(jq -c . "$W/read-usernet.json")" '{"family":"absent"}' "a network namespace of its own: generic netlink lists no rocectl family"
out=$(as_usernet $NB -j qp show 2>&1); code=$?
[ $code != 0 ] || fail "qp show in a network namespace of its own: exit 0: $out"
check_match "$out" 'netlink family is in the host.s initial network namespace only' "qp show in a network namespace of its own: the family is not found there"
log_test "CAP_NET_ADMIN in a user and network namespace of its own: no family, nothing foreign"


# --- the tool as the child namespace's nobody ------------------------------------------------
st() { "$@" $NB -j watchdog stats dev sim0 | jq -c '[.[0].prios[] | select(.prio == 3) | .affected[] | keys]'; }
check_eq "$(st as_nspid)" '[["bytes","qps"]]' "watchdog stats in a child pid namespace: the process's counts alone"
check_eq "$(st as_netadmin)" '[["bytes","comm","qps"]]' "watchdog stats with the initial namespace's CAP_NET_ADMIN: its name, no pid"
check_eq "$(st as_userns)" '[["bytes","qps"]]' "watchdog stats in a user namespace of its own: the process's counts alone"
log_test "the tool in a child pid namespace: a storm's process counted, not named; with CAP_NET_ADMIN named, no pid; in a user namespace of its own counted"

# --- the exporter's scrape, as each reader, with and without owners ---------------------------
# The kernel's QPs' names, everyone's (root's reading of them), and the
# name of a device's group of QPs past the module's bound ("other").
KCOMM="$(jq -r '.["qp-get"].kernel_comms | join(" ")' "$W/read-root.json") other"
echo "# kernel QPs' names: $KCOMM"
[ "$KCOMM" != " other" ] || fail "no kernel QP's name in root's reading"
for r in $HOSTNET; do
	as_$r $NB exporter print > "$W/exp-$r.prom" 2> "$W/exp-$r.err" || fail "$r's exporter: $(tail -c 300 "$W/exp-$r.err")"
	as_$r $NB exporter print owners > "$W/expo-$r.prom" 2> "$W/expo-$r.err" || fail "$r's exporter, owners: $(tail -c 300 "$W/expo-$r.err")"
	# shellcheck disable=SC2086 # the names, one word each
	{ $VIS scrape "$W/exp-$r.prom" $KCOMM > "$W/exp-$r.json" && $VIS scrape "$W/expo-$r.prom" $KCOMM > "$W/expo-$r.json"; } ||
		fail "scrape $r"
	echo "# exporter as $r: $(jq -c 'del(.families)' "$W/exp-$r.json") owners: $(jq -c 'del(.families)' "$W/expo-$r.json")"
	check_eq "$(jq -c .owner_labels "$W/exp-$r.json")" "[]" "$r's exporter without owners: no owner label"
done
e() { jq -c "$2" "$W/expo-$1.json"; }
check_eq "$(e root '.owner_labels | contains(["comm", "pid"])')" true "root's exporter with owners: pid and comm"
check_eq "$(e root ".pids | index($A) != null")" true "root's exporter with owners: A's pid"
check_eq "$(e nobody .)" "$(e root .)" "nobody's exporter with owners: root's owner labels and pids"
check_eq "$(e netadmin .owner_labels)" "$(e root '.owner_labels - ["pid"]')" "netadmin's exporter with owners: the owner labels but pid"
check_eq "$(e netadmin .pids)" "[]" "netadmin's exporter with owners: no pid"
for r in nspid userns; do
	check_eq "$(e $r .owner_labels)" "[]" "$r's exporter with owners: no owner label"
done
log_test "the exporter: no owner label without owners; with owners what its reader is shown (all; names without pids; none)"

# --- the events ------------------------------------------------------------------------------
storm sim0 3 0
rc watchdog del dev sim0 || fail "watch del"
kill $F $A 2>/dev/null; wait $F $A 2>/dev/null
busywait 10000 eval '[ "$(rc -j qp show dev rxe0 | jq "[.[] | select(.kernel | not)] | length")" = 0 ]' || fail "root's QPs left"
touch /run/nobody/vis/stop
wait_listeners() { for r in $READERS; do [ -s "$W/ntf-$r.json" ] || return 1; done; }
busywait 30000 wait_listeners || fail "listeners: $(cat "$W"/ntf-*.err | tail -c 400)"
check_eq "$(jq -c . "$W/ntf-usernet.json")" '{"family":"absent","raw_messages":0}' \
	"the events group's number in a network namespace of its own: nothing heard"
for r in $HOSTNET; do
	echo "# events to $r: $(jq -c 'map_values([.user_records, .user_fields])' "$W/ntf-$r.json")"
	check_eq "$(jq -c '[.["qp-create-ntf", "qp-destroy-ntf", "qp-error-ntf", "wd-event-ntf"].user_records > 0] | all' "$W/ntf-$r.json")" true \
		"$r heard QPs created, destroyed, failed and the storm"
	check_eq "$(jq -c '[to_entries[] | select(.value.user_fields != []) | .key]' "$W/ntf-$r.json")" "[]" "user owners in events to $r"
done
log_test "the events group: no user owner to any listener (root, nobody, child pid namespace, CAP_NET_ADMIN, user namespace); nothing in a network namespace of its own"

rxe_del rxe0; rxe_del rxe1
module_unload || fail "unload"
rmmod simnic || fail "rmmod simnic"
kmsg_check
rm -rf "$W" /run/nobody/vis
