#!/usr/bin/env bash
# Mapping search benchmark (issue 13): `contend mapping search` with its
# default budget (60 s) on METIS halo exchanges of P ranks (bench/lib.sh's
# halo_pattern: 400,000 cells, 6 ghost layers, 240 B per ghost cell) on
# platforms/betzy-64.yaml (Dragonfly+, 64 nodes x 128 cores), under each
# model given. Prints one markdown row per run: wall time (the budget is
# checked before each round; the first wave of starting points always runs),
# peak memory, simulations run, and the predicted gain of the best mapping
# over block and over Open MPI 4.1's default. 8192 ranks need a larger
# budget: bench/mapping_search.sh --ranks 8192 --budget 600.
#
# usage: bench/mapping_search.sh [--models "maxmin staircase"] [--ranks "64 512"] [--budget SECONDS]
#                                [--jobs N] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models="maxmin staircase"
ranks="64 512"
budget=60
jobs=$(nproc)
bench_options '[--models "..."] [--ranks "64 512"] [--budget SECONDS] [--jobs N]' \
  models=models ranks=ranks budget=budget jobs=jobs -- "$@"
platform=$root/platforms/betzy-64.yaml
bench_start
echo "contend mapping search benchmark: models $models on platforms/betzy-64.yaml, budget ${budget} s, $jobs jobs"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
patterns=()
for p in $ranks; do
  halo_pattern "$p"
  patterns+=("$pattern")
done
echo
echo "| model | P | messages | wall | peak RSS | simulations | gain over block | gain over ompi:default |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for model in $models; do
  i=0
  for p in $ranks; do
    pattern=${patterns[i]}
    i=$((i + 1))
    log=$out/mapping-search-$model-$p.log
    start=$(date +%s%N)
    if ! /usr/bin/time -f "peak %M KiB" -o "$out/mapping-search.time" "$bin" mapping search --platform "$platform" \
      --pattern "$pattern" --model "$model" --budget "$budget" --jobs "$jobs" -o "$out/mapping-search.map" \
      > "$log" 2>&1; then
      echo "| $model | $p | | $(tail -1 "$log") | | | | |"
      continue
    fi
    wall=$(seconds_since "$start" 1)
    peak=$(awk '/^peak/ {printf "%.0f MiB", $2 / 1024}' "$out/mapping-search.time")
    messages=$(awk '/^ +graph/ {print $2}' "$log")
    simulations=$(awk '/^ +refinement/ {for (k = 1; k <= NF; k++) if ($k ~ /^simulations/) print $(k - 1)}' "$log")
    gains=$(awk '/^ +gain/ {print $2 " | " $7}' "$log")
    echo "| $model | $p | $messages | $wall s | $peak | ${simulations:-starting points only} | $gains |"
  done
done
rm -f "$out/mapping-search.map" "$out/mapping-search.time"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
