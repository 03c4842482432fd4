#!/usr/bin/env bash
# Netgauge-style LogGOPS calibration (Hoefler's PRTT(n, d, s) method as Bacon
# et al., EuroMPI 2023, use it): runs netgauge_bench on two ranks, then
# `contend fit-loggops`, which writes models.loggops.<level> (per protocol
# range and datatype) and the level's eager_threshold into a platform file.
#
# usage: calibrate/netgauge/calibrate.sh --platform FILE [--output OUT.yaml] [--level LEVEL]
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
# Defaults: --output = --platform (in place), --raw netgauge-raw.csv, sizes 1 B .. 1 MiB, 15 repetitions,
# --delay auto (PRTT(1,0,s) per size), 100 ping-pong iterations, --bin build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/calibrate/common/lib.sh"
level="" section="" raw=netgauge-raw.csv fits="" sizes="" min_size=1 max_size=1MiB repetitions=15 delay=auto
iterations=100 switch=auto datatypes=()
declare -A options=([--level]=level [--section]=section [--raw]=raw [--fits]=fits [--sizes]=sizes
                    [--datatype]=datatypes [--min-size]=min_size [--max-size]=max_size [--repetitions]=repetitions
                    [--delay]=delay [--pingpong-iterations]=iterations [--switch]=switch [--]=extra)
calibrate_parse_options options "$@"
calibrate_check netgauge_bench contend
on_hostfile=(mpirun -np 2 --hostfile "$hostfile" --map-by node)
on_this_machine=(mpirun -np 2 --mca btl self,vader)
calibrate_launch on_hostfile on_this_machine
case $where in
  hostfile) level=${level:-inter_node} ;;
  local) level=${level:-intra_socket} ;;
esac
[ -n "$level" ] || calibrate_fail "--level is required with --launcher"

bench=("$bin/netgauge_bench" --level "$level" --min-size "$min_size" --max-size "$max_size" --repetitions "$repetitions" --delay "$delay"
       --pingpong-iterations "$iterations" -o "$raw" --datatype contiguous)
# contiguous is always measured, first.
for t in "${datatypes[@]}"; do [ "$t" = contiguous ] || bench+=(--datatype "$t"); done
echo "calibrate.sh: ${launch[*]} ${extra[*]} ${bench[*]}"
"${launch[@]}" "${extra[@]}" "${bench[@]}"
[ "$output" = "$platform" ] || cp "$platform" "$output"
fit=("$bin/contend" fit-loggops "$raw" --platform "$output" --level "$level" --switch "$switch")
[ -n "$section" ] && fit+=(--section "$section")
[ -n "$fits" ] && fit+=(--fits "$fits")
[ -n "$sizes" ] && fit+=(--sizes "$sizes")
"${fit[@]}"
