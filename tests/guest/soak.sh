#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario (make check-soak, not in the default list): the exporter as a
# fleet runs it, for SOAK_SECONDS (default 300). A real Prometheus scrapes
# the tool's exporter every second, and its twin built under ASan, LSan and
# UBSan every other second, while SOAK_LOOPS loops (default 1) create, use
# and destroy QPs under 40 program names (the module keeps 16 groups a
# device: the rest goes to "other") and 50 silent and 50 slowloris clients
# hold each exporter's connections. Then PromQL over what Prometheus
# stored: no failed scrape, no counter reset in any rocectl series, and the
# sums (QPs plus unattributed) grew exactly as rxe's own sent_pkts and
# rcvd_pkts. Then 10,000 scrapes of the first exporter, the churn going
# on: its resident memory stays flat. Last, the ASan twin stops on SIGTERM
# with no leak or error report.
. "$(dirname "$0")/lib.sh"
plan 7
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
ASAN=$ROOT/tests/tools/build/asan/rocectl
SOAK=${SOAK_SECONDS:-300}
# One loop keeps a QP pair coming or going at every moment. Three saturate
# the guest's two emulated CPUs: every process waits for one (measured: a
# fork and exec of true taking 250 ms), Prometheus as much as the exporter.
LOOPS=${SOAK_LOOPS:-1}
NAMES=40
GROUPS_MAX=16
PORTS="9798 9799"
JOBS="plain asan"

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
# query EXPR [TIME]: Prometheus' value of EXPR at TIME (default now), "" if none.
query() {
	curl -sf --max-time 60 --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
		http://127.0.0.1:9090/api/v1/query | jq -r '.data.result[0].value[1] // empty'
}
# Every result of EXPR at TIME, "labels value" lines.
query_all() {
	curl -sf --max-time 60 --data-urlencode "query=$1" --data-urlencode "time=$2" \
		http://127.0.0.1:9090/api/v1/query | jq -r '.data.result[] | "\(.metric | tojson) \(.value[1])"'
}
port_pkts() { rdma -j statistic show link "$1/1" | jq -r '.[0] | "\(.sent_pkts) \(.rcvd_pkts)"'; }

# --- setup ---------------------------------------------------------------------------------
kmsg_mark
[ -x "$ASAN" ] || fail "no $ASAN: make -C tests/tools asan (make check-soak builds it)"
two_rxe_hosts
{ modprobe ib_core && insmod "$MODULE" retired_groups=$GROUPS_MAX; } || fail "load"
for k in $(seq 0 $((NAMES - 1))); do
	install -m 755 "$QPT" "$W/soak-$k"
done
"$ROCECTL" exporter owners > "$W/plain.out" 2> "$W/plain.err" &
EX=$!
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	"$ASAN" exporter listen 127.0.0.1:9799 owners > "$W/asan.out" 2> "$W/asan.err" &
EXA=$!
for p in $PORTS; do
	busywait 60000 curl -sf -o /dev/null "http://127.0.0.1:$p/metrics" ||
		fail "no exporter on $p: $(cat "$W/plain.err" "$W/asan.err" | head -c 300)"
done
rss0=$(rss_kib $EX)
cat > "$W/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: plain
    static_configs:
      - targets: ['127.0.0.1:9798']
  # ASan's checks double the computation's time: its twin is scraped
  # every other second (it is there for its reports, not its pace).
  - job_name: asan
    scrape_interval: 2s
    scrape_timeout: 2s
    static_configs:
      - targets: ['127.0.0.1:9799']
EOF
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/tsdb" \
	--web.listen-address=127.0.0.1:9090 > "$W/prom.log" 2>&1 &
PROM=$!
for j in $JOBS; do
	busywait 180000 eval '[ "$(query "up{job=\"$j\"}")" = 1 ]' ||
		fail "Prometheus never scraped $j: $(tail -n 3 "$W/prom.log")"
done
log_test "setup: rxe0/rxe1 over veth, the module keeping $GROUPS_MAX groups a device, two exporters (one under ASan), Prometheus scraping them every second (the ASan twin every other)"

# --- the soak --------------------------------------------------------------------------------
# Quiet before and after: the samples nearest the two ends are of no traffic.
read -r s0 r0 < <(port_pkts rxe0)
read -r s1 r1 < <(port_pkts rxe1)
sleep 3
t0=$(date +%s.%N)
python3 - "$W" $PORTS <<'PY' > "$W/slow.out" 2>&1 &
import os, socket, sys, threading, time
w, ports = sys.argv[1], [int(p) for p in sys.argv[2:]]
req = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40
opened = [0]
def hold(port, slow):
    # Reopened as soon as the exporter drops it (its inactivity timeout).
    while not os.path.exists(w + "/slow.stop"):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            opened[0] += 1
            for b in (req if slow else b""):
                s.send(bytes([b])); time.sleep(2)
            s.settimeout(2)
            while not os.path.exists(w + "/slow.stop") and s.recv(4096):
                pass
            s.close()
        except OSError:
            time.sleep(0.5)
