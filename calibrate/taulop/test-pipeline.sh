#!/usr/bin/env bash
# End-to-end test of the tau-Lop parameter estimation on this machine (ctest
# calibrate.taulop_pipeline): calibrate.sh --local with 4 ranks (shared memory
# through vader, the "network" through TCP loopback), 3 message sizes, 3
# samples, every broadcast algorithm forced in turn; then checks the raw CSVs,
# the fitted values and the platform files. It tests the pipeline; the
# numbers measure an oversubscribed machine, not a cluster.
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup taulop "$@"
mpi=(mpirun -np 4 --oversubscribe --bind-to none --mca mpi_yield_when_idle 1)

# The benchmark refuses what would not measure what it says.
if "${mpi[@]}" --mca btl self,vader "$bin/taulop_bench" --experiment bcast_gather --algorithm chain -o "$work/x.csv" 2> "$work/unforced.log"; then
  fail "a broadcast run without the MCA forcing was not refused"
fi
grep -q "refusing to measure: Open MPI runs bcast algorithm 0 .*give mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm 3" "$work/unforced.log" ||
  { cat "$work/unforced.log" >&2; fail "no forcing error"; }
if "${mpi[@]}" --mca btl self,vader "$bin/taulop_bench" --experiment nbft --channel 1 -o "$work/x.csv" 2> "$work/net.log"; then
  fail "a network NBFT with every rank on one host was not refused"
fi
grep -q "refusing to measure: channel 1 (network) needs every rank but the root on another node" "$work/net.log" ||
  { cat "$work/net.log" >&2; fail "no placement error"; }

# The whole calibration into a platform without a taulop section.
cp "$source_dir/platforms/epyc-rome.yaml" "$work/plain.yaml"
"$source_dir/calibrate/taulop/calibrate.sh" --local --ranks 4 --bin "$bin" --platform "$work/plain.yaml" --output "$work/calibrated.yaml" \
  --raw-dir "$work/raw" --min-size 16KiB --max-size 64KiB --procs 3,4 --samples 3 --calls 20 --fanout 2 > "$work/calibrate.log" 2>&1 ||
  { tail -20 "$work/calibrate.log" >&2; fail "calibrate.sh failed"; }

# Raw CSVs: the expected rows, as forced.
rows() { grep -v '^#' "$1" | tail -n +2; }
[ "$(rows "$work/raw/taulop-nbft-shm.csv" | awk -F, '$1 == "nbft" && $2 == 0 && $7 >= 2 && $7 <= 4 && $12 > 0' | wc -l)" -eq 9 ] ||
  fail "taulop-nbft-shm.csv: expected 9 NBFT rows (P = 2..4, 3 samples) on channel 0"
[ "$(rows "$work/raw/taulop-nbft-net.csv" | awk -F, '$1 == "nbft" && $2 == 1 && $12 > 0' | wc -l)" -eq 9 ] ||
  fail "taulop-nbft-net.csv: expected 9 NBFT rows on channel 1"
