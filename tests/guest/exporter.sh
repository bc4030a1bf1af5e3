#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl exporter, run as nobody, scraped with curl and checked
# by promtool; its QP sums against tc's own count of the packets it marked
# CE, kept after the QPs are gone; its watchdog counters after a storm on
# the simulated NIC; a real Prometheus server scraping it, its query API
# returning those counters; the textfile output read by a real
# prometheus-node-exporter; the module going and coming; bad input. The
# QPs' owners only with "owners" (the main exporter has it): without it no
# label of a real scrape, print or textfile names one. TLS and a password
# (web-config): a real Prometheus scrapes with them and is refused with a
# wrong one; the certificates from openssl, the bcrypt hash from htpasswd.
. "$(dirname "$0")/lib.sh"
plan 18
W=$(mktemp -d)
chmod 755 "$W"
QPT=$ROOT/tests/tools/build/qptraffic
URL=http://127.0.0.1:9798/metrics

# A copy nobody can run: the checkout may sit in a directory only root can enter.
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all --)
nobody() { "${NOBODY[@]}" "$@"; }
scrape() { curl -sf --max-time 30 "$@" "$URL"; }
# The exporter serves a scrape computed less than a second ago again
# (single flight): a read that must see what just changed waits it out.
settle() { sleep 1.1; }
# metric NAME{LABELS}: its value in a fresh scrape ("" if absent).
metric() { scrape | awk -v m="$1" '$1 == m { print $2 }'; }
# wd_state_is STATE: sim0's priority 3 is in STATE, as the exporter says.
wd_state_is() {
	[ "$(metric "rocectl_watchdog_state{netdev=\"sim0\",prio=\"3\",direction=\"rx\",state=\"$1\"}")" = 1 ]
}

kmsg_mark
two_rxe_hosts
module_load || fail "load"
simnic_pair sim0 sim1 || fail "simnic"
timeout "$T" dcb pfc set dev sim0 prio-pfc 3:on || fail "dcb"
rc watchdog set dev sim0 prio 3 detect 100 restore 200 interval 20 action alert nic-stall-prevention 500 || fail "watch"
# Not through the function: $! must be the exporter itself, for its exit status.
# With the owners' labels, which most of the tests below read.
"${NOBODY[@]}" /run/nobody/rocectl exporter owners > "$W/ex.out" 2> "$W/ex.err" &
EX=$!
busywait 20000 scrape -o /dev/null || fail "no answer at $URL: $(cat "$W/ex.err")"
log_test "setup: rxe0/rxe1 over veth, simnic sim0 watched on priority 3, the exporter as nobody"

# --- the format --------------------------------------------------------------------------
hdr=$(curl -sf -D - -o "$W/m.txt" "$URL" | tr -d '\r')
check_match "$hdr" '^Content-Type: text/plain; version=0.0.4; charset=utf-8$' "content type"
out=$(promtool check metrics < "$W/m.txt" 2>&1) || fail "promtool check metrics: $out"
check_eq "$(awk '$1 == "rocectl_up" { print $2 }' "$W/m.txt")" 1 "rocectl_up"
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' -D "$W/om.hdr" -o "$W/om.txt" "$URL" ||
	fail "OpenMetrics scrape"
check_match "$(tr -d '\r' < "$W/om.hdr")" '^Content-Type: application/openmetrics-text; version=1.0.0' "OpenMetrics type"
check_eq "$(tail -n 1 "$W/om.txt")" "# EOF" "OpenMetrics end"
check_match "$(cat "$W/om.txt")" '^# TYPE rocectl_watchdog_storms counter$' "OpenMetrics counter family"
log_test "scrape as nobody: text format 0.0.4 that promtool check metrics accepts; OpenMetrics when asked"

# --- a process name that is not UTF-8 ------------------------------------------------------
# comm is any bytes (a file name, cut at 15): one QP owner so named must
# not make the scrape invalid, which would blank the host's metrics.
badname=$(printf 'bad\xff\xfename')
install -m 755 "$QPT" "$W/$badname"
"$W/$badname" pair -d rxe0 -g 1 -n 1 -m 5 -s 64 --hold > "$W/bad.json" 2> "$W/bad.err" &
badholder=$!
busywait 30000 test -s "$W/bad.json" || fail "$badname: $(cat "$W/bad.err")"
scrape > "$W/bad.txt" || fail "scrape"
out=$(promtool check metrics < "$W/bad.txt" 2>&1) || fail "promtool check metrics: $out"
grep -qF "comm=\"$(printf 'bad\xef\xbf\xbdname')\"" "$W/bad.txt" ||
	fail "no comm label with U+FFFD: $(grep -a 'comm=' "$W/bad.txt" | grep -a bad | head -n 2)"
kill "$badholder" 2>/dev/null; wait "$badholder"
log_test "a QP owner whose name is not UTF-8: the scrape stays valid for promtool, the bytes become U+FFFD"

# --- ports and QPs against rdma(8) ----------------------------------------------------------
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 3 -m 10 -s 1024 --hold > "$W/hold.json" 2> "$W/hold.err" &
hold=$!
busywait 60000 test -s "$W/hold.json" || fail "traffic: $(cat "$W/hold.err")"
rdma -j resource show qp > "$W/rdma.json"
settle
scrape > "$W/m.txt"
python3 - "$W/m.txt" "$W/rdma.json" <<'PY' > "$W/py.out" 2>&1 || fail "$(tail -n 3 "$W/py.out")"
import json, re, subprocess, sys
m = {}
for l in open(sys.argv[1]):
    if not l.startswith("#"):
        k, v = l.rsplit(" ", 1)
        m[k] = float(v)
rdma = json.load(open(sys.argv[2]))
links = json.loads(subprocess.run(["rdma", "-j", "link", "show"], capture_output=True, text=True).stdout)
for ln in links:
    want = {"ACTIVE": 4, "DOWN": 1, "INIT": 2, "ARMED": 3}[ln["state"]]
    key = 'rocectl_port_state{device="%s",port="%d",netdev="%s"}' % (ln["ifname"], ln["port"], ln["netdev"])
    assert m.get(key) == want, (key, m.get(key), want)
for dev in ("rxe0", "rxe1"):
    n = sum(v for k, v in m.items() if k.startswith('rocectl_qps{device="%s"' % dev))
    want = len([q for q in rdma if q["ifname"] == dev])
    assert n == want, (dev, n, want)
got = sum(v for k, v in m.items() if k.startswith('rocectl_qps{') and 'comm="qptraffic"' in k and 'state="RTS"' in k)
assert got == 6, ("qptraffic's RTS QPs", got)
PY
log_test "ports and QPs: rocectl_port_state as rdma link show, rocectl_qps as rdma resource show qp"

# --- the owners only when asked --------------------------------------------------------------
# A second exporter without "owners", print and textfile without it, while
# qptraffic's QPs (and the badly named one's groups) are there: every label
# name of every sample is read, none names an owner, no per-workload family;
# the sums per device and port are the owners' scrape's summed over comm
# (nothing moves while the QPs are held), the live QPs as many.
"${NOBODY[@]}" /run/nobody/rocectl exporter listen 127.0.0.1:9797 > "$W/plain.out" 2> "$W/plain.err" &
PLAIN=$!
busywait 20000 curl -sf -o "$W/plain.txt" http://127.0.0.1:9797/metrics || fail "no answer on 9797: $(cat "$W/plain.err")"
nobody /run/nobody/rocectl exporter print > "$W/print.txt" || fail "print"
mkdir -m 777 "$W/tfo"
nobody /run/nobody/rocectl exporter textfile "$W/tfo" interval 0 || fail "textfile"
kill $PLAIN; wait $PLAIN 2>/dev/null
for f in plain.txt print.txt tfo/rocectl.prom; do
	out=$(promtool check metrics < "$W/$f" 2>&1) || fail "promtool check metrics $f: $out"
done
python3 - "$W/m.txt" "$W/plain.txt" "$W/print.txt" "$W/tfo/rocectl.prom" <<'PY' > "$W/owners.out" 2>&1 || fail "$(tail -n 3 "$W/owners.out")"
import re, sys
OWNERS = {"pid", "comm", "cgroup", "namespace", "pod", "pod_uid", "container", "container_runtime", "job"}
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
def load(f):
    m, names = {}, set()
    for l in open(f, errors="replace"):
        if l.startswith("#") or not l.strip():
            continue
        k, v = l.rsplit(" ", 1)
        assert k not in m, (f, "a series twice", k)
        name = k.split("{", 1)[0]
        labels = dict(LABEL.findall(k[len(name):]))
        names |= set(labels)
        m[k] = (name, labels, float(v))
    return m, names
owned, owned_names = load(sys.argv[1])
assert {"comm", "pid"} <= owned_names, ("the owners' scrape lacks owners", owned_names)
def total(m, metric, dev, port):
    return sum(v for n, l, v in m.values() if n == metric and l.get("device") == dev and l.get("port") == port)
for f in sys.argv[2:]:
    m, names = load(f)
    assert not names & OWNERS, (f, "owner labels", names & OWNERS)
    fams = {n for n, l, v in m.values()}
    assert not [n for n in fams if n.startswith("rocectl_workload_")], (f, "workload families", fams)
    for n, l, v in m.values():
        if n in ("rocectl_qp_tx_packets_total", "rocectl_qp_rx_bytes_total", "rocectl_qps"):
            if n == "rocectl_qps":
                want = sum(ov for on, ol, ov in owned.values() if on == n and ol["device"] == l["device"]
                           and ol["port"] == l["port"] and ol["state"] == l["state"])
            else:
                want = total(owned, n, l["device"], l["port"])
            assert v == want, (f, n, l, v, "owners' scrape summed over comm", want)
    assert any(n == "rocectl_top_qp_tx_bytes_total" for n, l, v in m.values()), (f, "no top QPs")
    print(f.split("/")[-1], len(m), "series; labels:", " ".join(sorted(names)))
PY
check_eq "$(grep -c . "$W/owners.out")" 3 "three outputs checked: $(cat "$W/owners.out")"
log_test "without owners (serve, print, textfile): no pid, comm, cgroup, pod, namespace or job label in any sample, no workload family; sums per device and port are the owners' summed over comm"

# top 1: one QP per counter, the one rocectl qp stats shows with the most tx_bytes.
nobody /run/nobody/rocectl exporter print top 1 top-by tx_bytes > "$W/top.txt" || fail "print"
check_eq "$(grep -c '^rocectl_top_qp_tx_bytes_total{' "$W/top.txt")" 1 "top 1 series"
rc -j qp stats > "$W/qps.json" 2> "$W/qps.err" || fail "rocectl -j qp stats: exit $?: $(head -c 300 "$W/qps.err")"
read -r dev qpn bytes < <(sed -n 's/^rocectl_top_qp_tx_bytes_total{device="\([^"]*\)",port="[0-9]*",qpn="\([0-9]*\)".*} \([0-9]*\)$/\1 \2 \3/p' "$W/top.txt")
check_eq "${bytes:-none}" "$(jq 'map(select(.counters)) | map(.counters.tx_bytes) | max' "$W/qps.json")" "top 1's tx_bytes: the most any QP has"
check_eq "$bytes" "$(jq --arg d "${dev:-}" --argjson q "${qpn:-0}" '.[] | select(.ifname == $d and .lqpn == $q) | .counters.tx_bytes' "$W/qps.json")" "$dev QP $qpn's tx_bytes as rocectl qp stats shows them"
kill $hold; wait $hold 2>/dev/null
log_test "top N: top 1 top-by tx_bytes shows the QP rocectl qp stats has with the most tx_bytes"

# --- CE: the QP sums against tc's own count, kept after the QPs go --------------------------
key='rocectl_qp_rx_ecn_ce_total{device="rxe1",port="1",comm="qptraffic"}'
before=$(metric "$key")
tc qdisc add dev veth1 clsact
tc filter add dev veth1 egress protocol ip u32 match ip protocol 17 0xff \
	match ip dport 4791 0xffff action pedit munge ip tos set 0x3 pipe action csum ip
"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 2 -m 100 -s 1024 --hold > "$W/ce.json" 2> "$W/ce.err" &
ce=$!
busywait 60000 test -s "$W/ce.json" || fail "traffic: $(cat "$W/ce.err")"
marked=$(tc -s -j filter show dev veth1 egress | jq '[.[] | .options.actions[]? | select(.kind == "pedit") | .stats.packets] | add')
settle
live=$(metric "$key")
kill $ce; wait $ce 2>/dev/null
tc qdisc del dev veth1 clsact
# The QPs are gone: what they counted stays in the sum.
check_eq "$(rdma -j resource show qp | jq '[.[] | select(.comm == "qptraffic")] | length')" 0 "qptraffic's QPs after it exited"
settle
after=$(metric "$key")
check_eq "$(( ${live:-0} - ${before:-0} ))" "$marked" "the live QPs' CE sum (tc marked $marked)"
check_eq "$(( ${after:-0} - ${before:-0} ))" "$marked" "CE-marked packets: the exporter's rxe1 sum grew by (tc marked $marked)"
# What no QP holds, as rocectl dev stats shows it.
check_eq "$(metric 'rocectl_device_unattributed_rx_ecn_ce_total{device="rxe1"}')" \
	"$(rc -j dev stats rxe1 | jq '.[] | select(.scope == "unattributed") | .counters.rx_ecn_ce')" "rxe1's unattributed CE packets"
check_eq "$(metric 'rocectl_packets_unseen_total')" "$(rc -j dev stats rxe1 | jq '.[] | select(.scope == "device") | .module_unseen')" "packets unseen, as dev stats"
check_match "$(metric 'rocectl_loopback_probe_missed_total')" '^[0-9]+$' "loopback probe hits skipped"
log_test "CE: the rxe1 sum grew by the packets tc's pedit marked ($marked), and stays once the QPs are destroyed"

# --- the watchdog ------------------------------------------------------------------------------
storms0=$(metric 'rocectl_watchdog_storms_total{netdev="sim0",prio="3",direction="rx"}')
storm sim0 3 1000
busywait 20000 wd_state_is storm || fail "no storm state: $(scrape | grep '^rocectl_watchdog_state')"
storm sim0 3 0
busywait 20000 wd_state_is monitoring || fail "no end of the storm"
storms=$(metric 'rocectl_watchdog_storms_total{netdev="sim0",prio="3",direction="rx"}')
check_eq "$storms" "$(( ${storms0:-0} + 1 ))" "storms"
check_eq "$storms" "$(rc -j watchdog stats dev sim0 | jq '.[0].prios[] | select(.prio == 3) | .storms')" "storms as watchdog stats says"
scrape > "$W/wd.txt" || fail "scrape"
rc -j watchdog show dev sim0 > "$W/wdshow.json" || fail "watchdog show"
for k in warnings errors; do
	check_eq "$(awk -v m="rocectl_nic_stall_${k}_total{netdev=\"sim0\"}" '$1 == m { print $2 }' "$W/wd.txt")" \
		"$(jq ".[0].nic_stall_$k" "$W/wdshow.json")" "NIC stall prevention $k as watchdog show says"
done
log_test "watchdog: a storm on sim0 shows as state storm, then monitoring, storms_total one more, as watchdog stats says; stall prevention's counts as watchdog show"

# --- QP churn: sums that never go back and close against rxe's own counters -----------------
# Three loops create, use and destroy 16 QP pairs each over and over while
# the exporter is scraped every second: no rocectl_qp_* series may ever be
# lower than in the scrape before, and once the churn is over the sums plus
# what no QP took grew exactly as rxe's own sent_pkts and rcvd_pkts did.
# The module keeps the destroyed QPs' final counts per group itself
# (qp-retired-get): their sum per device is dev stats' destroyed-qps.
port_pkts() { rdma -j statistic show link "$1/1" | jq -r '.[0] | "\(.sent_pkts) \(.rcvd_pkts)"'; }
read -r s0 r0 < <(port_pkts rxe0)
read -r s1 r1 < <(port_pkts rxe1)
settle
scrape > "$W/churn-0.txt" || fail "scrape"
end=$((SECONDS + ${CHURN_SECONDS:-20}))
churners=
for i in 1 2 3; do
	( while [ $SECONDS -lt $end ]; do
		"$QPT" pair -d rxe0 -D rxe1 -g 1 -n 16 -m 20 -s 64 > /dev/null 2>> "$W/churn.err" || exit 1
	done ) &
	churners="$churners $!"
done
n=0
while [ $SECONDS -lt $end ]; do
	n=$((n + 1))
	scrape > "$W/churn-$n.txt" || fail "scrape $n during the churn"
	sleep 1
done
for c in $churners; do
	wait "$c" || fail "a churn loop failed: $(tail -n 3 "$W/churn.err")"
done
settle
scrape > "$W/churn-end.txt" || fail "scrape"
read -r s0e r0e < <(port_pkts rxe0)
read -r s1e r1e < <(port_pkts rxe1)
python3 - "$W" "$n" "$s0" "$r0" "$s1" "$r1" "$s0e" "$r0e" "$s1e" "$r1e" <<'PY' > "$W/churn.out" 2>&1 || fail "$(tail -n 4 "$W/churn.out")"
import re, sys
w, n = sys.argv[1], int(sys.argv[2])
s0, r0, s1, r1, s0e, r0e, s1e, r1e = map(int, sys.argv[3:])
def load(f):
    m = {}
    for l in open(f, errors="replace"):
        if l.startswith("rocectl_qp_") or l.startswith("rocectl_device_unattributed_"):
            k, v = l.rsplit(" ", 1)
            m[k] = int(float(v))
    return m
files = ["%s/churn-0.txt" % w] + ["%s/churn-%d.txt" % (w, i) for i in range(1, n + 1)] + ["%s/churn-end.txt" % w]
scrapes = [load(f) for f in files]
back = []
for a, b in zip(scrapes, scrapes[1:]):
    for k, v in a.items():
        if k.startswith("rocectl_qp_") and "_total{" in k and k in b and b[k] < v:
            back.append((k, v, b[k]))
assert not back, "went back: %s" % back[:3]
def total(m, stat, dev):
    return sum(v for k, v in m.items() if (k.startswith("rocectl_qp_%s_total{" % stat) or
               k.startswith("rocectl_device_unattributed_%s_total{" % stat)) and 'device="%s"' % dev in k)
first, last = scrapes[0], scrapes[-1]
got = {(d, st): total(last, st, d) - total(first, st, d) for d in ("rxe0", "rxe1") for st in ("tx_packets", "rx_packets")}
want = {("rxe0", "tx_packets"): s0e - s0, ("rxe0", "rx_packets"): r0e - r0,
        ("rxe1", "tx_packets"): s1e - s1, ("rxe1", "rx_packets"): r1e - r1}
assert got == want, "sums %s, rxe's counters %s" % (got, want)
assert want[("rxe0", "tx_packets")] > 0
print("%d scrapes; rxe0 sent %d packets, rxe1 %d" % (len(scrapes), want[("rxe0", "tx_packets")], want[("rxe1", "tx_packets")]))
PY
churn=$(tail -n 1 "$W/churn.out")
# Raw netlink: the command names are any bytes (the kernel's ynl CLI
# decodes strings as ASCII and stops at the bad name of the start).
python3 - > "$W/retired.json" <<'PY' || fail "qp-retired-get: $(cat "$W/retired.json")"
import errno, json, os, struct, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from nlraw import GenlSocket, NLM_F_REQUEST, NLM_F_DUMP, NLM_F_ACK, attr_str, attr_u32, spec
sp = spec()
A = {a: sp.attr(a) for a in ("dev-name", "qp-port", "qp-comm", "qp-retired-qps", "qp-stats", "qp-retired-other")}
TX = sp.attr("tx-packets", "qp-stat")
s = GenlSocket()
def group(attrs):
    a = dict(attrs)
    st = dict((t, v) for t, v in __import__("nlraw").parse_attrs(a[A["qp-stats"]]))
    return {"dev": a[A["dev-name"]].rstrip(b"\0").decode(),
            "port": struct.unpack("=I", a[A["qp-port"]])[0] if A["qp-port"] in a else None,
            "comm": a[A["qp-comm"]].rstrip(b"\0").decode(errors="replace") if A["qp-comm"] in a else None,
            "qps": struct.unpack("=Q", a[A["qp-retired-qps"]])[0],
            "tx_packets": struct.unpack("=Q", st[TX])[0] if TX in st else 0}
r = s.request(sp.cmd("qp-retired-get"), flags=NLM_F_REQUEST | NLM_F_DUMP)
assert r.error in (0, None), ("dump", r.error, r.msg)
groups = [group(m[1]) for m in r.messages]
one = [g for g in groups if g["dev"] == "rxe1" and g["comm"] == "qptraffic" and g["port"] == 1]
assert len(one) == 1, ("rxe1/1/qptraffic groups", one)
r = s.request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "rxe1") + attr_u32(A["qp-port"], 1) +
              attr_str(A["qp-comm"], "qptraffic"))
