#!/usr/bin/env bash
# Predicts every measured case of a results directory with every model contend
# knows, then writes the report (report.py). run-suite.sh calls it after the
# real runs; alone, it re-predicts existing measurements (after a model or
# platform change) without the testbed.
#   pattern cases: `contend simulate --pattern workloads/W.pattern`
#   app-* cases:   `contend simulate --trace traces/CASE/run-1/trace.txt`
# A model that cannot predict the platform (missing parameters) is reported
# in the summary, not fatal.
# Usage: predict.sh BUILD_DIR PLATFORM RESULTS_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: predict.sh BUILD_DIR PLATFORM RESULTS_DIR}
platform=${2:?missing PLATFORM}
results=${3:?missing RESULTS_DIR}
contend=$build/bin/contend
[ -x "$contend" ] || { echo "predict.sh: build $build first (contend)" >&2; exit 1; }
[ -f "$results/cases.csv" ] || { echo "predict.sh: no $results/cases.csv: run run-suite.sh first" >&2; exit 1; }
mapfile -t models < <("$contend" models --names)
[ ${#models[@]} -gt 0 ] || { echo "predict.sh: contend lists no model" >&2; exit 1; }
mkdir -p "$results/predicted"

tail -n +2 "$results/cases.csv" | while IFS=, read -r case_name workload mapping _; do
  case $workload in
    app-*) input=(--trace "$results/traces/$case_name/run-1/trace.txt") ;;
    *) input=(--pattern "$results/workloads/$workload.pattern") ;;
  esac
  for model in "${models[@]}"; do
    out="$results/predicted/$case_name.$model.csv"
    if "$contend" simulate --platform "$platform" "${input[@]}" --mapping "$mapping" --model "$model" \
         --per-rank "$out" --quiet > /dev/null 2> "$out.err"; then
      rm -f "$out.err"
    else
      echo "predict.sh: model $model cannot predict $case_name: $(head -1 "$out.err")" >&2
      rm -f "$out"
    fi
  done
done
/usr/bin/python3 "$here/report.py" "$results" "$platform" "${models[@]}"
