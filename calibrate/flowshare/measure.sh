#!/usr/bin/env bash
# Measures how concurrent TCP flows share a node's link on the emulated
# cluster (validation/testbed), once per switch queue depth:
#   calibrate/flowshare/measure.sh BUILD_DIR OUT_DIR [QUEUE...]   (as root; default queues: 100 1000)
# For each queue depth Q: brings up 5 nodes x 4 slots with CTD_QUEUE=Q, runs
# flowshare_bench (20 ranks, experiments.py's flows, FLOWSHARE_REPETITIONS=7
# repetitions after one warm-up) under `nice -n -5`, writes
# OUT_DIR/raw-q<Q>.csv and the load average before and after in
# OUT_DIR/load-q<Q>.txt, and tears the testbed down (also on failure).
# The testbed's names come from the environment as for up.sh (CTD_PREFIX,
# CTD_SUBNET, CTD_STATE): use your own when another testbed may be up.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=$(cd "$1" && pwd)
out=$2
shift 2
queues=("$@")
[ ${#queues[@]} -gt 0 ] || queues=(100 1000)
here=$(cd "$(dirname "$0")" && pwd)
testbed="$here/../../validation/testbed"
[ -x "$build/bin/flowshare_bench" ] || { echo "measure.sh: $build/bin/flowshare_bench not built" >&2; exit 1; }
mkdir -p "$out"
flows="$out/flows.csv"
"$here/experiments.py" --slots 4 > "$flows"

export CTD_NODES=5 CTD_SUITE_NODES=5 CTD_SLOTS=4
trap '"$testbed/down.sh"' EXIT
for q in "${queues[@]}"; do
  CTD_QUEUE=$q "$testbed/up.sh"
  { echo "queue $q"; echo "before: $(uptime)"; } > "$out/load-q$q.txt"
  nice -n -5 "$testbed/mpirun.sh" -np 20 "$build/bin/flowshare_bench" --flows "$flows" \
    --repetitions "${FLOWSHARE_REPETITIONS:-7}" --warmup 1 -o "$out/raw-q$q.csv"
  echo "after: $(uptime)" >> "$out/load-q$q.txt"
  "$testbed/down.sh"
done
