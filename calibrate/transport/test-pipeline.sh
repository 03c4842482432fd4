#!/usr/bin/env bash
# End-to-end test of the transport buffering calibration on this machine,
# without the emulated cluster: transport_bench on 2 ranks, once over shared
# memory (vader) and once over TCP loopback (the TCP BTL, whose socket buffers
# hold part of a large message), contend fit-transport into a copy of a
# platform file; only levels.intra_socket may change, and the value written
# must be a size.
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup transport "$@"
mpi=(mpirun -np 2 --oversubscribe --mca mpi_yield_when_idle 1)
args=(--level intra_socket --min-size 64KiB --max-size 8MiB --factor 4 --samples 5 --sync clock)
"${mpi[@]}" --mca btl self,vader "$build/bin/transport_bench" "${args[@]}" -o "$work/vader.csv" 2> "$work/vader.log"
"${mpi[@]}" --mca btl self,tcp "$build/bin/transport_bench" "${args[@]}" --call send -o "$work/tcp.csv" \
  2> "$work/tcp.log"
# Placement is checked: inter_node with both ranks on this host is refused.
if "${mpi[@]}" "$build/bin/transport_bench" --level inter_node -o "$work/refused.csv" 2> "$work/refused.log"; then
  fail "inter_node on one host was not refused"
fi
grep -q "refusing to measure: level inter_node needs the two halves on different nodes" "$work/refused.log" ||
  { cat "$work/refused.log" >&2; fail "no placement error"; }
[ "$(grep -c '^intra_socket,isend,' "$work/vader.csv")" -eq 20 ] || fail "vader.csv: not 4 sizes x 5 samples"

# The fits: the TCP run alone (a level is fitted from one call), then vader into the platform.
"$build/bin/contend" fit-transport "$work/tcp.csv" --fits "$work/tcp-fits.csv" > "$work/tcp-fit.txt"
grep -q "^intra_socket: transport_buffer " "$work/tcp-fit.txt" || fail "no fit of the TCP run"
cp "$source_dir/platforms/epyc-rome-2node.yaml" "$work/platform.yaml"
"$build/bin/contend" fit-transport "$work/vader.csv" --platform "$work/platform.yaml" --fits "$work/fits.csv"
# The value as the YAML reader reads it is checked by the unit tests (unit.transport_fit); here its text.
value=$(sed -n 's/^    transport_buffer: \([0-9]*\(KiB\|MiB\)\{0,1\}\)$/\1/p' "$work/platform.yaml")
[ -n "$value" ] || fail "no 'transport_buffer: SIZE' line under a level"
echo "test-pipeline: levels.intra_socket.transport_buffer: $value"
changed=$(diff "$source_dir/platforms/epyc-rome-2node.yaml" "$work/platform.yaml" | grep '^[<>]' || true)
if echo "$changed" | grep -v -E '^> +(transport_buffer: |# transport_buffer: )' | grep -q .; then
  echo "$changed" >&2; fail "lines other than the transport_buffer key and its comment changed"
fi
[ "$(echo "$changed" | grep -c "^>")" -eq 2 ] || fail "not exactly two lines added"
echo "test-pipeline: ok"; cat "$work/tcp-fit.txt" "$work/fits.csv"
