#!/usr/bin/env bash
# Scaling of the flowcut model (Martinasso & Mehaut) on large patterns: the
# METIS halo patterns of bench/engine_scaling.sh (one mesh of 400,000 cells,
# 6 ghost layers, 240 B per ghost cell; P = 512, 2048, 8192 ranks) on the
# 105-node GigaEth cluster of platforms/martinasso-gigaeth-lam.yaml, ranks
# oversubscribed onto its 210 cores (communication only: the cores do not
# matter). Every node then carries hundreds of flows in each direction, the
# crowded case where each start or end changes the rate of a whole group.
# Prints wall time, peak memory and messages simulated per second.
#
# usage: bench/flowcut_scaling.sh [--ranks "512 2048 8192"] [--time-limit SECONDS] [--out DIR] [--bin CONTEND]
#   --bin CONTEND: the contend executable to measure (default: build/bin/contend of
#   this tree), e.g. an older build to compare with
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/bin/contend"
ranks="512 2048 8192"
limit=600
out="$root/build/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    *) echo "usage: $0 [--ranks \"512 2048 8192\"] [--time-limit SECONDS] [--out DIR] [--bin CONTEND]" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build contend first (make build)" >&2; exit 1; }
mkdir -p "$out"
platform=$root/platforms/martinasso-gigaeth-lam.yaml
echo "contend flowcut benchmark on $(basename "$platform"), wall-clock limit ${limit} s per run"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"
for p in $ranks; do
  pattern="$out/halo-$p.pattern"
  [ -f "$pattern" ] || "$bin" generate-pattern --ranks "$p" --cells 400000 --overlap 6 --bytes-per-cell 240 -o "$pattern" > /dev/null
  result=$("$bin" simulate --platform "$platform" --pattern "$pattern" --oversubscribe --mapping block --model flowcut \
             --quiet --stats --time-limit "$limit" 2>&1) || true
  echo "P=$p: ${result#contend: }"
done
