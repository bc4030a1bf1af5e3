#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scenario: whose job a QP is. Cgroups made as the kubelet makes them
# (cgroup v2), one pod per cgroup driver, and the kubelet's pod log
# directories; QP traffic started inside each pod's container cgroup and,
# for the two pods with log directories, inside the pod's own network
# namespace (an interface of its own, as a CNI gives it), on the shared
# RDMA device (the RDMA core's default shared mode, as the shared-device
# plugin uses it):
#   - systemd driver: kubepods.slice/kubepods-burstable.slice/
#     kubepods-burstable-pod<UID with underscores>.slice/
#     cri-containerd-<ID>.scope;
#   - cgroupfs driver: kubepods/besteffort/pod<UID>/<ID>;
#   - a pod whose log directory is missing: named by its UID, with why.
# Against the independent references the kernel and the kubelet's files
# give: /proc/PID/cgroup (the path), the cgroup directory's inode number
# (the id), the log directory's name (namespace and pod); qp show's fields
# in text and JSON, its pod and namespace filters, a storm's blast radius,
# the qp_create tracepoint. From inside a pod's network namespace the
# tool says where rocectl answers. A user's delegated subtree under
# /user.slice imitating a live pod (its UID, in the kubelet's form and in
# one directory with escaped '/'s) is no pod's; a Slurm job's tree as
# slurmstepd makes it names its job and step, a look-alike under
# /user.slice none; qp show job N keeps the job's QPs, the exporter (with
# owners only) labels its workload with job and step and sums it per job,
# a storm and a failure name it. Then the exporter under pods' churn past
# the module's bound of destroyed QPs' groups.
. "$(dirname "$0")/lib.sh"
plan 14
W=$(mktemp -d)
QPT=$ROOT/tests/tools/build/qptraffic
UA=3f2c1e9a-7b4d-4c1a-9e2f-0a1b2c3d4e5f
UB=9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
UC=11111111-2222-4333-8444-555555555555
IA=$(printf 'a%.0s' {1..64})
IB=$(printf 'b%.0s' {1..64})
IC=$(printf 'c%.0s' {1..64})
PA=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${UA//-/_}.slice/cri-containerd-$IA.scope
PB=/kubepods/besteffort/pod$UB/$IB
PC=/kubepods/pod$UC/$IC
# A user's own subtree (systemd delegates user@UID.service to the user):
# pod B's UID and a container id under it, once in the kubelet's form and
# once in one directory whose name escapes the '/'s.
IE=$(printf 'e%.0s' {1..64})
UHOME=/user.slice/user-1000.slice/user@1000.service/app.slice
PE1=$UHOME/kubepods/besteffort/pod$UB/$IE
PE2=$UHOME/'evil\x2fkubepods\x2fbesteffort\x2fpod'$UB/$IE
# slurmstepd's tree (its cgroup/v2 plugin): job_<id>/step_<step>/user/task_<n>
# under its scope; the same tree in a user's subtree.
PS=/system.slice/slurmstepd.scope/job_4242/step_0/user/task_0
PL=$UHOME/slurmstepd.scope/job_4242/step_0/user/task_0

kmsg_mark
# The guest has neither: the kubelet's view is made here.
kubepods_mount "$PA" "$PB" "$PC" "$PE1" "$PE2" "$PS" "$PL" || fail "cgroup2, /var/log, cgroups"
chown -R 1000:1000 "$CG/user.slice/user-1000.slice/user@1000.service" || fail "the user's subtree"
mkdir -p "/var/log/pods/team-a_trainer-0_$UA/trainer" "/var/log/pods/team-b_server-1_$UB/server" ||
	fail "pod log directories"
# Soft-RoCE over the simulated DCB NIC: DSCP 26 (tclass 104) is priority 3.
simnic_pair sim0 sim1 || fail "simnic"
ip addr add 192.0.2.11/24 dev sim0; ip addr add 192.0.2.12/24 dev sim1
two_hosts sim0 192.0.2.11 sim1 192.0.2.12
module_load || fail "load"
rxe_add rxe0 sim0 && rxe_add rxe1 sim1 || fail "rxe over simnic"
for d in sim0 sim1; do dcb pfc set dev $d prio-pfc 3:on; dcb app add dev $d dscp-prio 26:3; done
gid=$(gid_index rxe0 192.0.2.11)
gid=${gid:-1}
# The pods' network namespaces, each with its interface as a CNI makes it.
for n in a b; do
	ip netns add "pod-$n" || fail "netns pod-$n"
	ip link add "veth-$n" type veth peer name eth0 netns "pod-$n" || fail "pod-$n's interface"
	ip -n "pod-$n" link set eth0 up; ip -n "pod-$n" link set lo up
done

hold() {	# hold NAME PATH N [NETNS]: qptraffic holding N pairs (rxe0 to rxe1) inside PATH
	in_cgroup "$2" "$W/$1.pid" ${4:+ip netns exec "$4"} "$QPT" pair -d rxe0 -D rxe1 -g "$gid" -n "$3" -m 20 -s 1024 --tos 104 \
		--hold > "$W/$1.json" 2> "$W/$1.err" &
	busywait 20000 test -s "$W/$1.json" || fail "$1's QPs: $(cat "$W/$1.err")"
	eval "$1=$(cat "$W/$1.pid")"
}
hold A "$PA" 2 pod-a
hold B "$PB" 1 pod-b
hold C "$PC" 1
qps() { rc -j qp show dev rxe0 type RC | jq -c "[.[] | select(.pid == $1)]"; }

# --- the cgroup and its id, against the kernel's own ------------------------------------
check_eq "$(sed -n 's/^0:://p' "/proc/$A/cgroup")" "$PA" "A's process in its container's cgroup"
check_eq "$(readlink "/proc/$A/ns/net") $(readlink "/proc/$B/ns/net")" \
	"$(ip netns exec pod-a readlink /proc/self/ns/net) $(ip netns exec pod-b readlink /proc/self/ns/net)" \
	"A and B in their pods' network namespaces"
check_eq "$(qps "$A" | jq -c '[.[] | [.cgroup, .cgroup_id]] | unique')" \
	"[[\"$PA\",$(stat -c %i "$CG$PA")]]" "A's QPs: the path /proc gives and the directory's inode number"
check_eq "$(qps "$B" | jq -c '[.[] | [.cgroup, .cgroup_id]] | unique')" \
	"[[\"$PB\",$(stat -c %i "$CG$PB")]]" "B's QPs"
check_eq "$(qps "$A" | jq length) $(qps "$B" | jq length)" "2 1" "QPs on rxe0: A's two pairs, B's one"
log_test "each QP's cgroup: /proc/PID/cgroup's path and the directory's inode number"

# --- the pod and the container, from the path and the kubelet's files ---------------------
fields='[.[] | [.namespace, .pod, .pod_uid, .pod_qos, .container, .container_runtime]] | unique'
check_eq "$(qps "$A" | jq -c "$fields")" "[[\"team-a\",\"trainer-0\",\"$UA\",\"burstable\",\"$IA\",\"containerd\"]]" \
	"A: systemd driver, containerd"
check_eq "$(qps "$B" | jq -c "$fields")" "[[\"team-b\",\"server-1\",\"$UB\",\"besteffort\",\"$IB\",null]]" \
	"B: cgroupfs driver (the runtime not in the path)"
check_eq "$(qps "$C" | jq -c '[.[] | [.namespace, .pod, .pod_uid, .pod_qos, .pod_name_missing]] | unique')" \
	"[[null,null,\"$UC\",\"guaranteed\",\"no kubelet pod log entry for its UID\"]]" "C: no log directory, said why"
log_test "pod, namespace, QoS class and container from the cgroup path and /var/log/pods, for both cgroup drivers"

check_match "$(rc qp show dev rxe0 pid "$A")" "pid $A comm qptraffic .*cgroup $PA pod team-a/trainer-0 container ${IA:0:12} " "text: A"
check_match "$(rc qp show dev rxe0 pid "$C")" "cgroup $PC pod-uid $UC \(no kubelet pod log entry for its UID\) container ${IC:0:12} " "text: C"
log_test "text: cgroup, pod and container after the QP's other fields"

# --- filters --------------------------------------------------------------------------------
check_eq "$(rc -j qp show pod trainer-0 | jq -c '[.[].pid] | unique')" "[$A]" "pod trainer-0"
check_eq "$(rc -j qp show pod trainer-0 | jq length)" "$(rc -j qp show pid "$A" | jq length)" "all of A's QPs, both devices"
check_eq "$(rc -j qp show namespace team-b | jq -c '[.[].pid] | unique')" "[$B]" "namespace team-b"
check_eq "$(rc -j qp show namespace team-a pod server-1)" "[]" "a pod of another namespace"
check_eq "$(rc -j qp show pod nosuch)" "[]" "no such pod"
out=$(rc qp show pod 2>&1); code=$?
check_eq "$code" 2 "pod without a name: $out"
log_test "qp show pod NAME and namespace NS keep that pod's QPs only"

# --- from inside a pod: where rocectl answers -------------------------------------------------
out=$(ip netns exec pod-a "$ROCECTL" dev show 2>&1); code=$?
check_eq "$code" 3 "rocectl in pod-a's network namespace: exit 3"
check_match "$out" "^Error: the rocectl kernel module is loaded, but its netlink family is in the host's initial network namespace only, not this one: run rocectl there" "said where"
check_eq "$(ip netns exec pod-a rdma -j dev show | jq -c '[.[].ifname] | sort')" '["rxe0","rxe1"]' \
	"rdma(8) in pod-a: the shared devices, as the RDMA core shows them there"
log_test "from a pod's network namespace: the tool says the family answers in the host's; the shared devices are there"

# --- a storm names the pods it hurts --------------------------------------------------------
rc watchdog set dev sim0 prio 3 action forward detect 100 restore 1000 interval 10 || fail "watch sim0"
storm sim0 3 1000
st() { rc -j watchdog stats dev sim0 | jq -c '.[0].prios[] | select(.prio == 3 and .direction == "rx") | '"$1"; }
busywait 10000 eval '[ "$(st .storms)" = 1 ]' || fail "no storm on sim0 priority 3"
check_eq "$(st '[.affected[] | [.pid, .namespace, .pod, .cgroup]] | sort_by(.[0])')" \
	"$(jq -c -n --argjson a "$A" --argjson b "$B" --argjson c "$C" \
		"[[\$a,\"team-a\",\"trainer-0\",\"$PA\"],[\$b,\"team-b\",\"server-1\",\"$PB\"],[\$c,null,null,\"$PC\"]] | sort_by(.[0])")" \
	"the storm's processes, each with its pod and cgroup"
check_match "$(rc watchdog stats dev sim0 | tr '\n' ' ')" "pid $A comm qptraffic qps 2 bytes [0-9]+ cgroup $PA pod team-a/trainer-0 " "text"
storm sim0 3 0
busywait 10000 eval '[ "$(st .restores)" = 1 ]' || fail "no restore"
rc watchdog del dev sim0
log_test "a storm's blast radius names each process's pod and cgroup"

# --- the exporter: per-workload sums and one info series per workload ----------------------
ex() { rc exporter print owners > "$W/ex.txt" || fail "exporter print"; }
val() { awk -v k="$1" '$1 == k { print $2 }' "$W/ex.txt"; }
own() {	# own PID KEY: what PID's QPs on rxe0 count, by their own counters
	rc -j qp stats dev rxe0 pid "$1" | jq "[.[].counters.$2] | add"
}
ex
out=$(promtool check metrics < "$W/ex.txt" 2>&1) || fail "promtool: $out"
a_tx=$(own "$A" tx_bytes)
check_eq "$(val "rocectl_workload_qp_tx_bytes_total{device=\"rxe0\",cgroup=\"$PA\"}")" "$a_tx" "A's pod's tx_bytes: its QPs' own"
check_eq "$(val "rocectl_workload_qp_tx_bytes_total{device=\"rxe0\",cgroup=\"$PB\"}")" "$(own "$B" tx_bytes)" "B's"
[ "$a_tx" -ge $((2 * 20 * 1024)) ] || fail "A's pod sent $a_tx bytes, less than its 2 x 20 messages of 1024"
check_eq "$(val "rocectl_workload_qps{device=\"rxe0\",cgroup=\"$PA\"}")" 2 "A's live QPs"
grep -qxF "rocectl_workload_info{cgroup=\"$PA\",namespace=\"team-a\",pod=\"trainer-0\",pod_uid=\"$UA\",container=\"$IA\",container_runtime=\"containerd\"} 1" "$W/ex.txt" ||
	fail "A's info series: $(grep "rocectl_workload_info{cgroup=\"$PA\"" "$W/ex.txt")"
grep -qxF "rocectl_workload_info{cgroup=\"$PC\",namespace=\"\",pod=\"\",pod_uid=\"$UC\",container=\"$IC\",container_runtime=\"\"} 1" "$W/ex.txt" ||
	fail "C's info series: $(grep "rocectl_workload_info{cgroup=\"$PC\"" "$W/ex.txt")"
check_eq "$(grep -c '^rocectl_workload_info{' "$W/ex.txt")" 3 "one info series per workload"
# A's pod ends: its QPs destroyed, its sum stays (the module's destroyed QPs' group of its cgroup).
kill "$A"
busywait 10000 eval '[ "$(qps "$A")" = "[]" ]' || fail "A's QPs left"
sleep 1.1
ex
check_eq "$(val "rocectl_workload_qp_tx_bytes_total{device=\"rxe0\",cgroup=\"$PA\"}")" "$a_tx" "A's pod's sum after its QPs are gone"
check_eq "$(val "rocectl_workload_qps{device=\"rxe0\",cgroup=\"$PA\"}")" 0 "A's live QPs after"
check_eq "$(rc -j qp show dev rxe0 | jq '[.[] | select(.cgroup != null)] | length')" 2 "B's and C's QPs left"
log_test "exporter: per-pod QP sums equal the pod's QPs' own counters and stay when they go; one info series per workload"

# --- a failure names its pod ----------------------------------------------------------------
in_cgroup "$PB" "$W/F.pid" ip netns exec pod-b "$QPT" fail -d rxe0 -g "$gid" --how modify --hold -T 30 \
	> "$W/F.json" 2> "$W/F.err" &
busywait 30000 test -s "$W/F.json" || fail "pod B's failing QP: $(cat "$W/F.err")"
F=$(cat "$W/F.pid")
q=$(jq .qpn "$W/F.json")
check_eq "$(rc -j qp errors dev rxe0 | jq -c --argjson q "$q" '[.[] | select(.lqpn == $q) | [.cause, .pid, .namespace, .pod, .cgroup]]')" \
	"[[\"modify\",$F,\"team-b\",\"server-1\",\"$PB\"]]" "the record: cause, owner, pod and cgroup"
check_match "$(rc qp errors dev rxe0 | tr '\n' ' ')" "cause modify .*cgroup $PB pod team-b/server-1 " "text"
kill "$F"; wait "$F" 2>/dev/null
log_test "a QP failure's record names its pod"

# --- the tracepoint ----------------------------------------------------------------------------
TR=/sys/kernel/tracing
[ -d $TR/events ] || TR=/sys/kernel/debug/tracing
echo > $TR/trace
echo 1 > $TR/events/rocectl/qp_create/enable
hold D "$PB" 1
echo 0 > $TR/events/rocectl/qp_create/enable
check_match "$(grep "qp_create: dev=rxe0 .*pid=$D " $TR/trace | head -n 1)" "comm=qptraffic kernel=0 devx=0 cgroup=$(stat -c %i "$CG$PB")$" "qp_create"
log_test "the qp_create tracepoint carries the cgroup id"

# --- rooted: a user's look-alike of a live pod, a Slurm job and its look-alike --------------
hold E1 "$PE1" 1
hold E2 "$PE2" 1
workload='[.[] | [.cgroup, .pod_uid, .namespace, .pod, .container, .job]] | unique'
for e in E1 E2; do
	p=P$e pid=${!e}
	check_eq "$(qps "$pid" | jq -c "$workload")" "$(jq -c -n --arg p "${!p}" '[[$p, null, null, null, null, null]]')" \
		"$e: its path, no pod (pod B's UID), no container"
	check_eq "$(rc qp show dev rxe0 pid "$pid" | grep -c -e ' pod ' -e ' pod-uid ' -e ' container ')" 0 "$e: text, no pod"
done
check_match "$(rc qp show dev rxe0 pid "$E1")" "cgroup $PE1 " "E1: text, its cgroup"
check_eq "$(rc -j qp show pod server-1 | jq -c '[.[].pid] | unique')" "$(jq -c -n "[$B, $D] | unique")" \
	"pod server-1: the QPs in its cgroup (B's, D's), not the look-alikes'"
log_test "a user's subtree imitating live pod B (the kubelet's form, escaped '/'s) is no pod's: its path alone"

hold S "$PS" 1
hold L "$PL" 1
check_eq "$(qps "$S" | jq -c '[.[] | [.cgroup, .job, .step, .pod_uid]] | unique')" "[[\"$PS\",4242,\"0\",null]]" \
	"S: job 4242, step 0"
check_match "$(rc qp show dev rxe0 pid "$S")" "cgroup $PS job 4242 step 0 " "S: text"
check_eq "$(qps "$L" | jq -c '[.[] | [.cgroup, .job, .step]] | unique')" "[[\"$PL\",null,null]]" \
	"L: slurmstepd.scope under /user.slice, no job"
check_eq "$(rc qp show dev rxe0 pid "$L" | grep -c ' job ')" 0 "L: text, no job"
log_test "a Slurm job's tree under slurmstepd's scope names its job and step; a look-alike under /user.slice none"

# --- job 4242: its filter, its sums in the exporter, a storm's and a failure's record -------
check_eq "$(rc -j qp show job 4242 | jq -c '[.[].pid] | unique')" "[$S]" "qp show job 4242: S's QPs, not the look-alike's"
check_eq "$(rc -j qp show job 4242 | jq length)" "$(rc -j qp show pid "$S" | jq length)" "all of S's QPs, both devices"
check_eq "$(rc -j qp show job 4243)" "[]" "no such job"
out=$(rc qp show job x 2>&1); code=$?
check_eq "$code" 2 "job not a number: $out"
ex
grep -qxF "rocectl_workload_info{cgroup=\"$PS\",namespace=\"\",pod=\"\",pod_uid=\"\",container=\"\",container_runtime=\"\",job=\"4242\",step=\"0\"} 1" "$W/ex.txt" ||
	fail "S's info series: $(grep "rocectl_workload_info{cgroup=\"$PS\"" "$W/ex.txt")"
check_eq "$(grep -c "^rocectl_workload_info{cgroup=\"$PL\".*job=" "$W/ex.txt")" 0 "L's info series: no job"
check_eq "$(val "rocectl_job_qps{device=\"rxe0\",job=\"4242\"}")" "$(qps "$S" | jq length)" "job 4242's live QPs on rxe0"
check_eq "$(val "rocectl_job_qp_tx_bytes_total{device=\"rxe0\",job=\"4242\"}")" "$(own "$S" tx_bytes)" \
	"job 4242's tx_bytes on rxe0: its QPs' own"
check_eq "$(grep -c '^rocectl_job_qps{' "$W/ex.txt")" 2 "one job, two devices"
rc exporter print > "$W/exn.txt" || fail "exporter print without owners"
check_eq "$(grep -c -e '^rocectl_job_' -e 'job=' "$W/exn.txt")" 0 "no job series or label without owners"
rc watchdog set dev sim0 prio 3 action forward detect 100 restore 1000 interval 10 || fail "watch sim0"
storm sim0 3 1000
busywait 10000 eval '[ "$(st .storms)" = 1 ]' || fail "no storm on sim0 priority 3 (the job's)"
check_eq "$(st "[.affected[] | select(.pid == $S or .pid == $L) | [.pid, .job, .step, .cgroup]] | sort_by(.[0])")" \
	"$(jq -c -n --argjson s "$S" --argjson l "$L" "[[\$s,4242,\"0\",\"$PS\"],[\$l,null,null,\"$PL\"]] | sort_by(.[0])")" \
	"the storm's processes: S with its job and step, L with none"
check_match "$(rc watchdog stats dev sim0 | tr '\n' ' ')" "pid $S comm qptraffic qps [0-9]+ bytes [0-9]+ cgroup $PS job 4242 step 0 " "text"
storm sim0 3 0
busywait 10000 eval '[ "$(st .restores)" = 1 ]' || fail "no restore (the job's storm)"
rc watchdog del dev sim0
in_cgroup "$PS" "$W/FS.pid" "$QPT" fail -d rxe0 -g "$gid" --how modify --hold -T 30 > "$W/FS.json" 2> "$W/FS.err" &
busywait 30000 test -s "$W/FS.json" || fail "job 4242's failing QP: $(cat "$W/FS.err")"
FS=$(cat "$W/FS.pid")
q=$(jq .qpn "$W/FS.json")
check_eq "$(rc -j qp errors dev rxe0 | jq -c --argjson q "$q" '[.[] | select(.lqpn == $q) | [.cause, .pid, .job, .step, .cgroup]]')" \
	"[[\"modify\",$FS,4242,\"0\",\"$PS\"]]" "the job's failure record: cause, owner, job, step and cgroup"
check_match "$(rc qp errors dev rxe0 | tr '\n' ' ')" "cause modify .*cgroup $PS job 4242 step 0 " "text"
kill "$FS"; wait "$FS" 2>/dev/null
log_test "job 4242: qp show job N keeps its QPs; the exporter's info series and per-job sums (owners only); a storm and a failure name it"

kill "$A" "$B" "$C" "$D" "$E1" "$E2" "$S" "$L" 2>/dev/null
wait "$A" "$B" "$C" "$D" "$E1" "$E2" "$S" "$L" 2>/dev/null
busywait 10000 eval '[ "$(rc -j qp show dev rxe0 type RC | jq length)" = 0 ]' || fail "QPs left"

# --- the exporter under churn: pods past the module's bound ---------------------------------------
# The module reloaded with room for 2 destroyed QPs' groups a device, and
# 4 pods (one QP pair each, rxe0 to rxe1) coming and going twice, ended
# one by one: pods 1 and 2 get the groups, 3 and 4's QPs go to the
# devices' "other". A running exporter is scraped after every step: the
# text promtool accepts; no per-pod sum ever lower than it was shown
# before, even after its series was dropped (a counter reset for
# Prometheus); live pods on a device with room sum their own counters; on
# a full device only pods with a group do (3 and 4: their live QPs, no
# sum); once the pods are gone, one info series per group's pod, each
# summing exactly what its pod sent in both rounds.
module_unload && modprobe ib_core && insmod "$MODULE" retired_groups=2 || fail "reload with retired_groups=2"
"$ROCECTL" exporter listen 127.0.0.1:9798 owners 2> "$W/exporter.err" &
EX=$!
busywait 20000 curl -sf -o /dev/null http://127.0.0.1:9798/metrics || fail "exporter: $(cat "$W/exporter.err")"
NP=4
declare -a PP SENT
for i in $(seq $NP); do
	u=$(printf '00000000-0000-4000-8000-%012d' "$i")
	PP[i]=/kubepods/burstable/pod$u/$(printf 'e%063d' "$i")
	SENT[i]=0
	mkdir -p "$CG${PP[i]}" "/var/log/pods/churn_job-${i}_$u/main" || fail "pod $i"
done
: > "$W/seen"
# churn_scrape: the exporter scraped into $W/ex.txt; promtool's check; no
# workload sum below the highest it has shown (kept in $W/seen). The
# exporter serves a scrape younger than a second again (its sharing
# window): each waits out the last one's, so that it reads the state
# after the step before it (on 6.12 a pod's QPs went within the window,
# and its live series was still in the next scrape).
last_scrape=0
churn_scrape() {
	local wait_ms=$((last_scrape + 1100 - $(date +%s%3N)))
	[ $wait_ms -le 0 ] || sleep "$((wait_ms / 1000)).$(printf '%03d' $((wait_ms % 1000)))"
	curl -sf -o "$W/ex.txt" http://127.0.0.1:9798/metrics || { fail "scrape"; return; }
	last_scrape=$(date +%s%3N)
	out=$(promtool check metrics < "$W/ex.txt" 2>&1) || fail "promtool: $out"
	out=$(awk '$1 ~ /^rocectl_workload_qp_/ {print $1, $2}' "$W/ex.txt" |
		awk 'FNR == NR {max[$1] = $2; next} ($1 in max) && $2 + 0 < max[$1] + 0 {print $1, max[$1], "->", $2}' "$W/seen" -)
	[ -z "$out" ] || fail "a workload sum went back: $(echo "$out" | head -n 3)"
	awk '$1 ~ /^rocectl_workload_qp_/ {print $1, $2}' "$W/ex.txt" | cat - "$W/seen" |
		awk '{if (!($1 in m) || $2 + 0 > m[$1] + 0) m[$1] = $2} END {for (k in m) print k, m[k]}' > "$W/seen.new"
	mv "$W/seen.new" "$W/seen"
}
tx() { val "rocectl_workload_qp_tx_bytes_total{device=\"rxe0\",cgroup=\"${PP[$1]}\"}"; }
for round in 1 2; do
	for i in $(seq $NP); do
		hold "Q$i" "${PP[i]}" 1
	done
	churn_scrape
	for i in $(seq $NP); do
		q=Q$i pid=${!q}
		mine=$(own "$pid" tx_bytes)
		SENT[i]=$((SENT[i] + mine))
		check_eq "$(val "rocectl_workload_qps{device=\"rxe0\",cgroup=\"${PP[i]}\"}")" 1 "round $round, pod $i's live QP"
		if [ $round = 1 ]; then
			check_eq "$(tx "$i")" "$mine" "round 1, room left: pod $i's sum, its own counters"
		elif [ "$i" -le 2 ]; then
			check_eq "$(tx "$i")" "${SENT[i]}" "round 2: pod $i's sum, its group's and its live QP's"
		else
			check_eq "$(tx "$i")" "" "round 2, the device full: pod $i's live QP, no sum"
		fi
	done
	for i in $(seq $NP); do
		q=Q$i pid=${!q}
		kill "$pid"; wait "$pid" 2>/dev/null
		busywait 10000 eval '[ "$(qps "$pid")" = "[]" ]' || fail "pod $i's QPs left"
		churn_scrape
	done
	check_eq "$(grep -c '^rocectl_workload_info{' "$W/ex.txt")" 2 \
		"round $round: one info series per pod with a group: $(grep '^rocectl_workload_info{' "$W/ex.txt" | tr '\n' '|')"
	for i in 1 2; do
		check_eq "$(tx "$i")" "${SENT[i]}" "round $round: pod $i's sum, all it sent"
		grep -q "^rocectl_workload_info{cgroup=\"${PP[i]}\",namespace=\"churn\",pod=\"job-$i\"," "$W/ex.txt" ||
			fail "pod $i's info series"
	done
	check_eq "$(grep -c "cgroup=\"${PP[3]}\"\|cgroup=\"${PP[4]}\"" "$W/ex.txt")" 0 "round $round: pods 3 and 4, gone into other, dropped"
done
[ "${SENT[1]}" -ge $((2 * 20 * 1024)) ] || fail "pod 1 sent ${SENT[1]} bytes, less than 2 rounds of 20 messages of 1024"
kill "$EX"; wait "$EX" 2>/dev/null
log_test "exporter under churn past the module's bound: no pod's sum goes back, one info series per pod with a group"
module_unload || fail "unload"
rxe_del rxe0; rxe_del rxe1
rmmod simnic || fail "rmmod simnic"
kubepods_unmount "$PA" "$PB" "$PC" "$PE1" "$PE2" "$PS" "$PL" "${PP[@]}"
ip netns del pod-a; ip netns del pod-b
kmsg_check
rm -rf "$W"
