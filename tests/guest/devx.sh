#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: DevX QPs -- QPs made with mlx5 firmware commands that the RDMA
# core never sees. rocectl_mlx5's hook is pointed at the simulated
# firmware of tests/simrdma (devx_cmd_fn=simrdma_devx_cmd), which takes
# commands built with mlx5_ifc.h's layouts from its debugfs file "devx",
# as mlx5_core's command entry takes a DevX context's. Against what the
# commands said and the simulated firmware's own list:
#   - commands of simrdma's own QP verbs (with a uid, as mlx5_ib's for a
#     user context) make no DevX QP;
#   - a DevX RC QP appears in qp show (type devx) with its owner, state,
#     remote QPN, UDP source port, DSCP/ECN, priority and counter set as
#     its commands gave them, from its create (Linux 5.15+) or its first
#     move (before: the verbs create is not hooked there); in monitor's
#     events and the rocectl:qp_create tracepoint; goes at its destroy;
#   - qp stats says where its counts are; follow leaves it to its owner;
#   - a refused command (firmware status) changes nothing;
#   - check FAILs a DevX QP on a lossy priority, naming its process, and
#     passes it on the lossless one; a DC target likewise.
. "$(dirname "$0")/lib.sh"
plan 8
W=$(mktemp -d)
D=$SRD/srd0

kmsg_mark
simnic_pair sim0 sim1 || fail "simnic"
ip addr add 198.51.100.1/24 dev sim0 || fail "address"
timeout "$T" dcb pfc set dev sim0 prio-pfc 3:on || fail "pfc"
timeout "$T" dcb app add dev sim0 dscp-prio 26:3 || fail "app 26:3"
timeout "$T" dcb app add dev sim0 dscp-prio 0:0 || fail "app 0:0"
simrdma_dev srd0 sim0 || fail "simrdma srd0"
module_load || fail "load"
modprobe mlx5_core || fail "modprobe mlx5_core"
insmod "$ROOT/rocectl_mlx5.ko" devx_cmd_fn=simrdma_devx_cmd || fail "insmod rocectl_mlx5 devx_cmd_fn=simrdma_devx_cmd"
"$ROCECTL" -j monitor qp > "$W/mon.json" &
mon=$!
echo 1 > /sys/kernel/tracing/events/rocectl/qp_create/enable || fail "tracepoint"
echo > /sys/kernel/tracing/trace

devx() { echo "$*" > "$D/devx"; }
# Linux 5.15 and later: the RDMA core's user QP create is hooked.
kernel_hooks_user_create() {
	local major minor
	IFS=. read -r major minor _ <<< "$(uname -r)"
	[ "$major" -gt 5 ] || [ "${minor%%[!0-9]*}" -ge 15 ]
}
last() { sed -n 's/^last //p' "$D/devx"; }
devx_qps() { rc -j qp show dev srd0 type devx; }
field() { devx_qps | jq -c ".[] | select(.lqpn == $1) | $2"; }

# simrdma's own verbs issue their commands with a uid: not DevX QPs.
devx verbs 1 || fail "verbs 1"
echo "create 2" > "$D/qps" && echo "modify all rts 104" > "$D/qps" || fail "2 verbs QPs in RTS"
echo "destroy all" > "$D/qps" || fail "destroy verbs QPs"
check_eq "$(devx_qps)" "[]" "DevX QPs after the verbs' own commands"
check_match "$(dmesg | grep -c 'simrdma_devx_cmd')" "^0$" "no hook error"
devx verbs 0
log_test "commands issued inside QP verbs (uid set, as mlx5_ib's) make no DevX QP"

# A DevX RC QP made by a process of its own (devxapp), which stays.
ln -sf /bin/bash "$W/devxapp"
"$W/devxapp" -c "echo 'create_qp uid=5 st=0 cntset=7' > $D/devx && exec sleep 600" &
app=$!
busywait 5000 eval '[ "$(last)" != 0 ] && grep -q "^$(last) qp$" "$D/devx"' || fail "create_qp: $(cat "$D/devx")"
q=$(last)
if kernel_hooks_user_create; then
	check_eq "$(field "$q" '[.type, .state, .devx, .pid, .comm, .counter_set]')" \
		"[\"RC\",\"RESET\",true,$app,\"devxapp\",7]" "QP $q at its create"
