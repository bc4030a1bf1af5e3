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
  visibility.py YNL_LIB SPEC listen STOP READY [ID...]  every
                                             group's notifications, READY
                                             made once subscribed, until
                                             STOP is; where the family is
                                             not found (another network
                                             namespace), the groups by the
                                             numbers given, raw
  visibility.py YNL_LIB SPEC groups          the groups' numbers
  visibility.py YNL_LIB SPEC scrape FILE [COMM...]  the owner labels
                                             of an exporter's scrape
                                             (Prometheus text), by
                                             EXPORTER_LABELS, but on the
                                             samples of kernel QPs (their
                                             command names COMM)

Where the family is not found, read says {"family": "absent"}.

A new operation, an attribute that names an owner or a group the tables
below do not know fails "check": give it a row here and an expectation in
visibility.sh. The exporter's scrape is one more row: each owner attribute
has the label it becomes there (EXPORTER_LABELS), and the labels the tool
derives from a cgroup follow it.
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
# The exporter's label for each owner attribute ("owners" on), and the
# labels it derives from a cgroup (the pod's, the container's, the job's).
EXPORTER_LABELS = {
    ('rocectl', 'qp-pid'): 'pid', ('rocectl', 'qp-comm'): 'comm',
    ('rocectl', 'qp-cgroup'): 'cgroup',
    ('wd-blast-proc', 'pid'): 'pid', ('wd-blast-proc', 'comm'): 'comm',
    ('wd-blast-proc', 'cgroup'): 'cgroup',
}
CGROUP_LABELS = {'namespace', 'pod', 'pod_uid', 'container',
                 'container_runtime', 'job', 'step'}
OWNER_LABELS = set(EXPORTER_LABELS.values()) | CGROUP_LABELS
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
    try:
        return YnlFamily(spec, schema=''), NlError
    except Exception as e:	# generic netlink's controller does not list it
        if 'not supported by the kernel' not in str(e):
            raise
        return None, NlError


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
    for a in OWNER_ATTRS:
        if a not in EXPORTER_LABELS:
            bad.append(f"attribute {a[0]}.{a[1]}: no exporter label")
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
    # Kernel QPs and users are no one's: their names are everyone's.
    kernel = sorted({o['comm'] for m in msgs for u, o in owners_of(op, m)
                     if not u and 'comm' in o})
    return {'messages': len(msgs), 'user_records': len(users),
            'kernel_comms': kernel,
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


def listen_raw(stop, ready, ids):
    """Bind the groups by number where the family is not found, and count
    what arrives: a family that is not netnsok multicasts in the initial
    network namespace alone."""
    import socket
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # GENERIC
    for i in ids:
        sock.setsockopt(270, 1, i)	# SOL_NETLINK, NETLINK_ADD_MEMBERSHIP
    open(ready, 'w').close()
    n = 0
    while not os.path.exists(stop):
        if select.select([sock], [], [], 0.5)[0]:
            sock.recv(65536)
            n += 1
    print(json.dumps({'family': 'absent', 'raw_messages': n}))
    return 0


def listen(ynl, stop, ready, ids):
    if ynl is None:
        return listen_raw(stop, ready, ids)
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


def scrape(path, kernel):
    """The owner labels in a scrape: which appear, on which families, and
    the pids named; a kernel QP's sample (its comm a kernel name) is
    no one's."""
    lab = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
    seen, fams, pids, comms = set(), set(), set(), set()
    for line in open(path):
        if line.startswith('#') or '{' not in line:
            continue
        name, rest = line.split('{', 1)
        labels = lab.findall(rest.rsplit('}', 1)[0])
        if any(k == 'comm' and v in kernel for k, v in labels):
            continue
        for k, v in labels:
            if k in OWNER_LABELS and v != '':
                seen.add(k)
                fams.add(name)
                if k == 'pid':
                    pids.add(int(v))
                if k == 'comm':
                    comms.add(v)
    print(json.dumps({'owner_labels': sorted(seen), 'families': sorted(fams),
                      'pids': sorted(pids), 'comms': sorted(comms)},
                     sort_keys=True))
    return 0


def main():
    lib, spec, mode = sys.argv[1:4]
    if mode == 'scrape':
        return scrape(sys.argv[4], set(sys.argv[5:]))
    ynl, NlError = load(lib, spec, mode != 'check')
    if mode == 'check':
        return check(ynl)
    if ynl is None and mode == 'read':
        print(json.dumps({'family': 'absent'}))
        return 0
    if mode == 'read':
        return read(ynl, NlError, sys.argv[4:])
    if mode == 'groups':
        print(' '.join(str(ynl.nlproto.get_mcast_id(g, ynl.mcast_groups))
                       for g in ynl.mcast_groups))
        return 0
    if mode == 'listen':
        return listen(ynl, sys.argv[4], sys.argv[5],
                      [int(i) for i in sys.argv[6:]])
    return 2


if __name__ == '__main__':
    sys.exit(main())
