#!/usr/bin/env bash
# The Open MPI 4.1 rankfile that contend writes, checked with the real
# mpirun on the emulated cluster (validation/testbed): every rank reports
# the host it runs on and the CPUs it is bound to, which must be the host
# and core its rankfile line names.
#   rankfile_check.sh CONTEND_BINARY
# Uses its own namespaces and subnet (prefix ctmap, 10.213.41.0/24) and
# tears them down on exit. Needs root (network namespaces) and Open MPI.
# The machine's cores are shared by every emulated node, so each node gets
# as many slots as this machine has cores (the testbed platform's 4 cores
# per node would name cores that do not exist here).
set -euo pipefail
contend=$(realpath "${1:?usage: rankfile_check.sh CONTEND_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
testbed="$root/validation/testbed"
export CTD_PREFIX=ctmap CTD_SUBNET=10.213.41 CTD_STATE=/run/ctmap-testbed CTD_NODES=4 CTD_SUITE_NODES=4
. "$testbed/lib.sh"
ctd_check_capabilities

work=$(mktemp -d /tmp/ctmap-check.XXXXXX)
cleanup() {
  "$testbed/down.sh" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"$testbed/up.sh" >/dev/null 2>&1 || ctd_die "up.sh failed"
ctd_load_state

cores=$(nproc)
ranks=$((CTD_NODES * cores))
for i in $(seq 0 $((CTD_NODES - 1))); do echo "$(ctd_node "$i") slots=$cores"; done > "$work/hosts"
session="$work/session"
mkdir -p "$session"

# A rank's report: "RANK HOST CPULIST", the CPUs the launcher bound it to.
reporter='echo "$OMPI_COMM_WORLD_RANK $(hostname) $(taskset -pc $$ | sed "s/.*: //")"'

status=0
check() {  # check MAPPING: export it, run it, compare
  local mapping=$1 rankfile="$work/check.rankfile"
  "$contend" mapping export --platform "$root/platforms/testbed.yaml" --hosts "$work/hosts" \
    --mapping "$mapping" --ranks "$ranks" --launcher ompi4 -o "$rankfile" --quiet
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_gds=hash
  mpirun -np "$ranks" --rankfile "$rankfile" \
    --mca plm_rsh_agent "$CTD_DIR/agent.sh" --mca plm_rsh_no_tree_spawn 1 \
    --mca orte_tmpdir_base "$session" --mca oob_tcp_if_include "$CTD_CIDR" \
    sh -c "$reporter" > "$work/measured.txt" 2> "$work/mpirun.err" || {
    cat "$work/mpirun.err" >&2
    ctd_die "mpirun failed for mapping $mapping"
  }
  # Expected: "RANK HOST CORE" from the rankfile (one socket: the core is the CPU).
  sed -n 's/^rank \([0-9]*\)=\([^ ]*\) slot=0:\([0-9]*\)$/\1 \2 \3/p' "$rankfile" | sort -n > "$work/expected.txt"
  sort -n "$work/measured.txt" > "$work/measured.sorted"
  if diff -u "$work/expected.txt" "$work/measured.sorted" > "$work/diff.txt"; then
    echo "rankfile check: $mapping: $ranks ranks placed as the rankfile says"
  else
    echo "rankfile check: $mapping: placement differs from the rankfile (expected, measured):"
    cat "$work/diff.txt"
    status=1
  fi
}

# A scrambled mapping in contend's own format, and launchers' mappings
# (those that fill the hosts' slots: block and cyclic fill the platform's cores).
awk -v nodes="$CTD_NODES" -v cores="$cores" 'BEGIN {
  n = nodes * cores
  for (r = 0; r < n; ++r) { slot = (r * 5 + 3) % n; print r, int(slot / cores), 0, slot % cores }
}' > "$work/scrambled.map"
for mapping in "$work/scrambled.map" ompi:default ompi:node slurm:cyclic slurm:plane=3; do check "$mapping"; done
exit $status
