#!/bin/bash
# The shipped traces of the sample applications (traces/examples/traces,
# captured by traces/examples/capture.sh) replay completely on the testbed
# platform: every action of every rank file is replayed, and `contend
# compare` reads their measured times.
# Usage: examples.sh CONTEND_BIN SRCDIR WORKDIR
set -euo pipefail
export LC_ALL=C
contend=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
for dir in "$src"/traces/examples/traces/*/; do
  name=$(basename "$dir")
  "$contend" simulate --platform "$src/platforms/testbed.yaml" --trace "$dir/trace.txt" --per-rank "$name.csv" > "$name.txt"
  expected=$(grep -hv '^#' "$dir"/rank-*.txt | awk '{print $2}' | sort | uniq -c | awk '{printf " %s %s", $2, $1}')
  replayed=$(sed -n 's/^  trace actions  //p' "$name.txt")
  [ "$expected" = "$replayed" ] || { echo "$name: trace has$expected, contend replayed $replayed"; exit 1; }
  "$contend" compare --measured "$dir/measured.csv" --predicted "$name.csv" | tail -1
  "$contend" progress --profile "$dir/profile.csv" --cores 2 > /dev/null
done