assert len(r.messages) == 1 and group(r.messages[0][1]) == one[0], ("get", r.error, r.msg)
r = s.request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "rxe1") + attr_u32(A["qp-port"], 1) +
              attr_str(A["qp-comm"], "nosuchcommand"))
assert r.error == errno.ENOENT, ("get of no group", r.error, r.msg)
r = s.request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "rxe1") + attr_u32(A["qp-port"], 1))
assert r.error == errno.EINVAL and not r.messages, ("get without qp-comm", r.error, r.msg)
r = s.request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "rxe1") + attr_u32(A["qp-port"], 1) +
              attr_str(A["qp-comm"], "a-name-longer-than-15"))
assert r.error in (errno.EINVAL, errno.ERANGE) and not r.messages, ("over-long qp-comm", r.error, r.msg)
r = s.request(sp.cmd("qp-retired-get"), attr_str(A["dev-name"], "nosuchdev"), flags=NLM_F_REQUEST | NLM_F_DUMP)
assert r.error == errno.ENODEV and not r.messages, ("dump of an unknown device", r.error, r.msg)
print(json.dumps(groups))
PY
for d in rxe0 rxe1; do
	check_eq "$(jq --arg d "$d" '[.[] | select(.dev == $d) | .tx_packets] | add' "$W/retired.json")" \
		"$(rc -j dev stats "$d" | jq '.[] | select(.scope == "destroyed-qps") | .counters.tx_packets')" \
		"$d: the destroyed QPs' groups' tx_packets against dev stats' destroyed-qps"
