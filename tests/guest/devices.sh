#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: the module's life cycle and its view of RDMA devices, checked
# against rdma(8), in text and JSON, with device events and bad input.
. "$(dirname "$0")/lib.sh"
plan 36
W=$(mktemp -d)

kmsg_mark

# --- without the module ------------------------------------------------------
module_unload
out=$(rc dev show 2>&1); code=$?
check_eq "$code" 3 "exit code"
check_match "$out" "rocectl kernel module is not loaded: run modprobe rocectl" "message"
log_test "module not loaded: clear error, exit 3"

# --- load, unload, reload --------------------------------------------------
veth_pair 1 2 || fail "veth"
rxe_add rxe0 veth1 || fail "rxe0"
rxe_add rxe1 veth2 || fail "rxe1"
for i in 1 2 3; do
	module_load || fail "load $i"
	grep -q '^rocectl ' /proc/modules || fail "not in /proc/modules after load $i"
	rc dev show >/dev/null || fail "dev show after load $i"
	module_unload || fail "unload $i"
done
module_load || fail "final load"
log_test "loads, unloads and reloads with devices present"

# --- dev show against rdma link show ----------------------------------------
rdma -j link show > "$W/rdma.json" || fail "rdma link show"
rc -j dev show > "$W/dev.json" || fail "rocectl -j dev show"
python3 - "$W/rdma.json" "$W/dev.json" <<'PY' || fail "differs from rdma link show"
import json, sys
rdma = json.load(open(sys.argv[1]))
ours = json.load(open(sys.argv[2]))
mine = {(d["ifname"], p["port"]): (d, p) for d in ours for p in d["ports"]}
assert len(mine) == len(rdma), f"{len(mine)} ports, rdma has {len(rdma)}"
for link in rdma:
    d, p = mine[(link["ifname"], link["port"])]
    assert d["ifindex"] == link["ifindex"], (d, link)
    for k in ("state", "physical_state", "netdev"):
        assert p.get(k) == link.get(k), (k, p.get(k), link.get(k))
PY
check_eq "$(json 'sorted(d["ifname"] for d in j)' "$W/dev.json")" "['rxe0', 'rxe1']" "devices"
log_test "dev show: same devices, ports, states and netdevs as rdma link show"

# --- the family through the kernel's ynl CLI, from the spec alone -------------
if ynl_ready 2> /dev/null; then
	ynl --dump dev-get --output-json > "$W/ynl.json" || fail "ynl --dump dev-get"
	python3 - "$W/rdma.json" "$W/ynl.json" <<'PY' || fail "ynl's decoding differs from rdma link show"
import json, sys
rdma = json.load(open(sys.argv[1]))
devs = json.load(open(sys.argv[2]))
mine = {(d["dev-name"], p["index"]): (d, p) for d in devs for p in d["dev-port"]}
assert len(mine) == len(rdma), f"{len(mine)} ports, rdma has {len(rdma)}"
for link in rdma:
    d, p = mine[(link["ifname"], link["port"])]
    assert d["dev-index"] == link["ifindex"], (d, link)
    assert d["dev-driver"] == "rxe" and d["dev-num-ports"] == len(d["dev-port"]), d
    for ours, theirs in (("state", "state"), ("phys-state", "physical_state")):
        assert p[ours].upper().replace("-", "_") == link[theirs], (ours, p, link)
    assert p.get("netdev-name") == link.get("netdev"), (p, link)
    assert p["link-layer"] == "ethernet" and p["roce"] == ["v2"], p
PY
	log_test "the kernel's ynl CLI with the spec: the same devices, ports, states and netdevs as rdma link show"
else
	log_skip "the kernel's ynl CLI with the spec: the same devices, ports, states and netdevs as rdma link show" \
		"no ynl tools ($YNL_DIR): tests/deps.sh"
fi

# --- what a soft-RoCE port is -------------------------------------------------
check_eq "$(json 'j[0]["driver"], j[0]["ports"][0]["link_layer"], j[0]["ports"][0]["roce"]' "$W/dev.json")" \
	"rdma_rxe ethernet ['v2']" "driver, link layer, RoCE versions"
mtu=$(json 'j[0]["ports"][0]["mtu"]' "$W/dev.json")
rdma_mtu=$(cat /sys/class/infiniband/rxe0/ports/1/state >/dev/null; ibv_devinfo -d rxe0 2>/dev/null | awk '/active_mtu/ {print $2; exit}')
check_eq "$mtu" "$rdma_mtu" "active MTU against ibv_devinfo"
log_test "dev show: driver, link layer, RoCE v2 and MTU of an rxe port"

