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

Usage: ifc_layout.py INCLUDE_DIR OUTPUT_HEADER [MLX5_IB_DIR]
INCLUDE_DIR is the headers package's include/ (the one that has
linux/mlx5/mlx5_ifc.h). MLX5_IB_DIR, if given, is a kernel source's
drivers/infiniband/hw/mlx5: the DCQCN parameters of mlx5_ib (the debugfs
cc_params names, their node, field and field_select bit) are then parsed
from its cong.c, mlx5_ib.h and counters.c; without it they come from a copy
of those files' tables kept below (IB_CC_FALLBACK).
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
    # DCQCN (kernel/mlx5/cong.c): the four congestion commands.
    'query_cong_params_in': ['opcode', 'op_mod', 'cong_protocol'],
    'query_cong_params_out': ['status', 'congestion_parameters'],
    'modify_cong_params_in': ['opcode', 'op_mod', 'cong_protocol',
                              'field_select', 'congestion_parameters'],
    'modify_cong_params_out': ['status'],
    'field_select_r_roce_rp': ['field_select_r_roce_rp'],
    'field_select_r_roce_np': ['field_select_r_roce_np'],
    'cong_control_r_roce_ecn_rp': [
        'clamp_tgt_rate', 'clamp_tgt_rate_after_time_inc', 'rpg_time_reset',
        'rpg_byte_reset', 'rpg_threshold', 'rpg_max_rate', 'rpg_ai_rate',
        'rpg_hai_rate', 'rpg_gd', 'rpg_min_dec_fac', 'rpg_min_rate',
        'rate_to_set_on_first_cnp', 'dce_tcp_g', 'dce_tcp_rtt',
        'rate_reduce_monitor_period', 'initial_alpha_value'],
    'cong_control_r_roce_ecn_np': ['min_time_between_cnps', 'cnp_dscp',
                                   'cnp_prio_mode', 'cnp_802p_prio'],
    'query_cong_status_in': ['opcode', 'op_mod', 'priority', 'cong_protocol'],
    'query_cong_status_out': ['status', 'enable', 'tag_enable'],
    'query_cong_statistics_in': ['opcode', 'op_mod', 'clear'],
    'query_cong_statistics_out': [
        'status', 'rp_cur_flows', 'sum_flows',
        'rp_cnp_ignored_high', 'rp_cnp_ignored_low',
        'rp_cnp_handled_high', 'rp_cnp_handled_low',
        'time_stamp_high', 'time_stamp_low', 'accumulators_period',
        'np_ecn_marked_roce_packets_high', 'np_ecn_marked_roce_packets_low',
        'np_cnp_sent_high', 'np_cnp_sent_low'],
    # mlx5's raw QP context (user/qp/mlx5_raw.h): the resource dump's segments
    # and, in the QUERY_QP output they carry, the path's UDP source port.
    'resource_dump_segment_header': ['length_dw', 'segment_type'],
    'resource_dump_info_segment': ['segment_header', 'dump_version'],
    'resource_dump_command_segment': ['segment_header', 'segment_called',
                                      'index1', 'index2', 'num_of_obj1'],
    'resource_dump_resource_segment': ['segment_header', 'index1', 'index2',
                                       'payload'],
    'resource_dump_terminate_segment': ['segment_header'],
    'query_qp_out': ['status', 'qpc'],
    'qpc': ['primary_address_path', 'st', 'counter_set_id', 'remote_qpn'],
    'ads': ['udp_sport', 'dscp', 'ecn', 'eth_prio', 'tclass'],
    # The QP and DCT commands (kernel/mlx5/qp_cmd.c).
    'create_qp_in': ['opcode', 'uid', 'qpc'],
    'create_qp_out': ['status', 'qpn'],
    'rst2init_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'init2rtr_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'rtr2rts_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'rts2rts_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'sqerr2rts_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'sqd2rts_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'init2init_qp_in': ['opcode', 'uid', 'qpn', 'opt_param_mask', 'qpc'],
    'qp_2err_in': ['opcode', 'uid', 'qpn'],
    'qp_2rst_in': ['opcode', 'uid', 'qpn'],
    'qp_2err_out': ['status'],
    'destroy_qp_in': ['opcode', 'uid', 'qpn'],
    'create_dct_in': ['opcode', 'uid', 'dct_context_entry'],
    'create_dct_out': ['status', 'dctn'],
    'destroy_dct_in': ['opcode', 'uid', 'dctn'],
    'dctc': ['counter_set_id', 'dscp', 'ecn', 'eth_prio', 'tclass'],
}
ALL_FIELDS = ['eth_per_prio_grp_data_layout', 'pfcc_reg',
              'cong_control_r_roce_ecn_rp', 'cong_control_r_roce_ecn_np',
              'query_cong_statistics_out']