for port in ports:
    for i in range(100):
        threading.Thread(target=hold, args=(port, i % 2 == 1), daemon=True).start()
while not os.path.exists(w + "/slow.stop"):
    time.sleep(1)
print(opened[0])
PY
slow=$!
end=$((SECONDS + SOAK))
churners=
for i in $(seq 0 $((LOOPS - 1))); do
	( k=$i; runs=0
	while [ $SECONDS -lt $end ]; do
		"$W/soak-$((k % NAMES))" pair -d rxe0 -D rxe1 -g 1 -n 16 -m 20 -s 64 > /dev/null 2>> "$W/churn.err" ||
			exit 1
		k=$((k + LOOPS)); runs=$((runs + 1))
	done
	echo "$runs" > "$W/runs-$i" ) &
	churners="$churners $!"
done
for c in $churners; do
	wait "$c" || fail "a churn loop failed: $(tail -n 3 "$W/churn.err")"
done
t_churn=$(date +%s)
read -r s0e r0e < <(port_pkts rxe0)
read -r s1e r1e < <(port_pkts rxe1)
sleep 3
t1=$(date +%s.%N)
runs=$(cat "$W"/runs-* | awk '{ n += $1 } END { print n + 0 }')
qps=$((runs * 32))
D=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a + 1 }')
rss1=$(rss_kib $EX)
for j in $JOBS; do
	n=$(query "count_over_time(up{job=\"$j\"}[${D}s])" "$t1")
	m=$(query "min_over_time(up{job=\"$j\"}[${D}s])" "$t1")
	last=$(query "timestamp(up{job=\"$j\"})" "$t1")
	check_eq "$m" 1 "$j: the lowest up in ${D} s ($n scrapes)"
	# A scrape a second (asan: every other), give or take Prometheus' own pace under emulation.
	every=1; [ "$j" = plain ] || every=2
	[ "${n:-0}" -ge $((D * 9 / 10 / every)) ] || fail "$j: $n scrapes in $D s"
	awk -v l="${last:-0}" -v c="$t_churn" 'BEGIN { exit !(l > c) }' || fail "$j: last scrape at $last, before the churn ended ($t_churn)"
	p50=$(query "quantile_over_time(0.5, scrape_duration_seconds{job=\"$j\"}[${D}s])" "$t1")
	p99=$(query "quantile_over_time(0.99, scrape_duration_seconds{job=\"$j\"}[${D}s])" "$t1")
	# The exporter's own time (reading the kernel, writing the text) beside Prometheus' whole scrape.
	c50=$(query "quantile_over_time(0.5, rocectl_scrape_duration_seconds{job=\"$j\"}[${D}s])" "$t1")
	c99=$(query "quantile_over_time(0.99, rocectl_scrape_duration_seconds{job=\"$j\"}[${D}s])" "$t1")
	echo "# soak $j: $n scrapes in $D s, lowest up ${m:-none}; scrape duration p50 $(printf '%.3f' "${p50:-0}") s, p99 $(printf '%.3f' "${p99:-0}") s; the exporter's computation p50 $(printf '%.3f' "${c50:-0}") s, p99 $(printf '%.3f' "${c99:-0}") s"
	eval "scrapes_$j=\$n p50_$j=\$p50 p99_$j=\$p99"
done
echo "# soak: $runs runs of qptraffic pair -n 16, $qps QPs created and destroyed, under $NAMES names"
log_test "soak of $D s: ${qps} QPs created, used and destroyed, 200 slow clients; every scrape of both exporters up (plain ${scrapes_plain:-?}, asan ${scrapes_asan:-?})"

# Every rocectl counter series, both jobs: resets() 0 over the whole soak.
series=$(query "count({__name__=~\"rocectl_.+_total\"})" "$t1")
query_all "resets({__name__=~\"rocectl_.+_total\"}[${D}s]) > 0" "$t1" > "$W/resets.txt" ||
	fail "resets query"
check_eq "$(wc -l < "$W/resets.txt")" 0 "series with a counter reset: $(head -n 3 "$W/resets.txt")"
[ "${series:-0}" -gt 0 ] || fail "no rocectl counter series in Prometheus"
# The module's table filled up: rxe0's destroyed QPs past it went to other.
other=$(query 'rocectl_qp_tx_packets_total{job="plain",device="rxe0",comm=""}' "$t1")
named=$(query 'count(rocectl_qp_tx_packets_total{job="plain",device="rxe0",comm=~"soak-.*"})' "$t1")
check_eq "$named" "$GROUPS_MAX" "rxe0's named groups"
[ "${other:-0}" -gt 0 ] || fail "nothing in rxe0's other group"
log_test "no counter reset in any of $series rocectl counter series, with rxe0's $GROUPS_MAX groups taken and $other packets in other"

