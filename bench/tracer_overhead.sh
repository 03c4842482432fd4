#!/usr/bin/env bash
# Overhead and memory of libcontend-trace.so: a 2-rank program making 3 MPI
# calls per iteration (bench/tracer/call_rate.c) runs with and without the
# tracer for N iterations; prints calls per second, peak memory (RSS, which
# must not grow with N: the trace is flushed in 1 MiB chunks) and the trace size.
# The tracer is the one of the build whose contend --bin names (lib/ beside bin/).
# usage: bench/tracer_overhead.sh [--iterations "100000 400000"] [--bin PATH] [--out DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
iterations="100000 400000"
out="$out/tracer"
bench_options '[--iterations "100000 400000"]' iterations=iterations -- "$@"
bench_start
lib="$(dirname "$bin")/../lib/libcontend-trace.so"
[ -f "$lib" ] || { echo "no tracer at $lib: build it (make build)" >&2; exit 1; }
echo "tracer: $lib"
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
