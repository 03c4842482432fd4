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
levels="" raw=transport-raw fits="" min_size=64KiB max_size=8MiB factor=2 samples=5 warmup=1 call=isend
sync=barrier bind=core
declare -A options=([--levels]=levels [--raw-dir]=raw [--fits]=fits [--min-size]=min_size [--max-size]=max_size
                    [--factor]=factor [--samples]=samples [--warmup]=warmup [--call]=call [--sync]=sync
                    [--bind-to]=bind [--]=extra)
calibrate_parse_options options "$@"
calibrate_check transport_bench contend
calibrate_per_level_launch

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

calibrate_fit_output fit-transport "${files[@]}"