# The per-priority group must be a member of PPCNT's counter_set union.
UNION_MEMBER = ('eth_cntrs_grp_data_layout_auto',
                'eth_per_prio_grp_data_layout')
# The DCQCN nodes' parameters and field_select are members of the unions the
# commands hold (a member struct starts at the union's bit 0).
UNION_MEMBERS = [
    ('cong_control_roce_ecn_auto', 'cong_control_r_roce_ecn_rp'),
    ('cong_control_roce_ecn_auto', 'cong_control_r_roce_ecn_np'),
    ('field_select_802_1_r_roce_auto', 'field_select_r_roce_rp'),
    ('field_select_802_1_r_roce_auto', 'field_select_r_roce_np'),
]
# (struct, union member, union) of the commands.
MEMBER_TYPES = [
    ('query_cong_params_out', 'congestion_parameters', 'cong_control_roce_ecn_auto'),
    ('modify_cong_params_in', 'congestion_parameters', 'cong_control_roce_ecn_auto'),
    ('modify_cong_params_in', 'field_select', 'field_select_802_1_r_roce_auto'),
]
# (struct, member, struct it is) of the raw QP context's nesting.
STRUCT_MEMBER_TYPES = [
    ('query_qp_out', 'qpc', 'qpc'),
    ('qpc', 'primary_address_path', 'ads'),
    ('resource_dump_info_segment', 'segment_header', 'resource_dump_segment_header'),
    ('resource_dump_command_segment', 'segment_header', 'resource_dump_segment_header'),
    ('resource_dump_resource_segment', 'segment_header', 'resource_dump_segment_header'),
    ('resource_dump_terminate_segment', 'segment_header', 'resource_dump_segment_header'),
    ('create_qp_in', 'qpc', 'qpc'),
    ('rst2init_qp_in', 'qpc', 'qpc'),
    ('init2rtr_qp_in', 'qpc', 'qpc'),
    ('rtr2rts_qp_in', 'qpc', 'qpc'),
    ('rts2rts_qp_in', 'qpc', 'qpc'),
    ('sqerr2rts_qp_in', 'qpc', 'qpc'),
    ('sqd2rts_qp_in', 'qpc', 'qpc'),
    ('init2init_qp_in', 'qpc', 'qpc'),
    ('create_dct_in', 'dct_context_entry', 'dctc'),
]

# Enumerator values the shim copies; searched for in these headers.
CONSTANTS = ['MLX5_REG_PFCC', 'MLX5_REG_PPCNT',
             'MLX5_PER_PRIORITY_COUNTERS_GROUP',
             'MLX5_CMD_OP_QUERY_CONG_STATUS', 'MLX5_CMD_OP_QUERY_CONG_PARAMS',
             'MLX5_CMD_OP_MODIFY_CONG_PARAMS',
             'MLX5_CMD_OP_QUERY_CONG_STATISTICS',
             'MLX5_CMD_OP_CREATE_QP', 'MLX5_CMD_OP_DESTROY_QP',
             'MLX5_CMD_OP_RST2INIT_QP', 'MLX5_CMD_OP_INIT2RTR_QP',
             'MLX5_CMD_OP_RTR2RTS_QP', 'MLX5_CMD_OP_RTS2RTS_QP',
             'MLX5_CMD_OP_SQERR2RTS_QP', 'MLX5_CMD_OP_2ERR_QP',
             'MLX5_CMD_OP_2RST_QP', 'MLX5_CMD_OP_CREATE_DCT',
             'MLX5_CMD_OP_DESTROY_DCT', 'MLX5_CMD_OP_SQD_RTS_QP',
             'MLX5_CMD_OP_INIT2INIT_QP', 'MLX5_QP_OPTPAR_PRIMARY_ADDR_PATH',
             'MLX5_QP_OPTPAR_COUNTER_SET_ID']

