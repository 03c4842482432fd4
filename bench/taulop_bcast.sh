#!/usr/bin/env bash
# Speed of the taulop model on pipelined broadcasts: Open MPI's chain
# (pipeline) and binomial broadcasts of 4 MB in 8 KB segments (512 segments,
# P - 1 messages each: 0.2 to 0.5 million messages) on Gros with the paper's
# process counts (platforms/gros.yaml). Prints wall time, peak memory and
# messages simulated per second.
#
# usage: bench/taulop_bcast.sh [--ranks "400 1000"] [--time-limit SECONDS] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/bin/contend"
ranks="400 1000"
limit=600
out="$root/build/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--ranks \"400 1000\"] [--time-limit SECONDS] [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build contend first (make build)" >&2; exit 1; }
mkdir -p "$out"
platform=$root/platforms/gros.yaml
echo "contend taulop benchmark on $(basename "$platform"), wall-clock limit ${limit} s per run"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"
for p in $ranks; do
  pattern="$out/bcast4M-$p.pattern"
  printf 'ranks %d\nbcast 0 4M\n' "$p" > "$pattern"
  for algorithm in pipeline binomial; do
    result=$("$bin" simulate --platform "$platform" --pattern "$pattern" --mapping block --model taulop \
               --coll "bcast=$algorithm:8192" --quiet --stats --time-limit "$limit" 2>&1) || true
    echo "P=$p $algorithm: ${result#contend: }"
  done
done
