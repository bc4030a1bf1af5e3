#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: rocectl as an operator installs it. The DKMS-installed module
# (the host registered, built and installed it before the guest booted and
# says so in ROCECTL_DKMS) loaded with modprobe; the modprobe.d softdep;
# the persistent policy applied by "rocectl apply", by udev when the module
# loads and when a netdev or RDMA device appears, with bad lines reported
# as FILE:LINE and skipped.
. "$(dirname "$0")/lib.sh"
plan 13
KVER=$(uname -r)
STAGE=/run/stage
POLICY=$STAGE/etc/rocectl/rocectl.conf
kmsg_mark

# --- DKMS --------------------------------------------------------------------
if [ "${ROCECTL_DKMS:-0}" = 1 ]; then
	modprobe rocectl || fail "modprobe rocectl failed"
	check_eq "$(modinfo -n rocectl)" "/lib/modules/$KVER/updates/dkms/rocectl.ko" "modprobe's rocectl"
	check_eq "$(cat /sys/module/rocectl/srcversion 2>&1)" "$(modinfo -F srcversion rocectl)" "loaded module's srcversion"
	check_eq "$(cat /sys/module/rocectl/version 2>&1)" "$("$ROCECTL" -V | awk '{print $2}')" "module version"
	rc dev show > /dev/null || fail "rocectl dev show against the DKMS module"
	modprobe -r rocectl || fail "modprobe -r rocectl"
	[ ! -d /sys/module/rocectl ] || fail "rocectl still loaded after modprobe -r"
	log_test "dkms: modprobe loads the DKMS-built module from updates/dkms (depmod'ed), modprobe -r removes it"

	# With the shipped modprobe.d, loading an RDMA driver brings rocectl.
	make -s -C "$ROOT" -o user install-user PREFIX=$STAGE/usr SYSCONFDIR=$STAGE/etc \
		> /dev/null || fail "make install-user into $STAGE"
	modprobe -r rdma_rxe ib_core 2> /dev/null
	modprobe -C "$STAGE/etc/modprobe.d" rdma_rxe || fail "modprobe rdma_rxe"
	[ -d /sys/module/rocectl ] || fail "rdma_rxe loaded, rocectl not: $(lsmod | grep -E 'rocectl|ib_core')"
	modprobe -r rdma_rxe
	module_unload
	log_test "dkms: with the installed modprobe.d, loading an RDMA driver loads rocectl"

	# The ConnectX backend: built by DKMS for this kernel (it has mlx5),
	# loaded with mlx5_core through the installed softdep, no NIC needed.
	check_eq "$(modinfo -n rocectl_mlx5)" "/lib/modules/$KVER/updates/dkms/rocectl_mlx5.ko" "modprobe's rocectl_mlx5"
	modprobe -C "$STAGE/etc/modprobe.d" mlx5_core || fail "modprobe mlx5_core"
	[ -d /sys/module/rocectl_mlx5 ] && [ -d /sys/module/rocectl ] ||
		fail "mlx5_core loaded, the backend not: $(lsmod | grep -E 'rocectl|mlx5')"
	modprobe -r rocectl_mlx5 rocectl || fail "modprobe -r rocectl_mlx5 rocectl"
	modprobe -r mlx5_core
	[ ! -d /sys/module/rocectl_mlx5 ] || fail "rocectl_mlx5 still loaded"
	log_test "dkms: rocectl_mlx5 installed for this kernel; the modprobe.d softdep loads it with mlx5_core"
else
	for t in "modprobe loads the DKMS-built module" "the installed modprobe.d loads rocectl with an RDMA driver" \
		"rocectl_mlx5 installed, loaded with mlx5_core"; do
		log_skip "dkms: $t" "the host did not install rocectl with DKMS"
	done
	make -s -C "$ROOT" -o user install-user PREFIX=$STAGE/usr SYSCONFDIR=$STAGE/etc \
		> /dev/null || fail "make install-user into $STAGE"
fi
# From here on the module is the build tree's, as in the other scenarios.
MODULE_CMD=module_load
[ "${ROCECTL_DKMS:-0}" = 1 ] && MODULE_CMD="modprobe rocectl"

# --- rocectl apply ------------------------------------------------------------
insmod "$ROOT/tests/simnic/simnic.ko" || fail "simnic"
echo "sim0 sim1" > $SIM/new_pair
echo "sim2 sim3" > $SIM/new_pair
$MODULE_CMD || fail "load rocectl"

# watched PORT PRIO: the watchdog watches PRIO on PORT
watched() {
	rc -j watchdog show dev "$1" 2> /dev/null |
		jq -e "[.[].prios[]? | select(.prio == $2)] | length == 1" > /dev/null
}
cat > "$POLICY" <<'CONF'
# test policy
watchdog set dev sim0 prio 3 detect 200 restore 400 action forward