# mlx5_ib's DCQCN parameters, for when no kernel source is at hand: a copy
# of drivers/infiniband/hw/mlx5/cong.c of Linux 6.1 (mlx5_ib_dbg_cc_name[],
# the MLX5_IB_*_ATTR bits, mlx5_get_cc_param_val() and
# mlx5_ib_set_cc_param_mask_val()). Per parameter, in mlx5_ib's order:
# (debugfs name, node struct, field, field_select bit, [(also set, value)]).
# Nodes: MLX5_IB_RROCE_ECN_RP = 1, MLX5_IB_RROCE_ECN_NP = 2.
_RP, _NP = 'cong_control_r_roce_ecn_rp', 'cong_control_r_roce_ecn_np'
IB_CC_FALLBACK = [
    ('rp_clamp_tgt_rate', _RP, 'clamp_tgt_rate', 1, []),
    ('rp_clamp_tgt_rate_ati', _RP, 'clamp_tgt_rate_after_time_inc', 2, []),
    ('rp_time_reset', _RP, 'rpg_time_reset', 3, []),
    ('rp_byte_reset', _RP, 'rpg_byte_reset', 4, []),
    ('rp_threshold', _RP, 'rpg_threshold', 5, []),
    ('rp_ai_rate', _RP, 'rpg_ai_rate', 7, []),
    ('rp_max_rate', _RP, 'rpg_max_rate', 6, []),
    ('rp_hai_rate', _RP, 'rpg_hai_rate', 8, []),
    ('rp_min_dec_fac', _RP, 'rpg_min_dec_fac', 9, []),
    ('rp_min_rate', _RP, 'rpg_min_rate', 10, []),
    ('rp_rate_to_set_on_first_cnp', _RP, 'rate_to_set_on_first_cnp', 11, []),
    ('rp_dce_tcp_g', _RP, 'dce_tcp_g', 12, []),
    ('rp_dce_tcp_rtt', _RP, 'dce_tcp_rtt', 13, []),
    ('rp_rate_reduce_monitor_period', _RP, 'rate_reduce_monitor_period', 14, []),
    ('rp_initial_alpha_value', _RP, 'initial_alpha_value', 15, []),
    ('rp_gd', _RP, 'rpg_gd', 16, []),
    ('np_min_time_between_cnps', _NP, 'min_time_between_cnps', 2, []),
    ('np_cnp_dscp', _NP, 'cnp_dscp', 3, []),
    ('np_cnp_prio_mode', _NP, 'cnp_prio_mode', 4, []),
    ('np_cnp_prio', _NP, 'cnp_802p_prio', 4, [('cnp_prio_mode', 0)]),
]
IB_NODES_FALLBACK = {_RP: 1, _NP: 2}
# counters.c cong_cnts[]: INIT_CONG_COUNTER(x) is x_high's byte offset in
# query_cong_statistics_out, read as a big-endian u64 by
# mlx5_lag_query_cong_counters().
IB_CONG_CNTS_FALLBACK = ['rp_cnp_ignored', 'rp_cnp_handled',
                         'np_ecn_marked_roce_packets', 'np_cnp_sent']
