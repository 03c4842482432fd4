#!/usr/bin/env bash
# The cost of a timeline (docs/timelines.md): the METIS halo exchange of P
# ranks (bench/scale.sh's, overlap 10) simulated, per model, without an
# output and with --timeline (rank tracks, message arrows and the model's
# counter tracks of resource loads), and with --paje as well (--paje yes),
# REPEAT times each in turn; prints each run's wall time (split by --stats
# into simulation and writing the output files), peak memory, the size of
# the file and its counter tracks and samples, then per model the median
# ratio of the timeline runs' wall time to the plain run's, run by run
# (issue 15: at most 2x).
#
# usage: bench/timeline_overhead.sh [--models "maxmin staircase flowcut taulop loggops"] [--ranks 2048]
#                                   [--repeat 3] [--paje yes] [--time-limit SECONDS] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models="maxmin staircase flowcut taulop loggops"
ranks=2048
repeat=3
limit=600
paje=no
bench_options '[--models "..."] [--ranks 2048] [--repeat 3] [--paje yes] [--time-limit SECONDS]' \
  models=models ranks=ranks repeat=repeat time-limit=limit paje=paje -- "$@"
platform=$root/bench/platforms/testbed-64x128.yaml
bench_start
out="$out/timeline"
mkdir -p "$out"

# The wall seconds of a --stats line.
wall_of() { sed -n 's/^stats: wall \([0-9.]*\) s.*/\1/p'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
simulate() {
  "$bin" simulate --platform "$platform" --pattern "$pattern" --model "$model" --quiet --stats \
    --time-limit "$limit" "$@" 2>&1 | grep '^stats:'
}

summary=()
for p in $ranks; do
  halo_pattern "$p" 10
  for model in $models; do
    echo "== P=$p $model, $(awk '!/^#/ && NF == 3' "$pattern" | wc -l) messages, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    : > "$out/ratios-timeline" && : > "$out/ratios-both"
    for ((i = 1; i <= repeat; i++)); do
      rm -f "$out/run.json" "$out/run.paje"
      plain=$(simulate)
      timeline=$(simulate --timeline "$out/run.json")
      json_size=$(du -m "$out/run.json" | cut -f1)
      tracks=$(grep -o '"ph":"C","pid":[0-9]*,"ts":[0-9.]*,"args"' "$out/run.json" | wc -l)
      names=$(grep -o '{"name":"[^"]*","ph":"C"' "$out/run.json" | sort -u | wc -l)
      echo "run $i plain:              ${plain#stats: }"
      echo "run $i --timeline:         ${timeline#stats: } (${json_size} MB; $names counter tracks, $tracks samples)"
      awk -v a="$(wall_of <<< "$timeline")" -v b="$(wall_of <<< "$plain")" 'BEGIN { print a / b }' >> "$out/ratios-timeline"
      if [ "$paje" = yes ]; then
        both=$(simulate --timeline "$out/run.json" --paje "$out/run.paje")
        paje_size=$(du -m "$out/run.paje" | cut -f1)
        echo "run $i --timeline --paje:  ${both#stats: } (Paje ${paje_size} MB)"
        awk -v a="$(wall_of <<< "$both")" -v b="$(wall_of <<< "$plain")" 'BEGIN { print a / b }' >> "$out/ratios-both"
      fi
    done
    line="P=$p $model: wall time with --timeline / without, median of $repeat: $(median < "$out/ratios-timeline")x"
    [ "$paje" != yes ] || line+="; with --timeline and --paje: $(median < "$out/ratios-both")x"
    echo "$line"
    summary+=("$line")
  done
done
echo
printf '%s\n' "${summary[@]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
