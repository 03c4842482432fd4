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
# usage: bench/flowcut_scaling.sh [--ranks "512 2048 8192"] [--time-limit SECONDS] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ranks="512 2048 8192"
limit=600
bench_options '[--ranks "512 2048 8192"] [--time-limit SECONDS]' ranks=ranks time-limit=limit -- "$@"
platform=$root/platforms/martinasso-gigaeth-lam.yaml
echo "contend flowcut benchmark on $(basename "$platform"), wall-clock limit ${limit} s per run"
bench_start
for p in $ranks; do
  halo_pattern "$p"
  bench_simulate "P=$p" --platform "$platform" --pattern "$pattern" --oversubscribe --mapping block --model flowcut
done
