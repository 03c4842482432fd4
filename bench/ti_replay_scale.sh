#!/usr/bin/env bash
# Trace replay at application scale (issue 18): the halo exchanges of
# bench/scale.sh written as SimGrid time-independent traces, one file per
# rank (each rank: its isends, then its irecvs, in the pattern's order, then
# one waitall, as the pattern workload posts them), replayed with `contend
# simulate --trace` and compared with the pattern run of the same exchange:
# wall time, peak memory, and the largest per-rank time difference.
#
# usage: bench/ti_replay_scale.sh [--models "staircase"] [--ranks "2048 8192"] [--time-limit SECONDS]
#                                 [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
models="staircase"
ranks="2048 8192"
limit=300
bench_options '[--models "staircase"] [--ranks "2048 8192"] [--time-limit SECONDS]' \
  models=models ranks=ranks time-limit=limit -- "$@"
platform=$root/bench/platforms/testbed-64x128.yaml
bench_start
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# Writes the TI trace of pattern $1 (a plain exchange: 'src dst bytes'
# lines) under folder $2: index.txt and rank-R.txt.
pattern_to_ti() {
  local pattern=$1 dir=$2
  rm -rf "$dir"
  mkdir -p "$dir"
  awk -v dir="$dir" '
    /^#/ || NF == 0 { next }
    $1 == "ranks" { ranks = $2; next }
    NF != 3 { print "pattern line " NR ": expected src dst bytes" > "/dev/stderr"; exit 1 }
    { sends[$1] = sends[$1] $1 " isend " $2 " 0 " $3 "\n"; ns[$1]++
      recvs[$2] = recvs[$2] $2 " irecv " $1 " 0 " $3 "\n"; nr[$2]++ }
    END {
      for (r = 0; r < ranks; r++) {
        file = dir "/rank-" r ".txt"
        printf "%d init\n%s%s%d waitall %d\n%d finalize\n", r, sends[r], recvs[r], r, ns[r] + nr[r], r > file
        close(file)
        print "rank-" r ".txt" > (dir "/index.txt")
      }
    }' "$pattern"
}

for p in $ranks; do
  halo_pattern "$p" 10
  start=$(date +%s%N)
  pattern_to_ti "$pattern" "$out/ti-halo-$p"
  echo "P=$p: TI trace of $(awk '!/^#/ && NF == 3' "$pattern" | wc -l) messages written in $(seconds_since "$start" 1) s" \
    "($(du -sm "$out/ti-halo-$p" | cut -f1) MB)"
  for model in $models; do
    "$bin" simulate --platform "$platform" --pattern "$pattern" --model "$model" --per-rank "$out/ti-pattern.csv" \
      --quiet --stats --time-limit "$limit" 2>&1 | sed "s/^/P=$p $model pattern: /"
    "$bin" simulate --platform "$platform" --trace "$out/ti-halo-$p/index.txt" --model "$model" \
      --per-rank "$out/ti-trace.csv" --quiet --stats --time-limit "$limit" 2>&1 | sed "s/^/P=$p $model trace:   /"
    # Column 7: total_time per rank.
    paste -d, "$out/ti-pattern.csv" "$out/ti-trace.csv" | awk -F, -v label="P=$p $model" '
      NR > 1 { d = $7 - $14; if (d < 0) d = -d; m = ($7 > $14 ? $7 : $14); if (m > 0 && d / m > worst) worst = d / m }
      END { printf "%s: largest relative difference of a rank total time, trace against pattern: %.3g\n", label, worst }'
  done
done
