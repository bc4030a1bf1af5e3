# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: each of the run's own QPs' UDP source port
# as rocectl shows it against the QP context the NIC itself holds, as
# "rdma res show qp -r" dumps it (mlx5's raw resource dump), decoded here
# from mlx5_ifc.h's layouts -- independently of rocectl's own decoder.
#
# The dump is a list of segments, each opening with
# resource_dump_segment_header (length_dw: bits 0x00-0x0f, segment_type:
# 0x10-0x1f). mlx5's own segments (info 0xfffe, command 0xfffa, terminate
# 0xfffb, ...) sit above 0xfeff; the resource segment (the firmware's
# PRM_QUERY_QP type) holds resource_dump_resource_segment: index1, the
# QPN, at byte 8, then from byte 16 (its payload) the QUERY_QP command's
# output, query_qp_out: qpc at bit 0xc0 (byte 24), in it
# primary_address_path (struct ads) at bit 0x180 (byte 48 of the output),
# in that udp_sport at bit 0x110: byte 16 + 24 + 24 + 34 of the segment,
# 16 bits, big-endian.

# raw_sports DEV: "QPN SPORT" for every QP whose raw context rdma(8) dumps
# on DEV, once each (iproute2 6.1's JSON may list a QP twice).
raw_sports() {
	timeout "$T" rdma -j res show qp link "$1" -r | jq -r '
		def be16($b; $o): $b[$o] * 256 + $b[$o + 1];
		def be32($b; $o): ((($b[$o] * 256 + $b[$o + 1]) * 256 + $b[$o + 2]) * 256 + $b[$o + 3]);
		def res($b; $o):
			if $o + 4 > ($b | length) then empty
			else be16($b; $o) as $len | be16($b; $o + 2) as $type |
				if $type <= 65279 then
					(if 4 * $len >= 16 + 24 + 24 + 36 then
						{qpn: be32($b; $o + 8), sport: be16($b; $o + 16 + 24 + 24 + 34)}
					else empty end)
				elif $len == 0 then empty
				else res($b; $o + 4 * $len) end
			end;
		.[] | select(.data != null) | .data as $b | res($b; 0) | "\(.qpn) \(.sport)"' | sort -n -u
}

# rocectl's: "QPN SPORT" of DEV's QPs of those QPNs (a JSON array), with
# where it says the port came from.
rocectl_sports() {
	rc -j qp show dev "$1" | jq -r --argjson qpns "$2" \
		'.[] | select(.lqpn as $q | $qpns | index($q)) | "\(.lqpn) \(.sport // "-") \(.sport_source // "-")"' | sort -n
}

# Whether DEV's raw QP contexts have mlx5's layout: a ConnectX, or the
# test suite's stand-in with mlx5's driver id.
raw_mlx5() {
	[ "$(basename "$(readlink -f "/sys/class/infiniband/$1/device/driver" 2>/dev/null)" 2>/dev/null)" = mlx5_core ] ||
		standin_raw_mlx5 "$1"
}

# hw_check_sport DEV QPNS: the run's QPs (QPNS, a JSON array, alive) on DEV.
hw_check_sport() {
	local d=$1 qpns=$2 r ref src bad
	export HW_CHECK=sport
	if ! raw_mlx5 "$d"; then
		hw_skip "sport_qpc/$d" "not a ConnectX (mlx5): no raw QP context in mlx5's layout to decode"
		return
	fi
	if [ "$qpns" = '[]' ]; then
		hw_incomplete "sport_qpc/$d" "no QP of the run's to compare"
		return
	fi
	r=$(rocectl_sports "$d" "$qpns")
	src=$(awk '$3 != "hardware" {print $1 ":" $3}' <<< "$r" | paste -sd, -)
	r=$(awk '{print $1 ":" $2}' <<< "$r" | paste -sd, -)
	if ! ref=$(raw_sports "$d" 2>&1); then
		hw_result FAIL "sport_qpc/$d" "$r" "-" yes "rdma res show qp link $d -r: $(head -n 1 <<< "$ref")"
		return
	fi
	ref=$(awk 'NR == FNR {want[$1]; next} $1 in want {print $1 ":" $2}' \
		<(jq -r '.[]' <<< "$qpns") <(echo "$ref") | paste -sd, -)
	bad=$(tr ',' '\n' <<< "$ref" | awk -F: '$2 == 0' | paste -sd, -)
	if [ -n "$src" ]; then
		hw_result FAIL "sport_qpc/$d" "$r" "$ref" yes "rocectl's port not the hardware's for $src"
	elif [ -n "$bad" ] || [ -z "$ref" ]; then
		hw_compare "sport_qpc/$d" "$r" "$ref" no "the raw contexts hold no port for the run's QPs"
	else
		hw_compare "sport_qpc/$d" "$r" "$ref" yes \
			"the run's QPs' udp_sport from rdma res show qp -r, decoded from mlx5_ifc.h's qpc layout"
	fi
}
