#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The visibility matrix's reader (tests/guest/visibility.sh), driven from
the netlink spec with the kernel's ynl library: run as one reader, it asks
every operation of the spec and prints, as JSON, what that reader was
shown of each owner.

SPEC is the YAML spec or the same as JSON (a .json file).

  visibility.py YNL_LIB SPEC check           the spec has a row for every
                                             operation, owner attribute
                                             and multicast group
  visibility.py YNL_LIB SPEC read [NAME=V]   every reading operation (a
                                             dump, or a do by ROWS), then
                                             every changing one, empty
  visibility.py YNL_LIB SPEC listen STOP READY  every group's
                                             notifications, READY made
                                             once subscribed, until STOP is

A new operation, an attribute that names an owner or a group the tables
below do not know fails "check": give it a row here and an expectation in
visibility.sh. (The exporter's scrape is its own row, in the exporter's
scenario: it reads as the exporter's user, in the initial pid namespace.)
"""
import json
import os
import re
import select
import sys

# Each operation of the spec: how it is read, and where its owners are.
#   dump / do:ATTRS (ATTRS from the command line, NAME=V) / admin (a
#   change: asked empty, refused to all but root) / ntf (the events group)
ROWS = {
    'dev-get': 'dump',
    'dev-add-ntf': 'ntf', 'dev-del-ntf': 'ntf', 'dev-rename-ntf': 'ntf',
    'qp-get': 'dump',
    'qp-create-ntf': 'ntf', 'qp-modify-ntf': 'ntf', 'qp-destroy-ntf': 'ntf',
    'wd-set': 'admin', 'wd-del': 'admin', 'wd-brs-set': 'admin',
    'wd-get': 'dump',
    'wd-event-ntf': 'ntf',
    'cong-get': 'none',	# a device's DCQCN parameters: no owner in its set
    'cong-set': 'admin',
    'qp-retired-get': 'dump do:retired',
    'qp-error-get': 'dump',
    'qp-error-ntf': 'ntf',
    'qp-error-count-get': 'dump do:errcount',
}
# Every attribute that names an owner: (attribute set, name).
OWNER_ATTRS = {
    ('rocectl', 'qp-pid'), ('rocectl', 'qp-comm'), ('rocectl', 'qp-cgroup'),
    ('wd-blast-proc', 'pid'), ('wd-blast-proc', 'comm'),
    ('wd-blast-proc', 'cgroup'),
}
GROUPS = {'events'}
OWNERISH = re.compile(r'(^|-)(pid|comm|cgroup|owner|uid|pod|job|container)$')


def load(lib, spec, family=True):
    # The spec as JSON (visibility.sh converts it once): the pure-Python
    # YAML parser takes a minute a reader under emulation.
    if spec.endswith('.json'):
        import yaml
        yaml.safe_load = lambda stream: json.loads(
            ''.join(line for line in stream if not line.startswith('#')))
    sys.path.insert(0, lib)
    from lib import YnlFamily, NlError  # noqa: E402
    from lib.nlspec import SpecFamily  # noqa: E402
    if not family:	# the spec alone: no module needed
        return SpecFamily(spec, ''), NlError
    return YnlFamily(spec, schema=''), NlError


def check(ynl):
    bad = []
    for name, op in ynl.ops.items():
        if name not in ROWS:
            bad.append(f"operation {name}: no row in the visibility matrix")
    for sname, aset in ynl.attr_sets.items():
        for aname in aset.attrs:
            if OWNERISH.search(aname) and (sname, aname) not in OWNER_ATTRS:
                bad.append(f"attribute {sname}.{aname} looks like an owner: no row")
    for g in ynl.mcast_groups:
        if g not in GROUPS:
            bad.append(f"multicast group {g}: no row")
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


def owners_of(op, msg):
    """The owner records of one message: [(user?, {field: value})]."""
    out = []
    if op in ('qp-get', 'qp-error-get', 'qp-create-ntf', 'qp-modify-ntf',
              'qp-destroy-ntf', 'qp-error-ntf'):
        out.append((not msg.get('qp-kernel'),
                    {k[3:]: msg[k] for k in ('qp-pid', 'qp-comm', 'qp-cgroup') if k in msg}))
    elif op in ('qp-retired-get', 'qp-error-count-get'):
        if not msg.get('qp-retired-other') and not msg.get('qp-error-other'):
            out.append((True, {k[3:]: msg[k] for k in ('qp-comm', 'qp-cgroup') if k in msg}))
    elif op in ('wd-get', 'wd-event-ntf'):
        prios = msg.get('wd-prio', [])
        if isinstance(prios, dict):
            prios = [prios]
        for p in prios:
            procs = p.get('blast-proc', [])
            if isinstance(procs, dict):
                procs = [procs]
            for b in procs:
                out.append((b.get('pid', 1) != 0,
                            {k: b[k] for k in ('pid', 'comm', 'cgroup') if k in b}))
    return out


def summary(op, msgs):
    users = [o for m in msgs for u, o in owners_of(op, m) if u]
    fields = sorted({k for o in users for k in o})
    return {'messages': len(msgs), 'user_records': len(users),
            'user_fields': fields,
            'with': {k: sum(k in o for o in users) for k in fields},
            'user_owners': sorted({json.dumps(o, sort_keys=True) for o in users})}


def read(ynl, NlError, args):
    kv = dict(a.split('=', 1) for a in args)
    res = {}
    for name in ynl.ops:
        row = ROWS.get(name, '')
        for how in row.split():
            try:
                if how == 'dump':
                    res[name] = summary(name, ynl.dump(name, {}))
                elif how == 'do:retired':
                    r = ynl.do(name, {'dev-name': kv['dev'], 'qp-port': 1,
                                      'qp-comm': kv['comm']})
                    res[name + ' do'] = summary(name, [r] if r else [])
                elif how == 'do:errcount':
                    r = ynl.do(name, {'dev-name': kv['dev'], 'qp-comm': kv['comm'],
                                      'qp-error-cause': int(kv['cause'])})
                    res[name + ' do'] = summary(name, [r] if r else [])
                elif how == 'admin':
                    ynl.do(name, {})
                    res[name] = {'errno': 0}
            except NlError as e:
                key = name + (' do' if how.startswith('do:') else '')
                res[key] = {'errno': e.error}
    print(json.dumps(res, sort_keys=True))
    return 0


def listen(ynl, stop, ready):
    for g in ynl.mcast_groups:
        ynl.ntf_subscribe(g)
    open(ready, 'w').close()
    seen = {}
    while not os.path.exists(stop):
        select.select([ynl.sock], [], [], 0.5)
        ynl.check_ntf()
        for n in ynl.async_msg_queue:
            seen.setdefault(n['name'], []).append(n['msg'])
        ynl.async_msg_queue.clear()
    ynl.check_ntf()	# what came before the stop
    for n in ynl.async_msg_queue:
        seen.setdefault(n['name'], []).append(n['msg'])
    print(json.dumps({k: summary(k, v) for k, v in seen.items()}, sort_keys=True))
    return 0


def main():
    lib, spec, mode = sys.argv[1:4]
    ynl, NlError = load(lib, spec, mode != 'check')
    if mode == 'check':
        return check(ynl)
    if mode == 'read':
        return read(ynl, NlError, sys.argv[4:])
    if mode == 'listen':
        return listen(ynl, sys.argv[4], sys.argv[5])
    return 2


if __name__ == '__main__':
    sys.exit(main())