CONSTANT_FILES = ['driver.h', 'device.h', 'mlx5_ifc.h', 'qp.h']


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
                self.opaque = False
                members = self.body()
                # A plain C struct (mlx5_ifc_fpga.h's __be32 members in
                # 5.10): no bit layout; an error only if a layout uses it.
                self.defs[name] = ('opaque', name) if self.opaque else (kind, members)
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
            elif t == 'DECLARE_FLEX_ARRAY':
                # DECLARE_FLEX_ARRAY(TYPE, NAME) (6.4 on): TYPE NAME[].
                self.take('(')
                k = self.take()
                typ = 'u8' if k == 'u8' else ('ref', k, self.take())
                self.take(',')
                name = self.take()
                self.take(')')
                self.take(';')
                members.append((name, typ, [[]]))
                continue
            elif t in ('__be16', '__be32', '__be64'):
                self.opaque = True
                typ = 'u8'
            else:
                raise Error('unexpected member type %r' % t)
            if self.peek() == '__packed':	# 5.10's plain C structs
                self.take()
                self.opaque = True
            # An unnamed union (6.12's flexible arrays; 5.10's plain C
            # structs): its members are the struct's own.
            name = '' if self.peek() == ';' else self.take()
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
        if d is not None and d[0] == 'opaque':
            raise Error('%s %s is no bit layout' % (kind, name))
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
    pat = re.compile(r'\b' + name +
                     r'\s*=\s*((?:0[xX][0-9a-fA-F]+|\d+)(?:\s*<<\s*\d+)?)\s*[,}]')
    pat_def = re.compile(r'#\s*define\s+' + name + r'\s+\(?(0[xX][0-9a-fA-F]+|\d+)\)?\s')
    for f in CONSTANT_FILES:
        with open(os.path.join(mlx5_dir, f)) as fh:
            text = strip_comments(fh.read())
        hits = pat.findall(text) + pat_def.findall(text)
        if len(hits) > 1:
            raise Error('%s defined %d times in %s' % (name, len(hits), f))
        if hits:
            # An enumerator may be written as a shift: 1 << 7.
            val = 0
            for i, part in enumerate(re.split(r'\s*<<\s*', hits[0])):
                val = int(part, 0) if i == 0 else val << int(part, 0)
            return val, f
    raise Error('%s not found in %s' % (name, ', '.join(CONSTANT_FILES)))


def c_body(text, head):
    """The {...} after the first match of regex head, braces balanced."""
    m = re.search(head, text)
    if not m:
        raise Error('no %s' % head)
    i = text.index('{', m.end() - 1)
    depth = 0
    for j in range(i, len(text)):
        if text[j] == '{':
            depth += 1
        elif text[j] == '}':
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
    raise Error('unbalanced braces after %s' % head)


def switch_cases(body):
    """{case label: statements} of a switch whose cases end in a return or
    a break (no fall-through in the ones parsed)."""
    out = {}
    parts = re.split(r'\bcase\s+(\w+)\s*:', body)
    for k in range(1, len(parts), 2):
        stmts = re.split(r'\bdefault\s*:', parts[k + 1])[0]
        out[parts[k]] = re.sub(r'\}\s*$', '', stmts)	# the switch's end
    return out


