#!/usr/bin/env bash
# Reproduces Nuriyev, Rico-Gallego, Lastovetsky (JPDC 2022) Table 3 with the
# paper's own parameters (platforms/{grisou,gros,marenostrum4}.yaml, models:
# taulop: Tables 1-2, Q = 6/12/9, gamma^0 = 1, 8 KB segments), the cluster
# shapes and process counts of Sec. 6.1 and the serial (block) mapping.
# Usage: run.sh CONTEND [RESULTS_DIR] [--min-model N --min-ompi N]
# Writes one `contend select bcast -o` file per case, then compare.py's
# table3-comparison.csv, and checks the agreement (models/taulop/README.md, "Validation").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
contend=${1:?usage: run.sh CONTEND [RESULTS_DIR] [--min-model N --min-ompi N]}
results=${2:-$here/results}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$results"
for case in grisou:450 gros:400 marenostrum4:96 grisou:600 gros:1000 marenostrum4:480; do
  cluster=${case%:*} procs=${case#*:}
  "$contend" select bcast --platform "$root/platforms/$cluster.yaml" --procs "$procs" --sizes 16K:4M \
    --mapping block --ompi 3.1 -o "$results/$cluster-$procs.csv" > "$results/$cluster-$procs.txt"
done
exec python3 "$here/compare.py" "$here/table3.csv" "$results" "$@"
