#!/usr/bin/env bash
# Validation of the Netgauge-style LogGOPS calibration against real ping-pongs
# on this machine (Bacon et al., EuroMPI 2023, Figs. 2-5): netgauge_bench on 2
# ranks over shared memory (contiguous data and MPI_Type_vector datatypes),
# `contend fit-loggops` into a copy of a platform file, then the model's
# relative error per size against the measured ping-pong (report.py):
# results/errors.csv, summary.csv, pingpong-error.png, mean-error.png, and the
# raw and fitted data (raw.csv, sizes.csv, fits.csv, platform.yaml, fit.txt).
# A measurement, not a regression test: the numbers depend on the machine and
# its load (say so with --note).
#
# usage: validation/netgauge/run.sh [--build DIR] [--out DIR] [--platform BASE.yaml]
#          [--max-size S] [--repetitions R] [--note TEXT] [--reuse]
#   --reuse   skip the measurement, refit and report results/raw.csv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build out=$here/results base=$root/platforms/loggops-shm.yaml
max_size=1MiB repetitions=11 note="" reuse=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --platform) base=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --note) note=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
# Bacon's contiguous, 1-block and 4-block vectors of floats (Sec. 4.2), sparse and dense.
datatypes=(contiguous vector:1,1,4:float vector:4,1,4:float vector:4,4,4:float)
if [ "$reuse" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  args=(--min-size 1 --max-size "$max_size" --repetitions "$repetitions" -o "$out/raw.csv")
  for t in "${datatypes[@]}"; do args+=(--datatype "$t"); done
  mpirun -np 2 --mca btl self,vader "$build/bin/netgauge_bench" "${args[@]}" 2> "$out/bench.log"
fi
cp "$base" "$out/platform.yaml"
"$build/bin/contend" fit-loggops "$out/raw.csv" --platform "$out/platform.yaml" --level intra_socket \
  --fits "$out/fits.csv" --sizes "$out/sizes.csv" | tee "$out/fit.txt"
/usr/bin/python3 "$here/report.py" --sizes "$out/sizes.csv" --fits "$out/fits.csv" --out "$out" \
  --contend "$build/bin/contend" --platform "$out/platform.yaml" --note "$note" | tee "$out/summary.txt"
