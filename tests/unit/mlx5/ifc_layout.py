#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bit layouts of the mlx5 registers rocectl_mlx5 uses, computed from the
kernel headers by parsing them, not by the C compiler: the unit tests check
kernel/mlx5/ifc.c (which uses MLX5_SET/MLX5_GET, i.e. offsetof on the
mlx5_ifc_*_bits structs) against these numbers.

In mlx5_ifc.h every struct mlx5_ifc_X_bits member "u8 name[N]" is N bits
wide (N may be several dimensions: "u8 gid[16][0x8]" is 128 bits); a struct
or union member is as wide as that struct (the sum of its members) or union
(the widest member); a flexible array ("[]") is 0 bits. Offsets count from
bit 0 = the most significant bit of byte 0 of the big-endian buffer.

Usage: ifc_layout.py INCLUDE_DIR OUTPUT_HEADER
INCLUDE_DIR is the headers package's include/ (the one that has
linux/mlx5/mlx5_ifc.h).
"""
import os
import re
import sys

# (struct, field) pairs the code reads or writes; a dotted field goes
# through a nested member. Every field of the structs in ALL_FIELDS is
# emitted in a table as well.
FIELDS = {
    'ppcnt_reg': ['swid', 'local_port', 'pnat', 'grp', 'clr', 'prio_tc',
                  'counter_set'],
    'eth_per_prio_grp_data_layout': [
        'rx_frames_high', 'rx_frames_low', 'tx_frames_high', 'tx_frames_low',
        'rx_pause_high', 'rx_pause_low',
        'rx_pause_duration_high', 'rx_pause_duration_low',
        'tx_pause_high', 'tx_pause_low',
        'tx_pause_duration_high', 'tx_pause_duration_low',
        'device_stall_minor_watermark_cnt_high',
        'device_stall_minor_watermark_cnt_low',
        'device_stall_critical_watermark_cnt_high',
        'device_stall_critical_watermark_cnt_low'],
    'pfcc_reg': ['local_port', 'pfctx', 'pfcrx', 'pptx', 'pprx', 'aptx', 'aprx',
                 'ppan', 'prio_mask_tx', 'prio_mask_rx',
                 'pptx_mask_n', 'pprx_mask_n', 'ppan_mask_n',
                 'minor_stall_mask', 'critical_stall_mask',
                 'device_stall_minor_watermark',
                 'device_stall_critical_watermark'],
}
ALL_FIELDS = ['eth_per_prio_grp_data_layout', 'pfcc_reg']
# The per-priority group must be a member of PPCNT's counter_set union.
UNION_MEMBER = ('eth_cntrs_grp_data_layout_auto',
                'eth_per_prio_grp_data_layout')

# Enumerator values the shim copies; searched for in these headers.
CONSTANTS = ['MLX5_REG_PFCC', 'MLX5_REG_PPCNT',
             'MLX5_PER_PRIORITY_COUNTERS_GROUP']
CONSTANT_FILES = ['driver.h', 'device.h', 'mlx5_ifc.h']


class Error(Exception):
    pass


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


TOKEN = re.compile(r'\s*(?:([A-Za-z_]\w*)|(0[xX][0-9a-fA-F]+|\d+)|(.))', re.S)


def tokenize(text):
    toks = []
    for m in TOKEN.finditer(text):
        if m.group(1):
            toks.append(m.group(1))
        elif m.group(2):
            toks.append(int(m.group(2), 0))
        elif m.group(3) and not m.group(3).isspace():
            toks.append(m.group(3))
    return toks


class Parser:
    """Top-level 'struct|union NAME {...};' definitions of a header."""

    def __init__(self, toks):
        self.toks = toks
        self.i = 0
        self.defs = {}		# name -> (kind, [member])

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None or (want is not None and t != want):
            raise Error('expected %r, got %r near token %d' % (want, t, self.i))
        self.i += 1
        return t

    def run(self):
        depth = 0
        while self.peek() is not None:
            t = self.peek()
            if (depth == 0 and t in ('struct', 'union') and
                    isinstance(self.peek(1), str) and self.peek(2) == '{'):
                kind = self.take()
                name = self.take()
                self.defs[name] = (kind, self.body())
                continue
            # Everything else (enums, prototypes...): skip, tracking braces.
            if t == '{':
                depth += 1
            elif t == '}':
                depth -= 1
            self.i += 1
        return self.defs

    def body(self):
        """'{' members '}', for struct and union alike; a member is
        (name, type, dims) with type 'u8', ('ref', kind, name) or
        ('anon', kind, members); dims a list of ints or
        unresolved tokens, [] for none, None for a flexible array."""
        members = []
        self.take('{')
        while self.peek() != '}':
            t = self.take()
            if t == 'u8':
                typ = 'u8'
            elif t in ('struct', 'union'):
                if self.peek() == '{':
                    typ = ('anon', t, self.body())
                else:
                    typ = ('ref', t, self.take())
            else:
                raise Error('unexpected member type %r' % t)
            name = self.take()
            dims = []
            while self.peek() == '[':
                self.take('[')
                expr = []
                while self.peek() != ']':
                    expr.append(self.take())
                self.take(']')
                dims.append(expr)
            self.take(';')
            members.append((name, typ, dims))
        self.take('}')
        return members


class Layout:
    def __init__(self, defs):
        self.defs = defs
        self.memo = {}

    def lookup(self, kind, name):
        d = self.defs.get(name)
        if d is None or d[0] != kind:
            raise Error('no %s %s' % (kind, name))
        return d

    def dims_count(self, dims):
        n = 1
        for expr in dims:
            if not expr:		# flexible array
                return 0
            if len(expr) != 1 or not isinstance(expr[0], int):
                raise Error('array size %r is not a number' % (expr,))
            n *= expr[0]
        return n

    def type_bits(self, typ):
        if typ == 'u8':
            return 1
        if typ[0] == 'ref':
            kind, members = self.lookup(typ[1], typ[2])
            key = (typ[1], typ[2])
            if key not in self.memo:
                self.memo[key] = self.members_bits(kind, members)
            return self.memo[key]
        return self.members_bits(typ[1], typ[2])

    def member_bits(self, m):
        name, typ, dims = m
        return self.type_bits(typ) * self.dims_count(dims)

    def members_bits(self, kind, members):
        sizes = [self.member_bits(m) for m in members]
        if kind == 'union':
            return max(sizes) if sizes else 0
        return sum(sizes)

    def size(self, struct):
        return self.type_bits(('ref', 'struct', 'mlx5_ifc_%s_bits' % struct))

    def fields(self, struct):
        """[(name, offset, width)] of a struct's direct members."""
        kind, members = self.lookup('struct', 'mlx5_ifc_%s_bits' % struct)
        out, off = [], 0
        for m in members:
            w = self.member_bits(m)
            out.append((m[0], off, w))
            off += w
        return out

    def check_reserved_names(self, struct):
        """A reserved_at_X member's name states its offset: a check of
        the parser on the structs used (a few elsewhere in mlx5_ifc.h are
        misnamed, so not a check of the header)."""
        for n, off, w in self.fields(struct):
            m = re.match(r'reserved_at_([0-9a-f]+)$', n)
            if m and int(m.group(1), 16) != off:
                raise Error('%s.%s computed at %#x' % (struct, n, off))

    def field(self, struct, name):
        for n, off, w in self.fields(struct):
            if n == name:
                return off, w
        raise Error('%s has no field %s' % (struct, name))

    def union_has(self, union, member_struct):
        kind, members = self.lookup('union', 'mlx5_ifc_%s_bits' % union)
        return any(t != 'u8' and t[0] == 'ref' and
                   t[2] == 'mlx5_ifc_%s_bits' % member_struct and not dims
                   for _, t, dims in members)


