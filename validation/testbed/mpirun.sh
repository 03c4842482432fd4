#!/usr/bin/env bash
# Runs mpirun across the emulated cluster that is up (see up.sh):
#   mpirun.sh [mpirun options] PROGRAM [ARGS]
# mpirun stays in the root namespace; its launch agent (agent.sh) starts one
# daemon per node inside the node's namespace. Ranks use TCP between nodes and
# shared memory (vader) inside a node. The settings below are part of what
# the calibration and the predictions assume:
#   --bind-to none           every node sees the same 2 cores; binding would pin
#                            ranks of different nodes onto one core
#   mpi_yield_when_idle 1    more ranks than cores: waiting ranks yield the CPU
#   btl_tcp_flags without put  the TCP BTL's RDMA put protocol serialises two
#                            messages going opposite ways between a pair of
#                            ranks; without it the links are full duplex
# Placement: the hostfile lists the first CTD_HOSTS nodes (default
# CTD_SUITE_NODES) with CTD_SLOTS slots each; by default ranks fill node by
# node (contend's 'block'); pass --map-by node for 'cyclic'. CTD_RANKFILE=FILE
# places the ranks by an Open MPI rankfile instead (validation/mapping/run.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_load_state

hostfile="$CTD_STATE/hostfile"
: > "$hostfile.tmp"
hosts=${CTD_HOSTS:-$CTD_SUITE_NODES}
[ "$hosts" -ge 1 ] && [ "$hosts" -le "$CTD_NODES" ] || ctd_die "CTD_HOSTS must be 1..$CTD_NODES, got $hosts"
for i in $(seq 0 $((hosts - 1))); do echo "$(ctd_node "$i") slots=$CTD_SLOTS" >> "$hostfile.tmp"; done
mv "$hostfile.tmp" "$hostfile"

session=$(mktemp -d "/tmp/${CTD_PREFIX}-ompi.XXXXXX")
trap 'rm -rf "$session"' EXIT

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PMIX_MCA_gds=hash
placement=()
[ -z "${CTD_RANKFILE:-}" ] || placement=(--rankfile "$CTD_RANKFILE")
mpirun --hostfile "$hostfile" "${placement[@]}" --oversubscribe --bind-to none \
  --mca plm_rsh_agent "$CTD_DIR/agent.sh" --mca plm_rsh_no_tree_spawn 1 --leave-session-attached \
  --mca orte_tmpdir_base "$session" \
  --mca oob_tcp_if_include "$CTD_CIDR" --mca btl_tcp_if_include "$CTD_CIDR" \
  --mca btl self,vader,tcp --mca btl_tcp_flags send,inplace,need-ack,need-csum,hetero-rdma \
  --mca mpi_yield_when_idle 1 \
  "$@"
