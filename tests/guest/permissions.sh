#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: what a user without CAP_NET_ADMIN may do. Every read works
# (dev show/stats, qp show/stats, qp counters show, watchdog show/stats,
# dcqcn show, monitor); every change (watchdog set/del/big-red-switch,
# dcqcn set, qp counters bind, apply) is refused with exit 4 and "permission
# denied: this needs CAP_NET_ADMIN", and changes nothing.
#
# Who sees which QP, as the RDMA core (drivers/infiniband/core/nldev.c,
# res_get_common_dumpit/fill_res_qp_entry/fill_res_name_pid in 6.1) has it:
# every QP of the devices the reader's network namespace sees, whoever owns
# it, without CAP_NET_ADMIN (QPs have no CAP_NET_ADMIN-only fields there;
# the raw dumps need it); the owner's pid as the reader's pid namespace
# numbers it (task_pid_vnr), and no pid -- and so no command name -- for an
# owner the reader's namespace does not contain; kernel QPs with their
# kernel user's name, for everyone.
. "$(dirname "$0")/lib.sh"
plan 10
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
dcb pfc set dev sim1 prio-pfc 3:on
two_rxe_hosts
module_load || fail "load"
rc watchdog set dev sim0 prio 3,4 detect 100 restore 400 interval 20 action forward || fail "watch"
# Root's QPs, held.
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 1 -m 10 -s 64 --hold > "$W/hold.json" 2> "$W/hold.err" &
holder=$!
busywait 30000 test -s "$W/hold.json" || fail "holder: $(cat "$W/hold.err")"
log_test "setup: a watch on sim0, root's QP pair on rxe0/rxe1"

# A copy nobody can run: the checkout may sit in a directory only root can enter.
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
NB=/run/nobody/rocectl
# As nobody: no capability left, not even through a set-user-ID program.
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }
state() {
	rc -j watchdog show | jq -S .
	echo "pfc $(pfc sim0) $(pfc sim1)"
	grep '^port ' $SIM/sim0/state $SIM/sim1/state | awk '{print $1, $2, $3, $4}'
	rc -j qp show | jq -S .
	rdma -j statistic qp show 2>/dev/null | jq -S . 2>/dev/null
}
state > "$W/before"

# --- reads -------------------------------------------------------------------------
read_ok() {	# read_ok NAME ARGS...: exit 0, JSON; equal to root's if NAME ends in "="
	local name=$1 out code
	shift
	out=$(nobody $NB -j "$@" 2> "$W/err"); code=$?
	check_eq "$code" 0 "$* as nobody: $(cat "$W/err")"
	printf '%s' "$out" | jq -e . > /dev/null 2>&1 || fail "$*: not JSON: $(printf '%s' "$out" | head -c 200)"
	if [ "${name%=}" != "$name" ]; then
		check_eq "$(printf '%s' "$out" | jq -S -c .)" "$(rc -j "$@" | jq -S -c .)" "$* as nobody and as root"
	fi
}
read_ok dev= dev show
read_ok dev= dev show rxe0
read_ok dev-stats dev stats
check_eq "$(nobody $NB -j dev stats | jq -c '[.[].ifname] | unique')" '["rxe0","rxe1"]' "dev stats devices"
read_ok qp= qp show
read_ok qp-stats qp stats
check_eq "$(nobody $NB -j qp stats | jq length)" "$(rc -j qp stats | jq length)" "qp stats QPs"
read_ok qpc qp counters show
read_ok wd= watchdog show
read_ok wd-stats= watchdog stats
nobody $NB watchdog stats check > /dev/null; check_eq "$?" 0 "watchdog stats check"
read_ok dcqcn dcqcn show
nobody $NB version > /dev/null || fail "version"
log_test "nobody reads: dev show/stats, qp show/stats, qp counters show, watchdog show/stats, dcqcn show: as root sees them"

# monitor: the events group is open to everyone; QPs root creates are seen
# (a QP each half second until both monitors saw one created: a monitor's
# start is not observable, and one that starts late sees a QP's last events only).
# exec: $! is then the monitor itself (setpriv execs it), not a subshell.
# A second listener, nobody in a pid namespace of its own (the monitor is
# its pid 1, which a signal with a handler still reaches).
(exec setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- \
	$NB -j monitor qp > "$W/mon.json" 2> "$W/mon.err") &
mon=$!
(exec unshare --pid --fork --mount-proc setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--bounding-set=-all -- $NB -j monitor qp > "$W/nsmon.json" 2> "$W/nsmon.err") &
nsmon=$!
for i in $(seq 20); do
	"$QPT" many -d rxe0 -n 1 --state init > "$W/one.json" || fail "one QP"
	qpn=$(jq '.qpns[0]' "$W/one.json")
	created="\"event\": ?\"create\",[^}]*\"ifname\": ?\"rxe0\",[^}]*\"lqpn\": ?$qpn[,}]"
	busywait 500 eval 'grep -Eq "$created" "$W/mon.json" && grep -Eq "$created" "$W/nsmon.json"' && break
