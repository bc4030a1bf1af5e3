#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, inside the guest.
. "$(dirname "$0")/../guest/lib.sh"

say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

veth_pair 1 2
modprobe rdma_rxe
say insmod "$MODULE"
say rdma link add rxe0 type rxe netdev veth1
say "$ROCECTL" dev show
"$ROCECTL" -j monitor > /tmp/events &
sleep 1
say rdma link add rxe1 type rxe netdev veth2
say "$ROCECTL" -p dev show rxe1
sleep 0.5
printf '\n\033[1mevents seen by "rocectl -j monitor":\033[0m\n'
cat /tmp/events