def parse_mlx5_ib(ib_dir):
    """mlx5_ib's DCQCN parameters as IB_CC_FALLBACK lists them, and its
    congestion counters, from the source files."""
    def read(f):
        with open(os.path.join(ib_dir, f)) as fh:
            return strip_comments(fh.read())
    cong, ibh, cnt = read('cong.c'), read('mlx5_ib.h'), read('counters.c')

    names = re.findall(r'"(\w+)"', c_body(cong, r'mlx5_ib_dbg_cc_name\s*\[\s*\]\s*=\s*\{'))
    enum = [e.strip() for e in
            c_body(ibh, r'enum\s+mlx5_ib_dbg_cc_types\s*\{').split(',') if e.strip()]
    if enum[-1] != 'MLX5_IB_DBG_CC_MAX' or any('=' in e for e in enum):
        raise Error('enum mlx5_ib_dbg_cc_types: %r' % enum)
    enum = enum[:-1]
    if len(enum) != len(names):
        raise Error('%d names, %d MLX5_IB_DBG_CC_*' % (len(names), len(enum)))
    for e, n in zip(enum, names):
        if e != 'MLX5_IB_DBG_CC_' + n.upper():
            raise Error('enumerator %s for name %s' % (e, n))
    attrs = {k: 1 << int(v) for k, v in re.findall(
        r'#\s*define\s+(MLX5_IB_\w+_ATTR)\s+BIT\((\d+)\)', cong)}
    nodes = {}
    for k, v in re.findall(r'\b(MLX5_IB_RROCE_ECN_(?:RP|NP))\s*=\s*(\d+)', cong):
        nodes[k] = int(v)
    m = re.search(r'param_offset\s*>=\s*(\w+)\s*&&\s*param_offset\s*<=\s*(\w+)\s*\)'
                  r'\s*return\s+(\w+)\s*;\s*else\s+return\s+(\w+)\s*;',
                  c_body(cong, r'mlx5_ib_param_to_node\s*\([^)]*\)\s*\{'))
    if not m:
        raise Error('mlx5_ib_param_to_node() not understood')
    lo, hi = enum.index(m.group(1)), enum.index(m.group(2))
    in_node, out_node = nodes[m.group(3)], nodes[m.group(4)]
    gets = switch_cases(c_body(cong, r'\bmlx5_get_cc_param_val\s*\([^)]*\)\s*\{'))
    sets = switch_cases(c_body(cong, r'\bmlx5_ib_set_cc_param_mask_val\s*\([^)]*\)\s*\{'))
    params = []
    for i, (e, n) in enumerate(zip(enum, names)):
        g = re.fullmatch(r'\s*return\s+MLX5_GET\(\s*(\w+)\s*,\s*field\s*,\s*(\w+)\s*\)\s*;\s*',
                         gets.get(e, ''))
        if not g:
            raise Error('mlx5_get_cc_param_val: case %s not understood' % e)
        st = sets.get(e, '')
        a = re.findall(r'\*attr_mask\s*\|=\s*(\w+)\s*;', st)
        sv = re.findall(r'MLX5_SET\(\s*(\w+)\s*,\s*field\s*,\s*(\w+)\s*,\s*(\w+)\s*\)\s*;', st)
        if len(a) != 1 or a[0] not in attrs or \
                len(re.findall(r'MLX5_SET', st)) != len(sv) or \
                not re.search(r'break\s*;\s*$', st):
            raise Error('mlx5_ib_set_cc_param_mask_val: case %s not understood' % e)
        main = [(s_, f) for s_, f, v in sv if v == 'var']
        also = [(f, int(v, 0)) for s_, f, v in sv if v != 'var']
        if main != [(g.group(1), g.group(2))] or \
                any(s_ != g.group(1) for s_, f, v in sv):
            raise Error('%s: get %s.%s, set %r' % (e, g.group(1), g.group(2), sv))
        node = in_node if lo <= i <= hi else out_node
        params.append((n, g.group(1), g.group(2), attrs[a[0]], also, node))
    if set(nodes) != {'MLX5_IB_RROCE_ECN_RP', 'MLX5_IB_RROCE_ECN_NP'}:
        raise Error('enum mlx5_ib_cong_node_type: %r' % nodes)
    cnts = re.findall(r'INIT_CONG_COUNTER\(\s*(\w+)\s*\)',
                      c_body(cnt, r'\bcong_cnts\s*\[\s*\]\s*=\s*\{'))
    if not re.search(r'#\s*define\s+INIT_CONG_COUNTER\(_name\)[^\n]*\\\n[^\n]*\\\n\s*'
                     r'MLX5_BYTE_OFF\(query_cong_statistics_out,\s*_name\s*##\s*_high\)',
                     cnt):
        raise Error('INIT_CONG_COUNTER is no longer the _high dword\'s byte offset')
    return params, cnts, (nodes['MLX5_IB_RROCE_ECN_RP'], nodes['MLX5_IB_RROCE_ECN_NP'])


