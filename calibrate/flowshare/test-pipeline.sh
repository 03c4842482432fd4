#!/usr/bin/env bash
# End-to-end test of the flow-sharing measurement on this machine (ctest
# calibrate.flowshare_pipeline): flowshare_bench with 4 ranks through TCP
# loopback on a small flows file (one flow; two simultaneous; two staggered
# by 20 ms with unequal sizes), then analyze.py and predict.py. Checks:
# every flow of every repetition is in the raw CSV, with 0 <= start < end
# and the staggered flow posted no earlier than its start_ms; analyze.py
# writes its tables and plots; predict.py predicts every experiment with
# contend; a flows file with a bad field is refused with file:line:col and
# nothing is written. It tests the pipeline: loopback measures no network.
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup flowshare "$@"
local_mpirun=(mpirun -np 4 --oversubscribe --bind-to none --mca btl tcp,self --mca btl_tcp_if_include lo
  --mca oob_tcp_if_include lo)

cat > "$work/flows.csv" <<'FLOWS'
experiment,src,dst,bytes,start_ms
fanin-k1-eq-s0,1,0,1MiB,0
fanin-k2-eq-s0,1,0,1MiB,0
fanin-k2-eq-s0,2,0,1MiB,0
fanout-k2-uneq-s20,0,1,2MiB,0
fanout-k2-uneq-s20,0,2,256KiB,20
FLOWS
"${local_mpirun[@]}" "$bin/flowshare_bench" --flows "$work/flows.csv" --repetitions 3 -o "$work/raw-q100.csv" \
  > "$work/bench.log" 2>&1 || { tail -20 "$work/bench.log" >&2; fail "flowshare_bench failed"; }

header=experiment,repetition,flow,src,dst,src_host,dst_host,bytes,start_ms,start_s,end_s,send_end_s
[ "$(grep -v '^#' "$work/raw-q100.csv" | head -1)" = "$header" ] || fail "raw CSV: unexpected header"
declare -A flows=([fanin-k1-eq-s0]=1 [fanin-k2-eq-s0]=2 [fanout-k2-uneq-s20]=2)
for e in "${!flows[@]}"; do
  n=$(awk -F, -v e="$e" '$1 == e && $10 >= 0 && $11 > $10 && $12 > $10' "$work/raw-q100.csv" | wc -l)
  [ "$n" -eq $((3 * flows[$e])) ] || fail "raw CSV: $e has $n valid rows, expected $((3 * flows[$e]))"
done
late=$(awk -F, '$1 == "fanout-k2-uneq-s20" && $3 == 1 && $10 < 0.020' "$work/raw-q100.csv")
[ -z "$late" ] || fail "the staggered flow was posted before its start: $late"
[ "$(awk -F, '$1 == "fanout-k2-uneq-s20" && $3 == 1 && $8 != 262144' "$work/raw-q100.csv")" = "" ] ||
  fail "256KiB not read as 262144 bytes"

"$source_dir/calibrate/flowshare/analyze.py" "$work/analysis" "$work/raw-q100.csv" > "$work/analyze.log" 2>&1 ||
  { cat "$work/analyze.log" >&2; fail "analyze.py failed"; }
for f in flows.csv weights.csv laws.csv flows-q100.png shares.png; do
  [ -s "$work/analysis/$f" ] || fail "analyze.py did not write $f"
done
[ "$(tail -n +2 "$work/analysis/flows.csv" | wc -l)" -eq 5 ] || fail "analysis flows.csv: expected 5 flows"

# predict.py: every experiment predicted by contend's maxmin, fair and by age.
"$source_dir/calibrate/flowshare/predict.py" "$bin/contend" "$source_dir/platforms/testbed.yaml" 0.5 \
  "$work/predicted.csv" "$work/raw-q100.csv" > "$work/predict.log" 2>&1 ||
  { cat "$work/predict.log" >&2; fail "predict.py failed"; }
[ "$(tail -n +2 "$work/predicted.csv" | awk -F, '$4 >= 0 && $5 >= 0' | wc -l)" -eq 3 ] ||
  fail "predicted.csv: expected 3 experiments with errors"

# A bad size: refused at its place, before any flow moves; nothing written.
sed 's/^fanin-k1-eq-s0,1,0,1MiB,0$/fanin-k1-eq-s0,1,0,1Mfoo,0/' "$work/flows.csv" > "$work/bad.csv"
if "${local_mpirun[@]}" "$bin/flowshare_bench" --flows "$work/bad.csv" -o "$work/bad-out.csv" > "$work/bad.log" 2>&1; then
  fail "a bad size was accepted"
fi
grep -q "bad.csv:2:[0-9]*: bytes: expected" "$work/bad.log" || { cat "$work/bad.log" >&2; fail "no file:line:col error"; }
[ ! -e "$work/bad-out.csv" ] || fail "a refused run wrote its output"
echo "test-pipeline: ok"