done
qp_events() {	# qp_events FILE: the events of root's QP $qpn on rxe0
	jq -s -c "[.[] | select(.ifname == \"rxe0\" and .lqpn == $qpn)]" "$1"
}
busywait 5000 eval '[ "$(qp_events "$W/mon.json" | jq -c "[.[].event] | unique")" = "[\"create\",\"destroy\",\"modify\"]" ]' ||
	fail "events of root's QP $qpn: $(tail -c 400 "$W/mon.json" | tr '\n' '|') $(head -c 200 "$W/mon.err")"
log_test "nobody monitors: root's QP created, modified, destroyed"

# No listener learns an owner it could not see in a dump: the events of a
# user QP carry none at all (one multicast reaches every pid namespace).
busywait 5000 eval '[ "$(qp_events "$W/nsmon.json" | jq length)" = 3 ]' ||
	fail "events in a child pid namespace: $(tail -c 400 "$W/nsmon.json" | tr '\n' '|') $(head -c 200 "$W/nsmon.err")"
check_eq "$(qp_events "$W/nsmon.json" | jq -c '[.[].event]')" '["create","modify","destroy"]' "events in a child pid namespace"
for f in mon nsmon; do
	check_eq "$(qp_events "$W/$f.json" | jq -c '[.[] | select(has("pid") or has("comm"))]')" "[]" "owner of root's QP in $f's events"
	check_eq "$(jq -s -c '[.[] | select((.kernel | not) and (has("pid") or has("comm")))]' "$W/$f.json")" "[]" "owner of a user QP in $f's events"
done
kill $mon; wait $mon; code=$?
check_eq "$code" 0 "monitor exit on SIGTERM: $(cat "$W/mon.err")"
kill $(pgrep -P $nsmon) 2>/dev/null; wait $nsmon; code=$?
check_eq "$code" 0 "monitor in a child pid namespace, exit on SIGTERM: $(cat "$W/nsmon.err")"
log_test "QP events tell no user QP's owner to any listener (nobody, nobody in a child pid namespace)"

# --- changes -------------------------------------------------------------------------
denied() {	# denied ARGS...: exit 4 and the message, as nobody
	local out code
	out=$(nobody $NB "$@" 2>&1); code=$?
	check_eq "$code" 4 "exit of $*"
	check_match "$out" "permission denied: this needs CAP_NET_ADMIN" "message of $*"
}
denied watchdog set dev sim0 prio 5
denied watchdog set dev sim0 detect 1000
denied watchdog set dev sim1 prio 3 action forward
denied watchdog set dev rxe0 prio 3
denied watchdog set dev sim0 nic-stall-prevention 500
denied watchdog del dev sim0
denied watchdog del dev sim0 prio 3
denied watchdog big-red-switch on
denied watchdog big-red-switch off
denied dcqcn set dev rxe0 rp_gd 5
qpn_a=$(jq '.pairs[0].a_qpn' "$W/hold.json")
denied qp counters bind dev rxe0 qpn "$qpn_a"
echo "watchdog set dev sim0 prio 5" > "$W/policy.conf"
chmod 644 "$W/policy.conf"; chmod 755 "$W"
out=$(nobody $NB apply "$W/policy.conf" 2>&1); code=$?
check_eq "$code" 4 "apply exit"
check_match "$out" "permission denied: this needs CAP_NET_ADMIN" "apply message"
log_test "nobody changes: watchdog set/del/big-red-switch, dcqcn set, qp counters bind, apply: exit 4, permission denied"

state > "$W/after"
diff -u "$W/before" "$W/after" > "$W/diff" || fail "state changed: $(head -c 600 "$W/diff" | tr '\n' '|')"
check_eq "$(rc -j watchdog show | jq -c 'map(select(.big_red_switch)) | length')" 0 "big red switch"
log_test "refused changes changed nothing: watches, PFC, stall prevention, QPs, counters"

# --- who sees which QP ------------------------------------------------------------------
# Root's QPs as rdma(8) shows them to nobody, and as rocectl does.
holder_qps() {	# holder_qps FILE: the holder's QPs as [ifname, lqpn, pid-or-null]
	jq -c --argjson a "$(jq .pairs[0].a_qpn "$W/hold.json")" --argjson b "$(jq .pairs[0].b_qpn "$W/hold.json")" \
		'[.[] | select((.ifname == "rxe0" and .lqpn == $a) or (.ifname == "rxe1" and .lqpn == $b)) | [.ifname, .lqpn, .pid]] | sort' "$1"
}
kernel_qps() {	# kernel_qps FILE: QPs without a pid, with a command name: [ifname, lqpn, comm]
	jq -c '[.[] | select(.pid == null and .comm != null) | [.ifname, .lqpn, (.comm | ltrimstr("[") | rtrimstr("]"))]] | sort' "$1"
}
nobody rdma -j resource show qp > "$W/rdma-init.json" || fail "rdma resource show qp as nobody"
nobody $NB -j qp show > "$W/ours-init.json"
check_eq "$(holder_qps "$W/rdma-init.json")" "[[\"rxe0\",$qpn_a,$holder],[\"rxe1\",$(jq .pairs[0].b_qpn "$W/hold.json"),$holder]]" "rdma: root's QPs and pid, to nobody"
check_eq "$(holder_qps "$W/ours-init.json")" "$(holder_qps "$W/rdma-init.json")" "rocectl against rdma, to nobody"
check_eq "$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/ours-init.json")" "$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/rdma-init.json")" "the same QPs"
check_eq "$(jq -r ".[] | select(.lqpn == $qpn_a and .ifname == \"rxe0\") | .comm" "$W/ours-init.json")" qptraffic "comm of root's QP"
log_test "nobody sees every QP, root's with their pid and command name, as rdma resource show does"

