#!/usr/bin/env bash
# Scale benchmark (issue 18): every registered model (the list `contend
# models` prints) on METIS halo exchanges of P = 512, 2048 and 8192 ranks on
# bench/platforms/testbed-64x128.yaml (platforms/testbed.yaml widened to 64
# nodes x 128 cores, so that every model has its parameters), block mapping.
# One mesh of 400,000 active cells, 10 ghost layers, 240 B per ghost cell:
# 2.75 M messages at P = 8192 (the scale of Thune
# et al.'s Table IV); the patterns are generated once into the output folder.
#
# Prints one markdown table row per run: wall time split into reading the
# inputs, simulating and writing the per-rank and messages CSV files, peak
# memory (RSS) and messages simulated per second (`contend simulate --stats`).
#
# usage: bench/scale.sh [--models "staircase taulop"] [--ranks "512 2048 8192"] [--time-limit SECONDS]
#                       [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models=""
ranks="512 2048 8192"
limit=120
bench_options '[--models "..."] [--ranks "512 2048 8192"] [--time-limit SECONDS]' \
  models=models ranks=ranks time-limit=limit -- "$@"
platform=$root/bench/platforms/testbed-64x128.yaml
bench_start
[ -n "$models" ] || models=$("$bin" models | awk '/^[a-z]/ {print $1}' | tr '\n' ' ')
echo "contend scale benchmark: models $models on bench/platforms/testbed-64x128.yaml, wall-clock limit ${limit} s per run"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

patterns=()
for p in $ranks; do
  halo_pattern "$p" 10
  patterns+=("$pattern")
done
echo
echo "| model | P | messages | wall | read | simulate | write | peak RSS | messages/s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for model in $models; do
  i=0
  for p in $ranks; do
    pattern=${patterns[i]}
    i=$((i + 1))
    result=$("$bin" simulate --platform "$platform" --pattern "$pattern" --mapping block --model "$model" \
      --per-rank "$out/scale-ranks.csv" --messages "$out/scale-messages.csv" --quiet --stats \
      --time-limit "$limit" 2>&1) || true
    stats=$(grep '^stats:' <<< "$result" || true)
    if [ -z "$stats" ]; then
      echo "| $model | $p | | ${result#contend: } | | | | | |"
      continue
    fi
    # stats: wall W s (inputs R s, simulation S s, output files O s), peak memory M MiB, N messages, X messages/s simulated
    sed -E 's/^stats: wall ([0-9.]+) s \(inputs ([0-9.]+) s, simulation ([0-9.]+) s, output files ([0-9.]+) s\), peak memory ([0-9.]+) MiB, ([0-9]+) messages, ([0-9]+) messages\/s.*/| '"$model"' | '"$p"' | \6 | \1 s | \2 s | \3 s | \4 s | \5 MiB | \7 |/' <<< "$stats"
  done
done
rm -f "$out/scale-ranks.csv" "$out/scale-messages.csv"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
