#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: simnic.ko, the simulated DCB NIC the PFC tests stand on.
# Pairs through debugfs, dcb(8) against its dcbnl ops, pause counters
# advancing at the injected rates, frames of a paused priority held and
# released, the quirks (no counting while PFC is off, XON), injected
# setpfc failures, ethtool statistics, the stall prevention tunable
# (pfc-prevention-tout) and its model, link flaps, soft-RoCE over a pair
# and unloading with storms and held frames.
. "$(dirname "$0")/lib.sh"
plan 30
SIMNIC=$ROOT/tests/simnic/simnic.ko
D=/sys/kernel/debug/simnic
W=$(mktemp -d)

# --- helpers ---------------------------------------------------------------
cat > "$W/h.py" <<'PY'
import array, fcntl, os, socket, struct, sys, time

def udp(tos, timeout, count, port):
    """Send COUNT datagrams with TOS from 192.0.2.1 to 192.0.2.2; exit 0
    if all arrive within TIMEOUT seconds."""
    r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    r.bind(("192.0.2.2", port))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    s.bind(("192.0.2.1", 0))
    for _ in range(count):
        s.sendto(b"x" * 64, ("192.0.2.2", port))
        if count > 1:
            time.sleep(0.0002)
    got, end = 0, time.time() + timeout
    while got < count and time.time() < end:
        r.settimeout(max(end - time.time(), 0.01))
        try:
            r.recv(100)
            got += 1
        except socket.timeout:
            break
    print(got)
    sys.exit(0 if got == count else 1)

def ethtool(dev):
    """ethtool -S through SIOCETHTOOL: 'name value' lines."""
    sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    def call(buf):
        addr = buf.buffer_info()[0]
        ifr = struct.pack("16sP", dev.encode(), addr).ljust(40, b"\0")
        fcntl.ioctl(sk.fileno(), 0x8946, ifr)
    info = array.array("B", struct.pack("=IIQI", 0x37, 0, 1 << 1, 0))
    call(info)
    n = struct.unpack_from("=I", info, 16)[0]
    strs = array.array("B", struct.pack("=III", 0x1b, 1, n) + b"\0" * 32 * n)
    call(strs)
    stats = array.array("B", struct.pack("=II", 0x1d, n) + b"\0" * 8 * n)
    call(stats)
    for i in range(n):
        name = bytes(strs[12 + 32 * i:12 + 32 * (i + 1)]).split(b"\0")[0]
        print(name.decode(), struct.unpack_from("=Q", stats, 8 + 8 * i)[0])

def tunable(dev, value=None, tid=3, ttype=2, size=2):
    """ETHTOOL_GTUNABLE (value None: print it) or ETHTOOL_STUNABLE of
    tunable TID (3: ETHTOOL_PFC_PREVENTION_TOUT, u16) through SIOCETHTOOL;
    print the error's strerror and exit 1 if it fails."""
    sk = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    cmd = 0x48 if value is None else 0x49
    buf = array.array("B", struct.pack("=IIII", cmd, tid, ttype, size) +
                      (value or 0).to_bytes(size, sys.byteorder))
    ifr = struct.pack("16sP", dev.encode(), buf.buffer_info()[0]).ljust(40, b"\0")
    try:
        fcntl.ioctl(sk.fileno(), 0x8946, ifr)
    except OSError as e:
        print(os.strerror(e.errno))
        sys.exit(1)
    if value is None:
        print(int.from_bytes(bytes(buf[16:16 + size]), sys.byteorder))

def stall(dev, prio, rate, timeout):
    """Write tx_storm 'PRIO RATE' on DEV and poll its state until the
    next stall prevention error event (or TIMEOUT s). Print: ms from just
    before the write to the end of the first read showing the next warning
    event, the same for the error event (-1: none), and 1 if a read showed
    the warning without the error, else 0."""
    path = "/sys/kernel/debug/simnic/%s/" % dev
    def events():
        with open(path + "state") as f:
            for line in f:
                w = line.split()
                if w[0] == "port":
                    return (int(w[w.index("tx_pause_storm_warning_events") + 1]),
                            int(w[w.index("tx_pause_storm_error_events") + 1]))
    w0, e0 = events()
    warn = err = -1
    between = 0
    t0 = time.monotonic()
    with open(path + "tx_storm", "w") as f:
        f.write("%d %d\n" % (prio, rate))
    while time.monotonic() - t0 < timeout:
        w, e = events()
        t = int((time.monotonic() - t0) * 1000)
        if w > w0 and warn < 0:
            warn = t
        if w > w0 and e == e0:
            between = 1
        if e > e0:
            err = t
            break
        time.sleep(0.002)
    print(warn, err, between)

