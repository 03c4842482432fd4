#!/usr/bin/env bash
# The accuracy suite on the testbed that is up: every workload under every
# mapping is run for real (pattern_run; the sample applications under the
# PMPI tracer), then predict.sh predicts each case with every model contend
# knows (`contend models --names`: new models join with no change here) and
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
# Sample applications replayed from their traces (full suite only): NAME ARGS
if [ "$mode" = quick ]; then
  apps=()
else
  apps=("jacobi3d 48 20" "cg 40 40" "bcast_heavy 12")  # cg checks its own error: 40 iterations
fi
# contend mapping -> Open MPI placement with the hostfile's slots
declare -A map_by=([block]=slot [cyclic]=node)
mappings=(block cyclic)

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
    echo "$case_name,$w,$m,$ranks,$repetitions,$warmup,$((drops1 - drops0)),$((retrans1 - retrans0))" >> "$results/cases.csv.tmp"
  done
done

# The sample applications (traces/examples), run for real under the PMPI
# tracer: each repetition is a fresh mpirun that writes its trace and the
# measured per-rank times (MPI_Init to MPI_Finalize, computation included);
# predict.sh replays the first repetition's trace (its computation as
# recorded, flops at the template's 1 Gflop/s) under every model.
tracer=$build/lib/libcontend-trace.so
for app in "${apps[@]}"; do
  read -r name args <<< "$app"
  [ -x "$build/bin/$name" ] && [ -f "$tracer" ] || ctd_die "build $build first ($name, libcontend-trace.so)"
  for m in "${mappings[@]}"; do
    case_name="app-$name.$m"
    ctd_log "run $case_name ($ranks ranks, $repetitions runs under the tracer)"
    read -r drops0 retrans0 < <(ctd_loss_counters)
    raw="$results/measured/$case_name.csv"
    echo "repetition,rank,host,time_s,late_s" > "$raw.tmp"
    for rep in $(seq 1 "$repetitions"); do
      dir="$results/traces/$case_name/run-$rep"
      rm -rf "$dir"
      mkdir -p "$(dirname "$dir")"
      # shellcheck disable=SC2086
      "$CTD_DIR/mpirun.sh" -np "$ranks" --map-by "${map_by[$m]}" -x LD_PRELOAD="$tracer" -x CONTEND_TRACE_DIR="$dir" \
        -x CONTEND_TRACE_SPEED=1e9 "$build/bin/$name" $args > "$dir.log" 2>&1 ||
        { cat "$dir.log" >&2; ctd_die "$name failed on $case_name"; }
      rm -f "$dir.log"
      awk -F, -v rep="$rep" 'NR > 1 {print rep "," $1 "," $5 "," $2 ",0"}' "$dir/measured.csv" >> "$raw.tmp"
    done
    mv "$raw.tmp" "$raw"
    read -r drops1 retrans1 < <(ctd_loss_counters)
    # Keep one trace per case (the replayed one); the others only gave times.
    find "$results/traces/$case_name" -mindepth 1 -maxdepth 1 -name 'run-*' ! -name run-1 -exec rm -rf {} +
    echo "$case_name,app-$name,$m,$ranks,$repetitions,0,$((drops1 - drops0)),$((retrans1 - retrans0))" >> "$results/cases.csv.tmp"
  done
done
mv "$results/cases.csv.tmp" "$results/cases.csv"
"$CTD_DIR/predict.sh" "$build" "$platform" "$results"