def find_constant(mlx5_dir, name):
    pat = re.compile(r'\b' + name + r'\s*=\s*(0[xX][0-9a-fA-F]+|\d+)\s*[,}]')
    pat_def = re.compile(r'#\s*define\s+' + name + r'\s+\(?(0[xX][0-9a-fA-F]+|\d+)\)?\s')
    for f in CONSTANT_FILES:
        with open(os.path.join(mlx5_dir, f)) as fh:
            text = strip_comments(fh.read())
        hits = pat.findall(text) + pat_def.findall(text)
        if len(hits) > 1:
            raise Error('%s defined %d times in %s' % (name, len(hits), f))
        if hits:
            return int(hits[0], 0), f
    raise Error('%s not found in %s' % (name, ', '.join(CONSTANT_FILES)))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    inc, out = argv[1], argv[2]
    mlx5_dir = os.path.join(inc, 'linux', 'mlx5')
    defs = {}
    for f in ('mlx5_ifc.h', 'mlx5_ifc_fpga.h'):
        with open(os.path.join(mlx5_dir, f)) as fh:
            d = Parser(tokenize(strip_comments(fh.read()))).run()
        dup = set(d) & set(defs)
        if dup:
            raise Error('defined twice: %s' % ', '.join(sorted(dup)))
        defs.update(d)
    lay = Layout(defs)

    lines = [
        '/* Generated by tests/unit/mlx5/ifc_layout.py from %s: do not edit. */' %
        os.path.join(mlx5_dir, 'mlx5_ifc.h'),
        '/* Bit offsets from bit 0 = MSB of byte 0; widths in bits. */',
        '#ifndef RM5_IFC_LAYOUT_H',
        '#define RM5_IFC_LAYOUT_H',
        '#define IFC_HEADER "%s"' % os.path.join(mlx5_dir, 'mlx5_ifc.h'),
        '#define IFC_COUNT(a) (sizeof(a) / sizeof((a)[0]))',
    ]
    for s in FIELDS:
        lay.check_reserved_names(s)
        lines.append('#define IFC_SZ_%s %#x' % (s, lay.size(s)))
        for f in FIELDS[s]:
            off, w = lay.field(s, f)
            lines.append('#define IFC_OFF_%s__%s %#x' % (s, f, off))
            lines.append('#define IFC_W_%s__%s %d' % (s, f, w))
    # counter_set holds the per-priority group at its start.
    if not lay.union_has(*UNION_MEMBER):
        raise Error('union %s has no member struct %s' % UNION_MEMBER)
    lines.append('#define IFC_SZ_%s %#x' % (UNION_MEMBER[0],
                 lay.type_bits(('ref', 'union', 'mlx5_ifc_%s_bits' % UNION_MEMBER[0]))))
    for name in CONSTANTS:
        val, f = find_constant(mlx5_dir, name)
        lines.append('#define IFC_%s %#x\t/* linux/mlx5/%s */' % (name, val, f))
    lines.append('struct ifc_field { const char *name; unsigned int off, width; };')
    for s in ALL_FIELDS:
        lines.append('static const struct ifc_field ifc_fields_%s[] '
                     '__attribute__((unused)) = {' % s)
        for n, off, w in lay.fields(s):
            lines.append('\t{ "%s", %#x, %d },' % (n, off, w))
        lines.append('};')
    lines.append('#endif')
    tmp = out + '.tmp'
    with open(tmp, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    os.replace(tmp, out)
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv))
    except (Error, OSError) as e:
        sys.stderr.write('ifc_layout.py: %s\n' % e)
        sys.exit(1)
