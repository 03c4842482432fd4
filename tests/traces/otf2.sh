#!/bin/bash
# OTF2 import end to end: writes a 4-rank archive with the OTF2 writer API
# (otf2_sample), replays it with `contend simulate --trace`, and checks that
# every kind of event became an action: the replayed action counts are
# those the archive implies (one compute per gap, a wait per completion).
# Usage: otf2.sh CONTEND_BIN OTF2_SAMPLE_BIN SRCDIR WORKDIR
set -euo pipefail
export LC_ALL=C
contend=$1 sample=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$sample" archive
"$contend" simulate --platform "$src/tests/traces/cluster4.yaml" --trace archive/traces.otf2 > replay.txt
cat replay.txt
replayed=$(sed -n 's/^  trace actions  //p' replay.txt)
# Per rank: 13 world collectives, Send/Recv or Sendrecv (an isend and/or
# irecv, waited at the region's end), irecv + isend + test + 2 waits in the
# ring; ranks 1 and 3 add an allreduce, a message and its wait. Computation
# gaps: before the first message, the ring, each world collective, and
# MPI_Finalize (ranks 0, 2: 16) or the two calls on communicator 1 (1, 3: 17).
expected=" allgather 4 allgatherv 4 allreduce 6 alltoall 4 alltoallv 4 barrier 4 bcast 4 compute 66 finalize 4"
expected+=" gather 4 gatherv 4 init 4 irecv 8 isend 8 reduce 4 reducescatter 4 scatter 4 scatterv 4 test 4 wait 16"
[ "$replayed" = "$expected" ] || { echo "replayed:$replayed"; echo "expected:$expected"; exit 1; }
# Converted to a TI trace, it replays the same actions (computation now in
# flops at the platform's 1 Gflop/s), plus the comm_split that defines
# communicator 1 on every rank.
"$contend" convert-trace --trace archive/traces.otf2 --output ti --speed 1Gf
"$contend" simulate --platform "$src/tests/traces/cluster4.yaml" --trace ti/trace.txt > ti-replay.txt
ti_replayed=$(sed -n 's/^  trace actions  //p' ti-replay.txt | sed 's/ comm_split 4//')
[ "$ti_replayed" = "$expected" ] || { echo "TI replay:$ti_replayed"; exit 1; }
makespan() { sed -n 's/^  makespan *//p' "$1"; }
echo "makespan: OTF2 $(makespan replay.txt), converted TI $(makespan ti-replay.txt)"
# Errors name the archive and the rank: a missing archive, then a broken one.
if "$contend" simulate --platform "$src/tests/traces/cluster4.yaml" --trace missing/traces.otf2 2> err.txt; then exit 1; fi
grep -q "cannot open OTF2 anchor file 'missing/traces.otf2': No such file or directory" err.txt || { cat err.txt; exit 1; }
echo "otf2 test passed"
