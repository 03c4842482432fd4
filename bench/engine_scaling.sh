#!/usr/bin/env bash
# Engine scaling benchmark. Replays METIS halo patterns of P = 512, 2048 and
# 8192 ranks on the Betzy-like platform with each model asked for and prints
# wall time (inputs and simulation), peak memory and messages simulated per
# second; for the staircase also the time of its closed form (contend analyze).
#
# The patterns come from one fixed mesh, as Thune et al.'s Table IV
# partitions one large reservoir mesh for every P: 400,000 active cells,
# 6 ghost layers, 240 bytes per ghost cell (about 16k, 102k and 1.4M
# messages). They are generated once into the output folder.
#
# usage: bench/engine_scaling.sh [--models "staircase maxmin"] [--ranks "512 2048 8192"] [--time-limit SECONDS] [--out DIR] [--bin CONTEND]
#   --bin CONTEND: the contend executable to measure (default: build/bin/contend of
#   this tree), e.g. an older build to compare with
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build/bin/contend"
models="staircase maxmin"
ranks="512 2048 8192"
limit=600
out="$root/build/bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --models) models=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    *) echo "usage: $0 [--models \"staircase maxmin\"] [--ranks \"512 2048 8192\"] [--time-limit SECONDS] [--out DIR] [--bin CONTEND]" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build contend first (make build)" >&2; exit 1; }
mkdir -p "$out"

echo "contend engine benchmark: models $models on platforms/betzy-64.yaml, wall-clock limit ${limit} s per run"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"
for p in $ranks; do
  pattern="$out/halo-$p.pattern"
  if [ ! -f "$pattern" ]; then
    start=$(date +%s%N)
    "$bin" generate-pattern --ranks "$p" --cells 400000 --overlap 6 --bytes-per-cell 240 -o "$pattern" > "$out/generate-$p.log"
    echo "P=$p: generated $(tail -1 "$out/generate-$p.log" | sed 's/^wrote [^:]*: //') in $(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}') s"
  fi
  for model in $models; do
    result=$("$bin" simulate --platform "$root/platforms/betzy-64.yaml" --pattern "$pattern" --mapping block \
               --model "$model" --quiet --stats --time-limit "$limit" 2>&1) || true
    echo "P=$p $model: ${result#contend: }"
    if [ "$model" = staircase ]; then
      start=$(date +%s%N)
      "$bin" analyze --platform "$root/platforms/betzy-64.yaml" --pattern "$pattern" --mapping block --quiet
      echo "P=$p staircase closed form (analyze): $(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN {printf "%.3f", (b - a) / 1e9}') s"
    fi
  done
done