done
log_test "QP churn: $churn; no QP sum went back, each device's sums grew as rxe's own counters; qp-retired-get (dump, get; ENOENT, a missing or over-long comm, an unknown device refused) sums to dev stats' destroyed-qps"

# --- a real Prometheus ------------------------------------------------------------------------
cat > "$W/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $ROOT/user/system/rocectl.rules.yml
scrape_configs:
  - job_name: rocectl
    static_configs:
      - targets: ['127.0.0.1:9798']
EOF
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" \
	--web.listen-address=127.0.0.1:9090 > "$W/prom.log" 2>&1 &
PROM=$!
# query EXPR: the value Prometheus has for EXPR now ("" if none).
query() {
	curl -sf --max-time 30 --data-urlencode "query=$1" http://127.0.0.1:9090/api/v1/query |
		jq -r '.data.result[0].value[1] // empty'
}
# has EXPR VALUE: Prometheus has VALUE for EXPR.
has() { [ "$(query "$1")" = "$2" ]; }
busywait 180000 has rocectl_up 1 || fail "Prometheus never scraped rocectl_up 1: $(tail -n 3 "$W/prom.log")"
q='rocectl_watchdog_storms_total{netdev="sim0",prio="3"}'
busywait 30000 has "$q" "$storms" || fail "Prometheus has $q = '$(query "$q")', the exporter $storms"
busywait 30000 has "$key" "$after" || fail "Prometheus has $key = '$(query "$key")', the exporter $after"
check_eq "$(query 'up{job="rocectl"}')" 1 "Prometheus' own up"
log_test "a real Prometheus scrapes the exporter: its query API returns the storm ($storms) and CE ($after) counters"

