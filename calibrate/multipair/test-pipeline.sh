#!/usr/bin/env bash
# End-to-end test of the multi-pair calibration on this machine, without the
# emulated cluster: multipair_bench on 2 ranks (one-way N = 1, both ways
# N = 2, sizes up to 16 MiB so that the copies outweigh scheduling noise
# when other jobs load the 2 cores), contend fit-multipair into a copy of a platform file;
# the intra_socket level must change and every other line stay as it was.
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup multipair "$@"
mpi=(mpirun -np 2 --oversubscribe --mca btl self,vader --mca mpi_yield_when_idle 1)
args=(--level intra_socket --min-size 256KiB --max-size 16MiB --factor 4 --repeats 4 --samples 5)
"${mpi[@]}" "$build/bin/multipair_bench" "${args[@]}" --unidirectional -o "$work/uni.csv" 2> "$work/uni.log"
"${mpi[@]}" "$build/bin/multipair_bench" "${args[@]}" -o "$work/bi.csv" 2> "$work/bi.log"
# Placement is checked: inter_node with both ranks on this host is refused.
if "${mpi[@]}" "$build/bin/multipair_bench" --level inter_node -o "$work/refused.csv" 2> "$work/refused.log"; then
  echo "test-pipeline: FAIL: inter_node on one host was not refused" >&2; exit 1
fi
grep -q "refusing to measure: level inter_node needs the two halves on different nodes" "$work/refused.log" ||
  { cat "$work/refused.log" >&2; echo "test-pipeline: FAIL: no placement error" >&2; exit 1; }

cp "$source_dir/platforms/epyc-rome-2node.yaml" "$work/platform.yaml"
"$build/bin/contend" fit-multipair "$work/uni.csv" "$work/bi.csv" --platform "$work/platform.yaml" --fits "$work/fits.csv"
"$build/bin/contend" platform --platform "$work/platform.yaml" | grep "intra_socket" | grep -q "BW_MP(N) {1: .*, 2: .*}" ||
  { echo "test-pipeline: FAIL: intra_socket not rewritten as {1: ..., 2: ...}" >&2; exit 1; }
# Only the intra_socket entry changed.
changed=$(diff "$source_dir/platforms/epyc-rome-2node.yaml" "$work/platform.yaml" | grep '^[<>]' || true)
if echo "$changed" | grep -v -E '^[<>] +(intra_socket:|latency:|eager_threshold:|bandwidth:|# latency, bandwidth:)' | grep -q .; then
  echo "test-pipeline: FAIL: lines outside levels.intra_socket changed:" >&2; echo "$changed" >&2; exit 1
fi
[ "$(echo "$changed" | grep -c "^>")" -ge 3 ] || { echo "test-pipeline: FAIL: nothing rewritten" >&2; exit 1; }
echo "test-pipeline: ok"; cat "$work/fits.csv"
