#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: what the DevX hook (rocectl_mlx5 on mlx5_core's command
# entry, here pointed at simrdma's simulated firmware) adds to each
# firmware command, in four modes alternating, medians of ROUNDS: the hook
# ("on"), its probe floor (the same kretprobe, handlers that return at
# once, so every command takes the return trampoline: FLOOR_MLX5), the
# bpftrace peer (a kprobe counting commands by opcode: what an operator
# would otherwise run to see them), and nothing ("off"). Rows: a
# command that is no QP's (NOP: let go at the entry handler) and a QP move
# of a DevX QP (RTS2RTS with its context: decoded, its entry updated).
# Each measurement is simrdma's in-kernel loop of N commands ("bench").
# Prints a table; asserts nothing.
. "$(dirname "$0")/../guest/lib.sh"
N=${N:-20000}
ROUNDS=${ROUNDS:-5}
D=$SRD/srd0
W=$(mktemp -d)

veth_pair 1 2
simrdma_dev srd0 veth1
module_load
modprobe mlx5_core
devx() { echo "$*" > "$D/devx"; }
hook() { insmod "${1:-$ROOT/rocectl_mlx5.ko}" devx_cmd_fn=simrdma_devx_cmd; }
# A DevX RC QP in RTS, tracked while the hook is loaded (made with it).
hook
devx create_qp uid=5 st=0 cntset=7
q=$(sed -n 's/^last //p' "$D/devx")
devx rst2init "$q" uid=5 && devx init2rtr "$q" uid=5 rqpn=77 dscp=26 && devx rtr2rts "$q" uid=5 rqpn=77 dscp=26
rc -j qp show dev srd0 type devx | jq -e ".[] | select(.lqpn == $q and .state == \"RTS\")" > /dev/null ||
	echo "warning: the DevX QP $q is not tracked in RTS"
rmmod rocectl_mlx5

# ns per command of "bench N CMD QPN".
per_cmd() { devx bench "$N" "$1" "$q" uid=5 rqpn=77 dscp=26 && awk -v n="$N" '/^bench_ns /{printf "%.0f\n", $2 / n}' "$D/devx"; }
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
peer_on() {
	bpftrace -e 'kprobe:simrdma_devx_cmd { @cmds[*(uint16 *)arg1] = count(); }' > "$W/bt.out" 2>&1 &
	peer=$!
	busywait 30000 grep -q Attaching "$W/bt.out"
}
peer_off() { kill -INT "$peer"; wait "$peer" 2> /dev/null; }

for r in $(seq "$ROUNDS"); do
	for mode in on floor peer off; do
		case $mode in on) hook ;; floor) hook "$FLOOR_MLX5" ;; peer) peer_on ;; esac
		for cmd in nop rts2rts; do
			per_cmd "$cmd" >> "$W/$mode.$cmd"
		done
		case $mode in on | floor) rmmod rocectl_mlx5 ;; peer) peer_off ;; esac
	done
done

echo "| command (ns per command, median of $ROUNDS x $N) | on | floor | bpftrace | off | on - off | on/off | floor/off | peer/off |"
echo "|--------------------------------------------------|----|-------|----------|-----|----------|--------|-----------|----------|"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
for cmd in nop rts2rts; do
	on=$(median < "$W/on.$cmd") floor=$(median < "$W/floor.$cmd")
	peer=$(median < "$W/peer.$cmd") off=$(median < "$W/off.$cmd")
	printf '| %-48s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$([ $cmd = nop ] && echo "NOP (no QP's: let go at entry)" || echo "RTS2RTS of a DevX QP (decoded, entry updated)")" \
		"$on" "$floor" "$peer" "$off" "$((on - off))" "$(ratio "$on" "$off")" \
		"$(ratio "$floor" "$off")" "$(ratio "$peer" "$off")"
done
echo "rounds: $(for m in on floor peer off; do printf '%s nop [%s] rts2rts [%s]; ' "$m" "$(tr '\n' ' ' < "$W/$m.nop")" "$(tr '\n' ' ' < "$W/$m.rts2rts")"; done)"