# The sums as Prometheus stored them against rxe's own counters.
for j in $JOBS; do
	for d in rxe0 rxe1; do
		for st in tx rx; do
			# "or vector(0)": before the first QP, no group has a series yet.
			e="(sum(rocectl_qp_${st}_packets_total{job=\"$j\",device=\"$d\"}) or vector(0)) + (sum(rocectl_device_unattributed_${st}_packets_total{job=\"$j\",device=\"$d\"}) or vector(0))"
			a=$(query "$e" "$t0"); b=$(query "$e" "$t1")
			case $d$st in
			rxe0tx) want=$((s0e - s0)) ;; rxe0rx) want=$((r0e - r0)) ;;
			rxe1tx) want=$((s1e - s1)) ;; rxe1rx) want=$((r1e - r1)) ;;
			esac
			check_eq "$(awk -v a="${a:-nan}" -v b="${b:-nan}" 'BEGIN { printf "%d", b - a }')" "$want" "$j: $d ${st}_packets stored by Prometheus over the soak against rxe's own counter"
		done
	done
done
[ $((s0e - s0)) -gt 0 ] || fail "no traffic"
log_test "the sums Prometheus stored grew exactly as rxe's own counters: rxe0 sent $((s0e - s0)), received $((r0e - r0)) packets; both exporters"

# --- 10,000 scrapes, the churn going on --------------------------------------------------------
# The scrapes alone: the slow clients' connections come and go at their
# own pace, and the memory they hold while connected is not the scrapes'.
kill $PROM; wait $PROM 2>/dev/null
touch "$W/slow.stop"
kill "$slow" 2>/dev/null; wait "$slow" 2>/dev/null
end=$((SECONDS + 3600))
churners=
for i in $(seq 0 $((LOOPS - 1))); do
	( k=$i
	while [ $SECONDS -lt $end ] && [ ! -e "$W/churn.stop" ]; do
		"$W/soak-$((k % NAMES))" pair -d rxe0 -D rxe1 -g 1 -n 16 -m 20 -s 64 > /dev/null 2>> "$W/churn.err" ||
			exit 1
		k=$((k + LOOPS))
	done ) &
	churners="$churners $!"
done
c0=$(curl -sf http://127.0.0.1:9798/metrics | awk '$1 == "rocectl_scrapes_total" { print $2 }')
# One connection kept alive, as Prometheus keeps it: curl's URL glob.
t=$SECONDS
curl -s --max-time 3600 -w '%{stderr}%{http_code}\n' "http://127.0.0.1:9798/metrics?[1-1000]" > /dev/null 2> "$W/codes" ||
	fail "the first 1,000 scrapes: curl exit $?"
rss_1k=$(rss_kib $EX)
curl -s --max-time 3600 -w '%{stderr}%{http_code}\n' "http://127.0.0.1:9798/metrics?[1001-10000]" > /dev/null 2>> "$W/codes" ||
	fail "the next 9,000 scrapes: curl exit $?"
rss_10k=$(rss_kib $EX)
took=$((SECONDS - t))
check_eq "$(sort "$W/codes" | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')" "200:10000 " "HTTP status of the 10,000 scrapes"
touch "$W/churn.stop"
for c in $churners; do
	wait "$c" || fail "a churn loop failed: $(tail -n 3 "$W/churn.err")"
done
c1=$(curl -sf http://127.0.0.1:9798/metrics | awk '$1 == "rocectl_scrapes_total" { print $2 }')
check_match "$c1" "^[0-9]+$" "a scrape after the 10,000"
echo "# exporter RSS: $rss0 KiB at start, $rss1 KiB after the Prometheus soak, ${rss_1k:-?} KiB after 1,000 more scrapes, ${rss_10k:-?} KiB after 10,000 ($took s; $((c1 - c0)) computations, the rest shared)"
# Flat: within 1 MiB of where it stood after the first thousand (glibc's
# per-thread arenas move by a few hundred KiB either way; a leak of 128
# bytes a request would pass it).
[ -n "$rss_10k" ] && [ "$rss_10k" -le $((rss_1k + 1024)) ] ||
	fail "resident memory grew: ${rss_1k:-?} KiB after 1,000 scrapes, ${rss_10k:-?} KiB after 10,000"
log_test "10,000 scrapes under QP churn ($((c1 - c0)) computations): resident memory ${rss_1k:-?} KiB after 1,000, ${rss_10k:-?} KiB after 10,000"

# --- the ASan exporter's end ---------------------------------------------------------------------
kill -TERM $EXA
wait $EXA
code=$?
check_eq "$code" 0 "the ASan exporter's exit status on SIGTERM"
bad=$(grep -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY:' "$W/asan.err" | head -n 3)
check_eq "$bad" "" "ASan, LSan or UBSan report"
kill $EX; wait $EX 2>/dev/null
log_test "the exporter under ASan, LSan and UBSan through the soak: no report, exit 0 on SIGTERM"

rmmod rocectl
kmsg_check
