#!/usr/bin/env bash
# Each broadcast algorithm simulated with a dynamic model (Open MPI's code,
# the algorithm forced, 8 KB segments, K = 4) next to the analytical models,
# for the six Table 3 cases (about 15 minutes on two cores, most of it
# building the 3456-node MareNostrum4 fat tree once per simulation).
# Usage: simulate.sh CONTEND [RESULTS_DIR] [MODEL] [CASES...]
#   CASES: cluster:procs:sizes (default below); then compare.py (via run.sh)
#   writes dynamic-vs-analytical.csv from the sim-MODEL-*.csv files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
contend=${1:?usage: simulate.sh CONTEND [RESULTS_DIR] [MODEL] [CASES...]}
results=${2:-$here/results}
model=${3:-taulop}
shift $(( $# >= 3 ? 3 : $# ))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(grisou:450:16K:4M gros:400:16K:4M marenostrum4:96:16K:4M grisou:600:16K:4M gros:1000:16K:4M marenostrum4:480:16K:4M)
mkdir -p "$results"
for case in "${cases[@]}"; do
  IFS=: read -r cluster procs sizes <<< "$case"
  echo "simulating $cluster P=$procs sizes $sizes with $model" >&2
  "$contend" select bcast --platform "$root/platforms/$cluster.yaml" --procs "$procs" --sizes "$sizes" \
    --mapping block --ompi 3.1 --simulate --model "$model" --csv "$results/sim-$model-$cluster-$procs.csv" \
    > "$results/sim-$model-$cluster-$procs.txt"
done
