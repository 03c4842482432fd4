#!/usr/bin/env bash
# Item 5 of the mapping search (docs/mappings.md): on the emulated cluster,
# irregular halo workloads are run for real under block, cyclic, socket,
# Open MPI's default and the mapping `contend mapping search` finds, and
# the measured ranking is compared with the predicted one.
#   run.sh BUILD_DIR [RESULTS_DIR] [REPETITIONS]
# Writes RESULTS_DIR (default validation/mapping/results): predicted.csv
# (contend mapping compare), measured/*.csv (pattern_run), summary.md and
# makespans.png (analyze.py). Own namespaces and subnet (prefix ctmapv,
# 10.213.42.0/24), torn down on exit. Run it on a quiet machine: it measures.
# On the testbed every node has one socket and all nodes share this
# machine's cores, so mappings differ by the node of each rank (2-4 ranks
# per node here), placed by a rankfile (Open MPI 4.1's sequential mapper
# fails in MPI_Init when a host's ranks are not contiguous).
set -euo pipefail
build=$(realpath "${1:?usage: run.sh BUILD_DIR [RESULTS_DIR] [REPETITIONS]}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
results=$(realpath -m "${2:-$here/results}")
repetitions=${3:-10}
testbed="$root/validation/testbed"
export CTD_PREFIX=ctmapv CTD_SUBNET=10.213.42 CTD_STATE=/run/ctmapv-testbed CTD_NODES=4 CTD_SUITE_NODES=4 CTD_SLOTS=3
. "$testbed/lib.sh"
ctd_check_capabilities
contend=$build/bin/contend
run=$build/bin/pattern_run
platform=$root/platforms/testbed.yaml
[ -x "$contend" ] && [ -x "$run" ] || ctd_die "build $build first (contend, pattern_run)"

trap '"$testbed/down.sh" >/dev/null 2>&1 || true' EXIT
"$testbed/up.sh" >/dev/null 2>&1 || ctd_die "up.sh failed"
ctd_load_state

ranks=$((CTD_SUITE_NODES * CTD_SLOTS))
mkdir -p "$results/workloads" "$results/measured" "$results/mappings"
/usr/bin/python3 "$testbed/workloads.py" "$contend" "$CTD_SUITE_NODES" "$CTD_SLOTS" "$results/workloads"
for i in $(seq 0 $((CTD_NODES - 1))); do echo "$(ctd_node "$i") slots=$CTD_SLOTS"; done > "$results/hosts"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" > "$results/load.txt"

for w in irregular-a irregular-b; do
  pattern=$results/workloads/$w.pattern
  "$contend" mapping search --platform "$platform" --hosts "$results/hosts" --pattern "$pattern" --model maxmin \
    --max-evaluations 60 --seed 1 -o "$results/mappings/$w.searched.map" > "$results/mappings/$w.search.txt"
  mappings=(block cyclic socket ompi:default "$results/mappings/$w.searched.map")
  "$contend" mapping compare --platform "$platform" --hosts "$results/hosts" --pattern "$pattern" --model maxmin \
    --mappings "$(IFS=,; echo "${mappings[*]}")" --csv "$results/$w.predicted.csv" > /dev/null
  for m in "${mappings[@]}"; do
    name=$(basename "$m" .map)
    name=${name#"$w".}
    # One host per rank from the mapping (contend's SLURM_HOSTFILE), as an
    # Open MPI rankfile whose ranks may use every core of this machine: the
    # emulated nodes share them, and the testbed runs unbound (mpirun.sh).
    "$contend" mapping export --platform "$platform" --hosts "$results/hosts" --mapping "$m" --ranks "$ranks" \
      --launcher slurm -o "$results/mappings/$w.$name.hosts" --quiet
    awk -v last="$(($(nproc) - 1))" '{ print "rank " NR - 1 "=" $1 " slot=0-" last }' \
      "$results/mappings/$w.$name.hosts" > "$results/mappings/$w.$name.rankfile"
    ctd_log "run $w under $name ($ranks ranks, $repetitions repetitions)"
    CTD_RANKFILE="$results/mappings/$w.$name.rankfile" "$testbed/mpirun.sh" -np "$ranks" "$run" --pattern "$pattern" \
      --repetitions "$repetitions" --warmup 2 -o "$results/measured/$w.$name.csv" 2> "$results/measured/$w.$name.log" ||
      { cat "$results/measured/$w.$name.log" >&2; ctd_die "pattern_run failed on $w under $name"; }
    rm -f "$results/measured/$w.$name.log" "$results/mappings/$w.$name.hosts"*
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$results/load.txt"
/usr/bin/python3 "$here/analyze.py" "$results"