else
	check_eq "$(field "$q" .state)" "" "QP $q held back until its first move (before 5.15)"
fi
devx rst2init "$q" cntset=7 uid=5 || fail "rst2init"
devx init2rtr "$q" rqpn=77 dscp=0 ecn=2 prio=0 sport=49160 cntset=7 uid=5 || fail "init2rtr"
devx rtr2rts "$q" rqpn=77 dscp=0 ecn=2 prio=0 sport=49160 cntset=7 uid=5 || fail "rtr2rts"
check_eq "$(field "$q" '[.type, .state, .devx, .pid, .comm, .rqpn, .dscp, .ecn, .sport, .counter_set, .prio]')" \
	"[\"RC\",\"RTS\",true,$app,\"devxapp\",77,0,2,49160,7,0]" "QP $q in RTS: what its commands said"
check_eq "$(rc -j qp show dev srd0 | jq "[.[] | select(.lqpn == $q)] | length")" 1 "qp show (unfiltered) lists it once"
check_match "$(rc qp show dev srd0 type devx)" "lqpn $q rqpn 77 type RC state RTS devx counter-set 7 pid $app comm devxapp" "text"
grep -q "qp_create: dev=srd0 qpn=$q type=2 pid=$app comm=devxapp kernel=0 devx=1" /sys/kernel/tracing/trace ||
	fail "tracepoint: $(grep qp_create /sys/kernel/tracing/trace)"
log_test "a DevX RC QP: owner, state, remote QPN, UDP source port, DSCP/ECN, priority, counter set as its commands said; qp show type devx; tracepoint"

# qp stats: a DevX QP's counts are its set's, which the RDMA core does not
# read; follow binds the verbs QP beside it and leaves it alone.
echo "create 1" > "$D/qps" && echo "modify all rts 104" > "$D/qps" || fail "a verbs RC QP"
v=$(rdma -j resource show qp link srd0 | jq -r '.[] | select(.type == "RC") | .lqpn')
rc -j qp stats dev srd0 > "$W/st.json" || fail "qp stats"
check_eq "$(jq -r ".[] | select(.lqpn == $q) | [.devx, .counters_source, .counters_absent] | @tsv" "$W/st.json")" \
	"$(printf 'true\tnone\ta DevX QP: its counters are those of its counter set 7, which the RDMA core does not read')" \
	"qp stats: QP $q"
bound() { rdma -j statistic qp show link srd0/1 | jq -c '[.[] | .lqpn[]?] | sort'; }
# One set: the older DevX QP would rank first and take the verbs QP's set.
echo 1 > "$D/counters_max" || fail "counters_max 1"
"$ROCECTL" -j qp counters follow dev srd0 type RC > "$W/f.json" 2> "$W/f.err" &
follow=$!
busywait 20000 eval '[ "$(bound)" = "[$v]" ]' || fail "follow bound $(bound), expected [$v]"
sleep 3	# more looks
check_eq "$(bound)" "[$v]" "bound by follow after more looks, as rdma(8) lists them"
kill "$follow"; wait "$follow"
check_eq "$(jq -c "select(.lqpn == $q)" "$W/f.json")" "" "follow's events about QP $q"
check_eq "$(jq -c 'select(.event == "bind") | .lqpn' "$W/f.json" | tr '\n' ' ')" "$v " "follow's binds"
echo 64 > "$D/counters_max" || fail "counters_max 64"
rc qp counters unbind dev srd0 qpn "$v" > /dev/null || fail "unbind $v"
echo "destroy all" > "$D/qps" || fail "destroy the verbs QP"
log_test "qp stats says where a DevX QP's counts are; follow, one set left, binds the verbs QP beside it once and never gives its set to the older DevX QP"

# A refused command changes nothing.
devx fail && ! devx 2err "$q" uid=5 || fail "a refused 2err succeeded"
check_eq "$(field "$q" .state)" '"RTS"' "state after a refused move"
log_test "a command the firmware refuses changes nothing"

# check: the QP on lossy priority 0 fails, named by its process; a DC target on DSCP 26 passes.
out=$(rc check dev srd0 2>&1)
check_match "$(printf '%s\n' "$out" | grep '^FAIL trust srd0/1 ')" \
	"1 QP made with DevX of pid $app \(devxapp\) uses DSCP 0, priority 0, which is lossy" "check: the lossy DevX QP"
