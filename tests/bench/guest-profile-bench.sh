#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: where rocectl's cycles go. perf record -a -g around one
# run of each of the qp benchmark's packet rows and its QP rate (rocectl
# loaded), then around a JSON dump of 10,000 QPs. Prints perf's shares:
# rocectl's entry points inclusive, the kernel paths beside them, the idle
# share. Asserts nothing.
. "$(dirname "$0")/guest-rows.sh"
W=$(mktemp -d)

report() {	# perf.data, the symbols to show (a regex), --children or not
	perf report -i "$1" "$3" -g none --sort sym --stdio 2> /dev/null | grep '%' | grep -E "$2" | head -n 25
}

module_load
for row in wlat wbw lat rate; do
	# The rows are functions: perf runs a shell that has them.
	perf record -F 4999 -a -g -o "$W/p.$row" -- bash -c \
		"$(declare -f perftest "$row"); $(declare -p QPT LAT); $row" > "$W/out" 2> /dev/null
	echo "=== $row: $(tail -n 1 "$W/out")"
	echo "--- idle"
	report "$W/p.$row" 'safe_halt|default_idle' --no-children
	echo "--- the kernel paths beside rocectl (inclusive)"
	report "$W/p.$row" ' (rxe_rcv|rxe_xmit_packet|rxe_requester|rxe_completer|ip_rcv|ip_output|ib_uverbs_ioctl|ib_uverbs_write|ib_create_qp_user|ib_destroy_qp_user|_ib_modify_qp|do_syscall_64)$' --children
	echo "--- rocectl and the hook mechanisms (inclusive, self)"
	report "$W/p.$row" 'rocectl|kprobe|rethook|nf_hook_slow|optimized_callback|ftrace_trampoline' --children
done

"$QPT" many -d rxe0 -n 10000 --state init --hold > "$W/many.json" &
many=$!
busywait 300000 test -s "$W/many.json"
perf record -F 4999 -g -o "$W/p.dump" -- "$ROCECTL" -j qp show > /dev/null 2>&1
echo "=== dump of 10,000 QPs: rocectl -j qp show (its own samples)"
perf report -i "$W/p.dump" --no-children -g none --sort dso,sym --stdio 2> /dev/null | grep '%' | head -n 40
kill $many; wait $many
module_unload