# --- the shipped rules and dashboard against the real thing ------------------------------------
# Every metric they read is in a scrape of this scenario (one with live
# QPs and traffic, one after a storm); Prometheus loaded the rules and
# evaluated every one of them without an error.
# A hardware device's series too (simrdma's: its DevX commands missed),
# and a workload's (a QP owner in a cgroup of its own: the pods' view).
simrdma_dev srd0 sim0 || fail "simrdma srd0"
CG=/sys/fs/cgroup
cgm=
if ! mountpoint -q $CG; then
	mount -t cgroup2 none $CG || fail "mount cgroup2"
	cgm=1
fi
mkdir -p $CG/rocectl-exporter-test || fail "a cgroup"
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh $CG/rocectl-exporter-test \
	"$QPT" pair -d rxe0 -g 1 -n 1 -m 10 -s 1024 --hold > "$W/cg.json" 2> "$W/cg.err" &
cgp=$!
busywait 20000 test -s "$W/cg.json" || fail "a QP owner in a cgroup: $(cat "$W/cg.err")"
settle
scrape > "$W/hw.txt" || fail "scrape with srd0 and a workload"
kill $cgp; wait $cgp 2>/dev/null
busywait 10000 rmdir $CG/rocectl-exporter-test || fail "the cgroup left"
[ -z "$cgm" ] || umount $CG
echo srd0 > "$SRD/del_device" && rmmod simrdma || fail "srd0 away"
out=$(python3 "$ROOT/tests/prometheus/metric_names.py" "$ROOT/user/system/rocectl.rules.yml" \
	"$ROOT/user/system/rocectl-dashboard.json" "$W/m.txt" "$W/wd.txt" "$W/hw.txt" 2>&1) || fail "$out"
