#!/usr/bin/env bash
# ctest validation.heldout_offline: the held-out suite's steps that need no
# testbed (validation/testbed/heldout.py, predict.sh, report_heldout.py):
#   - the same --seed gives the same cases, byte for byte; no --seed draws
#     a fresh one and records it;
#   - every mapping puts exactly the case's ranks per node, the rankfiles
#     name the given nodes, sizes lie within 4 KiB-4 MiB and cover both
#     sides of the network's 64 KiB eager threshold;
#   - measurements equal to maxmin's prediction report 0.0% for maxmin on
#     every side, and a rank on the wrong node fails the report.
# Usage: heldout_offline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=${1:?usage: heldout_offline.sh BUILD_DIR SOURCE_DIR}
source_dir=${2:?missing SOURCE_DIR}
contend=$build/bin/contend
testbed=$source_dir/validation/testbed
work=$(mktemp -d /tmp/heldout-offline.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "heldout_offline: FAIL: $*" >&2; exit 1; }
nodes=(--node tn-n0 --node tn-n1 --node tn-n2 --node tn-n3)
platform=$source_dir/platforms/testbed.yaml

/usr/bin/python3 "$testbed/heldout.py" "$contend" "$platform" "$work/a" "${nodes[@]}" --seed 12345 > /dev/null
[ "$(cat "$work/a/seed.txt")" = 12345 ] || fail "seed.txt does not record --seed"
[ "$(tail -n +2 "$work/a/plan.csv" | wc -l)" = 9 ] || fail "expected 9 cases (2, 3, 4 ranks per node x 3 mappings)"
for run in b c; do
  /usr/bin/python3 "$testbed/heldout.py" "$contend" "$platform" "$work/$run" "${nodes[@]}" --seed 777 --quick > /dev/null
done
# The search's log names its output path; everything else must be identical.
diff -r -x '*.search.txt' "$work/b" "$work/c" > /dev/null || fail "the same seed gave different cases"
/usr/bin/python3 "$testbed/heldout.py" "$contend" "$platform" "$work/d" "${nodes[@]}" --quick > /dev/null
[ "$(cat "$work/d/seed.txt")" != 777 ] || fail "a run without --seed did not draw a fresh seed"

tail -n +2 "$work/a/plan.csv" | while IFS=, read -r case _ _ ranks rpn _ pattern map rankfile; do
  for n in 0 1 2 3; do
    count=$(grep -c "=tn-n$n slot" "$work/a/$rankfile" || true)
    [ "$count" = "$rpn" ] || fail "$case: $count ranks on tn-n$n in the rankfile, expected $rpn"
    count=$(awk -v n="$n" '!/^#/ && $2 == n' "$work/a/$map" | wc -l)
    [ "$count" = "$rpn" ] || fail "$case: $count ranks on node $n in the mapping file, expected $rpn"
  done
  [ "$(grep -c '^rank ' "$work/a/$rankfile")" = "$ranks" ] || fail "$case: the rankfile does not place $ranks ranks"
  awk '!/^#/ && NF == 3 && $1 != "ranks" { if ($3 < 4096 || $3 > 4194304) bad = 1; if ($3 < 65536) eager = 1; else rdv = 1 }
       END { exit !(eager && rdv && !bad) }' "$work/a/$pattern" ||
    fail "$case: message sizes outside 4 KiB-4 MiB, or not both below and above 64 KiB"
done

# Measurements equal to maxmin's predictions: the report must give 0.0% to maxmin.
results=$work/c
/usr/bin/python3 - "$results" <<'PY'
import csv, sys
results = sys.argv[1]
with open(f"{results}/plan.csv") as f:
    plan = list(csv.DictReader(f))
with open(f"{results}/cases.csv", "w") as f:
    f.write("case,workload,mapping,ranks,repetitions,warmup,drops,retransmits,queue,ranks_per_node,platform,map,load1\n")
    for p in plan:
        f.write(f"{p['case']}.q100,{p['workload']},{p['mapping']},{p['ranks']},3,2,0,0,100,{p['ranks_per_node']},"
                f"{p['platform']},{p['map']},0.5\n")
PY
mkdir -p "$results/measured"
tail -n +2 "$results/cases.csv" | while IFS=, read -r case workload _ _ _ _ _ _ _ _ case_platform map _; do
  "$contend" simulate --platform "$results/$case_platform" --pattern "$results/workloads/$workload.pattern" \
    --mapping "$results/$map" --model maxmin --per-rank "$work/$case.csv" --quiet > /dev/null
  awk -F, 'NR == 1 { print "repetition,rank,host,time_s,late_s,send_time_s,recv_time_s"; next }
    { for (rep = 0; rep < 3; ++rep) print rep "," $1 ",tn-n" $2 "," $7 ",0," $6 "," $5 }' "$work/$case.csv" \
    > "$results/measured/$case.csv"
done
"$testbed/predict.sh" "$build" "$platform" "$results" report_heldout.py > "$work/report.txt" 2> "$work/predict.err" ||
  { cat "$work/predict.err" >&2; fail "predict.sh / report_heldout.py failed"; }
for side in recv send total; do
  awk -F, -v side="$side" '$6 == "maxmin" && $7 == side { n++; if ($8 != "0.0000") bad = 1 } END { exit !(n == 2 && !bad) }' \
    "$results/errors.csv" || fail "maxmin against its own prediction is not 0 on the $side side: $(grep maxmin "$results/errors.csv")"
done
for f in summary.md plots/pooled-recv.png plots/pooled-send.png plots/pooled-total.png; do
  [ -s "$results/$f" ] || fail "report_heldout.py wrote no $f"
done
grep -q "staircase+loggops" "$results/summary.md" || fail "the compositions are not predicted"

# A rank (rank 1) on another node than its mapping says fails the report.
case=$(tail -n +2 "$results/cases.csv" | head -1 | cut -d, -f1)
awk -F, -v OFS=, '$2 == "1" { $3 = "tn-n9" } { print }' "$results/measured/$case.csv" > "$work/moved.csv"
mv "$work/moved.csv" "$results/measured/$case.csv"
if /usr/bin/python3 "$testbed/report_heldout.py" "$results" "$platform" maxmin > /dev/null 2> "$work/placement.err"; then
  fail "a rank on the wrong node was not reported"
fi
grep -q "disagree on placement" "$work/placement.err" || fail "unexpected error: $(cat "$work/placement.err")"
echo "heldout_offline: ok"
