#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generate, with the kernel's ynl-gen (tests/ynl.sh: which, pinned), from
# include/netlink/specs/rocectl.yaml:
#   include/uapi/linux/rocectl.h   the uapi header (ynl-gen --mode uapi)
#   kernel/netlink/netlink_gen.h, .c       the policies, the ops table and the
#                                  multicast group table (--mode kernel)
#   user/lib/nl_spec.h             the tool's attribute tables: types and
#                                  names (include/netlink/user_tables.py)
#   tests/tools/nlfuzz_spec.h      the fuzzer's: types, nests, each command's
#                                  attributes (include/netlink/fuzz_tables.py)
# `generate.sh --check` writes nothing and fails, showing the difference,
# when the files checked in are not what the spec generates.
#
# The spec lives in include/netlink/specs/ (the kernel's own specs are in
# Documentation/netlink/specs/): beside the uapi header it defines, and in
# the DKMS source tree, which ships kernel/ and include/.
#
# ynl-gen runs on a copy of the spec in a scratch tree laid out as it
# expects (a MAINTAINERS file marks the top, the schema is found next to
# specs/), and its output gets three documented touches:
# 1. ynl-gen 6.12 refuses any spec license other than the kernel's
#    "((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)": the copy says
#    that, and the generated files then say the spec's own license again.
# 2. NLA_POLICY_FULL_RANGE() takes a non-const range on Linux 5.10 and 6.1
#    (const only from 6.2): the ranges lose their const and are
#    __ro_after_init instead, as read-only after boot as before.
# 3. genetlink-legacy families keep their struct genl_family by hand
#    (kernel/netlink/family.c: no netnsok, a pre_doit before 6.0): the multicast
#    group table is made visible to it, as the ops table is.
# 4. ynl-gen 6.12 renders only the enums' documentation into the uapi
#    header: the family's and the commands' (the spec's doc) go into a
#    comment at its top, so that the header still says what it is.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/ynl.sh
. "$top/tests/ynl.sh"
# Extracted here if tests/deps.sh did not (another user's cache), as
# tests/style.sh takes checkpatch.
ynl_extract

check=0
[ "${1:-}" = --check ] && check=1

spec=include/netlink/specs/rocectl.yaml
outputs="include/uapi/linux/rocectl.h kernel/netlink/netlink_gen.h kernel/netlink/netlink_gen.c user/lib/nl_spec.h tests/tools/nlfuzz_spec.h"
kernel_license='((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)'
license=$(sed -n '1s/^# SPDX-License-Identifier: //p' "$top/$spec")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tree/include/netlink/specs" "$tmp/out"
touch "$tmp/tree/MAINTAINERS"
cp "$YNL_DIR/Documentation/netlink/genetlink-legacy.yaml" "$tmp/tree/include/netlink/"
sed "1s/.*/# SPDX-License-Identifier: $kernel_license/" "$top/$spec" > "$tmp/tree/$spec"

gen() {
	python3 "$YNL_GEN" --spec "$tmp/tree/$spec" "$@" > "$tmp/gen.log" 2>&1 || {
		cat "$tmp/gen.log" >&2
		exit 1
	}
}
gen --mode uapi --header -o "$tmp/out/rocectl.h"
gen --mode kernel --header -o "$tmp/out/netlink_gen.h"
gen --mode kernel --source -o "$tmp/out/netlink_gen.c"

python3 "$top/include/netlink/user_tables.py" "$YNL_DIR" "$tmp/tree/$spec" \
	"$tmp/tree/include/netlink/genetlink-legacy.yaml" "$tmp/out/nl_spec.h"
python3 "$top/include/netlink/fuzz_tables.py" "$YNL_DIR" "$tmp/tree/$spec" \
	"$tmp/tree/include/netlink/genetlink-legacy.yaml" "$tmp/out/nlfuzz_spec.h"

python3 - "$tmp/out" "$kernel_license" "$license" "$tmp/tree/$spec" <<'PY'
import re
import sys
import textwrap

import yaml

out, kernel_license, license, spec_path = sys.argv[1:]
with open(spec_path) as f:
    spec = yaml.safe_load(f)


def edit(name, fn):
    path = f'{out}/{name}'
    with open(path) as f:
        text = f.read()
    text = fn(text)
    with open(path, 'w') as f:
        f.write(text)


def common(text):
    # 1: the spec's license.
    return text.replace(kernel_license, license, 1)


def source(text):
    text = common(text)
    # 2: non-const ranges for 5.10 and 6.1's NLA_POLICY_FULL_RANGE().
    text = re.sub(r'static const (struct netlink_range_validation(?:_signed)? \w+) =',
                  r'static \1 __ro_after_init =', text)
    # 3: the multicast groups, for the family struct in kernel/netlink/family.c.
    text = text.replace('static const struct genl_multicast_group',
                        'const struct genl_multicast_group')
    return text


def header(text):
    text = common(text)
    groups = re.findall(r'^\t(\w+_NLGRP_\w+),$', text, re.M)
    decl = f'extern const struct genl_multicast_group rocectl_nl_mcgrps[{len(groups)}];\n\n'
    return text.replace('#endif /* _LINUX_ROCECTL_GEN_H */', decl + '#endif /* _LINUX_ROCECTL_GEN_H */')


def doc_lines(text, indent):
    lines = []
    for para in text.strip().split('\n\n'):
        if lines:
            lines.append('')
        lines += textwrap.wrap(' '.join(para.split()), 76 - len(indent),
                               initial_indent=indent, subsequent_indent=indent,
                               break_on_hyphens=False)
    return lines


def uapi(text):
    text = common(text)
    # 4: the family's and the commands' documentation.
    lines = doc_lines(spec['doc'], '')
    lines += ['', 'Commands and notifications (their attributes, each one\'s type and',
              'meaning: include/netlink/specs/rocectl.yaml):']
    prefix = spec['operations']['name-prefix']
    for op in spec['operations']['list']:
        if op['name'] == 'unspec':
            continue
        lines += ['', (prefix + op['name']).upper().replace('-', '_')]
        lines += doc_lines(op['doc'], '  ')
    comment = '/*\n' + ''.join(f' * {x}\n' if x else ' *\n' for x in lines) + ' */\n'
    marker = '/* YNL-GEN uapi header */\n\n'
    return text.replace(marker, marker + comment, 1)


edit('rocectl.h', uapi)
edit('netlink_gen.h', header)
edit('netlink_gen.c', source)
PY

status=0
for f in $outputs; do
	new=$tmp/out/$(basename "$f")
	if [ $check = 1 ]; then
		diff -u "$top/$f" "$new" --label "$f (checked in)" --label "$f (from $spec)" ||
			status=1
	elif ! cmp -s "$new" "$top/$f"; then
		cp "$new" "$top/$f"
		echo "	GEN	$f"
	fi
done
[ $status = 0 ] || echo "generated files differ from $spec: run make spec" >&2
exit $status
