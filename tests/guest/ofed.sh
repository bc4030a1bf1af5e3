#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario of the OFED lane only (tests/ofed/run.sh, run by hand): rocectl
# built against NVIDIA's MLNX_OFED / DOCA-OFED kernel stack, loaded beside
# OFED's ib_core, ib_uverbs, mlx5_core and mlx5_ib instead of the kernel's.
# OFED_MODROOT is the module root holding OFED's modules for this kernel
# (modprobe -d). OFED ships no soft-RoCE since 5.2 (its rdma_rxe is a
# placeholder that masks the kernel's), and the guest has no ConnectX: no
# RDMA device exists, so the QP paths are checked empty, against rdma(8),
# and the watchdog on the simulated DCB NIC.
. "$(dirname "$0")/lib.sh"
plan 6
W=$(mktemp -d)
OFED_MODROOT=${OFED_MODROOT:-/}
# Here a module of one stack loaded against the other is the failure.
KMSG_BAD="$KMSG_BAD|disagrees about version|Unknown symbol"
kmsg_mark

# --- OFED's stack in place of the kernel's ------------------------------------
# The runner's "rdma link show" may have had the kernel load its own ib_core
# (RDMA netlink's module alias): out first, with what uses it.
for m in rdma_ucm ib_uverbs rdma_cm iw_cm ib_cm ib_core; do
	! grep -q "^$m " /proc/modules || rmmod "$m" || fail "rmmod the kernel's $m"
done
# Loaded first: a later plain modprobe finds them loaded.
for m in mlx_compat ib_core ib_uverbs rdma_ucm mlx5_core mlx5_ib; do
	timeout 60 modprobe -d "$OFED_MODROOT" "$m" 2> "$W/modprobe.err" ||
		fail "modprobe $m from $OFED_MODROOT: $(head -c 300 "$W/modprobe.err")"
done
# Which build is loaded: every OFED module depends on OFED's mlx_compat
# (its compat header's module_init), none of the kernel's does.
for m in ib_core ib_uverbs rdma_ucm mlx5_core mlx5_ib; do
	[ -e "/sys/module/mlx_compat/holders/$m" ] ||
		fail "$m: not OFED's (mlx_compat holds $(ls /sys/module/mlx_compat/holders 2>/dev/null | tr '\n' ' '))"
done
echo "# mlx_compat holds: $(ls /sys/module/mlx_compat/holders | tr '\n' ' '); mlx5_core $(cat /sys/module/mlx5_core/version 2>/dev/null)"
echo "# rdma_rxe here: $(modinfo -b "$OFED_MODROOT" -F filename rdma_rxe 2>&1) ($(modinfo -b "$OFED_MODROOT" -F description rdma_rxe 2>&1))"
log_test "OFED's ib_core, ib_uverbs, rdma_ucm, mlx5_core and mlx5_ib load in place of the kernel's (each held by OFED's mlx_compat)"

# --- rocectl beside them --------------------------------------------------------
insmod "$MODULE" 2> "$W/insmod.err" || fail "insmod rocectl: $(cat "$W/insmod.err")"
insmod "$ROOT/rocectl_mlx5.ko" 2> "$W/insmod.err" || fail "insmod rocectl_mlx5: $(cat "$W/insmod.err")"
check_match "$(dmesg | tail -n 30)" "rocectl: backend mlx5 registered" "rocectl_mlx5's registration"
bad=$(dmesg | tail -n +$((KMSG_MARK + 1)) | grep -m1 -E "disagrees about version|Unknown symbol")
[ -z "$bad" ] || fail "symbol versions: $bad"
check_match "$(ls /sys/module/mlx_compat/holders 2>&1)" rocectl "rocectl holds OFED's mlx_compat"
log_test "rocectl and rocectl_mlx5 built against OFED load beside its modules; no symbol version disagrees"

# --- devices and QPs, as rdma(8) sees them -----------------------------------------
check_eq "$(rc -j dev show | jq -c '[.[].ifname] | sort')" "$(rdma -j dev show | jq -c '[.[].ifname] | sort')" "devices (rocectl, rdma)"
check_eq "$(rc -j qp show | jq -c '[.[] | [.ifname, .lqpn]] | sort')" \
	"$(rdma -j resource show qp | jq -c '[.[] | [.ifname, .lqpn]] | sort')" "QPs (rocectl, rdma)"
echo "# devices: $(rdma -j dev show | jq -c '[.[].ifname]'), QPs: $(rdma -j resource show qp | jq length)"
log_test "dev show and qp show answer, as rdma(8) lists devices and QPs"

# --- the watchdog, beside OFED's stack ------------------------------------------------
simnic_pair sim0 sim1 || fail "simnic"
dcb pfc set dev sim0 prio-pfc 3:on 4:on
rc watchdog set dev sim0 prio 3 detect 100 restore 1000 interval 10 action forward || fail "watch"
storm sim0 3 1000
busywait 10000 eval '[ "$(pfc sim0)" = "[4]" ]' || fail "the storm's action: PFC $(pfc sim0)"
storm sim0 3 0
busywait 15000 eval '[ "$(pfc sim0)" = "[3,4]" ]' || fail "PFC not set back: $(pfc sim0)"
check_eq "$(rc -j watchdog stats dev sim0 | jq -c '.[0].prios[] | select(.prio == 3) | [.storms, .actions >= 1, .restores >= 1]')" \
	"[1,true,true]" "storm counters"
rc watchdog del dev sim0 || fail "watchdog del"
log_test "a PFC storm on the simulated NIC: detected, PFC cleared, set back"

# --- unload: ours first, then OFED's ------------------------------------------------
rmmod rocectl_mlx5 && rmmod rocectl || fail "rmmod rocectl_mlx5, rocectl"
rmmod simnic || fail "rmmod simnic"
for m in mlx5_ib rdma_ucm rdma_cm iw_cm ib_cm mlx5_core mlxdevm mlxfw ib_uverbs ib_core mlx_compat; do
	! grep -q "^$m " /proc/modules || modprobe -r -d "$OFED_MODROOT" "$m" ||
		fail "modprobe -r $m (held by: $(ls "/sys/module/$m/holders" | tr '\n' ' '))"
done
log_test "unload: rocectl_mlx5, rocectl, then OFED's modules"
kmsg_check
rm -rf "$W"
