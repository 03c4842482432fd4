#!/usr/bin/env bash
# Changes the queue depth of every shaped link of the testbed that is up, in
# place: the pfifo below each htb class (up.sh) gets a limit of PACKETS, on
# the node side (uplink) and the bridge side (downlink) of every node. The
# links' rate and everything else stay; the recorded CTD_QUEUE follows, so
# that later scripts see the depth in force.
#   set-queue.sh PACKETS
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_require_root
ctd_load_state
limit=${1:?usage: set-queue.sh PACKETS}
[[ $limit =~ ^[1-9][0-9]*$ ]] || ctd_die "set-queue.sh: PACKETS must be a positive integer, got '$limit'"
[ "$CTD_DELAY" = 0 ] || ctd_die "set-queue.sh: the links carry netem (CTD_DELAY=$CTD_DELAY); only pfifo queues can be changed here"

for i in $(seq 0 $((CTD_NODES - 1))); do
  ip netns exec "$(ctd_node "$i")" tc qdisc change dev "$(ctd_veth_node "$i")" parent 1:10 handle 10: pfifo limit "$limit"
  tc qdisc change dev "$(ctd_veth_bridge "$i")" parent 1:10 handle 10: pfifo limit "$limit"
done
# Every link must now report the new limit.
for i in $(seq 0 $((CTD_NODES - 1))); do
  for dev in "ns $(ctd_node "$i") $(ctd_veth_node "$i")" "- - $(ctd_veth_bridge "$i")"; do
    read -r where ns name <<< "$dev"
    if [ "$where" = ns ]; then shown=$(ip netns exec "$ns" tc qdisc show dev "$name"); else shown=$(tc qdisc show dev "$name"); fi
    echo "$shown" | grep -Eq "^qdisc pfifo 10: .* limit ${limit}p" || ctd_die "set-queue.sh: $name does not show a pfifo limit of $limit packets: $shown"
  done
done
sed -i "s/^CTD_QUEUE=.*/CTD_QUEUE=$limit/" "$CTD_STATE/config"
ctd_log "queue of every shaped link: $limit packets"