rules_ok() {
	curl -sf --max-time 30 http://127.0.0.1:9090/api/v1/rules > "$W/rules.json" &&
		jq -e '[.data.groups[].rules[]] | length > 0 and all(.health == "ok")' "$W/rules.json" > /dev/null
}
busywait 30000 rules_ok || fail "rules not all evaluated healthy: $(jq -c '[.data.groups[].rules[] | select(.health != "ok") | {name, health, lastError}]' "$W/rules.json" 2>&1 | head -c 400)"
nrules=$(jq '[.data.groups[].rules[]] | length' "$W/rules.json")
check_eq "$nrules" "$(grep -cE '^\s*- (record|alert):' "$ROOT/user/system/rocectl.rules.yml")" "rules Prometheus loaded"
kill $PROM; wait $PROM 2>/dev/null
log_test "rules and dashboard: ${out%%,*}, every one in a real scrape; Prometheus evaluates all $nrules rules healthy"

# --- TLS and a password: a real Prometheus ------------------------------------------------------
# A CA and a server certificate for 127.0.0.1 from openssl, the bcrypt hash
# from htpasswd's own bcrypt (the exporter checks it with the system's
# crypt); the exporter as nobody on 9796 with them. Prometheus scrapes it
# over https with the CA and the password (up 1, rocectl's series stored)
# and as a second job with a wrong password (up 0, the exporter's 401 in
# the target's error); curl without a password gets 401 and no metrics,
# plain HTTP to the TLS port no answer.
TLSD=$W/tls
mkdir -m 755 "$TLSD"
PASS=s3cret-$$
{
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$TLSD/ca.key" \
		-out "$TLSD/ca.crt" -days 2 -subj /CN=rocectl-test-ca &&
	openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$TLSD/server.key" \
		-out "$TLSD/server.csr" -subj /CN=127.0.0.1 &&
	printf 'subjectAltName=IP:127.0.0.1\n' > "$TLSD/san" &&
	openssl x509 -req -in "$TLSD/server.csr" -CA "$TLSD/ca.crt" -CAkey "$TLSD/ca.key" -CAcreateserial \
		-out "$TLSD/server.crt" -days 2 -extfile "$TLSD/san"
} > "$TLSD/openssl.log" 2>&1 || fail "openssl: $(tail -n 3 "$TLSD/openssl.log")"
chmod 644 "$TLSD/server.key"
hash=$(htpasswd -nbB -C 5 prom "$PASS" | cut -d: -f2-)
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  prom: %s\n' \
	"$hash" > "$TLSD/web.yml"
