#!/bin/bash
# End-to-end test of libcontend-trace.so: runs tracer_app under mpirun with
# the tracer preloaded, checks the files it writes at MPI_Finalize, replays
# the trace with `contend simulate --trace` (every action replayed: the
# coverage printed equals the trace's action counts), and compares the
# prediction with the measured times (`contend compare`). Then checks that
# the tracer fails loudly when it cannot write.
# Usage: tracer.sh CONTEND_BIN TRACER_LIB APP SRCDIR WORKDIR MODE   (MODE: p2p | all)
set -euo pipefail
export LC_ALL=C OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
contend=$1 lib=$2 app=$3 src=$4 work=$5 mode=$6
rm -rf "$work" && mkdir -p "$work" && cd "$work"
mpirun -np 4 --oversubscribe -x LD_PRELOAD="$lib" -x CONTEND_TRACE_DIR="$work/out" "$app" "$mode"
for f in trace.txt profile.csv measured.csv rank-{0,1,2,3}.txt calls-{0,1,2,3}.csv; do
  [ -s "out/$f" ] || { echo "missing out/$f"; exit 1; }
done
[ "$(wc -l < out/trace.txt)" = 4 ] || { echo "index should list 4 rank files"; exit 1; }
[ "$(wc -l < out/profile.csv)" = 5 ] && [ "$(wc -l < out/measured.csv)" = 5 ] || { echo "profile/measured: 4 rows expected"; exit 1; }
for r in 0 1 2 3; do
  [ "$(head -1 out/rank-$r.txt)" = "# contend-trace compute-speed 1e+09" ] \
    || { echo "rank $r's trace must record the compute speed first"; exit 1; }
  [ "$(sed -n 2p out/rank-$r.txt)" = "$r init" ] && [ "$(tail -1 out/rank-$r.txt)" = "$r finalize" ] \
    || { echo "rank $r's trace must start with init and end with finalize"; exit 1; }
done
ls out/*.part 2>/dev/null && { echo "part files left behind"; exit 1; }
# Every call's duration: rank 0's MPI_Ssend calls (its only sends on
# MPI_COMM_WORLD) are in its trace and in its call list.
[ "$(head -1 out/calls-0.csv)" = "call,start_s,duration_s,compute_before_s" ] || { echo "calls-0.csv: bad header"; exit 1; }
[ "$(grep -c '^MPI_Ssend,' out/calls-0.csv)" = "$(grep '^0 send ' out/rank-0.txt | grep -vc 'comm=')" ] \
  || { echo "calls-0.csv and rank-0.txt disagree on MPI_Ssend"; exit 1; }
# The calls the app makes appear in the trace.
expected_actions="init compute isend irecv test waitall send recv wait finalize"
[ "$mode" = all ] && expected_actions+=" barrier bcast reduce allreduce alltoall alltoallv gather gatherv scatter
  scatterv allgather allgatherv reducescatter comm_split comm_dup"
for a in $expected_actions; do
  grep -q "^[0-9]* $a\b" out/rank-*.txt || { echo "no '$a' in the trace"; exit 1; }
done
grep -q "type=vector:16,1,16:float" out/rank-1.txt || { echo "vector layout not recorded"; exit 1; }
# Replay: every action of the trace is replayed.
"$contend" simulate --platform "$src/tests/traces/cluster4.yaml" --trace out/trace.txt --per-rank predicted.csv > replay.txt
cat replay.txt
expected=$(grep -hv '^#' out/rank-*.txt | awk '{print $2}' | sort | uniq -c | awk '{printf " %s %s", $2, $1}')
replayed=$(sed -n 's/^  trace actions  //p' replay.txt)
[ "$expected" = "$replayed" ] || { echo "coverage: trace has$expected, contend replayed $replayed"; exit 1; }
"$contend" compare --measured out/measured.csv --predicted predicted.csv
# --compute measured replays the recorded seconds (the trace records its speed).
"$contend" simulate --platform "$src/tests/traces/cluster4.yaml" --trace out/trace.txt --compute measured --quiet
# The profile is what Denis et al.'s dedicated-core model reads.
"$contend" progress --profile out/profile.csv --cores 2 > progress.txt
# Fails loudly: an unwritable directory stops the job with a message.
if mpirun -np 2 -x LD_PRELOAD="$lib" -x CONTEND_TRACE_DIR=/proc/contend-cannot-write "$app" p2p > fail.txt 2>&1; then
  echo "the tracer did not fail on an unwritable directory"; exit 1
fi
grep -q "contend-trace: rank [0-9]*: cannot create directory /proc/contend-cannot-write" fail.txt \
  || { echo "no error message on stderr:"; cat fail.txt; exit 1; }
echo "tracer test passed ($mode)"
