#!/usr/bin/env bash
# Each broadcast algorithm simulated with a dynamic model (Open MPI's code,
# the algorithm forced, 8 KB segments, K = 4) next to the analytical models,
# for the six Table 3 cases (10-20 minutes on two cores). MareNostrum4 runs on
# marenostrum4-10nodes.yaml here (the paper's 10 nodes on a star; the taulop
# model reads only nodes and channels), not the 3456-node fat tree that takes
# ~8 s to build per simulation; pass another model's name only with that in mind.
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
  platform=$root/platforms/$cluster.yaml
  [ -f "$here/$cluster-10nodes.yaml" ] && platform=$here/$cluster-10nodes.yaml
  "$contend" select bcast --platform "$platform" --procs "$procs" --sizes "$sizes" \
    --mapping block --ompi 3.1 --simulate --model "$model" -o "$results/sim-$model-$cluster-$procs.csv" \
    > "$results/sim-$model-$cluster-$procs.txt"
done
