#!/usr/bin/env bash
# Calibrates the testbed that is up with contend's own benchmarks and writes
# its platform file:
#   1. the platform skeleton from platform-template.yaml and the testbed's settings;
#   2. Thune's bi-directional multi-pair benchmark (calibrate/multipair) for
#      intra_socket (all ranks on one node: N = 1 one-way, then N = 2, 4, ...
#      up to the slots) and inter_node (N ranks on each of two nodes,
#      N = 1 .. slots), every window from a common start on the machine's
#      clock (--sync clock: no barrier skew in the intercept);
#   3. `contend fit-multipair` writes tau and BW_MP(N) into the levels;
#   4. Martinasso & Mehaut's conflict benchmark (calibrate/flowcut: six ranks,
#      one per node, on all CTD_NODES >= 6 namespaces) writes the flow-cut
#      table under models: flowcut:.
#   5. the Netgauge-style LogGOPS calibration (calibrate/netgauge/calibrate.sh):
#      2 ranks on one node (written as models.loggops.default, which covers
#      intra_socket and the unused inter_socket) and 1 rank on each of two
#      nodes (models.loggops.inter_node); the protocol ranges split at the
#      template's eager thresholds (Open MPI's limits; --switch platform), so
#      the other models' thresholds stay as they are; the levels' latencies
#      become Netgauge's L (set_latency.py: the multi-pair intercept is no
#      latency on this testbed);
#   6. Nuriyev et al.'s parameter estimation (calibrate/taulop): NBFTs over
#      shared memory (4 ranks of one node) and over the network (one rank on
#      each of the 4 suite nodes), then broadcast + flat gather on the suite's
#      16 ranks for each of the six algorithms, Open MPI forced to each;
#      `contend fit-taulop` writes models.taulop.
#   7. the transport buffering benchmark (calibrate/transport/calibrate.sh):
#      one message from rank 0 to rank 1, 2 ranks on one node (intra_socket,
#      vader) and 1 rank on each of two nodes (inter_node, TCP), the send's
#      completion against the receive's from a common start (--sync clock);
#      `contend fit-transport` writes levels.<level>.transport_buffer.
# Usage: calibrate.sh BUILD_DIR PLATFORM_OUT RAW_DIR [quick]
#   quick: fewer sizes and samples (the CI version)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ctd_load_state
build=${1:?usage: calibrate.sh BUILD_DIR PLATFORM_OUT RAW_DIR [quick]}
platform=${2:?missing PLATFORM_OUT}
raw=${3:?missing RAW_DIR}
mode=${4:-full}
bench=$build/bin/multipair_bench
contend=$build/bin/contend
source_dir=$(cd "$CTD_DIR/../.." && pwd)
[ -x "$bench" ] && [ -x "$contend" ] || ctd_die "build $build first (multipair_bench, contend)"
mkdir -p "$raw"

case "$CTD_RATE" in
  *kbit) wire="${CTD_RATE%kbit}kbps" ;; *mbit) wire="${CTD_RATE%mbit}Mbps" ;; *gbit) wire="${CTD_RATE%gbit}Gbps" ;;
  *) ctd_die "CTD_RATE '$CTD_RATE' must end in kbit, mbit or gbit" ;;
esac
name=$(basename "$platform" .yaml)
sed -e "s/@NAME@/$name/; s/@NODES@/$CTD_SUITE_NODES/g; s/@SLOTS@/$CTD_SLOTS/g; s/@RATE@/$CTD_RATE/g; s/@WIRE@/$wire/g" \
    -e "s/@BURST@/$CTD_BURST/g; s/@QUEUE@/$CTD_QUEUE/g; s/@CC@/$CTD_CC/g" "$CTD_DIR/platform-template.yaml" > "$platform.tmp"
mv "$platform.tmp" "$platform"

# Sizes in the rendezvous regime of each transport (vader from 4 KiB, TCP from
# 64 KiB). Inter-node windows of several 256 KiB+ messages: the rendezvous
# handshake of a window waits behind the other direction's queued data (up to
# 100 packets, 12 ms at 100 Mbit/s); short windows would fold that into the slope.
if [ "$mode" = quick ]; then
  intra=(--min-size 256KiB --max-size 1MiB --repeats 4 --samples 3)
  inter=(--min-size 256KiB --max-size 1MiB --repeats 4 --samples 3)
else
  intra=(--min-size 64KiB --max-size 4MiB --repeats 8 --samples 7)
  inter=(--min-size 256KiB --max-size 2MiB --repeats 4 --samples 5)
fi

bench_run() {  # bench_run OUT RANKS MAP-BY ARGS...
  local out=$1 ranks=$2 mapby=$3
  shift 3
  ctd_log "multipair: $(basename "$out" .csv) ($ranks ranks, --map-by $mapby)"
  "$CTD_DIR/mpirun.sh" -np "$ranks" --map-by "$mapby" "$bench" --sync clock -o "$out" "$@" 2> "$out.log" ||
    { cat "$out.log" >&2; ctd_die "multipair_bench failed: $out"; }
  rm -f "$out.log"
}

files=()
bench_run "$raw/intra_socket-uni-P2.csv" 2 ppr:2:node --level intra_socket --unidirectional "${intra[@]}"
files+=("$raw/intra_socket-uni-P2.csv")
for p in 2 4 8 16 32; do
  [ "$p" -le "$CTD_SLOTS" ] || break
  bench_run "$raw/intra_socket-bi-P$p.csv" "$p" "ppr:$p:node" --level intra_socket "${intra[@]}"
  files+=("$raw/intra_socket-bi-P$p.csv")
