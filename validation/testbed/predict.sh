#!/usr/bin/env bash
# Predicts every measured case of a results directory with every model contend
# knows, then writes the report (report.py). run-suite.sh calls it after the
# real runs; alone, it re-predicts existing measurements (after a model or
# platform change) without the testbed.
#   pattern cases: `contend simulate --pattern workloads/W.pattern`
#   app-* cases:   `contend simulate --trace traces/CASE/run-1/trace.txt`
#   held-out cases (run-heldout.sh): their cases.csv names each case's
#   platform and mapping file (columns platform, map; paths relative to
#   RESULTS_DIR), which replace PLATFORM and the mapping column
# Models: every one `contend models --names` lists, and the compositions of
# a contention model with LogGOPS's CPU overheads in COMPOSITIONS. A model
# that cannot predict the platform (missing parameters) is reported in the
# summary, not fatal.
# Usage: predict.sh BUILD_DIR PLATFORM RESULTS_DIR [REPORT]
#   REPORT  the report script of this directory (default report.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: predict.sh BUILD_DIR PLATFORM RESULTS_DIR [REPORT]}
platform=${2:?missing PLATFORM}
results=${3:?missing RESULTS_DIR}
report=${4:-report.py}
contend=$build/bin/contend
[ -x "$contend" ] || { echo "predict.sh: build $build first (contend)" >&2; exit 1; }
[ -f "$results/cases.csv" ] || { echo "predict.sh: no $results/cases.csv: run run-suite.sh first" >&2; exit 1; }
[ -f "$here/$report" ] || { echo "predict.sh: no report script $here/$report" >&2; exit 1; }
COMPOSITIONS=(staircase+loggops maxmin+loggops flowcut+loggops taulop+loggops)
mapfile -t models < <("$contend" models --names)
[ ${#models[@]} -gt 0 ] || { echo "predict.sh: contend lists no model" >&2; exit 1; }
models+=("${COMPOSITIONS[@]}")
mkdir -p "$results/predicted"

# case, workload, mapping, platform, map of every case ('-': the defaults)
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  { printf "%s,%s,%s,%s,%s\n", $col["case"], $col["workload"], $col["mapping"],
      ("platform" in col) ? $col["platform"] : "-", ("map" in col) ? $col["map"] : "-" }' "$results/cases.csv" |
while IFS=, read -r case_name workload mapping case_platform map; do
  case $workload in
    app-*) input=(--trace "$results/traces/$case_name/run-1/trace.txt") ;;
    *) input=(--pattern "$results/workloads/$workload.pattern") ;;
  esac
  [ "$case_platform" = - ] && case_platform=$platform || case_platform=$results/$case_platform
  [ "$map" = - ] && map=$mapping || map=$results/$map
  for model in "${models[@]}"; do
    out="$results/predicted/$case_name.$model.csv"
    if "$contend" simulate --platform "$case_platform" "${input[@]}" --mapping "$map" --model "$model" \
         --per-rank "$out" --quiet > /dev/null 2> "$out.err" < /dev/null; then
      rm -f "$out.err"
    else
      echo "predict.sh: model $model cannot predict $case_name: $(head -1 "$out.err")" >&2
      rm -f "$out"
    fi
  done
done
/usr/bin/python3 "$here/$report" "$results" "$platform" "${models[@]}"
