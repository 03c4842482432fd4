#!/usr/bin/env bash
# Validation of the staircase model against Thune, Reinemo, Skeie, Cai,
# "Detailed Modeling of Heterogeneous and Contention-Constrained
# Point-to-Point MPI Communication", IEEE TPDS 2023. The paper's
# measurements are not published as numbers, so each case checks the paper's
# qualitative result with both the closed form (contend analyze) and the
# simulation (contend simulate), writes CSV files and PNG plots to results/,
# and its reading to results/results.md:
#   fig3  three pairs exchanging s/2, s and 2s on one ThunderX2 socket, over s
#         (Fig. 3): the pairs finish in order of size, the staircase of eq. (5);
#   fig5  48 processes on a dual-socket ThunderX2, 32 exchanging intra-socket
#         and 16 inter-socket messages (Fig. 5(a)-(b), pattern reconstructed):
#         the off-socket processes finish after the on-socket ones;
#   fig4  64 processes on Epyc Rome, 3 messages each, intra- and then
#         inter-socket (Fig. 4(a)-(d), patterns reconstructed): the extended
#         max-rate model (10) underestimates the contention the staircase sees.
# Exits non-zero if a qualitative check fails.
#
# usage: validation/staircase/run.sh [path/to/contend] [results-dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
contend=${1:-$root/build/bin/contend}
out=${2:-$here/results}
mkdir -p "$out"
/usr/bin/python3 "$here/cases.py" --contend "$contend" --root "$root" --out "$out"
