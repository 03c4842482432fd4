#!/usr/bin/env bash
# Netgauge-style LogGOPS calibration (Hoefler's PRTT(n, d, s) method as Bacon
# et al., EuroMPI 2023, use it): runs netgauge_bench on two ranks, then
# `contend fit-loggops`, which writes models.loggops.<level> (per protocol
# range and datatype) and the level's eager_threshold into a platform file.
#
# usage: calibrate/netgauge/calibrate.sh --platform FILE [--level LEVEL]
#          [--section default] [--raw RAW.csv] [--fits FITS.csv] [--sizes SIZES.csv]
#          [--datatype TYPE]... [--min-size S] [--max-size S] [--repetitions R]
#          [--delay auto|DURATION] [--pingpong-iterations N]
#          [--switch auto|platform|none|SIZE] [--bin DIR]
#          [--hostfile FILE | --launcher "COMMAND" | --local]
#          [-- extra mpirun arguments]
#
#   --level           the level the two ranks are on (default intra_socket with
#                     --local, inter_node with --hostfile)
#   --section default write under models.loggops.default (covers the levels
#                     without a section of their own) instead of LEVEL's key
#   --hostfile FILE   mpirun -np 2 --hostfile FILE --map-by node: one rank on
#                     each of the first two nodes of FILE (inter_node)
#   --launcher CMD    the whole launch prefix, e.g. for the emulated cluster:
#                     "validation/testbed/mpirun.sh -np 2 --map-by ppr:1:node"
#   --local           two ranks on this machine, shared memory (vader)
#   --switch          passed to contend fit-loggops: auto (default) detects the
#                     protocol switch and sets the level's eager_threshold to
#                     it; platform keeps the file's threshold as the switch
#   --datatype TYPE   contiguous is always measured (L, g, G and the switch
#                     come from it); add vector:COUNT,BLOCKLENGTH,STRIDE:BASE
# Defaults: --raw netgauge-raw.csv, sizes 1 B .. 1 MiB, 15 repetitions,
# --delay auto (PRTT(1,0,s) per size), 100 ping-pong iterations, --bin build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
platform="" level="" section="" raw=netgauge-raw.csv fits="" sizes="" bin=$root/build/bin
min_size=1 max_size=1MiB repetitions=15 delay=auto iterations=100 switch=auto
datatypes=(contiguous) hostfile="" launcher="" local=0 extra=()
usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --platform) platform=$2; shift 2 ;;
    --level) level=$2; shift 2 ;;
    --section) section=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --fits) fits=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --datatype) [ "$2" = contiguous ] || datatypes+=("$2"); shift 2 ;;
    --min-size) min_size=$2; shift 2 ;;
    --max-size) max_size=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --delay) delay=$2; shift 2 ;;
    --pingpong-iterations) iterations=$2; shift 2 ;;
    --switch) switch=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --hostfile) hostfile=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --local) local=1; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "calibrate.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[ -n "$platform" ] || { echo "calibrate.sh: --platform is required" >&2; usage; }
for tool in netgauge_bench contend; do
  [ -x "$bin/$tool" ] || { echo "calibrate.sh: $bin/$tool not found (build first, or give --bin)" >&2; exit 1; }
done
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if [ -n "$launcher" ]; then
  read -r -a launch <<< "$launcher"
elif [ -n "$hostfile" ]; then
  launch=(mpirun -np 2 --hostfile "$hostfile" --map-by node)
  level=${level:-inter_node}
elif [ "$local" -eq 1 ]; then
  launch=(mpirun -np 2 --mca btl self,vader)
  level=${level:-intra_socket}
else
  echo "calibrate.sh: say where to run: --hostfile FILE, --launcher \"COMMAND\" or --local" >&2
  exit 2
fi
[ -n "$level" ] || { echo "calibrate.sh: --level is required with --launcher" >&2; exit 2; }

bench=("$bin/netgauge_bench" --level "$level" --min-size "$min_size" --max-size "$max_size" --repetitions "$repetitions" --delay "$delay"
       --pingpong-iterations "$iterations" -o "$raw")
for t in "${datatypes[@]}"; do bench+=(--datatype "$t"); done
echo "calibrate.sh: ${launch[*]} ${extra[*]} ${bench[*]}"
"${launch[@]}" "${extra[@]}" "${bench[@]}"
fit=("$bin/contend" fit-loggops "$raw" --platform "$platform" --level "$level" --switch "$switch")
[ -n "$section" ] && fit+=(--section "$section")
[ -n "$fits" ] && fit+=(--fits "$fits")
[ -n "$sizes" ] && fit+=(--sizes "$sizes")
"${fit[@]}"