done
for n in $(seq 1 "$CTD_SLOTS"); do
  bench_run "$raw/inter_node-bi-P$((2 * n)).csv" $((2 * n)) "ppr:$n:node" --level inter_node "${inter[@]}"
  files+=("$raw/inter_node-bi-P$((2 * n)).csv")
done

"$contend" fit-multipair "${files[@]}" --platform "$platform" --fits "$raw/fits.csv"

# Flow cuts: equal flows started together, one rank per node, on the
# testbed's first six nodes (the suite uses only the first CTD_SUITE_NODES).
if [ "$CTD_NODES" -lt 6 ]; then
  ctd_die "the conflict benchmark needs six nodes; CTD_NODES is $CTD_NODES"
fi
if [ "$mode" = quick ]; then conflict=(--bytes 2000000 --repetitions 2); else conflict=(--bytes 8000000 --repetitions 5); fi
ctd_log "flowcut: conflict benchmark (6 ranks, one per node, ${conflict[*]})"
CTD_HOSTS=6 "$source_dir/calibrate/flowcut/calibrate.sh" --platform "$platform" --bin "$build/bin" \
  --raw "$raw/flowcut-raw.csv" --cuts "$raw/flowcut-cuts.csv" "${conflict[@]}" \
  --launcher "$CTD_DIR/mpirun.sh -np 6 --map-by node" > "$raw/flowcut.log" 2>&1 ||
  { cat "$raw/flowcut.log" >&2; ctd_die "flowcut calibration failed"; }

# LogGOPS (Netgauge PRTT method), contiguous data and one vector datatype.
if [ "$mode" = quick ]; then
  netgauge=(--max-size 256KiB --repetitions 3 --pingpong-iterations 10)  # three rendezvous sizes over TCP
else
  netgauge=(--max-size 256KiB --repetitions 11 --pingpong-iterations 20)
fi
netgauge_run() {  # netgauge_run NAME LEVEL SECTION PPR
  local name=$1 level=$2 section=$3 ppr=$4
  ctd_log "netgauge: $name (2 ranks, --map-by $ppr)"
  "$source_dir/calibrate/netgauge/calibrate.sh" --platform "$platform" --level "$level" --section "$section" --switch platform \
    --launcher "$CTD_DIR/mpirun.sh -np 2 --map-by $ppr" --bin "$build/bin" --datatype vector:4,1,4:float \
    --raw "$raw/netgauge-$name.csv" --fits "$raw/netgauge-$name-fits.csv" --sizes "$raw/netgauge-$name-sizes.csv" \
    "${netgauge[@]}" > "$raw/netgauge-$name.log" 2>&1 || { cat "$raw/netgauge-$name.log" >&2; ctd_die "netgauge calibration failed: $name"; }
}
netgauge_run intra_node intra_socket default ppr:2:node
netgauge_run inter_node inter_node inter_node ppr:1:node
# The levels' latencies: Netgauge's L (1-byte ping-pong), not the multi-pair
# intercept, which on this testbed measures handshakes queued behind data.
"$CTD_DIR/set_latency.py" "$platform" intra_socket "$raw/netgauge-intra_node-fits.csv"
"$CTD_DIR/set_latency.py" "$platform" inter_node "$raw/netgauge-inter_node-fits.csv"
# tau-Lop (Nuriyev Sec. 5) on the suite's nodes and ranks.
if [ "$mode" = quick ]; then
  taulop=(--min-size 16KiB --max-size 64KiB --samples 3 --calls 20)
else
  taulop=(--min-size 16KiB --max-size 1MiB --samples 5 --calls 50)
fi
suite_ranks=$((CTD_SUITE_NODES * CTD_SLOTS))
ctd_log "taulop: NBFT and broadcast + gather ($suite_ranks ranks, ${taulop[*]})"
"$source_dir/calibrate/taulop/calibrate.sh" --platform "$platform" --bin "$build/bin" --raw-dir "$raw/taulop" \
  --procs "$suite_ranks" "${taulop[@]}" \
  --launcher "$CTD_DIR/mpirun.sh -np $suite_ranks" \
  --shm-launcher "$CTD_DIR/mpirun.sh -np $CTD_SLOTS --map-by ppr:$CTD_SLOTS:node" \
  --net-launcher "$CTD_DIR/mpirun.sh -np $CTD_SUITE_NODES --map-by node" > "$raw/taulop.log" 2>&1 ||
  { cat "$raw/taulop.log" >&2; ctd_die "taulop calibration failed"; }
# Transport buffering (issue 16): bytes still undelivered when a send completes.
if [ "$mode" = quick ]; then
  transport=(--min-size 64KiB --max-size 4MiB --factor 4 --samples 3)
else
  transport=(--min-size 64KiB --max-size 8MiB --factor 2 --samples 5)
fi
transport_run() {  # transport_run LEVEL (calibrate.sh adds -np 2 and the level's --map-by)
  local level=$1
  ctd_log "transport: $level (2 ranks, ${transport[*]})"
  "$source_dir/calibrate/transport/calibrate.sh" --platform "$platform" --levels "$level" --bin "$build/bin" \
    --raw-dir "$raw" --fits "$raw/transport-$level-fits.csv" --sync clock --bind-to '' "${transport[@]}" \
    --launcher "$CTD_DIR/mpirun.sh" > "$raw/transport-$level.log" 2>&1 ||
    { cat "$raw/transport-$level.log" >&2; ctd_die "transport calibration failed: $level"; }
}
transport_run intra_socket
transport_run inter_node
"$contend" platform --platform "$platform"
