#!/usr/bin/env bash
# The held-out cases of the accuracy suite (docs/accuracy.md, "Held-out
# cases") on the testbed that is up and calibrated: heldout.py draws them
# from a fresh seed (irregular METIS halo exchanges with 2, 3 and 4 ranks per
# node on the suite's nodes, messages of 4 KiB-4 MiB, under block, cyclic and
# a searched mapping), each runs for real at two queue depths of every shaped
# link (set-queue.sh: about 100 and 1000 packets; the calibration stays the
# one done at the testbed's depth), then predict.sh predicts them with every
# model and report_heldout.py reports the send, receive and total sides.
# Usage: run-heldout.sh BUILD_DIR PLATFORM RESULTS_DIR [quick] [--seed N]
#   quick     the CI version: 3 ranks per node, cyclic and searched, 3 repetitions
#   --seed N  repeat a past run's cases (its RESULTS_DIR/seed.txt)
# RESULTS_DIR is replaced as a whole.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_load_state
build=${1:?usage: run-heldout.sh BUILD_DIR PLATFORM RESULTS_DIR [quick] [--seed N]}
platform=$(realpath "${2:?missing PLATFORM}")
results=$(realpath -m "${3:?missing RESULTS_DIR}")
shift 3
mode=full seed=()
while [ $# -gt 0 ]; do
  case $1 in
    quick | full) mode=$1 ;;
    --seed) seed=(--seed "${2:?--seed needs a value}"); shift ;;
    *) ctd_die "run-heldout.sh: unknown argument '$1'" ;;
  esac
  shift
done
contend=$build/bin/contend
run=$build/bin/pattern_run
[ -x "$contend" ] && [ -x "$run" ] || ctd_die "build $build first (contend, pattern_run)"
python=/usr/bin/python3

# 8 timed repetitions (+2 warm-up) per case: 18 cases of about a second each
# fit the ~12 minutes the held-out suite may take on 2 cores with the mapping
# searches and the predictions, and 8 samples give a median and a spread.
if [ "$mode" = quick ]; then repetitions=3 generate=(--quick); else repetitions=8 generate=(); fi
warmup=2
queues=(100 1000)

rm -rf "$results"
mkdir -p "$results/measured" "$results/predicted"
nodes=()
for i in $(seq 0 $((CTD_SUITE_NODES - 1))); do nodes+=(--node "$(ctd_node "$i")"); done
"$python" "$CTD_DIR/heldout.py" "$contend" "$platform" "$results" "${nodes[@]}" "${seed[@]}" "${generate[@]}"

# The queue depth the testbed was built with comes back afterwards, also on failure.
built_queue=$CTD_QUEUE
trap '"$CTD_DIR/set-queue.sh" "$built_queue" || true' EXIT

echo "case,workload,mapping,ranks,repetitions,warmup,drops,retransmits,queue,ranks_per_node,platform,map,load1" \
  > "$results/cases.csv.tmp"
for queue in "${queues[@]}"; do
  "$CTD_DIR/set-queue.sh" "$queue"
  tail -n +2 "$results/plan.csv" | while IFS=, read -r plan_case workload mapping ranks rpn case_platform _ map rankfile; do
    case_name="$plan_case.q$queue"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    ctd_log "run $case_name ($ranks ranks, $repetitions repetitions, load average $load1)"
    read -r drops0 retrans0 < <(ctd_loss_counters)
    CTD_RANKFILE="$results/$rankfile" "$CTD_DIR/mpirun.sh" -np "$ranks" "$run" \
      --pattern "$results/workloads/$workload.pattern" --repetitions "$repetitions" --warmup "$warmup" \
      -o "$results/measured/$case_name.csv" < /dev/null 2> "$results/measured/$case_name.log" ||
      { cat "$results/measured/$case_name.log" >&2; ctd_die "pattern_run failed on $case_name"; }
    rm -f "$results/measured/$case_name.log"
    read -r drops1 retrans1 < <(ctd_loss_counters)
    echo "$case_name,$workload,$mapping,$ranks,$repetitions,$warmup,$((drops1 - drops0)),$((retrans1 - retrans0)),$queue,$rpn,$case_platform,$map,$load1" \
      >> "$results/cases.csv.tmp"
  done
done
"$CTD_DIR/set-queue.sh" "$built_queue"
trap - EXIT
mv "$results/cases.csv.tmp" "$results/cases.csv"
"$CTD_DIR/predict.sh" "$build" "$platform" "$results" report_heldout.py
