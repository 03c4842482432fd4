#!/usr/bin/env bash
# End-to-end test of the flowcut conflict calibration on this machine (ctest
# calibrate.flowcut_pipeline): calibrate.sh --local, six ranks through TCP
# loopback (8 MB messages, 3 repetitions), then contend fit-flowcut into a
# copy of martinasso-gigaeth-lam.yaml. Checks: the raw CSV holds every flow
# of every conflict of conflicts.hpp; the cuts are finite and within
# [0, 100]; the platform validates, its models.flowcut is the cuts CSV's table
# and nothing else in the file changed; the flowcut model simulates with it;
# --dry-run writes nothing; a raw file without a conflict is refused. It tests
# the pipeline: loopback measures no network.
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup flowcut "$@"
original=$source_dir/platforms/martinasso-gigaeth-lam.yaml

"$source_dir/calibrate/flowcut/calibrate.sh" --local --bin "$bin" --platform "$original" --output "$work/calibrated.yaml" \
  --raw "$work/raw.csv" --cuts "$work/cuts.csv" --bytes 8000000 --repetitions 3 > "$work/calibrate.log" 2>&1 ||
  { tail -20 "$work/calibrate.log" >&2; fail "calibrate.sh failed"; }
grep -q "^contend fit-flowcut: L = .* us, T(NC) data time .* ms; wrote $work/calibrated.yaml$" "$work/calibrate.log" ||
  { cat "$work/calibrate.log" >&2; fail "no summary line from contend fit-flowcut"; }

# Raw CSV: the 1-byte latency, then 3 repetitions of the 18 flows of the seven conflicts.
[ "$(head -1 "$work/raw.csv")" = "conflict,repetition,flow,src,dst,bytes,seconds" ] || fail "raw.csv: unexpected header"
declare -A flows=([reference]=1 [outgo]=2 [income]=2 [outgo_income]=2 [even_chain]=3 [include]=5 [start_end]=3)
for c in "${!flows[@]}"; do
  n=$(awk -F, -v c="$c" '$1 == c && $6 == 8000000 && $7 > 0' "$work/raw.csv" | wc -l)
  [ "$n" -eq $((3 * flows[$c])) ] || fail "raw.csv: $c has $n rows, expected $((3 * flows[$c]))"
done
[ "$(awk -F, '$1 == "latency" && $6 == 1 && $7 > 0' "$work/raw.csv" | wc -l)" -eq 1 ] || fail "raw.csv: no latency row"

# The cuts: finite, within [0, 100]; the contention-free time above the latency.
for entry in latency_s tau_s odd_conflicts.0 even_conflicts.0 even_conflicts.1 incoming outgoing include start_end; do
  grep -q "^$entry," "$work/cuts.csv" || fail "cuts.csv has no $entry"
done
bad=$(tail -n +2 "$work/cuts.csv" | awk -F, '$2 !~ /^[0-9.e+-]+$/ || $2 < 0 || $2 > 100 || ($1 == "tau_s" && $2 <= 0)')
[ -z "$bad" ] || fail "cuts out of range: $bad"

# The platform: valid, the flowcut section is the cuts CSV's table, nothing else changed.
"$bin/contend" platform --platform "$work/calibrated.yaml" > "$work/platform.log" || { cat "$work/platform.log" >&2; fail "invalid platform"; }
grep -q "models .*flowcut" "$work/platform.log" || fail "no flowcut section"
# Written with three decimals: each within rounding of the CSV's six digits.
for entry in incoming outgoing include start_end; do
  written=$(grep -o "[{ ]$entry: [0-9.]*" "$work/calibrated.yaml" | head -1 | awk '{ print $2 }' || true)
  value=$(awk -F, -v e="$entry" '$1 == e { print $2 }' "$work/cuts.csv")
  awk -v w="$written" -v v="$value" 'BEGIN { d = w - v; exit !(w != "" && d <= 0.0006 && d >= -0.0006) }' ||
    fail "models.flowcut: $entry is '$written', the cuts CSV says $value"
done
section() { awk '/^  flowcut:/ { on = 1; next } on && /^  [^ ]/ { on = 0 } !on' "$1"; }
diff <(section "$original") <(section "$work/calibrated.yaml") > "$work/outside.diff" ||
  { cat "$work/outside.diff" >&2; fail "lines outside models.flowcut changed"; }

# The flowcut model runs on the calibrated table (Table 4's mapping B).
"$bin/contend" simulate --platform "$work/calibrated.yaml" --pattern "$source_dir/validation/flowcut/data/bcast-10MB.pattern" \
  --mapping "$source_dir/validation/flowcut/data/mapping-B.map" --model flowcut --quiet --messages "$work/messages.csv" ||
  fail "contend simulate --model flowcut failed on the calibrated platform"
[ "$(tail -n +2 "$work/messages.csv" | wc -l)" -eq 7 ] || fail "the simulation did not deliver the 7 messages"

# --dry-run prints the file and writes nothing.
cp "$original" "$work/dry.yaml"
"$bin/contend" fit-flowcut "$work/raw.csv" --platform "$work/dry.yaml" --dry-run > "$work/dry.log"
cmp -s "$original" "$work/dry.yaml" || fail "--dry-run changed the platform file"
grep -q "^  flowcut:$" "$work/dry.log" || fail "--dry-run did not print the new section"

# A raw file without one of the conflicts is refused, and nothing is written.
grep -v "^include," "$work/raw.csv" > "$work/no-include.csv"
if "$bin/contend" fit-flowcut "$work/no-include.csv" --platform "$work/dry.yaml" 2> "$work/missing.log"; then
  fail "a raw file without the include conflict was accepted"
fi
grep -q "lack conflict 'include'" "$work/missing.log" || { cat "$work/missing.log" >&2; fail "no missing-conflict error"; }
cmp -s "$original" "$work/dry.yaml" || fail "a refused fit changed the platform file"
echo "test-pipeline: ok"
cat "$work/cuts.csv"
