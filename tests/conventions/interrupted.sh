#!/usr/bin/env bash
# Sends SIGNAL to a running `contend simulate --per-rank FILE` and prints its
# exit status, what it printed on standard error, and whether FILE exists.
# usage: interrupted.sh CONTEND WORKDIR SIGNAL (run from the repository root)
contend=$1 work=$2 signal=$3
mkdir -p "$work"
rm -f "$work/interrupted.csv"
"$contend" simulate --platform platforms/epyc-rome-2node.yaml --pattern traces/samples/halo-256.pattern --quiet \
  --per-rank "$work/interrupted.csv" 2> "$work/interrupted.err" &
pid=$!
# Signal once contend catches the signal (its bit in /proc's SigCgt mask), not
# while the process is still starting: a slow start on a loaded machine would
# otherwise meet the default action.
bit=$((1 << ($(kill -l "$signal") - 1)))
for _ in $(seq 500); do
  caught=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2> /dev/null || true)
  [ -n "$caught" ] && [ $((0x$caught & bit)) -ne 0 ] && break
  sleep 0.01
done
kill -s "$signal" "$pid"
status=0; wait "$pid" 2> /dev/null || status=$?  # (the shell says "Terminated" too)
echo "exit status $status"
cat "$work/interrupted.err"
if [ -e "$work/interrupted.csv" ]; then echo "output file written"; else echo "no output file"; fi
