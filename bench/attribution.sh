#!/usr/bin/env bash
# Cost of attribution (docs/explain.md, issue 15): the P = 2048 METIS halo
# of bench/scale.sh (10 ghost layers) on bench/platforms/testbed-64x128.yaml,
# block mapping, per model: this binary without the options, the same with
# --attribution, and (with --base PATH) another binary, e.g. built from the
# commit before attribution, without them. Nothing is recorded unless asked
# for: the runs without the option must not be slower than the base.
#
# Each configuration runs --repeat times, interleaved (base, off, on, base,
# ...) so that the load of the machine hits them alike; prints the fastest
# and the median simulation time of each (`contend simulate --stats`).
#
# usage: bench/attribution.sh [--models "staircase flowcut maxmin"] [--ranks 2048] [--repeat 3]
#                             [--base PATH] [--time-limit SECONDS] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models="staircase flowcut maxmin taulop loggops"
ranks=2048
repeat=3
base=""
limit=300
bench_options '[--models "..."] [--ranks P] [--repeat N] [--base PATH] [--time-limit SECONDS]' \
  models=models ranks=ranks repeat=repeat base=base time-limit=limit -- "$@"
platform=$root/bench/platforms/testbed-64x128.yaml
bench_start
[ -z "$base" ] || echo "base: $base"
echo "attribution cost: P = $ranks halo, models $models, $repeat runs each"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
halo_pattern "$ranks" 10

# Prints the simulation seconds of one run; the run's peak memory goes to $out/peak.
simulation_seconds() {
  local exe=$1 stats
  shift
  stats=$("$exe" simulate --platform "$platform" --pattern "$pattern" --mapping block --quiet --stats \
    --time-limit "$limit" "$@" | grep '^stats:')
  sed -nE 's/.*peak memory ([0-9.]+) MiB.*/\1/p' <<< "$stats" > "$out/peak"
  sed -nE 's/^stats: wall [0-9.]+ s \(inputs [0-9.]+ s, simulation ([0-9.]+) s.*/\1/p' <<< "$stats"
}
# min and median of the numbers on standard input
summary() { sort -g | awk '{v[NR] = $1} END {printf "min %.3f s, median %.3f s", v[1], v[int((NR + 1) / 2)]}'; }

echo
echo "| model | base, no option | this, no option | this, --attribution | peak RSS: no option, --attribution |"
echo "| --- | --- | --- | --- | --- |"
for model in $models; do
  base_times="" off_times="" on_times=""
  for ((i = 0; i < repeat; i++)); do
    [ -z "$base" ] || base_times+="$(simulation_seconds "$base" --model "$model")"$'\n'
    off_times+="$(simulation_seconds "$bin" --model "$model")"$'\n'
    off_peak=$(cat "$out/peak")
    on_times+="$(simulation_seconds "$bin" --model "$model" --attribution)"$'\n'
    on_peak=$(cat "$out/peak")
  done
  base_cell=$([ -z "$base" ] && echo "-" || summary <<< "${base_times%$'\n'}")
  echo "| $model | $base_cell | $(summary <<< "${off_times%$'\n'}") | $(summary <<< "${on_times%$'\n'}") |" \
    "$off_peak MiB, $on_peak MiB |"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
