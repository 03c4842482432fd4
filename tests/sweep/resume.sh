#!/bin/bash
# An interrupted sweep resumes without redoing its finished cases
# (docs/sweeps.md, "Resuming"): a sweep is stopped with SIGINT once its
# results file holds some rows; the file is then a valid CSV of finished rows;
# the rerun runs only the cases missing from it, and ends with the rows of an
# uninterrupted run. An edited input file makes its cases new ones.
# Usage: resume.sh CONTEND SRCDIR WORKDIR
set -euo pipefail
export LC_ALL=C
contend=$(realpath "$1") src=$(realpath "$2") work=$3
fail() { echo "resume.sh: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cp "$src/platforms/epyc-rome-2node.yaml" platform.yaml
cp "$src/traces/samples/halo-256.pattern" halo.pattern
cat > sweep.yaml <<'YAML'
platform: platform.yaml
pattern: halo.pattern
model: [maxmin, staircase]
mapping: [block, cyclic, socket]
progress: [thread, none]
set:
  levels.inter_node.latency: [1us, 2us, 3us, 4us]
YAML
rows() { grep -c '^[0-9]' "$1" || true; }
without_wall() { cut -d, -f1-17,19- "$1"; }

"$contend" sweep sweep.yaml --jobs 1 --quiet --output whole.csv
[ "$(rows whole.csv)" = 48 ] || fail "whole.csv: expected 48 rows"
grep -q ',error,' whole.csv && fail "a case failed: $(grep -m1 ',error,' whole.csv)"

"$contend" sweep sweep.yaml --jobs 1 --quiet --output part.csv &
pid=$!
for _ in $(seq 600); do
  [ -f part.csv ] && [ "$(rows part.csv)" -ge 2 ] && break
  kill -0 $pid 2> /dev/null || break
  sleep 0.1
done
kill -INT $pid 2> /dev/null || fail "the sweep ended before it could be interrupted"
wait $pid && fail "the interrupted sweep exited 0"
done_before=$(rows part.csv)
[ "$done_before" -ge 2 ] && [ "$done_before" -lt 48 ] || fail "after the interruption part.csv holds $done_before rows"
# Every line of the file is a whole row: as many fields as the header.
python3 -c "
import csv, sys
lines = list(csv.reader(open('part.csv')))
assert all(len(l) == len(lines[0]) for l in lines), 'a partial row'
"
"$contend" sweep sweep.yaml --jobs 2 --output part.csv > rerun.txt
grep -q "48 cases: $((48 - done_before)) run, $done_before already in part.csv, 0 failed" rerun.txt ||
  fail "the rerun after $done_before rows: $(cat rerun.txt)"
cmp <(without_wall whole.csv) <(without_wall part.csv) || fail "the resumed sweep's rows differ from the whole run's"

# An edited pattern file: every case is new; an edited platform value likewise.
echo "# edited" >> halo.pattern
"$contend" sweep sweep.yaml --jobs 2 --output part.csv > edited.txt
grep -q "48 cases: 48 run, 0 already" edited.txt || fail "after editing the pattern: $(cat edited.txt)"
echo "resume.sh: interrupted after $done_before of 48 cases, resumed with the rest, same rows as a whole run"
