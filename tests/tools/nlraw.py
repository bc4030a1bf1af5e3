# SPDX-License-Identifier: GPL-2.0
"""Raw generic netlink for tests: build any message, well-formed or not,
send it to a family and read back the reply, the error and its extack.
The rocectl family's command and attribute numbers come from its netlink
spec (spec()), where the kernel's ynl CLI cannot go: malformed requests."""

import errno
import os
import socket
import struct

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 16, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_MISS_TYPE = 1, 2, 5
# The kernel names a missing attribute in its extack from 6.0 on
# (NLMSGERR_ATTR_MISS_TYPE); before, only the message says which.
MISS_TYPE = tuple(int(x) for x in os.uname().release.split(".")[:2]) >= (6, 0)


SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                    "include", "netlink", "specs", "rocectl.yaml")


class Spec:
    """Numbers by name from a netlink spec, numbered as ynl numbers them: a
    command or an attribute is its predecessor's plus one, from 1, unless
    it says its value."""

    def __init__(self, path=SPEC):
        import yaml
        with open(path) as f:
            y = yaml.safe_load(f)
        self.cmds = self._number(y["operations"]["list"])
        self.sets = {s["name"]: self._number(s["attributes"]) for s in y["attribute-sets"]}

    @staticmethod
    def _number(items):
        out, val = {}, 1
        for item in items:
            val = item.get("value", val)
            out[item["name"]] = val
            val += 1
        return out

    def cmd(self, name):
        return self.cmds[name]

    def attr(self, name, attr_set="rocectl"):
        return self.sets[attr_set][name]


_spec = None


def spec():
    """The rocectl family's spec (read once)."""
    global _spec
    if _spec is None:
        _spec = Spec()
    return _spec


def missing(r, atype, words):
    """The reply says attribute atype is missing: EINVAL, with its type in
    the extack from 6.0 on, before that with words in the message."""
    if r.error != errno.EINVAL:
        return False
    return r.miss_type == atype if MISS_TYPE else words in (r.msg or "")


def attr(atype, payload):
    """One attribute, padded to 4 bytes."""
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * (-len(payload) % 4)


def attr_u32(atype, v):
    return attr(atype, struct.pack("=I", v))


def attr_str(atype, s):
    return attr(atype, s.encode() + b"\0")


def parse_attrs(data):
    out = []
    off = 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4:
            break
        out.append((atype & 0x3FFF, data[off + 4:off + alen]))
        off += (alen + 3) & ~3
    return out


class Reply:
    def __init__(self):
        self.error = None      # errno (positive), 0 for an ack, None if none
        self.msg = None        # extack message
        self.offs = None       # extack offset of the bad attribute
        self.miss_type = None  # extack missing attribute type
        self.messages = []     # (cmd, attrs) of data messages


class GenlSocket:
    def __init__(self, family="rocectl"):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sock.bind((0, 0))
        self.sock.settimeout(2.0)
        self.seq = 1000
        self.family_id = GENL_ID_CTRL
        r = self.request(CTRL_CMD_GETFAMILY, attr_str(CTRL_ATTR_FAMILY_NAME, family),
                         version=1)
        if r.error:
            raise OSError(r.error, os.strerror(r.error))
        self.family_id = struct.unpack(
            "=H", dict(r.messages[0][1])[CTRL_ATTR_FAMILY_ID][:2])[0]

    def build(self, cmd, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK,
              version=1, length=None, genl=True):
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, 0) + attrs if genl else attrs
        n = 16 + len(body) if length is None else length
        return struct.pack("=IHHII", n, self.family_id, flags, self.seq, 0) + body

    def send(self, raw):
        self.sock.send(raw)
        return self.receive()

    def request(self, cmd, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK, **kw):
        return self.send(self.build(cmd, attrs, flags, **kw))

    def receive(self):
        """Read until the ack, DONE, an error or a quiet second."""
        r = Reply()
        while True:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return r
            off = 0
            while off + 16 <= len(data):
                n, mtype, flags, seq, _ = struct.unpack_from("=IHHII", data, off)
                payload = data[off + 16:off + n]
                off += (n + 3) & ~3
                if mtype == NLMSG_ERROR:
                    self._error(r, struct.unpack_from("=i", payload)[0], flags,
                                payload, 4 + (16 if flags & NLM_F_CAPPED else
                                              struct.unpack_from("=I", payload, 4)[0]))
                    return r
                if mtype == NLMSG_DONE:
                    err = struct.unpack_from("=i", payload)[0] if len(payload) >= 4 else 0
                    self._error(r, err, flags, payload, 4)
                    return r
                r.messages.append((payload[0], parse_attrs(payload[4:])))

    @staticmethod
    def _error(r, err, flags, payload, tlv_off):
        r.error = -err
        if flags & NLM_F_ACK_TLVS:
            for atype, val in parse_attrs(payload[tlv_off:]):
                if atype == NLMSGERR_ATTR_MSG:
                    r.msg = val.rstrip(b"\0").decode(errors="replace")
                elif atype == NLMSGERR_ATTR_OFFS:
                    r.offs = struct.unpack("=I", val[:4])[0]
                elif atype == NLMSGERR_ATTR_MISS_TYPE:
                    r.miss_type = struct.unpack("=I", val[:4])[0]


def errname(e):
    return errno.errorcode.get(e, str(e)) if e else "OK"
