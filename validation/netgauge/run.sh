#!/usr/bin/env bash
# Validation of the Netgauge-style LogGOPS calibration against real ping-pongs
# on this machine (Bacon et al., EuroMPI 2023, Figs. 2-5): netgauge_bench on 2
# ranks over shared memory (contiguous data and MPI_Type_vector datatypes),
# `contend fit-loggops` into a copy of a platform file, then the model's
# relative error per size against the measured ping-pong (report.py), once
# with the medians of the repetitions and once with their minima:
# results/{median,min}/ errors.csv, summary.csv, pingpong-error.png,
# mean-error.png, sizes.csv, fits.csv, platform.yaml, fit.txt; results/raw.csv.
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
# Both ways of reducing the repetitions (fit-loggops --statistic): the median,
# as Netgauge and Bacon do, and the minimum, which a loaded machine needs.
for statistic in median min; do
  dir=$out/$statistic
  mkdir -p "$dir"
  cp "$base" "$dir/platform.yaml"
  "$build/bin/contend" fit-loggops "$out/raw.csv" --platform "$dir/platform.yaml" --level intra_socket \
    --statistic "$statistic" --fits "$dir/fits.csv" --sizes "$dir/sizes.csv" | tee "$dir/fit.txt"
  /usr/bin/python3 "$here/report.py" --sizes "$dir/sizes.csv" --fits "$dir/fits.csv" --out "$dir" \
    --contend "$build/bin/contend" --platform "$dir/platform.yaml" --note "$statistic of repetitions; $note" |
    tee "$dir/summary.txt"
done
