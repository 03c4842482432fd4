#!/usr/bin/env bash
# Proves the shaping holds before anything is measured:
#   1. one 4 MiB message node 0 -> node 1: its bytes appear on node 0's uplink
#      and node 1's downlink (htb counters) and nowhere else (beyond the
#      ACKs flowing back), and its
#      bandwidth is the shaped rate less TCP/IP headers (within 10%);
#   2. the same both ways at once: full duplex, each direction at that rate;
#   3. two ranks of one node: shared memory, nothing on any shaped link.
# Usage: check.sh BUILD_DIR [OUT.csv]   (writes the figures as CSV)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_load_state
build=${1:?usage: check.sh BUILD_DIR [OUT.csv]}
out=${2:-}
run=$build/bin/pattern_run
[ -x "$run" ] || ctd_die "$run not built"

work=$(mktemp -d "/tmp/${CTD_PREFIX}-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
bytes=$((4 * 1048576))
printf 'ranks 2\n0 1 %d\n' $bytes > "$work/one-way.pattern"
printf 'ranks 2\n0 1 %d\n1 0 %d\n' $bytes $bytes > "$work/two-way.pattern"

# Payload rate expected from the wire rate: 1448 B of TCP payload per 1514 B
# Ethernet frame (MTU 1500, TCP timestamps on).
wire_rate=$(echo "$CTD_RATE" | awk '/kbit$/ {print $0*1e3/8} /mbit$/ {print $0*1e6/8} /gbit$/ {print $0*1e9/8}')
[ -n "$wire_rate" ] || ctd_die "CTD_RATE '$CTD_RATE' must end in kbit, mbit or gbit"
payload_rate=$(awk -v w="$wire_rate" 'BEGIN {print w * 1448 / 1514}')

links() {  # every shaped link as "label ns dev"
  for i in $(seq 0 $((CTD_NODES - 1))); do
    echo "up$i $(ctd_node "$i") $(ctd_veth_node "$i")"
    echo "down$i - $(ctd_veth_bridge "$i")"
  done
}
snapshot() { links | while read -r label ns dev; do echo "$label $(ctd_tc_bytes "$ns" "$dev")"; done; }

fail() { ctd_log "FAIL: $*"; echo "$*" >> "$work/failures"; }
: > "$work/failures"
measure() {  # measure NAME PATTERN MAP-BY EXPECTED-LINKS (space-separated labels; empty: none)
  local name=$1 pattern=$2 mapby=$3 expected=$4
  snapshot > "$work/before"
  "$CTD_DIR/mpirun.sh" -np 2 --map-by "$mapby" "$run" --pattern "$pattern" --repetitions 3 --warmup 1 \
    -o "$work/$name.csv" 2> "$work/$name.log" || { cat "$work/$name.log" >&2; ctd_die "$name: pattern_run failed"; }
  snapshot > "$work/after"
  # Median over repetitions of the slower rank's time.
  local time
  time=$(awk -F, 'NR > 2 {if ($4 > t[$1]) t[$1] = $4} END {for (r in t) print t[r]}' "$work/$name.csv" | sort -g |
    awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
  local moved=$((4 * bytes))  # warm-up + 3 repetitions
  local line="$name: time $(awk -v t="$time" 'BEGIN {printf "%.4f", t}') s"
  while read -r label before; do
    local after delta
    after=$(awk -v l="$label" '$1 == l {print $2}' "$work/after")
    delta=$((after - before))
    if [[ " $expected " == *" $label "* ]]; then
      # Each expected link carried the payload (plus headers, at most +10%).
      if [ "$delta" -lt "$moved" ] || [ "$delta" -gt $((moved * 11 / 10)) ]; then
        fail "$name: link $label carried $delta B, expected about $moved B"
      fi
    elif [ "$delta" -gt $((moved * 6 / 100)) ]; then
      # The reverse direction carries TCP's ACKs: at most one 66-78 B frame per
      # 1448 B segment (5.4% of the payload) when the receiver acknowledges
      # every segment, half that with delayed ACKs (CI saw 2.3%). Misrouted
      # data would show as about 100%.
      fail "$name: link $label carried $delta B, expected at most TCP ACKs (6% of $moved B)"
    fi
  done < "$work/before"
  echo "$time" > "$work/$name.time"
  ctd_log "$line"
}

measure one-way "$work/one-way.pattern" node "up0 down1"
measure two-way "$work/two-way.pattern" node "up0 down1 up1 down0"
measure intra-node "$work/one-way.pattern" ppr:2:node ""
t1=$(cat "$work/one-way.time"); t2=$(cat "$work/two-way.time"); t3=$(cat "$work/intra-node.time")

report() {  # report NAME TIME: bandwidth check against the payload rate
  local bw
  bw=$(awk -v b=$bytes -v t="$2" 'BEGIN {printf "%.0f", b / t}')
  local ratio
  ratio=$(awk -v b="$bw" -v p="$payload_rate" 'BEGIN {printf "%.3f", b / p}')
  ctd_log "$1: $(awk -v b="$bw" 'BEGIN {printf "%.2f", b / 1e6}') MB/s = $ratio x the expected payload rate $(awk -v p="$payload_rate" 'BEGIN {printf "%.2f", p / 1e6}') MB/s"
  # Below: 0.85, not 0.9: with the 2 cores busy (other jobs, load 8) the
  # two-way case reached 0.891 on a correctly shaped link; a wrong rate or a
  # missing shaper is off by orders of magnitude.
  if awk -v r="$ratio" 'BEGIN {exit !(r < 0.85 || r > 1.05)}'; then
    fail "$1: not within -15%/+5% of the shaped rate"
  fi
  echo "$1,$bytes,$2,$bw,$payload_rate,$ratio"
}
{
  echo "check,bytes,time,bandwidth,expected_payload_rate,ratio"
  report one-way "$t1"
  report two-way "$t2"
  echo "intra-node,$bytes,$t3,$(awk -v b=$bytes -v t="$t3" 'BEGIN {printf "%.0f", b / t}'),,"
} > "$work/summary.csv"
[ -n "$out" ] && cp "$work/summary.csv" "$out"
if [ -s "$work/failures" ]; then ctd_die "shaping check failed ($(wc -l < "$work/failures") problems): do not measure on this testbed"; fi
ctd_log "shaping check passed"
