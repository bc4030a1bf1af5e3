# SPDX-License-Identifier: GPL-2.0
"""Scenario: malformed and refused netlink requests get a precise extack
error and change nothing. Needs rocectl.ko loaded and a device rxe0."""

import errno
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))
from nlraw import (GenlSocket, attr, attr_str, attr_u32, errname,  # noqa: E402
                   MISS_TYPE, NLM_F_ACK, NLM_F_DUMP, NLM_F_REQUEST, spec)

SCENARIO = "netlink-errors"
RESULTS = os.environ.get("RESULTS", "/dev/null")

# From the family's netlink spec.
CMD_DEV_GET = spec().cmd("dev-get")
A_PAD, A_DEV_INDEX, A_DEV_NAME, A_DEV_DRIVER = (
    spec().attr(a) for a in ("pad", "dev-index", "dev-name", "dev-driver"))
HDR = 16 + 4  # nlmsghdr + genlmsghdr: where the first attribute starts

failures = 0


def report(name, problems):
    global failures
    line = f"ok - {SCENARIO}: {name}"
    if problems:
        failures += 1
        line = f"not ok - {SCENARIO}: {name} # {'; '.join(problems)}"
    print(line, flush=True)
    with open(RESULTS, "a") as f:
        f.write(line + "\n")


def expect(name, r, err, msg=None, offs=None, miss=None):
    """The reply is error err, with extack text msg pointing at offs."""
    p = []
    if r.error != err:
        p.append(f"error {errname(r.error)}, expected {errname(err)}")
    if msg and (r.msg is None or msg not in r.msg):
        p.append(f"extack {r.msg!r}, expected {msg!r}")
    if msg is None and err and not r.msg:
        p.append("no extack message")
    if offs is not None and r.offs != offs:
        p.append(f"extack offset {r.offs}, expected {offs}")
    if miss is not None and MISS_TYPE and r.miss_type != miss:
        p.append(f"missing-attribute type {r.miss_type}, expected {miss}")
    report(name, p)


def main():
    s = GenlSocket()
    rxe0 = [m for m in s.request(CMD_DEV_GET, flags=NLM_F_REQUEST | NLM_F_DUMP).messages
            if dict(m[1]).get(A_DEV_NAME, b"").rstrip(b"\0") == b"rxe0"]
    if not rxe0:
        report("setup: rxe0 present", ["rxe0 not in the device dump"])
        return 1
    rxe0_index = int.from_bytes(dict(rxe0[0][1])[A_DEV_INDEX][:4], sys.byteorder)
    before = s.request(CMD_DEV_GET, flags=NLM_F_REQUEST | NLM_F_DUMP).messages

    r = s.request(CMD_DEV_GET)
    expect("doit without a device: required-attribute error", r, errno.EINVAL,
           "an RDMA device is required", miss=A_DEV_NAME)

    r = s.request(CMD_DEV_GET, attr_str(A_DEV_NAME, "nosuchdev"))
    expect("unknown device name", r, errno.ENODEV, "no RDMA device has this name",
           offs=HDR)

    r = s.request(CMD_DEV_GET, attr_u32(A_DEV_INDEX, 4242))
    expect("unknown device index", r, errno.ENODEV, "no RDMA device has this index",
           offs=HDR)

    r = s.request(CMD_DEV_GET, attr_u32(A_DEV_INDEX, rxe0_index) +
                  attr_str(A_DEV_NAME, "nosuchdev"))
    expect("index good, name unknown: points at the name", r, errno.ENODEV,
           "no RDMA device has this name", offs=HDR + 8)

    r = s.request(CMD_DEV_GET, attr_str(A_DEV_NAME, "x" * 64))
    expect("over-long name (64 characters)", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, attr(A_DEV_NAME, b"rxe0"))
    expect("name without its NUL", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, attr(A_DEV_INDEX, b"\1\0"))
    expect("u32 attribute of 2 bytes", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, attr_u32(A_DEV_DRIVER, 1))
    expect("attribute this command does not take", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, attr_u32(A_PAD, 0) + attr_str(A_DEV_NAME, "rxe0"))
    expect("pad attribute in a request", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, attr_u32(200, 0))
    expect("attribute type beyond the family's", r, errno.EINVAL, offs=HDR)

    r = s.request(CMD_DEV_GET, b"\2\0\3\0" + attr_str(A_DEV_NAME, "rxe0"))
    expect("attribute with a length below its header", r, errno.EINVAL)

    r = s.request(CMD_DEV_GET, attr_str(A_DEV_NAME, "rxe0"),
                  flags=NLM_F_REQUEST | NLM_F_DUMP)
    expect("dump given a device", r, errno.EINVAL, "a device dump takes no device")

    r = s.request(77)
    expect("unknown command", r, errno.EOPNOTSUPP, msg="")

    r = s.send(s.build(CMD_DEV_GET, genl=False))
    expect("message without a generic netlink header", r, errno.EINVAL, msg="")

    r = s.send(s.build(CMD_DEV_GET, attr_str(A_DEV_NAME, "rxe0"), length=200))
    report("message longer than sent is dropped without a reply",
           [] if r.error is None and not r.messages else [f"reply {errname(r.error)}"])

    r = s.request(CMD_DEV_GET, attr_u32(A_DEV_INDEX, rxe0_index + 1000) +
                  attr_str(A_DEV_NAME, "rxe0"))
    expect("unknown index with a good name", r, errno.ENODEV, offs=HDR)

    # A good request still works, and every refusal above changed nothing.
    r = s.request(CMD_DEV_GET, attr_u32(A_DEV_INDEX, rxe0_index) + attr_str(A_DEV_NAME, "rxe0"))
    got = dict(r.messages[0][1]).get(A_DEV_NAME, b"").rstrip(b"\0") if r.messages else None
    report("index and name of the same device: answered",
           [] if r.error == 0 and got == b"rxe0" else [f"error {errname(r.error)}, name {got}"])

    # Random messages: every one answered or dropped, none crashes anything.
    rnd = random.Random(int(os.environ.get("SEED", "1")))
    answered = 0
    for _ in range(2000):
        body = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(0, 64)))
        cmd = rnd.choice([CMD_DEV_GET, CMD_DEV_GET, rnd.randrange(256)])
        flags = NLM_F_REQUEST | rnd.choice([NLM_F_ACK, NLM_F_DUMP, NLM_F_ACK | NLM_F_DUMP])
        r = s.send(s.build(cmd, body, flags=flags))
        answered += r.error is not None
    report("2000 random messages answered", [] if answered == 2000 else
           [f"only {answered} answered"])

    after = s.request(CMD_DEV_GET, flags=NLM_F_REQUEST | NLM_F_DUMP).messages
    report("device state unchanged by refused requests",
           [] if after == before else ["dump differs"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