def ib_cc_fallback():
    params = []
    for n, s_, f, bit, also in IB_CC_FALLBACK:
        params.append((n, s_, f, 1 << bit, also, IB_NODES_FALLBACK[s_]))
    return params, list(IB_CONG_CNTS_FALLBACK), (IB_NODES_FALLBACK[_RP], IB_NODES_FALLBACK[_NP])


def ib_cc_lines(lay, params, cnts, rpnp, src):
    lines = ['#define IFC_IB_SRC "%s"' % src,
             '/* enum mlx5_ib_cong_node_type: the cong_protocol of each node. */',
             '#define IFC_IB_NODE_RP %d' % rpnp[0],
             '#define IFC_IB_NODE_NP %d' % rpnp[1],
             '/* mlx5_ib\'s DCQCN parameters in its order: node (cong_protocol),',
             ' * field (offset in the node\'s struct), field_select bit, and a',
             ' * field the same MODIFY sets as well (also_w 0: none). */',
             'struct ifc_ib_cc_param { const char *name; unsigned int node;',
             '\tconst char *field; unsigned int off, width, select;',
             '\tunsigned int also_off, also_w, also_val; };',
             'static const struct ifc_ib_cc_param ifc_ib_cc_params[] '
             '__attribute__((unused)) = {']
    node_of = {}	# struct -> node: one struct per node
    for n, s_, f, sel, also, node in params:
        off, w = lay.field(s_, f)
        if len(also) > 1:
            raise Error('%s sets %d more fields' % (n, len(also)))
        ao, aw, av = 0, 0, 0
        if also:
            ao, aw = lay.field(s_, also[0][0])
            av = also[0][1]
        if node != rpnp[s_.endswith('_np')] or \
                node_of.setdefault(s_, node) != node or \
                list(node_of.values()).count(node) != 1:
            raise Error('%s: struct %s for node %d' % (n, s_, node))
        lines.append('\t{ "%s", %d, "%s", %#x, %d, %#x, %#x, %d, %d },' %
                     (n, node, f, off, w, sel, ao, aw, av))
    lines.append('};')
    lines.append('static const char *const ifc_ib_cong_cnts[] '
                 '__attribute__((unused)) = {')
    for c in cnts:
        lay.field('query_cong_statistics_out', c + '_high')
        lay.field('query_cong_statistics_out', c + '_low')
        lines.append('\t"%s",' % c)
    lines.append('};')
    return lines


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    inc, out = argv[1], argv[2]
    ib_dir = argv[3] if len(argv) == 4 and argv[3] else None
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
    for union, member in UNION_MEMBERS:
        if not lay.union_has(union, member):
            raise Error('union %s has no member struct %s' % (union, member))
    for union in sorted(set(u for u, m in UNION_MEMBERS)):
        lines.append('#define IFC_SZ_%s %#x' % (union,
                     lay.type_bits(('ref', 'union', 'mlx5_ifc_%s_bits' % union))))
    for s, f, union in MEMBER_TYPES:
        kind, members = lay.lookup('struct', 'mlx5_ifc_%s_bits' % s)
        if not any(n == f and t == ('ref', 'union', 'mlx5_ifc_%s_bits' % union)
                   for n, t, d in members):
            raise Error('%s.%s is not a union %s' % (s, f, union))
    for s, f, typ in STRUCT_MEMBER_TYPES:
        kind, members = lay.lookup('struct', 'mlx5_ifc_%s_bits' % s)
        if not any(n == f and t == ('ref', 'struct', 'mlx5_ifc_%s_bits' % typ) and not d
                   for n, t, d in members):
            raise Error('%s.%s is not a struct %s' % (s, f, typ))
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
    if ib_dir:
        params, cnts, rpnp = parse_mlx5_ib(ib_dir)
        src = os.path.join(ib_dir, 'cong.c')
    else:
        params, cnts, rpnp = ib_cc_fallback()
        src = 'ifc_layout.py IB_CC_FALLBACK (Linux 6.1 mlx5_ib cong.c)'
    lines += ib_cc_lines(lay, params, cnts, rpnp, src)
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
