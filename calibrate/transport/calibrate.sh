#!/usr/bin/env bash
# Transport buffering calibration (calibrate/transport/README.md): runs
# transport_bench on one pair of ranks per level asked (rank 0 sends one
# message to rank 1; the sender's completion timed against the receiver's),
# then `contend fit-transport`, which writes each measured level's
# `transport_buffer` into a platform file.
#
# usage: calibrate/transport/calibrate.sh --platform IN.yaml [--output OUT.yaml]
#          [--levels "intra_socket inter_socket inter_node"] [--raw-dir DIR]
#          [--fits FITS.csv] [--min-size S] [--max-size S] [--factor F]
#          [--samples S] [--warmup W] [--call isend|send] [--sync barrier|clock]
#          [--bind-to POLICY] [--bin DIR]
#          (--hostfile FILE | --launcher "COMMAND" | --local)
#          [-- extra mpirun arguments]
#
#   --levels LIST     levels to measure (default: all three; intra_socket with --local):
#                       intra_socket  -np 2 --map-by ppr:2:socket
#                       inter_socket  -np 2 --map-by ppr:1:socket (both sockets of a node)
#                       inter_node    -np 2 --map-by ppr:1:node (two nodes)
#   --hostfile FILE   mpirun --hostfile FILE
#   --launcher CMD    launch prefix to which -np and --map-by are added, e.g. the
#                     emulated cluster's "validation/testbed/mpirun.sh" (with --bind-to '')
#   --local           this machine: mpirun --oversubscribe, shared memory (vader)
#   --bind-to POLICY  mpirun's --bind-to (default core); '' leaves it to the launcher
#   --sync clock      both ranks from one instant on one clock (ranks on one machine)
# Defaults: --output = --platform (in place), --raw-dir transport-raw, sizes
# 64KiB..8MiB doubling, 5 samples, 1 warm-up, --call isend, --sync barrier, --bin build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/calibrate/common/lib.sh"
platform="" output="" levels="" raw=transport-raw fits="" bin=$root/build/bin
min_size=64KiB max_size=8MiB factor=2 samples=5 warmup=1 call=isend sync=barrier bind=core
hostfile="" launcher="" local=0 extra=()
while [ $# -gt 0 ]; do
  calibrate_common_option "$@"
  if [ "$consumed" -gt 0 ]; then shift "$consumed"; continue; fi
  case $1 in
    --levels) levels=$2; shift 2 ;;
    --raw-dir) raw=$2; shift 2 ;;
    --fits) fits=$2; shift 2 ;;
    --min-size) min_size=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --factor) factor=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --call) call=$2; shift 2 ;;
    --sync) sync=$2; shift 2 ;;
    --bind-to) bind=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "calibrate.sh: unknown option '$1'" >&2; calibrate_usage ;;
  esac
done
calibrate_check transport_bench contend
on_hostfile=(mpirun --hostfile "$hostfile")
on_this_machine=(mpirun --oversubscribe --mca btl "self,vader" --mca mpi_yield_when_idle 1)
calibrate_launch on_hostfile on_this_machine
if [ "$where" = local ]; then
  levels=${levels:-intra_socket}
else
  levels=${levels:-intra_socket inter_socket inter_node}
fi
binding=()
[ -n "$bind" ] && binding=(--bind-to "$bind")

mkdir -p "$raw"
files=()
for level in $levels; do
  case $level in
    intra_socket) mapby=ppr:2:socket ;;
    inter_socket) mapby=ppr:1:socket ;;
    inter_node) mapby=ppr:1:node ;;
    *) calibrate_fail "unknown level '$level' (intra_socket, inter_socket, inter_node)" ;;
  esac
  out="$raw/transport-$level.csv"
  command=("${launch[@]}" -np 2 --map-by "$mapby" "${binding[@]}" "${extra[@]}" "$bin/transport_bench"
           --level "$level" --min-size "$min_size" --max-size "$max_size" --factor "$factor" --samples "$samples"
           --warmup "$warmup" --call "$call" --sync "$sync" -o "$out")
  echo "calibrate.sh: ${command[*]}"
  "${command[@]}"
  files+=("$out")
done

if [ "$output" != "$platform" ]; then
  cp "$platform" "$output"
fi
fit=("$bin/contend" fit-transport "${files[@]}" --platform "$output")
[ -n "$fits" ] && fit+=(--fits "$fits")
echo "calibrate.sh: ${fit[*]}"
"${fit[@]}"
