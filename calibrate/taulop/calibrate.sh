#!/usr/bin/env bash
# Parameter estimation of Nuriyev et al.'s broadcast models (JPDC 2022, Sec. 5)
# on a machine with Open MPI: the NBFT experiments over shared memory and over
# the network (gamma^c(P), Q(m_s)), then one broadcast + flat gather run per
# Open MPI broadcast algorithm, each forced through the tuned component's MCA
# parameters, then contend fit-taulop into a platform file's models.taulop.
#
# usage: calibrate/taulop/calibrate.sh --platform IN.yaml [--output OUT.yaml]
#          [--raw-dir DIR] [--segment 8KiB] [--min-size 16KiB] [--max-size 4MiB]
#          [--fanout 4] [--algorithms "linear chain kchain split_binary binary binomial"]
#          [--procs LIST] [--nbft-procs LIST] [--samples 10] [--calls 100] [--q Q]
#          [--bin DIR] (--local [--ranks N] | --launcher CMD --shm-launcher CMD [--net-launcher CMD])
#
#   --launcher CMD      launch prefix of the broadcast runs, e.g.
#                       "mpirun -np 64 --hostfile h --map-by core --bind-to core"
#   --shm-launcher CMD  launch prefix of the shared-memory NBFT: all ranks on one node,
#                       e.g. "mpirun -np 4 --host a:4 --mca btl self,vader"
#   --net-launcher CMD  launch prefix of the network NBFT: rank 0 alone on its node,
#                       e.g. "mpirun -np 8 --host a:1,b:1,...,h:1"; without it, give --q
#   --local             everything on this machine with --ranks N (default 4) ranks:
#                       shared memory through Open MPI's vader BTL, and the "network"
#                       through its TCP BTL over loopback (tests the pipeline; loopback
#                       TCP is not a network)
#   --procs, --nbft-procs  P values (taulop_bench --procs), default all / 2..all
# Defaults: --output = --platform (in place), --raw-dir taulop-raw, sizes 16KiB..4MiB
# doubling (9 sizes, Sec. 6.2), segment 8KiB, fanout 4 (Open MPI's chain_fanout).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/calibrate/common/lib.sh"
raw=taulop-raw segment=8KiB min_size=16KiB max_size=4MiB fanout=4
algorithms="linear chain kchain split_binary binary binomial" procs="" nbft_procs="" samples=10 calls=100 q=""
shm_launcher="" net_launcher="" ranks=4
declare -A options=([--raw-dir]=raw [--segment]=segment [--min-size]=min_size [--max-size]=max_size
                    [--fanout]=fanout [--algorithms]=algorithms [--procs]=procs [--nbft-procs]=nbft_procs
                    [--samples]=samples [--calls]=calls [--q]=q [--shm-launcher]=shm_launcher
                    [--net-launcher]=net_launcher [--ranks]=ranks)
calibrate_parse_options options "$@"
calibrate_check taulop_bench contend
[ -z "$hostfile" ] || calibrate_fail "--hostfile: give the launch prefixes (--launcher, --shm-launcher, --net-launcher)"

network_flags=()
if [ "$local" -eq 1 ]; then
  common="mpirun -np $ranks --oversubscribe --bind-to none --mca mpi_yield_when_idle 1"
  launcher="$common --mca btl self,vader"
  shm_launcher=$launcher
  net_launcher="$common --mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"
  network_flags=(--network-loopback)
elif [ -z "$launcher" ] || [ -z "$shm_launcher" ]; then
  calibrate_fail "say where to run: --local, or --launcher and --shm-launcher (and --net-launcher or --q)"
fi
if [ -z "$net_launcher" ] && [ -z "$q" ]; then
  calibrate_fail "without --net-launcher, Q(m_s) cannot be measured: give --q"
fi
read -r -a run_bcast <<< "$launcher"
read -r -a run_shm <<< "$shm_launcher"
mkdir -p "$raw"
rm -f "$raw"/taulop-*.csv

common_args=(--segment "$segment" --samples "$samples")
nbft_args=("${common_args[@]}" --experiment nbft --calls "$calls")
[ -n "$nbft_procs" ] && nbft_args+=(--procs "$nbft_procs")
echo "calibrate.sh: NBFT over shared memory"
"${run_shm[@]}" "$bin/taulop_bench" "${nbft_args[@]}" --channel 0 -o "$raw/taulop-nbft-shm.csv"
if [ -n "$net_launcher" ]; then
  read -r -a run_net <<< "$net_launcher"
  echo "calibrate.sh: NBFT over the network${network_flags[*]:+ (TCP loopback)}"
  "${run_net[@]}" "$bin/taulop_bench" "${nbft_args[@]}" --channel 1 "${network_flags[@]}" -o "$raw/taulop-nbft-net.csv"
fi

# Open MPI's coll_tuned_bcast_algorithm ids of the paper's algorithms.
declare -A ompi_id=([linear]=1 [kchain]=2 [chain]=3 [split_binary]=4 [binary]=5 [binomial]=6)
# coll_tuned_bcast_algorithm_segmentsize takes bytes.
case $segment in
  *KiB|*K) bytes=$(( ${segment%%K*} * 1024 )) ;;
  *MiB|*M) bytes=$(( ${segment%%M*} * 1024 * 1024 )) ;;
  *[!0-9]*) calibrate_fail "--segment: expected bytes, NKiB or NMiB, got '$segment'" ;;
  *) bytes=$segment ;;
esac
for algorithm in $algorithms; do
  id=${ompi_id[$algorithm]:-}
  [ -n "$id" ] || calibrate_fail "unknown algorithm '$algorithm' (linear chain kchain split_binary binary binomial)"
  forcing=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_bcast_algorithm "$id"
           --mca coll_tuned_bcast_algorithm_segmentsize "$bytes" --mca coll_tuned_bcast_algorithm_chain_fanout "$fanout")
  args=("${common_args[@]}" --experiment bcast_gather --algorithm "$algorithm" --min-size "$min_size" --max-size "$max_size")
  [ -n "$procs" ] && args+=(--procs "$procs")
  echo "calibrate.sh: $algorithm (coll_tuned_bcast_algorithm $id, segments of $bytes bytes)"
  "${run_bcast[@]}" "${forcing[@]}" "$bin/taulop_bench" "${args[@]}" -o "$raw/taulop-bcast-$algorithm.csv"
done

fit=("$bin/contend" fit-taulop "$raw"/taulop-*.csv --platform "$platform" --output "$output" --fits "$raw/fits.csv")
[ -n "$q" ] && fit+=(--q "$q")
"${fit[@]}"
