#!/usr/bin/env bash
# Overhead and memory of libcontend-trace.so: a 2-rank program making 3 MPI
# calls per iteration (bench/tracer/call_rate.c) runs with and without the
# tracer for N iterations; prints calls per second, peak memory (RSS, which
# must not grow with N: the trace is flushed in 1 MiB chunks) and the trace size.
# usage: bench/tracer_overhead.sh [--iterations "100000 400000"] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib="$root/build/lib/libcontend-trace.so"
iterations="100000 400000"
out="$root/build/bench/tracer"
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--iterations \"100000 400000\"] [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -f "$lib" ] || { echo "build contend first (make build)" >&2; exit 1; }
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpicc -O2 "$root/bench/tracer/call_rate.c" -o "$out/call_rate"
for n in $iterations; do
  echo "== $n iterations, untraced"
  mpirun -np 2 "$out/call_rate" "$n"
  echo "== $n iterations, traced"
  rm -rf "$out/trace"
  mpirun -np 2 -x LD_PRELOAD="$lib" -x CONTEND_TRACE_DIR="$out/trace" "$out/call_rate" "$n"
  echo "trace of rank 0: $(stat -c %s "$out/trace/rank-0.txt") bytes"
done