"${NOBODY[@]}" /run/nobody/rocectl exporter listen 127.0.0.1:9796 web-config "$TLSD/web.yml" owners \
	> "$W/tls.out" 2> "$W/tls.err" &
TLSEX=$!
TLSURL=https://127.0.0.1:9796/metrics
busywait 30000 curl -sf --cacert "$TLSD/ca.crt" -u "prom:$PASS" -o "$W/tls.txt" "$TLSURL" ||
	fail "no TLS answer with the password: $(cat "$W/tls.err")"
check_eq "$(awk '$1 == "rocectl_up" { print $2 }' "$W/tls.txt")" 1 "rocectl_up over TLS with the password"
code=$(curl -s --cacert "$TLSD/ca.crt" -D "$W/noauth.hdr" -o "$W/noauth.txt" -w '%{http_code}' "$TLSURL")
check_eq "$code" 401 "no password"
check_match "$(tr -d '\r' < "$W/noauth.hdr")" '^WWW-Authenticate: Basic realm="rocectl exporter"$' "WWW-Authenticate"
check_eq "$(grep -c rocectl_ "$W/noauth.txt")" 0 "no metrics in the 401"
check_eq "$(curl -s --cacert "$TLSD/ca.crt" -u "prom:wrong" -o /dev/null -w '%{http_code}' "$TLSURL")" 401 "a wrong password"
check_eq "$(curl -s --cacert "$TLSD/ca.crt" -u "nobody:$PASS" -o /dev/null -w '%{http_code}' "$TLSURL")" 401 "an unknown user"
curl -s --max-time 10 -o /dev/null http://127.0.0.1:9796/metrics; code=$?
[ "$code" != 0 ] || fail "plain HTTP to the TLS port answered"
# Every 5 s with 5 s to answer: a TLS handshake and a bcrypt under
# emulation on a busy machine can take more than a second.
cat > "$W/prometheus-tls.yml" <<EOF
global:
  scrape_interval: 5s
  scrape_timeout: 5s
scrape_configs:
  - job_name: tls
    scheme: https
    tls_config:
      ca_file: $TLSD/ca.crt
    basic_auth:
      username: prom
      password: $PASS
    static_configs:
      - targets: ['127.0.0.1:9796']
  - job_name: tls-wrong-password
    scheme: https
    tls_config:
      ca_file: $TLSD/ca.crt
    basic_auth:
      username: prom
      password: wrong
    static_configs:
      - targets: ['127.0.0.1:9796']
EOF
prometheus --config.file="$W/prometheus-tls.yml" --storage.tsdb.path="$W/tsdb-tls" \
	--web.listen-address=127.0.0.1:9090 > "$W/prom-tls.log" 2>&1 &
PROM=$!
busywait 180000 has 'up{job="tls"}' 1 || fail "Prometheus never scraped over TLS: $(tail -n 3 "$W/prom-tls.log")"
busywait 30000 has 'rocectl_up{job="tls"}' 1 || fail "no rocectl_up from the TLS job"
busywait 30000 has 'up{job="tls-wrong-password"}' 0 || fail "the wrong password's job: up '$(query 'up{job="tls-wrong-password"}')'"
check_eq "$(query 'count({job="tls-wrong-password",__name__=~"rocectl_.*"})')" "" "no rocectl series for the wrong password"
# last_error: the wrong password's job's last scrape error, as Prometheus says it.
last_error() {
	lasterr=$(curl -sf --max-time 30 http://127.0.0.1:9090/api/v1/targets |
		jq -r '.data.activeTargets[] | select(.labels.job == "tls-wrong-password") | .lastError')
	[[ $lasterr == *"401 Unauthorized"* ]]
}
busywait 30000 last_error || fail "the wrong password's scrape error: '$lasterr'"
kill $PROM; wait $PROM 2>/dev/null
kill $TLSEX; wait $TLSEX
check_eq "$?" 0 "the TLS exporter's exit status on SIGTERM"
log_test "TLS and basic auth: Prometheus over https with the CA and the password (up 1, rocectl_up 1), with a wrong one up 0 ($lasterr); curl without one 401 with WWW-Authenticate and no metrics; plain HTTP to the port no answer"

