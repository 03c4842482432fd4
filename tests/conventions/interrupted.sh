#!/bin/sh
# Sends SIGNAL to a running `contend simulate --per-rank FILE` and prints its
# exit status, what it printed on standard error, and whether FILE exists.
# usage: interrupted.sh CONTEND WORKDIR SIGNAL (run from the repository root)
contend=$1 work=$2 signal=$3
mkdir -p "$work"
rm -f "$work/interrupted.csv"
"$contend" simulate --platform platforms/epyc-rome-2node.yaml --pattern traces/samples/halo-256.pattern --quiet \
  --per-rank "$work/interrupted.csv" 2> "$work/interrupted.err" &
pid=$!
sleep 0.3
kill -s "$signal" "$pid"
status=0; wait "$pid" 2> /dev/null || status=$?  # (the shell says "Terminated" too)
echo "exit status $status"
cat "$work/interrupted.err"
if [ -e "$work/interrupted.csv" ]; then echo "output file written"; else echo "no output file"; fi
