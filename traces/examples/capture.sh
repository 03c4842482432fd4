#!/usr/bin/env bash
# Captures the sample applications' traces with libcontend-trace.so, as
# shipped in traces/examples/traces/APP-RANKS/ (TI trace, Denis profile,
# measured times). Real runs use 2 ranks (this machine has 2 cores); more
# ranks need --oversubscribe and are for format tests only.
# usage: traces/examples/capture.sh [RANKS=2] [OUT=traces/examples/traces]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ranks=${1:-2}
out=${2:-$root/traces/examples/traces}
bin=$root/build/bin
lib=$root/build/lib/libcontend-trace.so
for f in "$lib" "$bin/jacobi3d" "$bin/cg" "$bin/bcast_heavy"; do
  [ -e "$f" ] || { echo "build first (make build): $f is missing" >&2; exit 1; }
done
oversubscribe=()
[ "$ranks" -gt 2 ] && oversubscribe=(--oversubscribe)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The computation in the traces is in flops at the testbed's 1 Gflop/s cores.
for app in "jacobi3d 48 50" "cg 40 40" "bcast_heavy 12"; do
  set -- $app
  name=$1
  shift
  dir=$out/$name-$ranks
  rm -rf "$dir"
  mpirun -np "$ranks" "${oversubscribe[@]}" -x LD_PRELOAD="$lib" -x CONTEND_TRACE_DIR="$dir" \
    -x CONTEND_TRACE_SPEED=1e9 "$bin/$name" "$@"
done
