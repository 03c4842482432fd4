#!/usr/bin/env bash
# Creates the emulated cluster: CTD_NODES network namespaces (the nodes), each
# with a veth pair to a bridge (the switch), every node link shaped by htb to
# CTD_RATE in both directions. Settings: see lib.sh. Undo with down.sh.
#
#   root ns:  bridge ${CTD_PREFIX}-br (CTD_SUBNET.254, for mpirun's control traffic)
#               |- ${CTD_PREFIX}-b<i>  egress shaped: node i's downlink
#   node i:   ${CTD_PREFIX}-e<i> (CTD_SUBNET.<i+1>)  egress shaped: node i's uplink
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ctd_check_capabilities
if [ -f "$CTD_STATE/created" ]; then
  ctd_log "a previous testbed is still recorded in $CTD_STATE: tearing it down first"
  "$CTD_DIR/down.sh"
fi
[ "$CTD_NODES" -ge 2 ] && [ "$CTD_NODES" -le 200 ] || ctd_die "CTD_NODES must be 2..200, got $CTD_NODES"
[ "$CTD_SUITE_NODES" -ge 2 ] && [ "$CTD_SUITE_NODES" -le "$CTD_NODES" ] ||
  ctd_die "CTD_SUITE_NODES must be 2..CTD_NODES ($CTD_NODES), got $CTD_SUITE_NODES"
[ "$CTD_SLOTS" -ge 1 ] || ctd_die "CTD_SLOTS must be at least 1, got $CTD_SLOTS"
for i in $(seq 0 $((CTD_NODES - 1))); do
  ip netns list | grep -qw "$(ctd_node "$i")" && ctd_die "namespace $(ctd_node "$i") exists but was not made by these scripts (no record in $CTD_STATE): remove it or choose another CTD_PREFIX"
done
ip link show "$CTD_BRIDGE" >/dev/null 2>&1 && ctd_die "link $CTD_BRIDGE exists but was not made by these scripts: remove it or choose another CTD_PREFIX"
if ip -4 route show | grep -q "^${CTD_CIDR}"; then ctd_die "subnet $CTD_CIDR is already routed here: choose another CTD_SUBNET"; fi

mkdir -p "$CTD_STATE"
: > "$CTD_STATE/created"
record() { echo "$*" >> "$CTD_STATE/created"; }
trap 'ctd_log "set-up failed: tearing down what was made"; "$CTD_DIR/down.sh"' ERR

# Congestion control: BBR (this machine's default) shares a link visibly
# unfairly between flows; CUBIC is close to fair. A namespace may only pick an
# algorithm the root namespace allows: add it, and restore the list on teardown.
allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
record "sysctl net.ipv4.tcp_allowed_congestion_control $allowed"
case " $allowed " in *" $CTD_CC "*) ;; *) sysctl -q -w net.ipv4.tcp_allowed_congestion_control="$allowed $CTD_CC" ;; esac

ip link add "$CTD_BRIDGE" type bridge
record "link $CTD_BRIDGE"
ip addr add "$CTD_BRIDGE_ADDR/24" dev "$CTD_BRIDGE"
ip link set "$CTD_BRIDGE" up

# htb on a device's egress at CTD_RATE; a pfifo of CTD_QUEUE packets below it
# (optionally netem for CTD_DELAY, which this kernel may lack).
shape() {  # shape NETNS_OR_- DEVICE
  local run=()
  [ "$1" = - ] || run=(ip netns exec "$1")
  "${run[@]}" tc qdisc add dev "$2" root handle 1: htb default 10
  "${run[@]}" tc class add dev "$2" parent 1: classid 1:10 htb rate "$CTD_RATE" ceil "$CTD_RATE" burst "$CTD_BURST" cburst "$CTD_BURST" quantum 1514
  if [ "$CTD_DELAY" != 0 ]; then
    "${run[@]}" tc qdisc add dev "$2" parent 1:10 handle 10: netem delay "$CTD_DELAY" limit "$CTD_QUEUE" ||
      ctd_die "cannot add a delay of $CTD_DELAY: netem is not available in this kernel (use CTD_DELAY=0)"
  else
    "${run[@]}" tc qdisc add dev "$2" parent 1:10 handle 10: pfifo limit "$CTD_QUEUE"
  fi
  # Segmentation offloads off: frames stay MTU-sized, so htb meters what the wire would carry.
  "${run[@]}" ethtool -K "$2" tso off gso off gro off >/dev/null 2>&1 || true
}

for i in $(seq 0 $((CTD_NODES - 1))); do
  ns=$(ctd_node "$i"); bside=$(ctd_veth_bridge "$i"); nside=$(ctd_veth_node "$i")
  ip netns add "$ns"
  record "netns $ns"
  ip link add "$bside" type veth peer name "$nside"
  record "link $bside"
  ip link set "$nside" netns "$ns"
  ip link set "$bside" master "$CTD_BRIDGE"
  ip link set "$bside" up
  ip netns exec "$ns" ip link set lo up
  ip netns exec "$ns" ip addr add "$(ctd_node_addr "$i")/24" dev "$nside"
  ip netns exec "$ns" ip link set "$nside" up
  ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_congestion_control="$CTD_CC"
  # No slow-start restart after idle: every repetition starts after a pause,
  # and re-probing the rate each time is a TCP artefact, not the network's.
  ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_slow_start_after_idle=0
  shape "$ns" "$nside"
  shape - "$bside"
done

# The settings this testbed was built with, for the other scripts.
{
  for v in CTD_NODES CTD_SUITE_NODES CTD_SLOTS CTD_RATE CTD_BURST CTD_QUEUE CTD_DELAY CTD_SUBNET CTD_PREFIX CTD_CC; do
    printf '%s=%q\n' "$v" "${!v}"
  done
} > "$CTD_STATE/config"

# Every node must reach every other one through the bridge before we go on.
for i in $(seq 0 $((CTD_NODES - 1))); do
  for j in $(seq 0 $((CTD_NODES - 1))); do
    [ "$i" = "$j" ] && continue
    ip netns exec "$(ctd_node "$i")" ping -c 1 -W 2 "$(ctd_node_addr "$j")" >/dev/null ||
      ctd_die "node $i cannot reach node $j through $CTD_BRIDGE"
  done
done
trap - ERR
ctd_log "up: $CTD_NODES nodes x $CTD_SLOTS slots, links $CTD_RATE each way (burst $CTD_BURST B, queue $CTD_QUEUE packets), subnet $CTD_CIDR, $CTD_CC"