devx create_dct uid=5 dscp=26 ecn=2 prio=3 cntset=9 || fail "create_dct"
t=$(last)
check_eq "$(field "$t" '[.type, .state, .dscp, .counter_set]')" '["DRIVER","RTR",26,9]' "DCT $t"
devx create_qp uid=5 st=5 cntset=9 || fail "create_qp (DCI)"
i=$(last)
devx rst2init "$i" uid=5 cntset=9 || fail "rst2init (DCI)"
check_eq "$(field "$i" '[.type, .state, .counter_set]')" '["DRIVER","INIT",9]' "DCI $i (mlx5's st 5)"
devx destroy_qp "$i" uid=5 || fail "destroy_qp (DCI)"
devx 2err "$q" uid=5 && devx 2rst "$q" uid=5 || fail "2err, 2rst"
out=$(rc check dev srd0 2>&1)
check_match "$(printf '%s\n' "$out" | grep '^PASS trust srd0/1 ')" "1 live QP on srd0/1, all on priority 3" "check with the DCT only"
log_test "check fails a DevX QP on a lossy priority, naming its process; a DevX DC target on the lossless one passes; a DCI is a DRIVER QP"

# A move's context counts as the firmware takes it: the path where INIT2RTR
# requires it, the counter set where RST2INIT starts it, elsewhere only
# what opt_param_mask names (0x80 the primary path, 0x2000000 the counter
# set) -- mlx5_ib leaves the rest of its RTR2RTS context at 0.
devx create_qp uid=5 st=0 cntset=4 || fail "create_qp"
n=$(last)
{ devx rst2init "$n" cntset=4 uid=5 &&
	devx init2rtr "$n" rqpn=78 dscp=26 ecn=2 prio=3 sport=49161 uid=5 &&
	devx rtr2rts "$n" uid=5; } || fail "rst2init, init2rtr, rtr2rts"
moved() { field "$n" '[.state, .dscp, .ecn, .sl, .sport, .counter_set]'; }
check_eq "$(moved)" '["RTS",26,2,3,49161,4]' "QP $n: RTR2RTS, its context 0, no optional bit"
devx rts2rts "$n" cntset=9 opt=0x2000000 uid=5 || fail "rts2rts"
check_eq "$(moved)" '["RTS",26,2,3,49161,9]' "QP $n: RTS2RTS naming the counter set"
devx sqd2rts "$n" dscp=46 ecn=1 prio=5 sport=49162 cntset=2 opt=0x80 uid=5 || fail "sqd2rts"
check_eq "$(moved)" '["RTS",46,1,5,49162,9]' "QP $n: SQD2RTS naming the primary path"
devx destroy_qp "$n" uid=5 || fail "destroy_qp $n"
log_test "a move's path and counter set count only where the firmware takes them: RTR2RTS with none named changes nothing, RTS2RTS the counter set, SQD2RTS the path"

devx destroy_qp "$q" uid=5 && devx destroy_dct "$t" uid=5 || fail "destroy"
check_eq "$(devx_qps)" "[]" "DevX QPs after their destroys"
kill "$app"; wait "$app" 2> /dev/null
sleep 1
kill "$mon"; wait "$mon" 2> /dev/null
ev() { jq -r "select(.lqpn == $1 and .devx) | .event + \":\" + (.state // \"\")" "$W/mon.json" | tr '\n' ' '; }
# Before 5.15 the create event comes at the first move: the same sequence.
check_eq "$(ev "$q")" "create:RESET modify:INIT modify:RTR modify:RTS modify:ERR modify:RESET destroy:RESET " "monitor: QP $q"
check_eq "$(ev "$t")" "create:RTR destroy:RTR " "monitor: DCT $t"
rmmod rocectl_mlx5 && module_unload || fail "unload"
log_test "destroys remove them; monitor saw each create, move and destroy"
echo 0 > /sys/kernel/tracing/events/rocectl/qp_create/enable
echo "srd0" > "$SRD/del_device"
rmmod simrdma || fail "rmmod simrdma"
rmmod simnic || fail "rmmod simnic"
modprobe -r mlx5_core
kmsg_check
