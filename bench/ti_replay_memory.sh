#!/usr/bin/env bash
# Memory of TI trace replay against trace length: 2 ranks exchanging
# N messages (isend/irecv/waitall + compute per iteration), written as a TI
# trace and replayed with `contend simulate --trace --stats`; peak memory
# must not grow with N (each rank reads its file one line at a time).
# usage: bench/ti_replay_memory.sh [--iterations "10000 100000 400000"] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
iterations="10000 100000 400000"
out="$out/ti-replay"
bench_options '[--iterations "10000 100000 400000"]' iterations=iterations -- "$@"
bench_start
for n in $iterations; do
  for r in 0 1; do
    awk -v n="$n" -v r="$r" 'BEGIN { print r, "init"; p = 1 - r;
      for (i = 0; i < n; i++) { print r, "compute 1000"; print r, "irecv", p, 0, 1024, 6; print r, "isend", p, 0, 1024, 6; print r, "waitall 2" }
      print r, "finalize" }' > "$out/rank-$r.txt"
  done
  printf 'rank-0.txt\nrank-1.txt\n' > "$out/trace.txt"
  echo "== $n iterations ($(wc -l < "$out/rank-0.txt") lines per rank)"
  "$bin" simulate --platform "$root/platforms/testbed.yaml" --trace "$out/trace.txt" --quiet --stats
done