def setpfc(dev, pfc_en):
    """RTM_SETDCB IEEE_SET with a PFC attribute: print the status dcbnl
    returns in DCB_ATTR_IEEE (the netlink ack itself is always 0)."""
    def attr(t, p):
        return struct.pack("=HH", 4 + len(p), t) + p + b"\0" * (-len(p) % 4)
    pfc = struct.pack("=BBBxHxx8Q8Q", 8, pfc_en, 0, 0, *([0] * 16))
    body = struct.pack("=BBH", 0, 20, 0) + attr(1, dev.encode() + b"\0") + \
        attr(13 | 0x8000, attr(2, pfc))
    msg = struct.pack("=IHHII", 16 + len(body), 79, 1 | 4, 1, 0) + body
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    sk.send(msg)
    status = None
    while True:
        data = sk.recv(65536)
        off = 0
        while off < len(data):
            ln, typ = struct.unpack_from("=IH", data, off)
            if typ == 79:
                a = off + 20
                while a < off + ln:
                    al, at = struct.unpack_from("=HH", data, a)
                    if at & 0x7fff == 13:
                        status = struct.unpack_from("=b", data, a + 4)[0]
                    a += (al + 3) & ~3
            elif typ == 2:
                err = struct.unpack_from("=i", data, off + 16)[0]
                print(status if err == 0 else err)
                return
            off += (ln + 3) & ~3

