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
# usage: bench/engine_scaling.sh [--models "staircase maxmin"] [--ranks "512 2048 8192"] [--time-limit SECONDS]
#                                [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models="staircase maxmin"
ranks="512 2048 8192"
limit=600
bench_options '[--models "staircase maxmin"] [--ranks "512 2048 8192"] [--time-limit SECONDS]' \
  models=models ranks=ranks time-limit=limit -- "$@"
platform=$root/platforms/betzy-64.yaml
echo "contend engine benchmark: models $models on platforms/betzy-64.yaml, wall-clock limit ${limit} s per run"
bench_start
for p in $ranks; do
  halo_pattern "$p"
  for model in $models; do
    bench_simulate "P=$p $model" --platform "$platform" --pattern "$pattern" --mapping block --model "$model"
    if [ "$model" = staircase ]; then
      start=$(date +%s%N)
      "$bin" analyze --platform "$platform" --pattern "$pattern" --mapping block --quiet
      echo "P=$p staircase closed form (analyze): $(seconds_since "$start" 3) s"
    fi
  done
done
