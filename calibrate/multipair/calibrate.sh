#!/usr/bin/env bash
# Bi-directional multi-pair calibration (Thune et al., IEEE TPDS 2023,
# Algorithm 1 and Sec. II-B): runs multipair_bench for each level asked and
# N = 1, 2, 4, ... competing receivers, then `contend fit-multipair`, which
# writes each measured level's latency (tau) and BW_MP(N) table into a
# platform file.
#
# usage: calibrate/multipair/calibrate.sh --platform IN.yaml [--output OUT.yaml]
#          [--levels "intra_socket inter_socket inter_node"] [--n "1 2 4 8"]
#          [--raw-dir DIR] [--fits FITS.csv] [--min-size S] [--max-size S]
#          [--factor F] [--repeats R] [--samples S] [--warmup W]
#          [--sync barrier|clock] [--bind-to POLICY] [--bin DIR]
#          (--hostfile FILE | --launcher "COMMAND" | --local)
#          [-- extra mpirun arguments]
#
#   --levels LIST     levels to measure (default: all three; intra_socket with --local)
#   --n LIST          N values; N = 1 (BW_SP) is always measured. Per level and N:
#                       intra_socket  N = 1: -np 2 --map-by ppr:2:socket, one way;
#                                     N >= 2 (even): -np N --map-by ppr:N:socket
#                       inter_socket  -np 2N --map-by ppr:N:socket (both sockets of a node)
#                       inter_node    -np 2N --map-by ppr:N:node (two nodes)
#   --hostfile FILE   mpirun --hostfile FILE: the first socket(s) or nodes of FILE
#   --launcher CMD    launch prefix to which -np and --map-by are added, e.g. the
#                     emulated cluster's "validation/testbed/mpirun.sh" (with --bind-to '')
#   --local           this machine: mpirun --oversubscribe, shared memory (vader)
#   --bind-to POLICY  mpirun's --bind-to (default core: the benchmark checks each
#                     rank's socket through hwloc); '' leaves it to the launcher
#   --sync clock      every window from one instant on one clock (ranks on one machine)
# Defaults: --output = --platform (in place), --raw-dir multipair-raw, --n "1 2 4 8",
# sizes 64KiB..1MiB doubling, 4 repeats, 5 samples, 1 warm-up, --sync barrier, --bin build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/calibrate/common/lib.sh"
levels="" n_values="1 2 4 8" raw=multipair-raw fits="" min_size=64KiB max_size=1MiB factor=2 repeats=4 samples=5
warmup=1 sync=barrier bind=core
declare -A options=([--levels]=levels [--n]=n_values [--raw-dir]=raw [--fits]=fits [--min-size]=min_size
                    [--max-size]=max_size [--factor]=factor [--repeats]=repeats [--samples]=samples
                    [--warmup]=warmup [--sync]=sync [--bind-to]=bind [--]=extra)
calibrate_parse_options options "$@"
calibrate_check multipair_bench contend
calibrate_per_level_launch

# N = 1 first (fit-multipair needs the series to start at BW_SP), each N once.
n_list=$( (echo 1; for n in $n_values; do echo "$n"; done) | sort -n -u)
for n in $n_list; do
  case $n in
    ''|*[!0-9]*|0) calibrate_fail "--n: expected positive integers, got '$n'" ;;
  esac
done

for level in $levels; do
  case $level in
    intra_socket|inter_socket|inter_node) ;;
    *) calibrate_fail "unknown level '$level' (intra_socket, inter_socket, inter_node)" ;;
  esac
done

mkdir -p "$raw"
bench_args=(--min-size "$min_size" --max-size "$max_size" --factor "$factor" --repeats "$repeats"
            --samples "$samples" --warmup "$warmup" --sync "$sync")
files=()
run() {  # run OUT RANKS MAP-BY BENCH-ARGS...
  local out=$1 ranks=$2 mapby=$3
  shift 3
  local command=("${launch[@]}" -np "$ranks" --map-by "$mapby" "${binding[@]}" "${extra[@]}"
                 "$bin/multipair_bench" "$@" "${bench_args[@]}" -o "$out")
  echo "calibrate.sh: ${command[*]}"
  "${command[@]}"
  files+=("$out")
}
for level in $levels; do
  case $level in
    intra_socket)
      # BW_SP: one message one way between two ranks of a socket (Thune Sec. II-B).
      run "$raw/intra_socket-uni-P2.csv" 2 ppr:2:socket --level intra_socket --unidirectional
      for n in $n_list; do
        [ "$n" -ge 2 ] || continue
        if [ $((n % 2)) -ne 0 ]; then
          echo "calibrate.sh: intra_socket: N = $n skipped (N = P ranks in pairs: N must be even)" >&2
          continue
        fi
        run "$raw/intra_socket-bi-P$n.csv" "$n" "ppr:$n:socket" --level intra_socket
      done ;;
    *)  # inter_socket, inter_node
      object=socket
      [ "$level" = inter_node ] && object=node
      for n in $n_list; do
        run "$raw/$level-bi-P$((2 * n)).csv" $((2 * n)) "ppr:$n:$object" --level "$level"
      done ;;
  esac
done

calibrate_fit_output fit-multipair "${files[@]}"