grep -q "network channel = TCP loopback" "$work/raw/taulop-nbft-net.csv" || fail "the loopback network is not said in the CSV"
declare -A id=([linear]=1 [kchain]=2 [chain]=3 [split_binary]=4 [binary]=5 [binomial]=6)
for a in "${!id[@]}"; do
  f=$work/raw/taulop-bcast-$a.csv
  good=$(rows "$f" | awk -F, -v a="$a" -v id="${id[$a]}" '$1 == "bcast_gather" && $3 == a && $4 == id && $5 == 8192 && $6 == 2 &&
    ($7 == 3 && $8 == "0:0:0" || $7 == 4 && $8 == "0:0:0:0") && ($9 == 16384 || $9 == 32768 || $9 == 65536) && $12 > 0' | wc -l)
  [ "$good" -eq 18 ] || fail "$f: expected 18 rows (P = 3, 4 x 3 sizes x 3 samples) of $a (Open MPI ${id[$a]}), got $good"
done

# Fitted values: every algorithm, finite and non-negative, T^0 > 0, and T^1 = Q T^0 (one node).
fits=$work/raw/fits.csv
for a in "${!id[@]}"; do grep -q "^$a," "$fits" || fail "fits.csv has no $a"; done
bad=$(tail -n +2 "$fits" | awk -F, '{ for (i = 12; i <= 15; i++) if ($i !~ /^[0-9.e+-]+$/ || $i < 0) print; if ($12 + 2 * $14 <= 0 || $10 <= 0) print }')
[ -z "$bad" ] || fail "fitted values not finite and positive: $bad"
grep -q "T1 by" "$work/calibrate.log" && grep -E "^(linear|chain|kchain|split_binary|binary|binomial) " "$work/calibrate.log" | grep -qv " Q " &&
  fail "on one node T^1 must come from Q"

# The platform: valid with the taulop model, and only models.taulop was added.
"$bin/contend" platform --platform "$work/calibrated.yaml" > "$work/platform.log" || { cat "$work/platform.log" >&2; fail "invalid platform"; }
grep -q "models .*taulop" "$work/platform.log" || fail "no taulop section"
changed=$(diff "$work/plain.yaml" "$work/calibrated.yaml" | grep '^[<>]' || true)
if echo "$changed" | grep -q '^<'; then fail "lines of the original platform were changed: $changed"; fi
q=$(awk '/^    Q: / { print $2 }' "$work/calibrated.yaml")
awk -v q="$q" 'BEGIN { exit !(q > 0) }' || fail "Q = '$q' is not a positive number"
for a in "${!id[@]}"; do grep -q "^      $a: {o0: " "$work/calibrated.yaml" || fail "no bcast.$a in the platform"; done

# The calibrated platform drives the analytical models: contend select bcast
# predicts six positive times per size.
"$bin/contend" select bcast --platform "$work/calibrated.yaml" --procs 4 --sizes 16K:64K > "$work/select.log" ||
  { cat "$work/select.log" >&2; fail "contend select bcast failed on the calibrated platform"; }
[ "$(awk '$1 ~ /^(16|32|64)K$/ && $2 > 0 && $3 > 0 && $4 > 0 && $5 > 0 && $6 > 0 && $7 > 0' "$work/select.log" | wc -l)" -eq 3 ] ||
  { cat "$work/select.log" >&2; fail "select bcast: expected 3 sizes with six positive predicted times"; }

# Into a platform that has a taulop section: the channels' o, L and concurrency stay.
cp "$source_dir/platforms/grisou.yaml" "$work/grisou.yaml"
"$bin/contend" fit-taulop "$work"/raw/taulop-*.csv --platform "$work/grisou.yaml" > "$work/grisou.log"
"$bin/contend" platform --platform "$work/grisou.yaml" > /dev/null || fail "grisou.yaml invalid after fit-taulop"
kept=$(sed -n '/^  taulop:/,$p' "$source_dir/platforms/grisou.yaml" | grep -E '^        (o|L|concurrency): ')
[ "$(echo "$kept" | wc -l)" -ge 5 ] || fail "platforms/grisou.yaml: expected channels with o, L and concurrency"
while IFS= read -r line; do
  grep -qxF "$line" "$work/grisou.yaml" || fail "grisou.yaml lost '$line'"
done <<< "$kept"
grep -q "^    Q: $q$" "$work/grisou.yaml" || fail "grisou.yaml: Q not rewritten to the measured $q"

# Without NBFT rows the fit says what is missing.
if "$bin/contend" fit-taulop "$work/raw/taulop-bcast-chain.csv" 2> "$work/missing.log"; then fail "fit without NBFT rows accepted"; fi
grep -q "no NBFT experiment over shared memory with P = 2" "$work/missing.log" || { cat "$work/missing.log" >&2; fail "no missing-NBFT error"; }
echo "test-pipeline: ok"
grep -A8 "^segment" "$work/calibrate.log"
