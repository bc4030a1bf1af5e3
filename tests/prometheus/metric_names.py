#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The metric names the alerting rules and the dashboard read.

  metric_names.py RULES DASHBOARD            the names, one a line
  metric_names.py RULES DASHBOARD SCRAPE...  also: the ones no scrape has
                                             (exit 1 if any)

A name is a sample name of the exporter's text format (rocectl_x_total for
a counter); recording rules' names (rocectl:...) are not metrics.
"""
import json
import re
import sys

NAME = re.compile(r"(?<![\w:])rocectl_[a-z0-9_]+(?![\w:])")


def exprs(rules, dashboard):
    for line in open(rules):
        m = re.match(r"\s*expr:\s*(.*)$", line)
        if m:
            yield m.group(1)

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k in ("expr", "definition") and isinstance(v, str):
                    yield v
                else:
                    yield from walk(v)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v)
    yield from walk(json.load(open(dashboard)))


def main():
    names = sorted({n for e in exprs(sys.argv[1], sys.argv[2]) for n in NAME.findall(e)})
    if len(sys.argv) == 3:
        print("\n".join(names))
        return 0
    seen = set()
    for f in sys.argv[3:]:
        for line in open(f, errors="replace"):
            if line and not line.startswith("#"):
                seen.add(re.split(r"[{ ]", line, 1)[0])
    missing = [n for n in names if n not in seen]
    print("%d names read by the rules and the dashboard, %d not in the scrapes%s" %
          (len(names), len(missing), (": " + " ".join(missing)) if missing else ""))
    return 1 if missing else 0


sys.exit(main())
