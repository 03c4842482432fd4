#!/bin/bash
# SimGrid compatibility test of contend's TI trace replay.
#   1. compile tests/traces/PROGRAM.c with Debian's smpicc;
#   2. trace it with `smpirun -trace-ti` on tests/traces/cluster4.xml;
#   3. replay the trace with SimGrid (`smpirun -replay`) and with contend
#      (`contend simulate --trace`, model maxmin) on the same platform
#      (cluster4.yaml is cluster4.xml in contend's terms);
#   4. check that contend replayed every action kind the trace holds, and
#      that both simulated times agree within TOLERANCE (relative).
# Both replays use SimGrid's CM02 network model with the factors contend
# sets (sim/engine/simulation.cpp); SMPI is told to send messages below
# the platform's 64 KiB eager threshold at once (async-small-thresh) and to
# let their senders go on (send-is-detached-thresh), as contend does.
# Collectives: SimGrid is told to pick Open MPI's algorithms (coll-selector
# ompi), as contend's collectives do (sim/collectives).
# TOLERANCE "none": only the coverage is checked (for calls SimGrid traces
# but cannot replay itself, such as MPI_Ssend).
# Usage: simgrid_compat.sh CONTEND_BIN SRCDIR WORKDIR PROGRAM TOLERANCE
set -euo pipefail
export LC_ALL=C
contend=$1 src=$2/tests/traces work=$3 program=$4 tolerance=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work"
smpicc -O1 -I "$2" "$src/$program.c" -o "$program"

common=(-np 4 -platform "$src/cluster4.xml" -hostfile "$src/cluster4.hosts" --log=root.thresh:warning
        --log=smpi_config.thresh:error --cfg=smpi/coll-selector:ompi)
smpirun "${common[@]}" -trace-ti --cfg=tracing/filename:trace.txt --cfg=smpi/host-speed:1Gf "./$program"
sg_options=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:0
            --cfg=network/latency-factor:1 --cfg=network/bandwidth-factor:1 --cfg=network/weight-S:0
            --cfg=smpi/async-small-thresh:65536 --cfg=smpi/send-is-detached-thresh:65536)
if [ "$tolerance" != none ]; then
  smpirun "${common[@]}" --log=smpi_replay.thresh:info -replay trace.txt "${sg_options[@]}" > simgrid.log 2>&1
  simgrid_time=$(sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' simgrid.log)
  [ -n "$simgrid_time" ] || { echo "SimGrid's replay printed no simulation time:"; cat simgrid.log; exit 1; }
fi
"$contend" simulate --platform "$src/cluster4.yaml" --trace trace.txt --model maxmin --json contend.json > contend.txt
contend_time=$(python3 -c 'import json,sys; print(json.load(open("contend.json"))["makespan"])')
cat contend.txt
# Coverage: every action kind in the trace was replayed, as often as it appears.
expected=$(cat trace.txt_files/*.txt | awk '{print $2}' | sort | uniq -c | awk '{printf " %s %s", $2, $1}')
replayed=$(sed -n 's/^  trace actions  //p' contend.txt)
[ "$expected" = "$replayed" ] || { echo "coverage: trace has$expected, contend replayed $replayed"; exit 1; }
[ "$tolerance" = none ] && { echo "coverage checked: every action replayed"; exit 0; }
python3 - "$simgrid_time" "$contend_time" "$tolerance" <<'PY'
import sys
sg, ct, tol = map(float, sys.argv[1:])
err = abs(ct - sg) / sg
print(f"SimGrid replay {sg:.6f} s, contend maxmin {ct:.6f} s, relative difference {err:.4f} (tolerance {tol})")
sys.exit(0 if err <= tol else 1)
PY
