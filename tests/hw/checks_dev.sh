# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/hw/accept.sh: the host's facts for the report, the
# devices and ports against rdma(8) and ethtool(8), PFC against dcb(8).

# "DEV PORT NETDEV" for every port of the devices run on, as rdma(8) says.
hw_ports() {
	local d
	for d in $DEVS; do
		timeout "$T" rdma -j link show | jq -r --arg d "$d" '.[] | select(.ifname == $d) | "\(.ifname) \(.port) \(.netdev // "-")"'
	done
}

# The netdevs of those ports, once each.
hw_netdevs() {
	hw_ports | awk '$3 != "-" {print $3}' | sort -u
}

hw_host_facts() {
	local n d
	hw_host_fact kernel "\"$(uname -r)\""
	hw_host_fact rocectl_module "\"$MODULE_STATE\""
	hw_host_fact ofed "\"$( (ofed_info -s 2>/dev/null || echo none) | head -n 1)\""
	hw_host_fact doca "\"$(dpkg-query -W -f '${Version}' doca-ofed 2>/dev/null || echo none)\""
	hw_host_fact rdma_dev "$(timeout "$T" rdma -j dev show)"
	hw_host_fact rdma_link "$(timeout "$T" rdma -j link show)"
	hw_host_fact devlink_dev_info "$(timeout "$T" devlink -j dev info 2>/dev/null || echo '"devlink: none"')"
	for d in $DEVS; do
		hw_host_fact "pci_$d" "\"$(basename "$(readlink -f "/sys/class/infiniband/$d/device")") $(cat "/sys/class/infiniband/$d/device/vendor" "/sys/class/infiniband/$d/device/device" 2>/dev/null | tr '\n' ' ')\""
	done
	for n in $(hw_netdevs); do
		hw_host_fact "netdev_$n" "$(ip -j addr show dev "$n")"
		hw_host_fact "ethtool_i_$n" "\"$(ethtool -i "$n" 2>/dev/null | tr '\n' ';')\""
		hw_host_fact "pfc_$n" "$(timeout "$T" dcb -j pfc show dev "$n" 2>/dev/null || echo '"no DCB"')"
		hw_host_fact "app_$n" "$(timeout "$T" dcb -j app show dev "$n" 2>/dev/null || echo '"no DCB"')"
	done
	hw_host_fact other_users_qps "$n_other"
	hw_host_fact allow_changes "$ALLOW_CHANGES"
	if [ "$HW_NO_REDACT" = 1 ]; then
		hw_host_fact other_users_qp_owners "$(jq -c '[.[] | {ifname, lqpn, pid, comm}]' <<< "$OTHER_QPS")"
	else
		hw_host_fact other_users_qp_owners "\"[redacted]\""
	fi
}

# Devices and ports: rocectl dev show against rdma link show (port, state,
# netdev), and each port's netdev's link against ethtool.
hw_check_devices() {
	local d r ref p n st link
	export HW_CHECK=devices
	for d in $DEVS; do
		r=$(rc -j dev show "$d" | jq -r '.[0].ports[] | "\(.port):\(.state):\(.netdev // "-")"' 2>&1 | sort | paste -sd, -)
		ref=$(timeout "$T" rdma -j link show | jq -r --arg d "$d" '.[] | select(.ifname == $d) | "\(.port):\(.state):\(.netdev // "-")"' | sort | paste -sd, -)
		hw_compare "devices/$d" "$r" "$ref" "$([ -n "$ref" ] && echo yes || echo no)"
	done
	while read -r d p n; do
		[ "$n" != - ] || { hw_skip "link/$d/$p" "no netdev"; continue; }
		st=$(rc -j dev show "$d" | jq -r ".[0].ports[] | select(.port == $p) | .state")
		[ "$st" = ACTIVE ] && r=up || r=down
		link=$(ethtool "$n" 2>/dev/null | sed -n 's/^[[:space:]]*Link detected: //p')
		[ "$link" = yes ] && ref=up || ref=down
		hw_compare "link/$d/$p" "$r" "$ref" yes "port state $st; ethtool $n: Link detected: $link"
	done < <(hw_ports)
}

# PFC's enabled priorities as rocectl check reads them (its pfc line for
# priority 0 names the others), "3" or "3,4" or "none".
rocectl_pfc() {
	local ev
	ev=$(rc -j check dev "$1" prio 0 2>/dev/null | jq -r '.[] | select(.check == "pfc") | .evidence' | head -n 1)
	case $ev in
	"PFC on priority 0 only"*) echo 0 ;;
	"PFC is off on priority 0"*) sed -E 's/.*enabled on ([0-9,none-]+).*/\1/' <<< "$ev" ;;
	"PFC is also on priority"*) echo "0,$(sed -E 's/PFC is also on priority ([0-9,-]+).*/\1/' <<< "$ev")" ;;
	*) echo "unread($ev)" ;;
	esac
}

# dcb(8)'s, the same form.
dcb_pfc() {
	timeout "$T" dcb -j pfc show dev "$1" 2>/dev/null |
		jq -r '[.prio_pfc | to_entries[] | select(.value) | .key] | if length == 0 then "none" else join(",") end'
}

hw_check_pfc() {
	local n r ref
	export HW_CHECK=pfc
	for n in $(hw_netdevs); do
		if ! ref=$(dcb_pfc "$n") || [ -z "$ref" ]; then
			hw_skip "pfc/$n" "no DCB on $n (dcb pfc show fails)"
			continue
		fi
		r=$(rocectl_pfc "$n")
		if [ "$r" = none ] && [ "$ref" = none ]; then
			hw_skip "pfc/$n" "PFC on no priority, as both say: nothing to tell apart"
		else
			hw_compare "pfc/$n" "$r" "$ref" yes
		fi
	done
}