# --- text and JSON carry the same values --------------------------------------
rc dev show > "$W/dev.txt" || fail "text"
python3 - "$W/dev.txt" "$W/dev.json" <<'PY' || fail "text and JSON differ"
import json, re, sys
text = open(sys.argv[1]).read()
ours = json.load(open(sys.argv[2]))
devs = re.findall(r"^(\d+): (\S+): driver (\S+) node_guid (\S+) ports (\d+)", text, re.M)
assert [(int(i), n, drv, g, int(np)) for i, n, drv, g, np in devs] == \
    [(d["ifindex"], d["ifname"], d["driver"], d["node_guid"], d["num_ports"]) for d in ours], devs
ports = re.findall(r"^    port (\d+) state (\S+) physical_state (\S+) link_layer (\S+) roce (\S+) mtu (\d+) netdev (\S+)", text, re.M)
assert [(int(a), b, c, d, e, int(f), g) for a, b, c, d, e, f, g in ports] == \
    [(p["port"], p["state"], p["physical_state"], p["link_layer"], ",".join(p["roce"]), p["mtu"], p["netdev"])
     for d in ours for p in d["ports"]], ports
PY
rc -p dev show > "$W/dev.pretty" || fail "pretty"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a != b)' \
	"$W/dev.pretty" "$W/dev.json" || fail "pretty JSON differs from JSON"
[ "$(wc -l < "$W/dev.pretty")" -gt 5 ] || fail "pretty JSON is not indented"
log_test "text, JSON and pretty JSON carry the same values"

# --- one device, details ---------------------------------------------------------
rc -j dev show rxe1 > "$W/one.json" || fail "dev show rxe1"
check_eq "$(json '[d["ifname"] for d in j]' "$W/one.json")" "['rxe1']" "one device"
rc -j -d dev show rxe1 > "$W/det.json" || fail "details"
check_eq "$(json 'j[0]["backend"], j[0]["ports"][0]["netdev_index"], "RoCEv2" in j[0]["ports"][0]["gid_types"]' "$W/det.json")" \
	"rxe $(cat /sys/class/net/veth2/ifindex) True" "backend, netdev index, GID types"
log_test "dev show DEV and -d details"

# --- port state follows the link -------------------------------------------------
ip link set veth1 down
port_state() { rc -j dev show rxe0 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["ports"][0]["state"])'; }
busywait 5000 eval '[ "$(port_state)" = DOWN ]' || fail "rxe0 not DOWN after veth1 down: $(port_state)"
check_match "$(rdma link show rxe0/1)" "state DOWN" "rdma agrees"
ip link set veth1 up
busywait 5000 eval '[ "$(port_state)" = ACTIVE ]' || fail "rxe0 not ACTIVE again: $(port_state)"
log_test "port state follows the netdev (DOWN, then ACTIVE)"

# --- monitor: add, rename, del -----------------------------------------------------
veth_pair 3 4
# Not under timeout(1): the signal must reach rocectl itself.
"$ROCECTL" -j monitor dev > "$W/mon.json" 2> "$W/mon.err" &
mon=$!
"$ROCECTL" monitor > "$W/mon.txt" 2>&1 &
mon_text=$!
sleep 1
rxe_add rxe2 veth3 || fail "rxe2 add"
timeout "$T" rdma dev set rxe2 name rxe9 || fail "rename"
rxe_del rxe9 || fail "rxe9 del"
busywait 10000 eval '[ "$(wc -l < "$W/mon.json")" -ge 3 ]' || fail "only $(wc -l < "$W/mon.json") events"
busywait 10000 eval '[ "$(wc -l < "$W/mon.txt")" -ge 3 ]' || fail "text monitor: $(cat "$W/mon.txt")"
kill $mon $mon_text
wait $mon; check_eq "$?" 0 "monitor exit status on SIGTERM"
python3 - "$W/mon.json" "$(cat /sys/class/net/veth3/ifindex)" <<'PY' || fail "events: $(cat "$W/mon.json")"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert [(e["object"], e["event"]) for e in ev] == [("dev", "add"), ("dev", "rename"), ("dev", "del")], ev
add, ren, dele = ev
assert add["ifname"] == "rxe2" and add["ports"][0]["netdev"] == "veth3", add
assert ren["ifname"] == "rxe9" and ren["prev_ifname"] == "rxe2", ren
assert dele["ifname"] == "rxe9", dele
assert add["ifindex"] == ren["ifindex"] == dele["ifindex"], ev
PY
check_match "$(cat "$W/mon.txt")" '^\[dev add\] [0-9]+: rxe2: driver rdma_rxe' "text add"
check_match "$(cat "$W/mon.txt")" '\[dev rename\] [0-9]+: rxe9: was rxe2' "text rename"
check_match "$(cat "$W/mon.txt")" '\[dev del\] [0-9]+: rxe9:' "text del"
log_test "monitor: add, rename and del events, text and JSON"