# --- a bad web-config: refused before anything is served ----------------------------------------
# Each exit 2 with one sentence naming the file and the line; the port never bound.
cp "$TLSD/web.yml" "$TLSD/bad-key.yml" && printf 'bogus: 1\n' >> "$TLSD/bad-key.yml"
sed 's/cert_file: server.crt/cert_file: nosuch.crt/' "$TLSD/web.yml" > "$TLSD/bad-cert.yml"
sed 's/prom: .*/prom: not-a-bcrypt-hash/' "$TLSD/web.yml" > "$TLSD/bad-hash.yml"
bad_web() {
	local out code
	out=$(nobody timeout 10 /run/nobody/rocectl exporter listen 127.0.0.1:9795 web-config "$TLSD/$1" 2>&1); code=$?
	check_eq "$code" 2 "$1: exit status ($out)"
	check_eq "$out" "$2" "$1: its sentence"
}
bad_web bad-key.yml "Error: web-config $TLSD/bad-key.yml:6: unknown key bogus (the file: tls_server_config, basic_auth_users)."
bad_web bad-cert.yml "Error: web-config $TLSD/bad-cert.yml:2: cert_file $TLSD/nosuch.crt: No such file or directory."
bad_web bad-hash.yml "Error: web-config $TLSD/bad-hash.yml:5: basic_auth_users: prom's hash is not a bcrypt hash (\$2y\$, \$2b\$ or \$2a\$, a cost of 04 to 31, 53 characters: htpasswd -nbB USER PASSWORD makes one)."
bad_web nosuch.yml "Error: web-config $TLSD/nosuch.yml: No such file or directory."
out=$(nobody timeout 10 /run/nobody/rocectl exporter web-config 2>&1); code=$?
check_eq "$code" 2 "web-config without FILE ($out)"
check_eq "$(ss -Htln 'sport = :9795' | wc -l)" 0 "nothing listening on 9795"
log_test "a bad web-config (unknown key, missing cert file, malformed hash, no file, none named): exit 2, the file and line named, nothing served"

# --- textfile for node_exporter ------------------------------------------------------------------
mkdir -m 777 "$W/tf"
nobody /run/nobody/rocectl exporter textfile "$W/tf" interval 0 owners || fail "textfile"
check_eq "$(ls -A "$W/tf")" "rocectl.prom" "files in the directory"
out=$(promtool check metrics < "$W/tf/rocectl.prom" 2>&1) || fail "promtool: $out"
prometheus-node-exporter --web.listen-address=127.0.0.1:9100 --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$W/tf" > "$W/ne.log" 2>&1 &
NE=$!
busywait 60000 curl -sf -o "$W/ne.txt" http://127.0.0.1:9100/metrics || fail "node_exporter: $(tail -n 3 "$W/ne.log")"
check_eq "$(awk '$1 == "rocectl_up" { print $2 }' "$W/ne.txt")" 1 "rocectl_up through node_exporter"
check_eq "$(awk '$1 == "node_textfile_scrape_error" { print $2 }' "$W/ne.txt")" 0 "node_textfile_scrape_error"
# The destroyed QPs' CE sum, as the module keeps it: node_exporter sorts the labels.
check_eq "$(awk -v k="$key" '$1 == k { print $2 }' "$W/tf/rocectl.prom")" "$after" "the CE sum in the textfile"
check_eq "$(awk -v k='rocectl_qp_rx_ecn_ce_total{comm="qptraffic",device="rxe1",port="1"}' '$1 == k { print $2 }' "$W/ne.txt")" \
	"$after" "the CE sum through node_exporter"
kill $NE; wait $NE 2>/dev/null
log_test "textfile: DIR/rocectl.prom alone, accepted by promtool, served by a real node_exporter without a scrape error"

# --- the module going and coming -----------------------------------------------------------------
rc watchdog del dev sim0
module_unload || fail "unload"
settle
check_eq "$(metric rocectl_up)" 0 "rocectl_up without the module"
check_eq "$(scrape | grep -c '^rocectl_qps{')" 0 "QP series without the module"
module_load || fail "reload"
up_is() { [ "$(metric rocectl_up)" = "$1" ]; }
busywait 10000 up_is 1 || fail "rocectl_up after the reload"
log_test "module unloaded: HTTP 200 with rocectl_up 0 and no stale series; loaded again: rocectl_up 1"

# --- HTTP: slow clients and a single flight -----------------------------------------------------
# 50 clients connected and silent, 50 sending a request one byte every 2
# s (slowloris): a real scrape is not delayed past 1 s more than it took
# alone. Then 20 scrapes at once are one computation, two if they straddle
# the second a result is shared for (their rocectl_scrapes_total values).
t_alone=$(curl -sf -o /dev/null -w '%{time_total}' "$URL") || fail "scrape"
python3 - "$W" <<'PY' > "$W/slow.out" 2>&1 &
import socket, sys, threading, time
socks = []
for i in range(50):
    s = socket.create_connection(("127.0.0.1", 9798)); socks.append(s)
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40
def slow():
    s = socket.create_connection(("127.0.0.1", 9798)); socks.append(s)
    try:
        for b in req:
            s.send(bytes([b])); time.sleep(2)
    except OSError:
        pass
for i in range(50):
    threading.Thread(target=slow, daemon=True).start()
