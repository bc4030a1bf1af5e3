#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl_mlx5 beside mlx5_core and mlx5_ib, with no ConnectX
# NIC (none exists here: what needs one is unit-tested against the real
# register layouts instead). It registers as rocectl's backend, claims no
# other NIC's netdev, leaves a watch that holds PFC alone when it comes and
# goes, and the load order is enforced; the kernel log stays clean.
. "$(dirname "$0")/lib.sh"
plan 6
BACKEND=$ROOT/rocectl_mlx5.ko
kmsg_mark

modprobe mlx5_ib || fail "modprobe mlx5_ib"
module_load || fail "load rocectl"
insmod "$BACKEND" || fail "insmod rocectl_mlx5"
check_match "$(dmesg | tail -n 20)" "rocectl: backend mlx5 registered" "registration"
check_match "$(cat /sys/module/rocectl/holders/rocectl_mlx5/initstate 2>&1)" live "rocectl_mlx5 holds rocectl"
check_match "$(cat /sys/module/mlx5_core/holders/rocectl_mlx5/initstate 2>&1)" live "rocectl_mlx5 holds mlx5_core"
out=$(rmmod rocectl 2>&1)
[ -d /sys/module/rocectl ] || fail "rocectl unloaded under its backend"
check_match "$out" "in use" "rmmod rocectl under rocectl_mlx5"
log_test "rocectl_mlx5 loads beside mlx5_core/mlx5_ib and registers; rocectl cannot go first"

# Another NIC's netdev is not the backend's: the generic DCB view serves it.
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on
# Restore 5 s: simnic counts no pause on a priority whose PFC is off, so a
# forward hold ends after the restoration time even while the storm lasts
# (and the storm is detected again); 5 s spans the backend's unload.
rc watchdog set dev sim0 prio 3 detect 100 restore 5000 interval 20 action forward || fail "set"
check_eq "$(rc -j watchdog show dev sim0 | jq -r '.[0].backend // "none"')" none "backend of sim0"
log_test "a non-mlx5 netdev is not claimed: no backend, the generic view"

# A storm holds PFC off on sim0 while the backend goes and comes back.
pfc3() { pfc sim0 | jq 'index(3) != null'; }
echo "3 20000" > $SIM/sim0/rx_storm
busywait 5000 eval '[ "$(pfc3)" = false ]' || fail "storm not acted on"
rmmod rocectl_mlx5 || fail "rmmod rocectl_mlx5 with a watch holding PFC"
check_eq "$(pfc3)" false "PFC of the held priority after the backend left"
insmod "$BACKEND" || fail "insmod rocectl_mlx5 again"
echo "3 0" > $SIM/sim0/rx_storm
busywait 20000 eval '[ "$(pfc3)" = true ]' || fail "PFC not restored after the storm"
# Forward sets PFC back after each restoration time and detects the storm
# again while it lasts: as many restorations as storms, once it is over.
sr=$(rc -j watchdog show dev sim0 | jq -c '[.[0].prios[0].storms, .[0].prios[0].restores]')
check_match "$sr" '^\[([1-9][0-9]*),\1\]$' "storms, restores"
log_test "a watch holding PFC is untouched by the backend coming and going, restores as usual"

# DCQCN: no device here is the backend's. Reading asks, changing refuses,
# both clearly; malformed requests are refused before any device is asked.
veth_pair 1 2 && rxe_add rxe0 veth1 || fail "rxe0"
out=$(rc -j dcqcn show)
check_eq "$?:$out" "0:[]" "dcqcn show with no device the backend serves"
out=$(rc dcqcn show dev rxe0 2>&1)
check_eq "$?" 4 "dcqcn show dev rxe0"
check_match "$out" "no congestion control view: needs rocectl_mlx5" "its message"
out=$(rc dcqcn set dev rxe0 alpha-gain 5 2>&1)
check_eq "$?" 4 "dcqcn set dev rxe0"
check_match "$out" "no hardware backend \(rocectl_mlx5\) serves this device" "its message"
out=$(rc dcqcn set dev rxe0 2>&1)
check_eq "$?" 2 "dcqcn set without parameters"
out=$(rc dcqcn set dev rxe0 rp_gd x 2>&1)
check_eq "$?" 2 "dcqcn set with a bad value"
check_eq "$(rc -j -d dev show rxe0 | jq -c '.[0].dcqcn')" "[]" "dev show -d: no DCQCN for rxe0"
rc dev stats rxe0 | grep -q 'congestion counters' && fail "congestion counters for rxe0"
mkdir -p -m 755 /run/nobody && install -m 755 "$ROCECTL" /run/nobody/rocectl
out=$(su nobody -s /bin/sh -c "/run/nobody/rocectl dcqcn set dev rxe0 rp_gd 5" 2>&1)
check_eq "$?" 4 "unprivileged dcqcn set"
check_match "$out" "permission denied: this needs CAP_NET_ADMIN" "unprivileged message"
python3 - <<'PY' || fail "raw netlink"
import errno, os, sys
sys.path.insert(0, os.environ["ROOT"] + "/tests/tools")
from nlraw import GenlSocket, attr_u32, attr_str, attr, missing, spec
CONG_GET, CONG_SET = spec().cmd("cong-get"), spec().cmd("cong-set")
A_DEV_NAME, A_CONG_PORT = spec().attr("dev-name"), spec().attr("cong-port")
NAME, VALUE = spec().attr("name", "cong"), spec().attr("value", "cong")
A_CONG_PARAM = spec().attr("cong-param") | 0x8000	# NLA_F_NESTED
s = GenlSocket()
dev = attr_str(A_DEV_NAME, "rxe0")
r = s.request(CONG_GET, attr_str(A_DEV_NAME, "nosuch0"))
assert r.error == errno.ENODEV and "no RDMA device has this name" in r.msg, vars(r)
r = s.request(CONG_GET, dev + attr_u32(A_CONG_PORT, 0))
assert r.error == errno.ERANGE, vars(r)
r = s.request(CONG_GET, dev + attr_u32(A_CONG_PORT, 2))
assert r.error == errno.EINVAL and "no such port" in r.msg, vars(r)
r = s.request(CONG_SET, dev)
assert missing(r, 51, "at least one parameter"), vars(r)
r = s.request(CONG_SET, dev + attr(A_CONG_PARAM, attr_str(NAME, "rp_gd")))
assert r.error == errno.EINVAL and "needs a name and a value" in r.msg, vars(r)
r = s.request(CONG_SET, dev + attr(A_CONG_PARAM, attr(VALUE, b"\1\0")))
assert r.error == errno.EINVAL, vars(r)
r = s.request(CONG_SET, dev + attr(A_CONG_PARAM, attr_str(NAME, "x" * 80) + attr(VALUE, b"\0" * 8)))
assert r.error in (errno.EINVAL, errno.ERANGE), vars(r)
PY
log_test "dcqcn on a device no backend serves: show, set and malformed requests refused clearly; unprivileged set refused"
rxe_del rxe0

rmmod rocectl_mlx5 && module_unload || fail "unload"
check_eq "$(pfc3)" true "PFC after unload"
rmmod simnic
modprobe -r mlx5_ib mlx5_core
log_test "unload in order: rocectl_mlx5, rocectl, mlx5"
kmsg_check
