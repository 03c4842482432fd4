#!/usr/bin/env bash
# Speed of the taulop model on pipelined broadcasts: Open MPI's chain
# (pipeline) and binomial broadcasts of 4 MB in 8 KB segments (512 segments,
# P - 1 messages each: 0.2 to 0.5 million messages) on Gros with the paper's
# process counts (platforms/gros.yaml). Prints wall time, peak memory and
# messages simulated per second.
#
# usage: bench/taulop_bcast.sh [--ranks "400 1000"] [--time-limit SECONDS] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ranks="400 1000"
limit=600
bench_options '[--ranks "400 1000"] [--time-limit SECONDS]' ranks=ranks time-limit=limit -- "$@"
platform=$root/platforms/gros.yaml
echo "contend taulop benchmark on $(basename "$platform"), wall-clock limit ${limit} s per run"
bench_start
for p in $ranks; do
  pattern="$out/bcast4M-$p.pattern"
  printf 'ranks %d\nbcast 0 4M\n' "$p" > "$pattern"
  for algorithm in pipeline binomial; do
    bench_simulate "P=$p $algorithm" --platform "$platform" --pattern "$pattern" --mapping block --model taulop \
      --coll "bcast=$algorithm:8192"
  done
done