open(sys.argv[1] + "/slow.ready", "w").close()
time.sleep(30)
PY
slowpid=$!
busywait 20000 test -e "$W/slow.ready" || fail "slow clients: $(cat "$W/slow.out")"
sleep 3
t_busy=$(curl -sf --max-time 30 -o "$W/busy.txt" -w '%{time_total}' "$URL") || fail "a scrape among the slow clients failed"
check_eq "$(awk '$1 == "rocectl_up" { print $2 }' "$W/busy.txt")" 1 "rocectl_up among the slow clients"
awk -v a="$t_alone" -v b="$t_busy" 'BEGIN { exit !(b <= a + 1.0) }' ||
	fail "a scrape among 100 slow clients took $t_busy s, alone $t_alone s"
kill "$slowpid" 2>/dev/null; wait "$slowpid" 2>/dev/null
sleep 1.5
pids=
for i in $(seq 20); do
	curl -sf -o "$W/par-$i.txt" "$URL" &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "one of 20 scrapes at once failed"
done
for i in $(seq 20); do
	check_eq "$(awk '$1 == "rocectl_up" { print $2 }' "$W/par-$i.txt")" 1 "scrape $i of 20 at once"
done
runs=$(cat "$W"/par-*.txt | awk '$1 == "rocectl_scrapes_total" { print $2 }' | sort -u | wc -l)
[ "$runs" -ge 1 ] && [ "$runs" -le 2 ] || fail "20 scrapes at once made $runs computations"
log_test "HTTP: a scrape among 50 silent and 50 slowloris clients took ${t_busy} s (alone ${t_alone} s); 20 at once were $runs computation(s)"

# --- bad input -----------------------------------------------------------------------------------
out=$(nobody /run/nobody/rocectl exporter 2>&1); code=$?
check_eq "$code" 4 "a second exporter on the same port"
check_eq "$out" "Error: cannot listen on 127.0.0.1:9798: Address already in use." "its sentence"
for args in "listen" "listen 9798" "listen nosuchhost.invalid:1" "top 1001" "top x" "top-by bogus" "bogus" "textfile"; do
	# shellcheck disable=SC2086 # split on purpose
	out=$(nobody timeout 10 /run/nobody/rocectl exporter $args 2>&1); code=$?
	[ "$code" = 2 ] && [[ $out == Error:*. ]] || fail "exporter $args: status $code, '$out'"
done
out=$(nobody /run/nobody/rocectl exporter textfile /nonexistent interval 0 2>&1); code=$?
check_eq "$code:$out" "4:Error: cannot write /nonexistent/rocectl.prom: No such file or directory." "textfile into a missing directory"
# libmicrohttpd is opened by the exporter alone: hidden, a sentence names it.
lib=$(readlink -f /usr/lib/x86_64-linux-gnu/libmicrohttpd.so.12)
out=$(unshare -m sh -c "mount --bind /dev/null $lib && exec $ROCECTL exporter listen 127.0.0.1:9797" 2>&1); code=$?
[ "$code" = 4 ] && [[ $out == "Error: rocectl exporter needs libmicrohttpd.so.12, which cannot be loaded ("*"): install libmicrohttpd (Debian: libmicrohttpd12)." ]] ||
	fail "without libmicrohttpd: status $code, '$out'"
check_eq "$(ldd "$ROCECTL" | grep -cE 'libmicrohttpd|libsystemd')" 0 "libraries every rocectl run loads"
check_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 "$URL")" 405 "POST"
check_eq "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9798/nope)" 404 "unknown path"
# raw REQUEST: the status line the exporter answers a hand-written request with.
raw() {
	local line
	exec 7<>/dev/tcp/127.0.0.1/9798
	printf "$1" >&7
	line=$(timeout 10 head -n 1 <&7 | tr -d '\r')
	exec 7<&-
	echo "$line"
}
# raw_answer REQUEST: the same, asked up to 5 times while nothing comes back:
# libmicrohttpd closes after an error answer, and when it closes with part
# of the request unread the reset can overtake the answer on the client
# (so the requests below are as short as their error allows).
raw_answer() {
	local line i
	for i in 1 2 3 4 5; do
		line=$(raw "$1")
		[ -n "$line" ] && break
	done
	echo "$line"
}
check_eq "$(raw_answer 'GET /metrics HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n')" "HTTP/1.1 400 Bad Request" "a malformed header"
check_eq "$(raw_answer 'GET /metrics HTTP/9.9\r\n\r\n')" "HTTP/1.1 505 HTTP Version Not Supported" "an unknown HTTP version"
check_eq "$(raw 'GARBAGE\r\n\r\n')" "" "garbage: the connection closed, no answer"
# A scraper that connects and says nothing neither blocks others nor stays.
exec 8<>/dev/tcp/127.0.0.1/9798
scrape -o /dev/null || fail "a scrape beside a silent connection"
t0=$(date +%s)
timeout 30 cat <&8 > /dev/null
check_eq "$(( $(date +%s) - t0 <= 15 ))" 1 "the silent connection closed within the 10 s timeout"
exec 8<&-
kill -0 $EX || fail "the exporter died"
kill $EX; wait $EX
check_eq "$?" 0 "the exporter's exit status on SIGTERM"
log_test "bad input: port in use (exit 4), bad arguments (exit 2), libmicrohttpd missing (exit 4, loaded by the exporter alone), POST 405, unknown path 404, malformed 400, garbage closed, a silent scraper dropped"

module_unload
kmsg_check
