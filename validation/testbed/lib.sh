# Shared settings and helpers of the emulated cluster (sourced, not run).
#
# K nodes are network namespaces joined by a bridge (the switch). Every
# object the scripts create carries the prefix CTD_PREFIX and is recorded in
# the state directory, so that teardown deletes exactly those and nothing else.
#
# Settings (environment variables, defaults below):
#   CTD_NODES    number of nodes (namespaces)                        6
#   CTD_SUITE_NODES  nodes the workloads and the multi-pair           4
#                calibration run on (the first ones); the others serve
#                the six-node conflict benchmark of the flowcut model
#   CTD_SLOTS    MPI slots per node (ranks per node)                 4
#   CTD_RATE     htb rate of every node link, each direction         100mbit
#   CTD_BURST    htb burst (bytes): 1600 = one MTU frame             1600
#   CTD_QUEUE    packets queued per shaped link (pfifo limit)        100
#   CTD_DELAY    added one-way delay per link (needs netem)          0
#   CTD_SUBNET   first three octets of the private /24               10.213.37
#   CTD_PREFIX   name prefix of namespaces, bridge, veths            ctd
#   CTD_STATE    state directory (what was created, saved sysctls)   /run/ctd-testbed
#   CTD_CC       TCP congestion control inside the nodes             cubic

CTD_NODES=${CTD_NODES:-6}
CTD_SUITE_NODES=${CTD_SUITE_NODES:-4}
CTD_SLOTS=${CTD_SLOTS:-4}
CTD_RATE=${CTD_RATE:-100mbit}
CTD_BURST=${CTD_BURST:-1600}
CTD_QUEUE=${CTD_QUEUE:-100}
CTD_DELAY=${CTD_DELAY:-0}
CTD_SUBNET=${CTD_SUBNET:-10.213.37}
CTD_PREFIX=${CTD_PREFIX:-ctd}
CTD_STATE=${CTD_STATE:-/run/ctd-testbed}
CTD_CC=${CTD_CC:-cubic}

CTD_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CTD_BRIDGE="${CTD_PREFIX}-br"
CTD_BRIDGE_ADDR="${CTD_SUBNET}.254"
CTD_CIDR="${CTD_SUBNET}.0/24"

ctd_die() { echo "testbed: error: $*" >&2; exit 1; }
ctd_log() { echo "testbed: $*" >&2; }

ctd_node() { echo "${CTD_PREFIX}-n$1"; }        # namespace name = hostname of node i
ctd_node_addr() { echo "${CTD_SUBNET}.$(($1 + 1))"; }
ctd_veth_bridge() { echo "${CTD_PREFIX}-b$1"; } # bridge side: its egress is the node's downlink
ctd_veth_node() { echo "${CTD_PREFIX}-e$1"; }   # node side: its egress is the node's uplink

# Settings of the testbed that is up, as recorded by up.sh (so that later
# scripts use what was built, not what the environment says now).
ctd_load_state() {
  [ -f "$CTD_STATE/config" ] || ctd_die "no testbed is up (no $CTD_STATE/config); run validation/testbed/up.sh"
  # shellcheck disable=SC1091
  . "$CTD_STATE/config"
}

ctd_require_root() {
  [ "$(id -u)" -eq 0 ] || ctd_die "needs root (network namespaces, tc)"
}

# Fails loudly when this machine cannot host the testbed.
ctd_check_capabilities() {
  ctd_require_root
  for tool in ip tc ethtool unshare mpirun; do
    command -v "$tool" >/dev/null || ctd_die "'$tool' not found: run scripts/install-deps.sh"
  done
  local probe="${CTD_PREFIX}-probe$$"
  ip netns add "$probe" 2>/dev/null || ctd_die "cannot create network namespaces here ('ip netns add' failed): the testbed needs them"
  ip netns delete "$probe"
}

# Bytes sent on a shaped link, from its htb class counters.
ctd_tc_bytes() {  # ctd_tc_bytes NETNS_OR_- DEVICE
  local ns=$1 dev=$2 out
  if [ "$ns" = - ]; then out=$(tc -s class show dev "$dev"); else out=$(ip netns exec "$ns" tc -s class show dev "$dev"); fi
  echo "$out" | awk '/^class htb 1:10/ {found=1} found && /Sent/ {print $2; exit}'
}

# Packets dropped by every shaped link's queue and TCP segments retransmitted
# in every node, summed: "DROPS RETRANSMITS" (counters since set-up).
ctd_loss_counters() {
  local drops=0 retrans=0 i ns d r
  for i in $(seq 0 $((CTD_NODES - 1))); do
    ns=$(ctd_node "$i")
    d=$(ip netns exec "$ns" tc -s qdisc show dev "$(ctd_veth_node "$i")" | awk '/^qdisc htb/ {getline; gsub(",", ""); print $7; exit}')
    drops=$((drops + d))
    d=$(tc -s qdisc show dev "$(ctd_veth_bridge "$i")" | awk '/^qdisc htb/ {getline; gsub(",", ""); print $7; exit}')
    drops=$((drops + d))
    r=$(ip netns exec "$ns" nstat -saz TcpRetransSegs | awk '$1 == "TcpRetransSegs" {print $2}')
    retrans=$((retrans + r))
  done
  echo "$drops $retrans"
}