watchdog set dev sim2 prio 9
qp show
watchdog set dev rxe0 prio 4 action alert   # rxe0 does not exist yet
watchdog set dev sim2 prio 5 detect 300 interval 50
CONF
out=$(rc apply "$POLICY" 2>&1)
code=$?
check_eq "$code" 2 "exit status (the first failing line's)"
check_match "$out" "$POLICY:4: Error: .*prio" "line 4's error"
check_match "$out" "$POLICY:5: Error: only \"watchdog set\", .*\"dcqcn set\", \"check\" and \"qp counters follow\" may appear" "line 5's error"
check_match "$out" "$POLICY:6: Error: rocectl: no RDMA device has this name" "line 6's error"
check_match "$out" "2 applied, 3 failed" "summary"
watched sim0 3 || fail "line 2 not applied"
watched sim2 5 || fail "line 7 (after the bad lines) not applied"
check_eq "$(rc -j watchdog show dev sim2 | jq -c '[.[] | [.detect_ms, .interval_ms, [.prios[].prio]]]')" \
	"[[300,50,[5]]]" "sim2's watch"
log_test "apply: good lines applied, bad ones reported as FILE:LINE and skipped, exit 2"

# Applying again changes nothing and fails the same way: idempotent.
before=$(rc -j watchdog show | jq -c '[.[] | del(.prios[].since_ns)]')
rc apply "$POLICY" > /dev/null 2>&1
check_eq "$(rc -j watchdog show | jq -c '[.[] | del(.prios[].since_ns)]')" "$before" "watchdog after a second apply"
out=$(rc -j apply "$POLICY" dev sim0 2> /dev/null)
check_eq "$?" 0 "apply dev sim0 exit status"
check_eq "$(echo "$out" | jq -c '[.applied, .failed, .skipped]')" "[1,0,4]" "apply dev sim0 counts"
log_test "apply: idempotent; dev DEV applies only the lines naming DEV"

out=$(rc apply /nonexistent/rocectl.conf 2>&1)
check_eq "$?" 2 "missing file exit status"
check_match "$out" "cannot open the policy file /nonexistent/rocectl.conf" "missing file error"
# The family's alias would have the kernel load an installed module on
# demand: keep it from doing so for this check.
module_unload
modprobe_path=$(cat /proc/sys/kernel/modprobe)
echo /bin/true > /proc/sys/kernel/modprobe
out=$(rc apply "$POLICY" 2>&1)
check_eq "$?" 3 "exit status without the module"
check_match "$out" "$POLICY:2: Error: the rocectl kernel module is not loaded" "no-module error"
echo "$modprobe_path" > /proc/sys/kernel/modprobe
log_test "apply: a missing file and a missing module are clear errors"

if [ "${ROCECTL_DKMS:-0}" = 1 ]; then
	rc apply "$POLICY" > /dev/null 2>&1
	[ -d /sys/module/rocectl ] || fail "the installed module was not loaded on demand"
	watched sim0 3 || fail "policy not applied after the module loaded on demand"
	module_unload
	log_test "apply: an installed module is loaded on demand (genl family alias)"
else
	log_skip "apply: an installed module is loaded on demand" "the host did not install rocectl with DKMS"
fi

# --- udev: the policy follows the module and the devices -----------------------------
# Only the installed rule runs: the distribution's rules are masked by empty
# directories for the duration of the test.
mount -t tmpfs none /usr/lib/udev/rules.d && mount -t tmpfs none /etc/udev/rules.d
mkdir -p /run/udev/rules.d
cp "$STAGE/etc/udev/rules.d/90-rocectl.rules" /run/udev/rules.d/
/lib/systemd/systemd-udevd --daemon --resolve-names=never 2> /dev/null || fail "systemd-udevd"
busywait 5000 udevadm control --ping || fail "udevd not answering"
cat > "$POLICY" <<'CONF'
watchdog set dev sim0 prio 3 detect 200 restore 400 action forward
watchdog set dev rxe0 prio 4 action alert
CONF

$MODULE_CMD || fail "load rocectl"
busywait 10000 watched sim0 3 || fail "loading the module did not apply the policy"
log_test "udev: loading the module applies the policy"

# Hot-plug: the pair goes away (the module forgets its watch) and comes back.
echo sim0 > $SIM/del_pair
busywait 5000 eval '! rc watchdog show dev sim0 > /dev/null 2>&1' || fail "sim0's watch outlived sim0"
echo "sim0 sim1" > $SIM/new_pair
busywait 10000 watched sim0 3 || fail "sim0 came back, its policy line was not applied"
log_test "udev: a netdev that appears gets the lines naming it"

# An RDMA device named by the policy: its port's netdev gets the watch.
rxe_add rxe0 sim1 || fail "rdma link add"
busywait 10000 watched sim1 4 || fail "rxe0 appeared, its policy line was not applied to sim1"
log_test "udev: an RDMA device that appears gets the lines naming it, on its netdev"

# Bash completion of device names, against the real device list.
out=$(COMPLETION_DEVICES_ONLY=1 ROCECTL=$ROCECTL timeout 60 bash "$ROOT/tests/completion_check.sh" 2>&1)
line=$(echo "$out" | grep -E '^(not )?ok - completion: device names')
check_match "$line" '^ok - completion: device names: RDMA devices \(rxe0\), for watchdog and check also netdevs \(sim1\)' "completion"
log_test "bash completion offers rxe0, and sim1 for the watchdog and check"

# Driver reload: rocectl unloaded and loaded again gets the whole policy.
rxe_del rxe0
module_unload
$MODULE_CMD || fail "reload rocectl"
busywait 10000 watched sim0 3 || fail "reloading the module did not apply the policy"
log_test "udev: reloading the module applies the policy again"

udevadm control --exit
umount /usr/lib/udev/rules.d /etc/udev/rules.d
rm -rf /run/udev
module_unload
rmmod simnic
kmsg_check