# A reader in a pid namespace of its own: root's holder is not in it.
pidns() { unshare --pid --fork --mount-proc setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }
pidns rdma -j resource show qp > "$W/rdma-ns.json" || fail "rdma in a pid namespace"
pidns $NB -j qp show > "$W/ours-ns.json" || fail "rocectl in a pid namespace"
echo "# rdma in a child pid namespace, root's QPs: $(holder_qps "$W/rdma-ns.json"), kernel QPs: $(kernel_qps "$W/rdma-ns.json")"
echo "# rocectl in a child pid namespace, root's QPs: $(holder_qps "$W/ours-ns.json")"
check_eq "$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/ours-ns.json")" "$(jq -c '[.[] | [.ifname, .lqpn]] | sort' "$W/rdma-ns.json")" "the same QPs, in a child pid namespace"
check_eq "$(holder_qps "$W/rdma-ns.json")" "[[\"rxe0\",$qpn_a,null],[\"rxe1\",$(jq .pairs[0].b_qpn "$W/hold.json"),null]]" "rdma: no pid for an owner outside the reader's pid namespace"
check_eq "$(holder_qps "$W/ours-ns.json")" "$(holder_qps "$W/rdma-ns.json")" "rocectl: pid of an owner outside the reader's pid namespace"
check_eq "$(jq -c "[.[] | select(.lqpn == $qpn_a and .ifname == \"rxe0\") | .comm]" "$W/ours-ns.json")" '[null]' "rocectl: command name of an owner outside the reader's pid namespace"
check_eq "$(kernel_qps "$W/ours-ns.json")" "$(kernel_qps "$W/ours-init.json")" "kernel QPs keep their kernel user's name"
check_eq "$(pidns $NB -j qp show pid $holder | jq length)" 0 "qp show pid N: N is a pid of the reader's namespace"
log_test "a reader in another pid namespace sees every QP, but no pid or command name of owners outside it (as the RDMA core)"

# An owner in a pid namespace of its own: pid 1 there, its init-namespace pid here.
unshare --pid --fork "$QPT" pair -d rxe0 -D rxe1 -g 1 -n 1 -m 10 -s 64 --hold > "$W/nshold.json" 2> "$W/nshold.err" &
nsholder=$!
busywait 30000 test -s "$W/nshold.json" || fail "holder in a pid namespace: $(cat "$W/nshold.err")"
inner=$(pgrep -P $nsholder qptraffic || pgrep -f "qptraffic pair -d rxe0 -D rxe1 -g 1 -n 1 -m 10 -s 64 --hold" | grep -vx $holder | head -n 1)
qpn_ns=$(jq '.pairs[0].a_qpn' "$W/nshold.json")
check_eq "$(jq .pid "$W/nshold.json")" 1 "the holder is pid 1 in its namespace"
check_eq "$(rc -j qp show | jq "[.[] | select(.ifname == \"rxe0\" and .lqpn == $qpn_ns) | .pid]" | jq -c .)" "[$inner]" "init namespace: its pid there"
check_eq "$(rdma -j resource show qp | jq "[.[] | select(.ifname == \"rxe0\" and .lqpn == $qpn_ns) | .pid]" | jq -c .)" "[$inner]" "rdma agrees"
# The pid namespace only: entering a mount namespace would leave the guest's root.
in_ns() { nsenter --target "$inner" --pid setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }
check_eq "$(in_ns rdma -j resource show qp | jq -c "[.[] | select(.ifname == \"rxe0\" and .lqpn == $qpn_ns) | .pid]")" "[1]" "rdma inside the owner's namespace: pid 1"
check_eq "$(in_ns $NB -j qp show | jq -c "[.[] | select(.ifname == \"rxe0\" and .lqpn == $qpn_ns) | .pid]")" "[1]" "rocectl inside the owner's namespace: pid 1"
kill $inner 2>/dev/null; wait $nsholder
log_test "an owner in a pid namespace: its namespace's pid inside, the initial namespace's outside"

kill $holder; wait $holder
busywait 5000 eval '[ "$(rc -j qp show | jq length)" = "$(rdma -j resource show qp | jq length)" ]' || fail "QPs left"
module_unload || fail "unload"
rxe_del rxe0; rxe_del rxe1
rmmod simnic || fail "rmmod simnic"
kmsg_check
rm -rf "$W"
