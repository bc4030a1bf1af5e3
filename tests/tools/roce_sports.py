# SPDX-License-Identifier: GPL-2.0
"""roce_sports.py NETDEV SECONDS: a packet capture of the RoCEv2 packets
(IPv4, UDP destination port 4791) that cross NETDEV either way, for SECONDS
or until SIGTERM, independent of rocectl: a packet socket sees what the
netdev sends and receives. Prints "listening" on stderr once capturing,
then at the end one JSON array of {src, dst, sport, dqpn, packets}: each
flow's IPv4 addresses, UDP source port and BTH destination QP."""

import json
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 3
ROCE_V2_PORT = 4791


def main():
    netdev, seconds = sys.argv[1], float(sys.argv[2])
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((netdev, 0))
    s.settimeout(0.1)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    print("listening", file=sys.stderr, flush=True)
    flows = {}
    end = time.monotonic() + seconds
    while not stop and time.monotonic() < end:
        try:
            frame = s.recv(65535)
        except socket.timeout:
            continue
        # Ethernet, IPv4, UDP to 4791, then the BTH (destination QP: bytes 5..7).
        if len(frame) < 14 or frame[12:14] != b"\x08\x00":
            continue
        ip = frame[14:]
        ihl = (ip[0] & 15) * 4
        if len(ip) < ihl + 8 + 12 or ip[9] != socket.IPPROTO_UDP:
            continue
        sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
        if dport != ROCE_V2_PORT:
            continue
        dqpn = struct.unpack("!I", ip[ihl + 8 + 4:ihl + 8 + 8])[0] & 0xffffff
        key = (socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20]), sport, dqpn)
        flows[key] = flows.get(key, 0) + 1
    print(json.dumps([{"src": k[0], "dst": k[1], "sport": k[2], "dqpn": k[3], "packets": n}
                      for k, n in sorted(flows.items())]))


main()
