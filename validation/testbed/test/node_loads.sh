#!/usr/bin/env bash
# ctest validation.node_loads: node_loads.py on a hand-made results
# directory (4 ranks, 2 per node, two exchange steps): the bytes each node's
# link carries between nodes (intra-node messages excluded), the ingress
# bound, the measured and predicted ends over it, the light/heavy groups, and
# a malformed pattern line reported as file:line:col with a non-zero exit.
# Usage: node_loads.sh SOURCE_DIR
set -euo pipefail
source_dir=${1:?usage: node_loads.sh SOURCE_DIR}
script=$source_dir/validation/testbed/node_loads.py
work=$(mktemp -d /tmp/node-loads.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "node_loads: FAIL: $*" >&2; exit 1; }

r=$work/results
mkdir -p "$r/workloads" "$r/measured" "$r/predicted"
# Node 0: ranks 0, 1; node 1: ranks 2, 3. Into node 1: 1e6 + 2e6 B, into
# node 0: 0.5e6 + 1e6 B (the 999 B message stays inside node 0).
printf 'ranks 4\n0 2 1000000\n1 3 2000000\n2 0 500000\n0 1 999\n---\n3 1 1000000\n' > "$r/workloads/w.pattern"
echo "case,workload,mapping,ranks,repetitions,warmup,drops,retransmits,queue,ranks_per_node,platform,map,load1" > "$r/cases.csv"
echo "w.block.q100,w,block,4,3,0,0,0,100,2,p.yaml,m.map,0.5" >> "$r/cases.csv"
# Receive ends: medians 1.6, 1.8, 3.0, 3.3 s (each rank's 3 repetitions around them).
{
  echo "repetition,rank,host,time_s,late_s,send_time_s,recv_time_s"
  for rep in 0 1 2; do
    for rank_host_recv in "0 n0 1.6" "1 n0 1.8" "2 n1 3.0" "3 n1 3.3"; do
      read -r rank host recv <<< "$rank_host_recv"
      t=$(/usr/bin/python3 -c "print($recv + ($rep - 1) * 0.01)")
      echo "$rep,$rank,ctd-$host,$t,0,$t,$t"
    done
  done
} > "$r/measured/w.block.q100.csv"
cat > "$r/predicted/w.block.q100.maxmin.csv" <<'CSV'
rank,node,socket,core,recv_time_s,send_time_s,total_time_s
0,0,0,0,2.7,2.7,2.7
1,0,0,1,2.4,2.4,2.4
2,1,0,0,3.0,3.0,3.0
3,1,0,1,2.9,2.9,2.9
CSV

expected="case,node,group,bytes_in,bytes_out,bound_s,measured_s,predicted_s,measured_over_bound,predicted_over_bound
w.block.q100,0,light,1500000,3000000,1.5000,1.8000,2.7000,1.2000,1.8000
w.block.q100,1,heavy,3000000,1500000,3.0000,3.3000,3.0000,1.1000,1.0000"
got=$(cd "$work" && /usr/bin/python3 "$script" "$r" maxmin --rate 1e6)
[ "$got" = "$expected" ] || fail "per-node rows differ:"$'\n'"$got"$'\n'"expected:"$'\n'"$expected"

expected_groups="| group | queue | nodes | measured / bound | predicted / bound | predicted vs measured |
| --- | --- | --- | --- | --- | --- |
| light | 100 | 1 | 1.20 | 1.80 | +50% |
| heavy | 100 | 1 | 1.10 | 1.00 | -9% |"
got=$(/usr/bin/python3 "$script" "$r" maxmin --rate 1e6 --groups)
[ "$got" = "$expected_groups" ] || fail "--groups differs:"$'\n'"$got"

printf 'ranks 4\n0 2 1000000\n1 3 two\n' > "$r/workloads/w.pattern"
if /usr/bin/python3 "$script" "$r" maxmin --rate 1e6 > /dev/null 2> "$work/err"; then
  fail "a malformed pattern line was accepted"
fi
grep -q "w.pattern:3:1: expected 'SOURCE DESTINATION BYTES'" "$work/err" || fail "unexpected error: $(cat "$work/err")"
if /usr/bin/python3 "$script" "$r" flowcut --rate 1e6 > /dev/null 2> "$work/err"; then
  fail "a model without predictions was accepted"
fi
echo "node_loads: OK"