cmd = sys.argv[1]
if cmd == "udp":
    udp(int(sys.argv[2], 0), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
elif cmd == "ethtool":
    ethtool(sys.argv[2])
elif cmd == "setpfc":
    setpfc(sys.argv[2], int(sys.argv[3], 0))
elif cmd == "tunable":
    tunable(sys.argv[2], int(sys.argv[3], 0) if len(sys.argv) > 3 else None)
elif cmd == "copybreak":
    tunable(sys.argv[2], None, 1, 3, 4)	# ETHTOOL_RX_COPYBREAK, u32
elif cmd == "stall":
    stall(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
PY
H="timeout $T python3 $W/h.py"

# wr FILE VALUE: write VALUE, print the error ("" on success).
wr() {
	(echo "$2" > "$1") 2>&1 | sed 's/.*write error: //'
}

# st DEV PRIO KEY: a value from the state file.
st() {
	awk -v p="$2" -v k="$3" '$1 == "prio" && $2 == p { for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$D/$1/state"
}

# pst DEV KEY: a value from the state file's port line.
pst() {
	awk -v k="$2" '$1 == "port" { for (i = 2; i < NF; i++) if ($i == k) print $(i + 1) }' "$D/$1/state"
}

# tun DEV [VALUE]: get (print) or set pfc-prevention-tout; an error: its strerror.
tun() {
	$H tunable "$@"
}

# stall events of DEV as "WARNINGS ERRORS"
sev() {
	echo "$(pst "$1" tx_pause_storm_warning_events) $(pst "$1" tx_pause_storm_error_events)"
}

# ind/req DEV PRIO: PFC indications/requests as dcb(8) reports them.
# (awk, not python: rate() dates these readings, python starts slowly.)
dcb_stat() {
	timeout "$T" dcb -s pfc show dev "$1" |
		awk -v k="$3" -v p="$2" '$1 == k { for (i = 2; i <= NF; i++) { split($i, a, ":"); if (a[1] == p) print a[2] } }'
}

ind() {
	dcb_stat "$1" "$2" indications
}

req() {
	dcb_stat "$1" "$2" requests
}

pfc_en() {
	timeout "$T" dcb -j pfc show dev "$1" | json "''.join('1' if x else '0' for x in j['prio_pfc'])" /dev/stdin
}

# rate SECONDS CMD...: how fast the number CMD prints grows, per second.
# Each reading is dated at the middle of the command (slow under TCG).
rate() {
	local s=$1 a b c d c0 c1
	shift
	a=$(date +%s%N); c0=$("$@"); b=$(date +%s%N)
	sleep "$s"
	c=$(date +%s%N); c1=$("$@"); d=$(date +%s%N)
	echo $(((c1 - c0) * 2000000000 / (c + d - a - b)))
}

# near ACTUAL EXPECTED WHAT: within 20%.
near() {
	[ "$1" -ge $(($2 * 8 / 10)) ] && [ "$1" -le $(($2 * 12 / 10)) ] ||
		fail "$3: $1, expected $2 +-20%"
}

nsim() {
	ls -d /sys/class/net/sim* 2>/dev/null | wc -l
}

# The veth recipe: simA 192.0.2.1 and simB 192.0.2.2 reach each other
# through the pair, not through lo.
sim_two_hosts() {
	ip addr add 192.0.2.1/24 dev simA && ip addr add 192.0.2.2/24 dev simB || return 1
	ip link set simA up && ip link set simB up || return 1
	two_hosts simA 192.0.2.1 simB 192.0.2.2
	busywait 5000 grep -q 1 /sys/class/net/simA/carrier
}

kmsg_mark

# --- pairs ---------------------------------------------------------------------
if ! insmod "$SIMNIC"; then
	fail "insmod $SIMNIC (build it first)"
	log_test "simnic.ko loads"
	exit 1
fi
[ -w "$D/new_pair" ] && [ -w "$D/del_pair" ] || fail "no debugfs control files"
check_eq "$(wr "$D/new_pair" "simA simB")" "" "new_pair"
[ -d /sys/class/net/simA ] && [ -d /sys/class/net/simB ] || fail "netdevs missing"
check_eq "$(LC_ALL=C ls "$D/simA" | tr '\n' ' ')" \
	"fail_set_tunable fail_setpfc link_flap rx_storm rx_storm_duty state tunable_unsupported tx_storm xon " "knobs"
check_match "$(cat /sys/class/net/simA/carrier 2>&1)" "Invalid argument" "carrier while down"
ip link set simA up; ip link set simB up
check_eq "$(cat /sys/class/net/simA/carrier)$(cat /sys/class/net/simB/carrier)" "11" "carrier with both up"
ip link set simB down
check_eq "$(cat /sys/class/net/simA/carrier)" "0" "carrier with the peer down"
check_eq "$(wr "$D/new_pair" "simC simD")" "" "second pair"
check_eq "$(wr "$D/del_pair" simD)" "" "del_pair by the second name"
[ ! -e /sys/class/net/simC ] && [ ! -e /sys/class/net/simD ] && [ ! -e "$D/simC" ] ||
	fail "simC/simD left behind"
log_test "new_pair and del_pair create and remove connected netdevs"

n=$(nsim)
for bad in "" "onlyone" "a b c" "same same" "bad/name x" "a% b" "new_pair x" \
	"0123456789abcdefg x"; do
	check_eq "$(wr "$D/new_pair" "$bad")" "Invalid argument" "new_pair '$bad'"
done
check_eq "$(wr "$D/new_pair" "simA simX")" "File exists" "new_pair with a used name"
check_eq "$(wr "$D/del_pair" "nosuch")" "No such device" "del_pair unknown"
check_eq "$(wr "$D/del_pair" "a b")" "Invalid argument" "del_pair two names"
check_eq "$(nsim)" "$n" "netdevs after bad input"
[ ! -e /sys/class/net/simX ] && [ ! -e "$D/simX" ] || fail "simX created"
log_test "new_pair and del_pair refuse bad input, nothing created"

wr "$D/new_pair" "simC simD" >/dev/null
ip link set simD name simE || fail "rename"
[ -d "$D/simE" ] && [ ! -e "$D/simD" ] || fail "debugfs directory did not follow: $(ls "$D")"
wr "$D/del_pair" simE >/dev/null
log_test "the debugfs directory follows a rename"

# --- dcb(8) ------------------------------------------------------------------------
out=$(timeout "$T" dcb pfc show dev simA) || fail "dcb pfc show"
check_match "$out" "pfc-cap 8" "pfc-cap"
check_match "$out" "prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off" "initial prio-pfc"
timeout "$T" dcb pfc set dev simA prio-pfc 3:on 5:on || fail "dcb pfc set"
check_eq "$(pfc_en simA)" "00010100" "pfc after set"
check_match "$(timeout "$T" dcb pfc show dev simA)" "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:on 6:off 7:off" "text"
timeout "$T" dcb pfc set dev simA prio-pfc 5:off || fail "dcb pfc set 5:off"
check_eq "$(pfc_en simA)" "00010000" "pfc after 5:off"
check_eq "$(pfc_en simB)" "00000000" "peer untouched"
check_eq "$(timeout "$T" dcb -j dcbx show dev simA)" '{"host":true,"ieee":true}' "dcbx"
log_test "dcb pfc show/set round-trip, dcbx host+ieee"

timeout "$T" dcb ets set dev simA tc-tsa all:ets tc-bw 0:50 1:50 prio-tc 3:1 || fail "ets set"
check_eq "$(timeout "$T" dcb -j ets show dev simA | json 'j["tc_bw"][:2], j["prio_tc"][3], j["ets_cap"]' /dev/stdin)" \
	"[50, 50] 1 8" "ets show"
# dcbnl acks every IEEE_SET; a refused one only leaves the state as it was.
timeout "$T" dcb ets set dev simA tc-tsa all:ets tc-bw 0:50 1:40 2>/dev/null
check_eq "$(timeout "$T" dcb -j ets show dev simA | json 'j["tc_bw"][:2]' /dev/stdin)" "[50, 50]" "bandwidths not summing to 100 refused"
timeout "$T" dcb app add dev simA dscp-prio 26:3 || fail "app add"
timeout "$T" dcb app add dev simB dscp-prio 26:3 || fail "app add simB"
check_eq "$(timeout "$T" dcb -j app show dev simA)" '{"dscp_prio":[[26,3]]}' "app show"
timeout "$T" dcb app add dev simA dscp-prio 10:1 && timeout "$T" dcb app del dev simA dscp-prio 10:1 || fail "app add/del"
check_eq "$(timeout "$T" dcb -j app show dev simA)" '{"dscp_prio":[[26,3]]}' "app show after del"
log_test "dcb ets and dcb app (DSCP) round-trip"

# --- pause counters -----------------------------------------------------------------
check_eq "$(wr "$D/simA/rx_storm" "3 1000")" "" "rx_storm"
r=$(rate 3 ind simA 3)
near "$r" 1000 "indications/s at 1000"
check_eq "$(st simA 3 paused)" 1 "paused"
r=$(rate 3 st simA 3 rx_pause_duration)
near "$r" 1000000 "pause duration us/s"
check_eq "$(req simA 3)" 0 "requests"
log_test "rx_storm: indications advance at the rate, duration accrues"

wr "$D/simA/rx_storm" "3 50000" >/dev/null
r=$(rate 3 ind simA 3)
near "$r" 50000 "indications/s at 50000"
log_test "rx_storm: a new rate takes effect"

timeout "$T" dcb pfc set dev simA prio-pfc 3:off
c0=$(ind simA 3); d0=$(st simA 3 rx_pause_duration)
sleep 1
check_eq "$(ind simA 3)" "$c0" "indications while PFC off"
check_eq "$(st simA 3 rx_pause_duration)" "$d0" "duration while PFC off"
check_eq "$(st simA 3 paused)" 0 "paused while PFC off"
timeout "$T" dcb pfc set dev simA prio-pfc 3:on
r=$(rate 3 ind simA 3)
near "$r" 50000 "indications/s after PFC on again"
wr "$D/simA/rx_storm" "3 0" >/dev/null
c0=$(ind simA 3); sleep 0.5
check_eq "$(ind simA 3)" "$c0" "indications after the storm stopped"
check_eq "$(st simA 3 paused)" 0 "paused after the storm stopped"
log_test "while PFC is off received pause is neither counted nor honoured"

wr "$D/simA/rx_storm" "3 1000" >/dev/null
wr "$D/simA/rx_storm_duty" "3 200 50" >/dev/null
r=$(rate 3 ind simA 3)
near "$r" 500 "chopped indications/s (1000 at 50%)"
r=$(rate 3 st simA 3 rx_pause_duration)
near "$r" 500000 "chopped duration us/s"
wr "$D/simA/rx_storm_duty" "3 200 100" >/dev/null
wr "$D/simA/rx_storm" "3 0" >/dev/null
log_test "rx_storm_duty: counters advance only in the on-phase"

# --- ethtool --------------------------------------------------------------------------
$H ethtool simA > "$W/eth" || fail "SIOCETHTOOL"
check_eq "$(wc -l < "$W/eth")" 74 "number of stats"
for s in rx_prio3_pause tx_prio3_pause rx_prio3_pause_duration tx_prio3_pause_duration \
	tx_prio3_packets tx_prio3_bytes rx_prio3_packets rx_prio3_bytes tx_prio3_held_dropped \
	tx_pause_storm_warning_events tx_pause_storm_error_events; do
	grep -q "^$s " "$W/eth" || fail "no $s"
done
check_eq "$(awk '$1 == "rx_prio3_pause" {print $2}' "$W/eth")" "$(ind simA 3)" "rx_prio3_pause against dcb"
if command -v ethtool >/dev/null; then
	ethtool -S simA | grep -q rx_prio3_pause || fail "ethtool -S"
fi
log_test "ethtool stats: mlx5e names, same counters as dcb (kernel path via SIOCETHTOOL)"

# --- held frames ------------------------------------------------------------------------
sim_two_hosts || fail "addresses and routes"
$H udp 0x68 3 1 9001 >/dev/null || fail "DSCP 26 datagram before any storm"
$H udp 0 3 1 9002 >/dev/null || fail "DSCP 0 datagram"
[ "$(st simA 3 tx_packets)" -ge 1 ] || fail "DSCP 26 not counted on prio 3"
log_test "frames cross the pair, DSCP 26 classified to priority 3"

wr "$D/simA/rx_storm" "3 1000" >/dev/null
$H udp 0x68 60 1 9003 >/dev/null & pid=$!
busywait 30000 eval '[ "$(st simA 3 held)" = 1 ]' || fail "frame not held: held=$(st simA 3 held)"
$H udp 0 3 1 9004 >/dev/null || fail "DSCP 0 blocked by a storm on 3"
$H udp 0x28 3 1 9005 >/dev/null || fail "unmapped DSCP 10 blocked"
sleep 1
kill -0 $pid 2>/dev/null || fail "held datagram arrived during the storm"
timeout "$T" dcb pfc set dev simA prio-pfc 3:off
wait $pid || fail "held datagram not released when PFC went off"
check_eq "$(st simA 3 held)" 0 "held after PFC off"
log_test "paused priority held, other priorities pass, released when PFC goes off"

timeout "$T" dcb pfc set dev simA prio-pfc 3:on
$H udp 0x68 60 3 9006 >/dev/null & pid=$!
busywait 30000 eval '[ "$(st simA 3 held)" = 3 ]' || fail "frames not held: held=$(st simA 3 held)"
wr "$D/simA/rx_storm" "3 0" >/dev/null
wait $pid || fail "held datagrams not released when the storm stopped"
log_test "held frames released when the storm stops"

wr "$D/simA/xon" "3 2000" >/dev/null
r=$(rate 3 ind simA 3)
near "$r" 2000 "XON indications/s"
check_eq "$(st simA 3 paused)" 0 "paused by XON"
$H udp 0x68 3 1 9007 >/dev/null || fail "XON held a frame"
d0=$(st simA 3 rx_pause_duration); sleep 0.3
check_eq "$(st simA 3 rx_pause_duration)" "$d0" "duration accrues on XON"
wr "$D/simA/xon" "3 0" >/dev/null
log_test "xon: counted as indications, never pauses"

wr "$D/simA/rx_storm" "3 1000" >/dev/null
wr "$D/simA/rx_storm_duty" "3 400 50" >/dev/null
$H udp 0x68 5 5 9008 >/dev/null || fail "chopped storm: frames not released in the off-phase"
wr "$D/simA/rx_storm_duty" "3 400 100" >/dev/null
wr "$D/simA/rx_storm" "3 0" >/dev/null
log_test "chopped storm: held frames go out in the off-phase"

# --- tx_storm: the peer sees it ---------------------------------------------------------
timeout "$T" dcb pfc set dev simB prio-pfc 3:on
c0=$(ind simA 3)
wr "$D/simB/tx_storm" "3 1000" >/dev/null
r=$(rate 3 req simB 3)
near "$r" 1000 "simB requests/s"
r=$(rate 3 ind simA 3)
near "$r" 1000 "simA indications/s from simB's storm"
check_eq "$(st simA 3 paused)" 1 "simA paused by its peer"
[ "$(st simB 3 tx_pause_duration)" -gt 0 ] || fail "no tx pause duration"
$H udp 0x68 60 1 9009 >/dev/null & pid=$!
busywait 30000 eval '[ "$(st simA 3 held)" = 1 ]' || fail "not held by the peer's storm"
timeout "$T" dcb pfc set dev simB prio-pfc 3:off
wait $pid || fail "not released when the peer stopped sending pause"
c0=$(req simB 3); sleep 0.5
check_eq "$(req simB 3)" "$c0" "requests with PFC off on the sender"
timeout "$T" dcb pfc set dev simB prio-pfc 3:on
timeout "$T" dcb pfc set dev simA prio-pfc 3:off
c0=$(ind simA 3); sleep 0.5
check_eq "$(ind simA 3)" "$c0" "simA counts the peer's pause with PFC off"
wr "$D/simB/tx_storm" "3 0" >/dev/null
timeout "$T" dcb pfc set dev simA prio-pfc 3:on
log_test "tx_storm: requests advance, the peer counts and honours them"

# --- stall prevention: the pfc-prevention-tout tunable ------------------------------------
check_eq "$(tun simA)$(tun simB)" "00" "default: off"
check_eq "$(pst simB pfc_prevention_tout) $(pst simB minor_watermark)" "0 80" "state while off"
check_eq "$(sev simB)" "0 0" "no events yet"
check_eq "$(tun simB 200)" "" "set 200"
check_eq "$(tun simB)" 200 "get after 200"
check_eq "$(pst simB pfc_prevention_tout) $(pst simB minor_watermark)" "200 170" "watermarks for 200"
check_eq "$(tun simA)" 0 "the peer's unchanged"
check_eq "$(tun simB 0xffff)" "" "set auto"
check_eq "$(tun simB)" 100 "get after auto"
check_eq "$(pst simB minor_watermark)" 85 "minor for auto"
tun simB 80 >/dev/null; check_eq "$(tun simB) $(pst simB minor_watermark)" "80 80" "80: minor max(80, 68)"
tun simB 8000 >/dev/null; check_eq "$(tun simB) $(pst simB minor_watermark)" "8000 6800" "8000"
for bad in 79 8001 1 0xfffe; do
	check_eq "$(tun simB $bad)" "Invalid argument" "set $bad"
	check_eq "$(tun simB)" 8000 "value after set $bad"
done
check_eq "$(tun simB 0)" "" "set off"
check_eq "$(tun simB) $(pst simB minor_watermark)" "0 80" "off"
check_eq "$($H copybreak simB)" "Invalid argument" "another tunable"
log_test "pfc-prevention-tout: off by default, auto is 100 ms, 80..8000 ms, EINVAL outside, mlx5e's minor watermark"

check_eq "$(cat "$D/simB/fail_set_tunable")" 0 "initial"
tun simB 200 >/dev/null
echo 1 > "$D/simB/fail_set_tunable"
check_eq "$(tun simB 300)" "Input/output error" "armed once"
check_eq "$(tun simB)" 200 "value after a failed set"
check_eq "$(cat "$D/simB/fail_set_tunable")" 0 "after one failure"
check_eq "$(tun simB 300)" "" "set after the failure"
echo -1 > "$D/simB/fail_set_tunable"
check_eq "$(tun simB 0)" "Input/output error" "always (1)"
check_eq "$(tun simB 0xffff)" "Input/output error" "always (2)"
check_eq "$(tun simB 5)" "Invalid argument" "range checked before the failure"
check_eq "$(tun simB)" 300 "get while set fails"
check_eq "$(cat "$D/simB/fail_set_tunable")" -1 "still -1"
echo 2 > "$D/simB/fail_set_tunable"
tun simB 5 >/dev/null
check_eq "$(cat "$D/simB/fail_set_tunable")" 2 "an invalid set consumes no failure"
echo 0 > "$D/simB/fail_set_tunable"
check_eq "$(tun simB)" 300 "value after failed sets"
log_test "fail_set_tunable: set_tunable fails with -EIO, value unchanged; EINVAL first"

check_eq "$(cat "$D/simB/tunable_unsupported")" 0 "initial"
echo 1 > "$D/simB/tunable_unsupported"
check_eq "$(cat "$D/simB/tunable_unsupported")" 1 "armed"
check_eq "$(tun simB)" "Operation not supported" "get"
check_eq "$(tun simB 200)" "Operation not supported" "set"
check_eq "$(tun simB 5)" "Operation not supported" "set out of range"
check_eq "$(pst simB pfc_prevention_tout)" 0 "prevention off without the capability"
check_eq "$(tun simA)" 0 "the peer still has it"
echo 0 > "$D/simB/tunable_unsupported"
check_eq "$(tun simB)" 0 "back, off"
log_test "tunable_unsupported: the tunable is EOPNOTSUPP and prevention off, as a NIC without it"

# A storm sent by simB on 3 (PFC on 3 at both ends), prevention at 200 ms.
tun simB 200 >/dev/null
q0=$(st simB 3 tx_pause); qd0=$(st simB 3 tx_pause_duration)
i0=$(st simA 3 rx_pause); id0=$(st simA 3 rx_pause_duration)
read -r warn err between < <($H stall simB 3 1000 10)
[ "$warn" -ge 170 ] && [ "$warn" -le 270 ] || fail "warning at $warn ms, expected 170 (+100)"
[ "$err" -ge 200 ] && [ "$err" -le 300 ] || fail "error at $err ms, expected 200 (+100)"
check_eq "$between" 1 "a warning seen before the error"
echo "# stall events at $warn/$err ms (170/200 due)"
check_eq "$(st simB 3 tx_stopped)" 1 "tx_stopped"
check_eq "$(st simA 3 paused)" 0 "the peer still paused"
q1=$(st simB 3 tx_pause); qd1=$(st simB 3 tx_pause_duration)
i1=$(st simA 3 rx_pause); id1=$(st simA 3 rx_pause_duration)
check_eq "$((q1 - q0)) $((qd1 - qd0))" "200 200000" "pause sent over exactly 200 ms at 1000/s"
check_eq "$((i1 - i0)) $((id1 - id0))" "200 200000" "pause the peer received"
sleep 0.5
check_eq "$(st simB 3 tx_pause) $(st simB 3 tx_pause_duration)" "$q1 $qd1" "tx pause after the stop"
check_eq "$(st simA 3 rx_pause) $(st simA 3 rx_pause_duration)" "$i1 $id1" "rx pause after the stop"
check_eq "$(sev simB)" "1 1" "events: exactly one of each"
check_eq "$(sev simA)" "0 0" "events of the peer"
$H ethtool simB > "$W/eth"
check_eq "$(awk '$1 ~ /^tx_pause_storm_(warning|error)_events$/ {printf "%s ", $2}' "$W/eth")" "1 1 " "ethtool -S"
$H udp 0x68 3 1 9012 >/dev/null || fail "prio 3 not flowing after the stop"
log_test "stall prevention at 200 ms: one warning at 170, one error at 200 ms, then no pause sent"

# (1000 ms: time for the checks while it runs; a change of T un-stops nothing)
tun simB 1000 >/dev/null
check_eq "$(st simB 3 tx_stopped)" 1 "stopped after a change of T"
c0=$(st simB 3 tx_pause)
wr "$D/simB/tx_storm" "3 1000" >/dev/null
check_eq "$(st simB 3 tx_stopped)" 0 "stopped after a new storm"
check_eq "$(st simA 3 paused)" 1 "the peer paused by the new storm"
busywait 5000 eval '[ "$(pst simB tx_pause_storm_error_events)" = 2 ]' || fail "no second error: $(sev simB)"
check_eq "$(sev simB)" "2 2" "events after the second storm"
check_eq "$(st simB 3 tx_pause)" $((c0 + 1000)) "pause sent by the second storm"
wr "$D/simB/tx_storm" "3 0" >/dev/null
check_eq "$(st simB 3 tx_stopped)" 0 "stopped after tx_storm 0"
log_test "a tx_storm write is a new storm: pause again, stopped again at T"

# Prevention switched on during a storm: measured from the set; held frames go.
tun simB 0 >/dev/null
wr "$D/simB/tx_storm" "3 1000" >/dev/null
$H udp 0x68 60 1 9013 >/dev/null & pid=$!
busywait 30000 eval '[ "$(st simA 3 held)" = 1 ]' || fail "frame not held: held=$(st simA 3 held)"
sleep 0.5
kill -0 $pid 2>/dev/null || fail "held datagram arrived with prevention off"
check_eq "$(sev simB)" "2 2" "events with prevention off"
tun simB 200 >/dev/null
wait $pid || fail "held datagram not released by the prevention"
check_eq "$(st simA 3 held) $(st simA 3 paused)" "0 0" "held and paused after the stop"
check_eq "$(sev simB)" "3 3" "events"
wr "$D/simB/tx_storm" "3 0" >/dev/null
log_test "prevention enabled during a storm: stops it T after the set, the peer's held frames released"

tun simB 0 >/dev/null
wr "$D/simB/tx_storm" "3 1000" >/dev/null
r=$(rate 2 req simB 3)
near "$r" 1000 "requests/s with prevention off"
r=$(rate 1 st simB 3 tx_pause_duration)
near "$r" 1000000 "tx pause us/s with prevention off"
check_eq "$(sev simB)" "3 3" "events with prevention off"
check_eq "$(st simB 3 tx_stopped) $(st simA 3 paused)" "0 1" "stopped, peer paused"
wr "$D/simB/tx_storm" "3 0" >/dev/null
log_test "prevention off: a tx storm goes on unbounded, no events"

# --- fail_setpfc --------------------------------------------------------------------------
check_eq "$(cat "$D/simA/fail_setpfc")" 0 "initial"
echo 1 > "$D/simA/fail_setpfc"
check_eq "$(cat "$D/simA/fail_setpfc")" 1 "armed"
timeout "$T" dcb pfc set dev simA prio-pfc 3:off
check_eq "$(pfc_en simA)" "00010000" "pfc changed by a failed set"
check_eq "$(cat "$D/simA/fail_setpfc")" 0 "after one failure"
echo -1 > "$D/simA/fail_setpfc"
check_eq "$($H setpfc simA 0)" "-5" "DCB_ATTR_IEEE status of a failed set"
check_eq "$($H setpfc simA 0)" "-5" "still failing with -1"
check_eq "$(cat "$D/simA/fail_setpfc")" "-1" "always"
check_eq "$(pfc_en simA)" "00010000" "pfc changed by failed sets"
echo 0 > "$D/simA/fail_setpfc"
check_eq "$($H setpfc simA 0x08)" "0" "status of a good set"
check_match "$(wr "$D/simA/fail_setpfc" -2)" "Invalid argument" "-2"
log_test "fail_setpfc: setpfc fails with -EIO (in DCB_ATTR_IEEE), pfc unchanged"

# --- bad knob input -------------------------------------------------------------------------
before=$(cat "$D/simA/state" | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18}')
for kv in "rx_storm:8 1" "rx_storm:3 1000001" "rx_storm:3" "rx_storm:3 1 1" "rx_storm:-1 5" \
	"rx_storm:x y" "tx_storm:3 -5" "xon:9 1" "rx_storm_duty:3 0 50" \
	"rx_storm_duty:3 10001 50" "rx_storm_duty:3 100 0" "rx_storm_duty:3 100 101" \
	"rx_storm_duty:3 100" "link_flap:1001" "link_flap:x" "fail_setpfc:x" "fail_setpfc:1 2" \
	"fail_set_tunable:x" "fail_set_tunable:-2" "tunable_unsupported:2" "tunable_unsupported:-1" \
	"tunable_unsupported:x"; do
	check_eq "$(wr "$D/simA/${kv%%:*}" "${kv#*:}")" "Invalid argument" "${kv%%:*} '${kv#*:}'"
done
after=$(cat "$D/simA/state" | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18}')
check_eq "$after" "$before" "knobs changed by bad input"
check_eq "$(cat "$D/simA/fail_setpfc")" 0 "fail_setpfc changed"
check_eq "$(cat "$D/simA/fail_set_tunable") $(cat "$D/simA/tunable_unsupported")" "0 0" "tunable knobs changed"
log_test "knobs refuse bad input with EINVAL, nothing changes"

# --- link flap ---------------------------------------------------------------------------------
wr "$D/simA/rx_storm" "3 1000" >/dev/null
cc=$(cat /sys/class/net/simA/carrier_changes)
c0=$(ind simA 3)
echo 3 > "$D/simA/link_flap"
busywait 20000 eval '[ $(cat /sys/class/net/simA/carrier_changes) -ge $((cc + 6)) ]' ||
	fail "carrier changes $(cat /sys/class/net/simA/carrier_changes), expected $((cc + 6))"
busywait 10000 grep -q 1 /sys/class/net/simA/carrier || fail "carrier not back"
check_eq "$(cat /sys/class/net/simA/carrier_changes)" $((cc + 6)) "carrier changes"
[ "$(ind simA 3)" -gt "$c0" ] || fail "counters did not continue"
wr "$D/simA/rx_storm" "3 0" >/dev/null
$H udp 0 3 1 9010 >/dev/null || fail "no traffic after the flaps"
log_test "link_flap: carrier off and on N times, counters continue"

# --- soft-RoCE over the pair (bonus) -----------------------------------------------------------
if modprobe rdma_rxe 2>/dev/null && rxe_add rxe0 simA && rxe_add rxe1 simB; then
	sleep 1
	timeout 30 ibv_rc_pingpong -d rxe1 -g 1 -n 200 > "$W/srv" 2>&1 & srv=$!
	sleep 1
	timeout 30 ibv_rc_pingpong -d rxe0 -g 1 -n 200 192.0.2.2 > "$W/cli" 2>&1 || fail "client: $(tail -n 2 "$W/cli")"
	wait $srv || fail "server: $(tail -n 2 "$W/srv")"
	log_test "soft-RoCE: ibv_rc_pingpong over the pair"

	# All IPv4 (RoCE has DSCP 0) on priority 3, then a long run.
	timeout "$T" dcb app add dev simA dscp-prio 0:3
	timeout "$T" dcb app add dev simB dscp-prio 0:3
	timeout "$T" dcb pfc set dev simA prio-pfc 3:on
	timeout 120 ibv_rc_pingpong -d rxe1 -g 1 -n 100000000 > "$W/srv" 2>&1 & srv=$!
	sleep 1
	timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -n 100000000 192.0.2.2 > "$W/cli" 2>&1 & cli=$!
	busywait 30000 eval '[ "$(st simA 3 tx_packets)" -gt 1000 ]' || fail "RDMA traffic on prio 3: $(st simA 3 tx_packets)"
	wr "$D/simA/rx_storm" "3 1000" >/dev/null
	sleep 0.2
	p0=$(st simA 3 tx_packets); sleep 1; p1=$(st simA 3 tx_packets)
	check_eq "$p1" "$p0" "RDMA frames sent during the storm"
	[ "$(st simA 3 held)" -gt 0 ] || fail "nothing held during the storm"
	timeout "$T" dcb pfc set dev simA prio-pfc 3:off
	sleep 2
	p2=$(st simA 3 tx_packets)
	[ "$p2" -gt "$((p1 + 100))" ] || fail "RDMA traffic did not resume: $p1 -> $p2; client: $(tail -n 2 "$W/cli" | tr '\n' ' ')"
	kill -0 $cli 2>/dev/null || fail "client ended: $(tail -n 2 "$W/cli" | tr '\n' ' ')"
	kill $cli $srv 2>/dev/null; wait $cli $srv 2>/dev/null
	log_test "soft-RoCE: traffic stalls while the storm holds its priority, resumes after PFC off"
	wr "$D/simA/rx_storm" "3 0" >/dev/null
	timeout "$T" dcb app del dev simA dscp-prio 0:3
	timeout "$T" dcb app del dev simB dscp-prio 0:3
	rxe_del rxe0; rxe_del rxe1
else
	for t in "ibv_rc_pingpong over the pair" "traffic stalls while the storm holds its priority"; do
		fail "rdma_rxe or rdma link add"
		log_test "soft-RoCE: $t"
	done
fi

# --- unload with storms and held frames ---------------------------------------------------------
timeout "$T" dcb pfc set dev simA prio-pfc 3:on
wr "$D/simA/rx_storm" "3 1000" >/dev/null
wr "$D/simB/tx_storm" "5 1000" >/dev/null
wr "$D/new_pair" "simC simD" >/dev/null
$H udp 0x68 1 1100 9011 >/dev/null
busywait 30000 eval '[ "$(st simA 3 held)" = 1024 ]' || fail "held frames: $(st simA 3 held)"
$H ethtool simA > "$W/eth"
[ "$(awk '$1 == "tx_prio3_held_dropped" {print $2}' "$W/eth")" -ge 76 ] ||
	fail "held_dropped: $(grep held_dropped "$W/eth" | tr '\n' ' ')"
echo 5 > "$D/simA/link_flap"
rmmod simnic || fail "rmmod"
check_eq "$(nsim)" 0 "netdevs after unload"
[ ! -e "$D" ] || fail "debugfs left"
insmod "$SIMNIC" && wr "$D/new_pair" "simA simB" >/dev/null && rmmod simnic || fail "reload"
log_test "unload with storms, 1024 held frames and a flap in progress"

if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan > /sys/kernel/debug/kmemleak
fi
kmsg_check
rm -rf "$W"
