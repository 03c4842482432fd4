#!/usr/bin/env bash
# The accuracy suite on the testbed that is up: every workload under every
# mapping is run for real (pattern_run) and predicted by every model contend
# knows (`contend models --names`: new models join with no change here), then
# report.py compares them.
# Usage: run-suite.sh BUILD_DIR PLATFORM RESULTS_DIR [quick]
#   quick: two workloads, three repetitions (the CI version)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_load_state
build=${1:?usage: run-suite.sh BUILD_DIR PLATFORM RESULTS_DIR [quick]}
platform=${2:?missing PLATFORM}
results=${3:?missing RESULTS_DIR}
mode=${4:-full}
contend=$build/bin/contend
run=$build/bin/pattern_run
[ -x "$contend" ] && [ -x "$run" ] || ctd_die "build $build first (contend, pattern_run)"
python=/usr/bin/python3  # Debian's, with python3-matplotlib

ranks=$((CTD_SUITE_NODES * CTD_SLOTS))
mkdir -p "$results/workloads" "$results/measured" "$results/predicted"
"$python" "$CTD_DIR/workloads.py" "$contend" "$CTD_SUITE_NODES" "$CTD_SLOTS" "$results/workloads"

if [ "$mode" = quick ]; then
  workloads=(irregular-a conflicts)
  repetitions=3
else
  workloads=(irregular-a irregular-b conflicts bcast-binomial bcast-ompi)
  repetitions=15
fi
# contend mapping -> Open MPI placement with the hostfile's slots
declare -A map_by=([block]=slot [cyclic]=node)
mappings=(block cyclic)
mapfile -t models < <("$contend" models --names)
[ ${#models[@]} -gt 0 ] || ctd_die "contend lists no model"

echo "case,workload,mapping,ranks,repetitions,warmup,drops,retransmits" > "$results/cases.csv.tmp"
warmup=2
for w in "${workloads[@]}"; do
  for m in "${mappings[@]}"; do
    case_name="$w.$m"
    ctd_log "run $case_name ($ranks ranks, $repetitions repetitions)"
    read -r drops0 retrans0 < <(ctd_loss_counters)
    "$CTD_DIR/mpirun.sh" -np "$ranks" --map-by "${map_by[$m]}" "$run" --pattern "$results/workloads/$w.pattern" \
      --repetitions "$repetitions" --warmup "$warmup" -o "$results/measured/$case_name.csv" 2> "$results/measured/$case_name.log" ||
      { cat "$results/measured/$case_name.log" >&2; ctd_die "pattern_run failed on $case_name"; }
    rm -f "$results/measured/$case_name.log"
    read -r drops1 retrans1 < <(ctd_loss_counters)
    for model in "${models[@]}"; do
      out="$results/predicted/$case_name.$model.csv"
      # A model that cannot predict this platform (missing parameters) is reported, not fatal.
      if ! "$contend" simulate --platform "$platform" --pattern "$results/workloads/$w.pattern" --mapping "$m" \
           --model "$model" --per-rank "$out" --quiet 2> "$out.err"; then
        ctd_log "model $model cannot predict $case_name: $(head -1 "$out.err")"
        rm -f "$out"
      else
        rm -f "$out.err"
      fi
    done
    echo "$case_name,$w,$m,$ranks,$repetitions,$warmup,$((drops1 - drops0)),$((retrans1 - retrans0))" >> "$results/cases.csv.tmp"
  done
done
mv "$results/cases.csv.tmp" "$results/cases.csv"
"$python" "$CTD_DIR/report.py" "$results" "$platform" "${models[@]}"
