#!/usr/bin/env bash
# contend simulate --timeline and --paje, end to end (docs/timelines.md):
#  - on a pattern with every collective, on a replayed trace, and on a run of
#    three hours, the Chrome trace is valid JSON whose slices nest on each
#    rank's track, whose flow arrows pair up (one per received message) and
#    whose times are whole nanoseconds;
#  - after three hours of computing, every span and message lasts what it
#    lasts at t = 0, to the nanosecond;
#  - Debian's pj_dump (pajeng) reads the Paje file without a complaint, and
#    its dump has the expected states and one link per message.
# usage: timeline.sh CONTEND SRCDIR WORKDIR
set -euo pipefail
contend=$(realpath "$1") src=$(realpath "$2") work=$3
fail() { echo "timeline.sh: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$src"
command -v pj_dump > /dev/null || fail "pj_dump not found: install Debian's pajeng (scripts/install-deps.sh)"

# check NAME EXPECTED_STATES... : validates NAME.json and NAME.paje.
check() {
  local name=$1
  shift
  local messages
  messages=$(($(wc -l < "$work/$name.messages.csv") - 1))
  python3 "$src/tests/traces/check_chrome_trace.py" "$work/$name.json" "$messages" || fail "$name.json"
  pj_dump "$work/$name.paje" > "$work/$name.dump" 2> "$work/$name.pj_dump.stderr" || fail "pj_dump rejects $name.paje"
  [ ! -s "$work/$name.pj_dump.stderr" ] || fail "pj_dump complains about $name.paje: $(head -3 "$work/$name.pj_dump.stderr")"
  local links
  links=$(grep -c '^Link' "$work/$name.dump" || true)
  [ "$links" -eq "$messages" ] || fail "$name.paje: $links links for $messages messages"
  for state in "$@"; do
    grep -q "^State, .*, $state\$" "$work/$name.dump" || fail "$name.paje: no state $state in pj_dump's output"
  done
  echo "timeline.sh: $name: $messages messages, Chrome trace and Paje file valid"
}

run() {
  local name=$1
  shift
  "$contend" simulate "$@" --quiet --timeline "$work/$name.json" --paje "$work/$name.paje" \
    --messages "$work/$name.messages.csv"
}

run collectives --platform platforms/testbed.yaml --pattern traces/samples/collectives-16.pattern --oversubscribe
check collectives MPI_Barrier MPI_Bcast MPI_Alltoallv MPI_Reduce_scatter MPI_Isend MPI_Irecv MPI_Waitall waiting
run trace --platform platforms/testbed.yaml --trace traces/examples/traces/cg-2/trace.txt
check trace MPI_Isend MPI_Irecv MPI_Waitall MPI_Allreduce compute waiting
run short --platform platforms/epyc-rome-2node.yaml --pattern tests/data/timeline-4.pattern --mapping cyclic
check short compute MPI_Bcast waiting
run hours --platform platforms/epyc-rome-2node.yaml --pattern tests/data/timeline-hours.pattern --mapping cyclic
check hours compute MPI_Bcast waiting
python3 "$src/tests/traces/check_chrome_trace.py" "$work/hours.json" 5 --shifted "$work/short.json" 10800000000 ||
  fail "the run of three hours does not keep the short run's nanoseconds"

# Every model's counter tracks (the load of the resources it shares): valid
# in the Chrome trace (check_chrome_trace.py checks each track's samples),
# present, under the model's resource names, and read by pj_dump without a
# complaint as the Load variable. (The Paje links are not counted here:
# pj_dump 1.2 drops some zero-length links at a run's very last instant,
# which taulop's collectives have.)
for model in maxmin simgrid-lmm staircase flowcut taulop loggops; do
  name=loads-$model
  run "$name" --platform platforms/testbed.yaml --pattern traces/samples/collectives-16.pattern \
    --oversubscribe --model "$model"
  messages=$(($(wc -l < "$work/$name.messages.csv") - 1))
  python3 "$src/tests/traces/check_chrome_trace.py" "$work/$name.json" "$messages" || fail "$name.json"
  prefix=$(case $model in maxmin | simgrid-lmm) echo nic: ;; *) echo "${model}:" ;; esac)
  tracks=$(grep -o "{\"name\":\"$prefix[^\"]*\",\"ph\":\"C\"" "$work/$name.json" | sort -u | wc -l)
  [ "$tracks" -gt 0 ] || fail "$name.json: no counter track named $prefix..."
  pj_dump "$work/$name.paje" > "$work/$name.dump" 2> "$work/$name.pj_dump.stderr" || fail "pj_dump rejects $name.paje"
  [ ! -s "$work/$name.pj_dump.stderr" ] || fail "pj_dump complains about $name.paje: $(head -3 "$work/$name.pj_dump.stderr")"
  grep -q "^Variable, $prefix.*, Load, " "$work/$name.dump" || fail "$name.paje: no Load variable $prefix... in pj_dump's output"
  echo "timeline.sh: $name: $tracks counter tracks named $prefix..., valid in both files"
done