# --- bad input from the command line ------------------------------------------------
out=$(rc dev show nosuchdev 2>&1); code=$?
check_eq "$code" 4 "unknown device exit code"
check_eq "$out" "Error: rocectl: no RDMA device has this name (attribute dev-name)." "unknown device message"
log_test "unknown device: the kernel's extack message, exit 4"

long=$(printf 'x%.0s' $(seq 64))
out=$(rc dev show "$long" 2>&1); code=$?
check_eq "$code" 2 "over-long name exit code"
check_match "$out" "too long: at most 63 characters" "over-long name message"
out=$(rc dev show rxe0 extra 2>&1); code=$?
check_eq "$code" 2 "extra argument"
check_match "$out" 'unexpected argument "extra"' "extra argument message"
# A device name on any command: missing, empty or too long is said before
# anything is asked of the kernel.
for cmd in "qp show dev" "qp counters show dev" "dcqcn show dev"; do
	out=$(rc $cmd 2>&1); code=$?
	check_eq "$code" 2 "$cmd: exit code"
	check_eq "$out" "Error: dev needs an RDMA device name." "$cmd: message"
done
out=$(rc watchdog set dev 2>&1)
check_eq "$out" "Error: dev needs a netdev or RDMA device name." "watchdog set dev: message"
for cmd in "dev show" "dev stats" "qp show dev" "qp stats dev" "watchdog show dev" "dcqcn show dev"; do
	out=$(rc $cmd "" 2>&1); code=$?
	check_eq "$code" 2 "$cmd '': exit code"
	check_eq "$out" "Error: the device name is empty." "$cmd '': message"
	out=$(rc $cmd "$long" 2>&1); code=$?
	check_eq "$code" 2 "$cmd LONG: exit code"
	check_match "$out" "^Error: device name \"x{16}\.\.\.\" is too long: at most 63 characters\.$" "$cmd LONG: message"
done
out=$(rc dve 2>&1); code=$?
check_eq "$code" 2 "unknown object"
check_match "$out" 'unknown object "dve"' "unknown object message"
out=$(rc monitor bogus 2>&1); code=$?
check_eq "$code" 2 "unknown monitor object"
out=$(rc -x dev 2>&1); code=$?
check_eq "$code" 2 "unknown option"
log_test "bad command lines: a sentence and exit 2 (device names: missing, empty, too long, on every command)"

# Times in text: the date and time of day with milliseconds.
check_match "$(rc -d qp show dev rxe0)" 'created [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} state_changed [0-9]{4}-' "qp times in text"
log_test "qp show -d: creation and state times in text"

# --- malformed netlink -------------------------------------------------------
RESULTS=$RESULTS python3 "$ROOT/tests/guest/netlink_errors.py" > "$W/nl.out" 2>&1
cat "$W/nl.out"
grep -q "^ok - netlink-errors: device state unchanged" "$W/nl.out" || fail "netlink scenario did not finish: $(tail -n 3 "$W/nl.out")"
log_test "raw netlink scenario ran to the end"

# --- version ------------------------------------------------------------------
check_match "$(rc version)" "^rocectl [0-9.]+ \(netlink ABI 1\)" "tool line"
check_match "$(rc version)" "module $(cat /sys/module/rocectl/version) \(netlink ABI 1\)" "module line"
check_eq "$(rc -j version | json 'j["module_abi"], j["abi"]' /dev/stdin)" "1 1" "JSON"
log_test "version: tool and module, text and JSON"

# --- unloads ------------------------------------------------------------------------
"$ROCECTL" -j monitor > "$W/mon2.json" 2> "$W/mon2.err" &
mon=$!
sleep 1
module_unload || fail "unload with a listener"
# The monitor learns of it from the controller and ends by itself.
busywait 10000 eval '! kill -0 $mon 2>/dev/null' || { fail "the monitor is still waiting"; kill $mon; }
wait $mon; code=$?
check_eq "$code" 3 "monitor's exit status once the module is gone"
check_match "$(cat "$W/mon2.err")" "module was unloaded" "monitor's sentence"
check_eq "$(wc -c < "$W/mon2.json")" 0 "events when only rocectl goes away"
check_eq "$(rdma link show | wc -l)" 2 "rxe devices still there"
log_test "unload with a listener: no del events, devices untouched; the monitor ends (exit 3, a sentence)"

module_load || fail "reload"
rmmod rdma_rxe || fail "rmmod rdma_rxe under rocectl"
check_eq "$(rc -j dev show)" "[]" "no devices after rdma_rxe unload"
rxe_add rxe0 veth1 || fail "rxe0 again"
check_eq "$(rc -j dev show | json '[d["ifname"] for d in j]' /dev/stdin)" "['rxe0']" "device back"
module_unload || fail "final unload"
rmmod rdma_rxe
log_test "rdma_rxe unloaded and reloaded under rocectl"

kmsg_check
rm -rf "$W"
