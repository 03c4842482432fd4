#!/usr/bin/env bash
# Sweep throughput (issue 14): one 200-case sweep (10 platforms x 2 models x
# 5 mappings x 2 progression modes over traces/samples/halo-256.pattern, 256
# ranks on platforms/epyc-rome-2node.yaml with the inter-node latency varied)
# run four ways: a bare `contend simulate` per case in a shell loop (the
# reference), `contend sweep --jobs 1`, `--jobs 2`, and contend-sweep-mpi on
# 2 ranks. Prints cases per minute and each way's per-case overhead against
# the bare loop: wall x workers / cases - the bare loop's seconds per case
# (negative: cheaper than starting contend once per case).
#
# usage: bench/sweep_throughput.sh [--mpi PATH] [--bin PATH] [--out DIR]
#   --mpi: the contend-sweep-mpi to run (default: the one beside --bin)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
mpi=""
bench_options '[--mpi PATH]' mpi=mpi -- "$@"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
bench_start
[ -n "$mpi" ] || mpi=$(dirname "$bin")/contend-sweep-mpi
mpi=$(realpath "$mpi")
work=$out/sweep-throughput
rm -rf "$work" && mkdir -p "$work"
pattern=$root/traces/samples/halo-256.pattern
platforms=() models=(maxmin staircase) mappings=(block cyclic socket slurm:cyclic ompi:node) progresses=(thread none)
for latency in 1 2 3 4 5 6 7 8 9 10; do
  sed "/^  inter_node:/,/^  [a-z]/ s/latency: .*/latency: ${latency}us/" "$root/platforms/epyc-rome-2node.yaml" \
    > "$work/platform-$latency.yaml"
  platforms+=("platform-$latency.yaml")
done
join_list() { local IFS=,; echo "[$*]"; }
cat > "$work/sweep.yaml" <<YAML
platform: $(join_list "${platforms[@]}")
pattern: $pattern
model: $(join_list "${models[@]}")
mapping: $(join_list "${mappings[@]}")
progress: $(join_list "${progresses[@]}")
YAML
cases=200
echo "contend sweep benchmark: $cases cases of halo-256.pattern (256 ranks) on $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

start=$(date +%s%N)
for platform in "${platforms[@]}"; do
  for model in "${models[@]}"; do
    for mapping in "${mappings[@]}"; do
      for progress in "${progresses[@]}"; do
        "$bin" simulate --platform "$work/$platform" --pattern "$pattern" --model "$model" --mapping "$mapping" \
          --progress "$progress" --quiet
      done
    done
  done
done
bare=$(seconds_since "$start" 3)

run_way() {  # LABEL WORKERS COMMAND...: prints one row
  local label=$1 workers=$2 start wall
  shift 2
  rm -f "$work/results.csv"
  start=$(date +%s%N)
  "$@" > "$work/$label.log" 2>&1 || { echo "| $label | failed: $(tail -1 "$work/$label.log") |"; return; }
  wall=$(seconds_since "$start" 3)
  [ "$(grep -c ',ok,' "$work/results.csv")" = $cases ] || { echo "| $label | not every case ok |"; return; }
  awk -v l="$label" -v w="$wall" -v n=$cases -v k="$workers" -v b="$bare" 'BEGIN {
    printf "| %s | %.2f s | %.0f | %.1f ms | %+.1f ms |\n", l, w, n * 60 / w, w * k / n * 1000, (w * k - b) / n * 1000 }'
}
echo
echo "| way | wall | cases/min | seconds x workers per case | overhead per case vs bare simulate |"
echo "| --- | --- | --- | --- | --- |"
awk -v b="$bare" -v n=$cases 'BEGIN {
  printf "| bare contend simulate, one after the other | %.2f s | %.0f | %.1f ms | reference |\n", b, n * 60 / b, b / n * 1000 }'
cd "$work"
run_way "contend sweep --jobs 1" 1 "$bin" sweep sweep.yaml --jobs 1 --quiet --output results.csv
run_way "contend sweep --jobs 2" 2 "$bin" sweep sweep.yaml --jobs 2 --quiet --output results.csv
run_way "mpirun -np 2 contend-sweep-mpi" 2 mpirun -np 2 "$mpi" sweep.yaml --contend "$bin" --quiet --output results.csv
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
