#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Prometheus rules and the Grafana dashboard shipped in user/system:
# promtool accepts the rules and passes their unit tests
# (tests/prometheus/rules_test.yml), every alert is tested firing, and
# every query of the dashboard is PromQL promtool accepts. That each metric
# they read exists in a real scrape is the guest's exporter scenario's.
#
#   tests/rules_check.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
# shellcheck source=tests/results.sh
. tests/results.sh
RULES=user/system/rocectl.rules.yml
DASH=user/system/rocectl-dashboard.json
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
plan 4

result() {	# result NAME OK [WHY]
	if [ "$2" = 0 ]; then
		report "ok - rules: $1"
	else
		report "not ok - rules: $1 # $(printf '%s' "${3:-failed}" | tr '\n' '|' | cut -c1-400)"
	fi
}

if ! command -v promtool > /dev/null; then
	for t in "promtool check rules" "promtool test rules" "every alert tested firing" "dashboard queries"; do
		report "ok - rules: $t # SKIP promtool is not installed (tests/deps.sh installs prometheus)"
	done
	exit 0
fi

out=$(promtool check rules "$RULES" 2>&1)
result "promtool check rules accepts $RULES" $? "$out"

out=$(cd tests/prometheus && promtool test rules rules_test.yml 2>&1)
result "promtool test rules: every case of tests/prometheus/rules_test.yml passes" $? "$out"

# Every alert has a test case in which it fires (a non-empty exp_alerts).
out=$(python3 - "$RULES" tests/prometheus/rules_test.yml <<'PY'
import re, sys
alerts = re.findall(r"^\s*- alert:\s*(\S+)", open(sys.argv[1]).read(), re.M)
tests = open(sys.argv[2]).read()
fired = set()
for m in re.finditer(r"alertname:\s*(\S+)\s*\n\s*exp_alerts:\s*(\[\])?", tests):
    if not m.group(2):
        fired.add(m.group(1))
missing = [a for a in alerts if a not in fired]
print("%d alerts, untested: %s" % (len(alerts), " ".join(missing) or "none"))
sys.exit(1 if missing or not alerts else 0)
PY
)
result "every alert of $RULES is tested firing ($out)" $? "$out"

# The dashboard's queries, Grafana's variables given values, as recording
# rules promtool parses.
out=$(python3 - "$DASH" "$TMP/dash.rules.yml" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exprs = []
def walk(n):
    if isinstance(n, dict):
        if "expr" in n:
            exprs.append(n["expr"])
        for v in n.values():
            walk(v)
    elif isinstance(n, list):
        for v in n:
            walk(v)
walk(d)
with open(sys.argv[2], "w") as f:
    f.write("groups:\n  - name: dashboard\n    rules:\n")
    for i, e in enumerate(exprs):
        e = e.replace("$__rate_interval", "5m").replace("$instance", ".*").replace("$device", ".*")
        f.write("      - record: dashboard:q%d\n        expr: %s\n" % (i, json.dumps(e)))
print(len(exprs))
PY
) && n=$out && out=$(promtool check rules "$TMP/dash.rules.yml" 2>&1)
result "the dashboard is JSON and its ${n:-?} queries are PromQL promtool accepts" $? "$out"
