#!/usr/bin/env bash
# The sample applications, benchmarks and test programs answer --help with
# their usage on standard output (exit 0) and a bad argument with an error on
# standard error (exit 2), before MPI starts; under a launcher only rank 0
# prints (docs/commands.md, "Exit status"). No MPI job is started here.
# usage: programs.sh WORKDIR PROGRAM:BAD_ARGUMENT[:serial]...
# (serial: a program without MPI, whose rank is never asked.)
set -euo pipefail
work=$1
shift
fail() { echo "programs.sh: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"
for entry in "$@"; do
  IFS=: read -r program bad serial <<< "$entry"
  name=$(basename "$program")
  status=0
  "$program" --help > help.out 2> help.err || status=$?
  [ "$status" = 0 ] || fail "'$name --help' exits $status"
  grep -qi '^usage' help.out || fail "'$name --help' prints no usage on standard output"
  [ ! -s help.err ] || fail "'$name --help' writes to standard error: $(head -1 help.err)"
  status=0
  "$program" "$bad" > bad.out 2> bad.err || status=$?
  [ "$status" = 2 ] || fail "'$name $bad' exits $status, not 2"
  [ -s bad.err ] && [ ! -s bad.out ] || fail "'$name $bad' does not explain itself on standard error alone"
  [ -z "$(ls -A | grep -v -e '^help\.' -e '^bad\.' -e '^quiet\.')" ] || fail "'$name' left files: $(ls -A)"
  # As rank 1 of a job: the same statuses, nothing printed.
  [ "${serial:-}" = serial ] && continue
  status=0
  OMPI_COMM_WORLD_RANK=1 "$program" --help > quiet.out 2>&1 || status=$?
  [ "$status" = 0 ] && [ ! -s quiet.out ] || fail "'$name --help' as rank 1: exit $status, prints $(wc -c < quiet.out) bytes"
  status=0
  OMPI_COMM_WORLD_RANK=1 "$program" "$bad" > quiet.out 2>&1 || status=$?
  [ "$status" = 2 ] && [ ! -s quiet.out ] || fail "'$name $bad' as rank 1: exit $status, prints $(wc -c < quiet.out) bytes"
done
echo "programs.sh: $# programs answer --help and a bad argument"
