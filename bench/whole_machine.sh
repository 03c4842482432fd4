#!/usr/bin/env bash
# Whole machines (issue 18): the cost of building a large platform in
# SimGrid, and a halo exchange on every core of 1024 nodes.
#
#   1. Star networks of N nodes x 128 cores (bench/platforms/testbed-64x128.yaml
#      widened), every core holding a rank: a ring (each rank sends 1 KiB to
#      the next) with `contend simulate --stats`, where building the platform
#      and the ranks' actors is nearly all the cost; and 2 ranks on the same
#      platform (the network alone, 2 core hosts).
#   2. Dragonfly+ networks of N nodes (Betzy-like nodes, groups of 8 leaves x
#      16 nodes, 8 spines, 2 global cables per pair of groups), 2 ranks on the
#      first and the last node: the network's set-up alone.
#   3. The METIS halo exchange of --halo-ranks ranks on --halo-nodes nodes x
#      128 cores, block mapping, under --model: --cells-per-rank mesh cells per
#      rank (default 49: the density of bench/scale.sh's 400 k cells at
#      P = 8192, Thune et al.'s Table IV), --overlap ghost layers, 240 B per
#      ghost cell, generated once into --out (minutes).
#
# Each line: wall time, CPU time (user + sys: the load of other processes
# disturbs it less), peak RSS, from /usr/bin/time, and contend's --stats.
# usage: bench/whole_machine.sh [--nodes "128 256 512 1024"] [--dragonfly "500 1000 2000"]
#          [--halo-ranks 131072] [--halo-nodes 1024] [--cells-per-rank 49] [--overlap 1]
#          [--model staircase] [--time-limit 1200] [--bin PATH] [--out DIR]
#        (--halo-ranks 0 skips the halo exchange)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nodes="128 256 512 1024"
dragonfly="500 1000 2000"
halo_ranks=131072
halo_nodes=1024
cells_per_rank=49
overlap=1
model=staircase
limit=1200
out="$out/whole-machine"
bench_options '[--nodes "128 256 512 1024"] [--dragonfly "500 1000 2000"] [--halo-ranks P] [--halo-nodes N] [--cells-per-rank C] [--overlap K] [--model M] [--time-limit S]' \
  nodes=nodes dragonfly=dragonfly halo-ranks=halo_ranks halo-nodes=halo_nodes cells-per-rank=cells_per_rank \
  overlap=overlap model=model time-limit=limit -- "$@"
bench_start
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# star_platform N: the bench platform widened to N nodes, into $platform.
star_platform() {
  platform="$out/star-$1x128.yaml"
  sed "s/^  count: 64$/  count: $1/" "$root/bench/platforms/testbed-64x128.yaml" > "$platform"
}

# dragonfly_platform N: betzy-64's nodes and levels on a Dragonfly+ of N
# nodes, into $platform.
dragonfly_platform() {
  local n=$1 per_group=128
  local groups=$(((n + per_group - 1) / per_group)) counts="" g left=$n
  for ((g = 0; g < groups; ++g)); do
    counts+="${counts:+, }$((left < per_group ? left : per_group))"
    left=$((left - per_group))
  done
  platform="$out/dragonfly-$n.yaml"
  awk -v n="$n" -v groups="$groups" -v counts="$counts" '
    /^  count: / && !done_count { print "  count: " n; done_count = 1; next }
    /^network:/ { in_network = 1
      print "network:\n  topology: dragonfly+\n  groups: " groups "\n  leaves_per_group: 8\n  spines_per_group: 8"
      print "  nodes_per_leaf: 16\n  global_links: 2\n  nodes_per_group: [" counts "]"
      print "  node_link_bandwidth: 12.5GB/s\n  node_link_latency: 0.1us\n  local_link_bandwidth: 25GB/s"
      print "  local_link_latency: 0.1us\n  global_link_bandwidth: 25GB/s\n  global_link_latency: 0.1us"
      next }
    in_network && /^[^ #]/ { in_network = 0 }
    !in_network' "$root/platforms/betzy-64.yaml" > "$platform"
}

# timed LABEL ARGS...: `contend simulate ARGS --quiet --stats` under
# /usr/bin/time; prints LABEL, the time figures and contend's stats line.
timed() {
  local label=$1 result
  shift
  result=$(/usr/bin/time -f "TIME %e %U %S %M" "$bin" simulate "$@" --quiet --stats --time-limit "$limit" 2>&1) || true
  local figures stats
  figures=$(grep '^TIME ' <<< "$result" | awk '{printf "%.1f s wall, %.1f s CPU (%.1f user + %.1f sys), %.0f MiB peak", $2, $3 + $4, $3, $4, $5 / 1024}')
  stats=$(grep -v '^TIME ' <<< "$result" | tr '\n' ' ')
  echo "$label: $figures | ${stats#contend: }"
}

echo "== star, N nodes x 128 cores"
for n in $nodes; do
  star_platform "$n"
  ranks=$((n * 128))
  awk -v p="$ranks" 'BEGIN { for (r = 0; r < p; ++r) print r, (r + 1) % p, 1024 }' > "$out/ring-$ranks.pattern"
  timed "star $n nodes, ring of $ranks ranks" --platform "$platform" --pattern "$out/ring-$ranks.pattern" --model "$model"
  echo "0 1 1024" > "$out/pair.pattern"
  printf '0 0 0 0\n1 %d 0 0\n' $((n - 1)) > "$out/pair-$n.map"
  timed "star $n nodes, 2 ranks" --platform "$platform" --pattern "$out/pair.pattern" --mapping "$out/pair-$n.map" \
    --model "$model"
done

echo "== dragonfly+, N nodes x 128 cores, 2 ranks (first and last node)"
for n in $dragonfly; do
  dragonfly_platform "$n"
  printf '0 0 0 0\n1 %d 0 0\n' $((n - 1)) > "$out/pair-$n.map"
  echo "0 1 1024" > "$out/pair.pattern"
  timed "dragonfly+ $n nodes, 2 ranks" --platform "$platform" --pattern "$out/pair.pattern" \
    --mapping "$out/pair-$n.map" --model "$model"
done

if [ "$halo_ranks" -gt 0 ]; then
  echo "== METIS halo exchange, $halo_ranks ranks on $halo_nodes nodes x 128 cores, block mapping, $model"
  star_platform "$halo_nodes"
  pattern="$out/halo-$halo_ranks-c$cells_per_rank-overlap$overlap.pattern"
  if [ ! -f "$pattern" ]; then
    start=$(date +%s%N)
    "$bin" generate-pattern --ranks "$halo_ranks" --cells-per-rank "$cells_per_rank" --overlap "$overlap" \
      --bytes-per-cell 240 -o "$pattern.tmp" > "$out/generate-$halo_ranks.log"
    mv "$pattern.tmp" "$pattern"
    echo "generated $(tail -1 "$out/generate-$halo_ranks.log" | sed 's/^wrote [^:]*: //') in $(seconds_since "$start" 0) s"
  fi
  timed "halo $halo_ranks ranks" --platform "$platform" --pattern "$pattern" --model "$model" \
    --per-rank "$out/halo-$halo_ranks.ranks.csv"
fi
