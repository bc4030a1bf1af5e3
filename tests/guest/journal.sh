#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl monitor journal: the module's events as structured
# entries of a real systemd-journald, read back with journalctl -o json:
# their fields against the event itself, their MESSAGE and ROCECTL_JSON
# against what rocectl monitor prints beside it; a journal that is not
# there; the module unloading.
. "$(dirname "$0")/lib.sh"
plan 7
W=$(mktemp -d)
# journald's state, for a failure's message.
jd_state() { kill -0 "$JD" 2>/dev/null && echo "journald running" || echo "journald exited: $(tail -n 3 "$W/journald.log" | tr '\n' '|')"; }
# entries FILTER...: the journal's rocectl entries matching, as JSON lines.
entries() { journalctl -o json --no-pager SYSLOG_IDENTIFIER=rocectl "$@" 2> /dev/null; }

kmsg_mark
# journald on a tmpfs: the shared root is read-only, and its /var/log/journal
# with it; journald also wants the cgroup tree, which the guest's init leaves out.
mount -t tmpfs tmpfs /var/log/journal
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup || fail "cgroup2"
/lib/systemd/systemd-journald > "$W/journald.log" 2>&1 &
JD=$!
busywait 30000 test -S /run/systemd/journal/socket || fail "journald: $(cat "$W/journald.log")"
module_load || fail "load"
simnic_pair sim0 sim1 || fail "simnic"
timeout "$T" dcb pfc set dev sim0 prio-pfc 3:on || fail "dcb"
rc watchdog set dev sim0 prio 3 detect 100 restore 200 interval 20 action forward || fail "watch"
log_test "setup: a systemd-journald, simnic sim0 watched on priority 3 (forward)"

# --- watchdog events: the journal against the monitor beside it -----------------------------
"$ROCECTL" monitor watchdog journal > "$W/j.out" 2> "$W/j.err" &
JM=$!
"$ROCECTL" monitor watchdog > "$W/mon.txt" 2>&1 &
TM=$!
"$ROCECTL" -j monitor watchdog > "$W/mon.json" 2>&1 &
JSM=$!
sleep 1
storm sim0 3 1000
busywait 20000 eval '[ "$(entries ROCECTL_EVENT=action | wc -l)" -ge 1 ]' || fail "no action entry: $(cat "$W/j.err"); $(jd_state)"
storm sim0 3 0
busywait 20000 eval '[ "$(entries ROCECTL_EVENT=restore | wc -l)" -ge 1 ]' || fail "no restore entry: $(cat "$W/j.err"); $(jd_state)"
sleep 1
kill $TM $JSM $JM; wait $TM $JSM 2>/dev/null
wait $JM; check_eq "$?" 0 "monitor journal's exit status on SIGTERM"
entries ROCECTL_OBJECT=watchdog > "$W/entries.json"
python3 - "$W/entries.json" "$W/mon.txt" "$W/mon.json" <<'PY' > "$W/py.out" 2>&1 || fail "$(tail -n 3 "$W/py.out")"
import json, sys
ents = [json.loads(l) for l in open(sys.argv[1])]
# rocectl monitor's events: a line beginning with "[", then its indented lines.
text = []
for l in open(sys.argv[2]):
    l = l.rstrip()
    if l.startswith("["):
        text.append(l)
    elif l and text:
        text[-1] += "\n" + l
js = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
events = [e["ROCECTL_EVENT"] for e in ents]
assert events[:3] == ["detect", "action", "restore"], events
prio = {"detect": "4", "action": "4", "restore": "5"}
for e in ents:
    assert e["ROCECTL_OBJECT"] == "watchdog" and e["ROCECTL_NETDEV"] == "sim0" and e["ROCECTL_PRIO"] == "3", e
    if e["ROCECTL_EVENT"] in prio:
        assert e["PRIORITY"] == prio[e["ROCECTL_EVENT"]], (e["ROCECTL_EVENT"], e["PRIORITY"])
# Every entry says what rocectl monitor printed for it, in text and in JSON.
assert [e["MESSAGE"] for e in ents] == text[:len(ents)], ([e["MESSAGE"] for e in ents], text)
assert [json.loads(e["ROCECTL_JSON"]) for e in ents] == js[:len(ents)], "ROCECTL_JSON differs from rocectl -j monitor"
print("ok")
PY
log_test "watchdog events: detect and action (PRIORITY 4), restore (5), ROCECTL_NETDEV sim0, ROCECTL_PRIO 3; MESSAGE and ROCECTL_JSON as rocectl monitor prints them"

# --- device events ------------------------------------------------------------------------------
"$ROCECTL" monitor dev journal > "$W/jd.out" 2> "$W/jd.err" &
JDM=$!
sleep 1
modprobe rdma_rxe
rxe_add rxe9 sim1 || fail "rxe9"
busywait 20000 eval '[ "$(entries ROCECTL_OBJECT=dev ROCECTL_EVENT=add ROCECTL_DEV=rxe9 | wc -l)" = 1 ]' ||
	fail "no dev add entry for rxe9: $(cat "$W/jd.err")"
check_eq "$(entries ROCECTL_DEV=rxe9 | jq -r .PRIORITY)" 6 "a device's entry is informational"
rxe_del rxe9
busywait 20000 eval '[ "$(entries ROCECTL_EVENT=del ROCECTL_DEV=rxe9 | wc -l)" = 1 ]' || fail "no del entry"
kill $JDM; wait $JDM
log_test "device events: add and del of rxe9 as ROCECTL_OBJECT dev entries, PRIORITY 6"

# --- the module unloading, then no journal ----------------------------------------------------
"$ROCECTL" monitor dev journal > "$W/j.out" 2> "$W/j.err" &
JM=$!
sleep 1
rc watchdog del dev sim0
module_unload || fail "unload"
wait $JM; code=$?
check_eq "$code:$(cat "$W/j.err")" "3:Error: the rocectl kernel module was unloaded: no more events." "the module unloaded"
log_test "the module unloading ends monitor journal as it ends monitor: exit 3 and a sentence"

# libsystemd is opened by monitor journal alone: hidden, a sentence names it.
lib=$(readlink -f /usr/lib/x86_64-linux-gnu/libsystemd.so.0)
out=$(unshare -m sh -c "mount --bind /dev/null $lib && exec $ROCECTL monitor watchdog journal" 2>&1); code=$?
[ "$code" = 4 ] && [[ $out == "Error: rocectl monitor journal needs libsystemd.so.0, which cannot be loaded ("*"): install libsystemd (Debian: libsystemd0)." ]] ||
	fail "without libsystemd: status $code, '$out'"
log_test "without libsystemd: monitor journal refuses to start, exit 4 and a sentence naming the library"

kill $JD; wait $JD 2>/dev/null
rm -f /run/systemd/journal/socket
out=$("$ROCECTL" monitor watchdog journal 2>&1); code=$?
check_eq "$code:$out" "4:Error: no systemd journal to write to (/run/systemd/journal/socket: No such file or directory)." "without journald"
log_test "without a journal: monitor journal refuses to start, exit 4 and a sentence"


echo sim0 > $SIM/del_pair
umount /var/log/journal /sys/fs/cgroup
kmsg_check
