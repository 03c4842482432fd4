#!/usr/bin/env bash
# Conflict calibration of the flowcut model (Martinasso & Mehaut RR-5910,
# Sec. 6.1): runs flowcut_bench over six ranks, one per node, then
# contend fit-flowcut, which writes the flow-cut table into a platform file.
#
# usage: calibrate/flowcut/calibrate.sh --platform IN.yaml [--output OUT.yaml]
#          [--raw RAW.csv] [--cuts CUTS.csv] [--bytes N] [--repetitions R]
#          [--bin DIR] [--hostfile FILE | --launcher "COMMAND" | --local]
#          [-- extra mpirun arguments]
#
#   --hostfile FILE   mpirun -np 6 --hostfile FILE --map-by node: one rank per
#                     node of FILE (at least six nodes, the ranks are nodes 0..5)
#   --launcher CMD    the whole launch prefix, e.g. for an emulated cluster:
#                     "mpirun -np 6 --hostfile h --map-by node --mca plm_rsh_agent /path/agent"
#   --local           six ranks on this machine through TCP loopback
#                     (--oversubscribe --mca btl tcp,self): tests the pipeline,
#                     measures nothing about a network
# Defaults: --output = --platform (in place), --raw flowcut-raw.csv,
# --bytes 8000000, --repetitions 5, --bin build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
platform="" output="" raw=flowcut-raw.csv cuts="" bytes=8000000 repetitions=5 bin=$root/build/bin
hostfile="" launcher="" local=0 extra=()
usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --platform) platform=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    --raw) raw=$2; shift 2 ;;
    --cuts) cuts=$2; shift 2 ;;
    --bytes) bytes=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --hostfile) hostfile=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --local) local=1; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "calibrate.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[ -n "$platform" ] || { echo "calibrate.sh: --platform is required" >&2; usage; }
[ -n "$output" ] || output=$platform
for tool in flowcut_bench contend; do
  [ -x "$bin/$tool" ] || { echo "calibrate.sh: $bin/$tool not found (build first, or give --bin)" >&2; exit 1; }
done

if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if [ -n "$launcher" ]; then
  read -r -a launch <<< "$launcher"
elif [ -n "$hostfile" ]; then
  launch=(mpirun -np 6 --hostfile "$hostfile" --map-by node)
elif [ "$local" -eq 1 ]; then
  launch=(mpirun -np 6 --oversubscribe --bind-to none --mca btl tcp,self --mca btl_tcp_if_include lo
          --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1)
else
  echo "calibrate.sh: say where to run: --hostfile FILE, --launcher \"COMMAND\" or --local" >&2
  exit 2
fi

echo "calibrate.sh: ${launch[*]} ${extra[*]} $bin/flowcut_bench --bytes $bytes --repetitions $repetitions --output $raw"
"${launch[@]}" "${extra[@]}" "$bin/flowcut_bench" --bytes "$bytes" --repetitions "$repetitions" --output "$raw"
fit=("$bin/contend" fit-flowcut "$raw" --platform "$platform" --output "$output")
[ -n "$cuts" ] && fit+=(--cuts "$cuts")
"${fit[@]}"
