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
source "$root/calibrate/common/lib.sh"
raw=flowcut-raw.csv cuts="" bytes=8000000 repetitions=5
declare -A options=([--raw]=raw [--cuts]=cuts [--bytes]=bytes [--repetitions]=repetitions [--]=extra)
calibrate_parse_options options "$@"
calibrate_check flowcut_bench contend
on_hostfile=(mpirun -np 6 --hostfile "$hostfile" --map-by node)
on_this_machine=(mpirun -np 6 --oversubscribe --bind-to none --mca btl tcp,self --mca btl_tcp_if_include lo
                 --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1)
calibrate_launch on_hostfile on_this_machine

echo "calibrate.sh: ${launch[*]} ${extra[*]} $bin/flowcut_bench --bytes $bytes --repetitions $repetitions --output $raw"
"${launch[@]}" "${extra[@]}" "$bin/flowcut_bench" --bytes "$bytes" --repetitions "$repetitions" --output "$raw"
fit=("$bin/contend" fit-flowcut "$raw" --platform "$platform" --output "$output")
[ -n "$cuts" ] && fit+=(--cuts "$cuts")
"${fit[@]}"
