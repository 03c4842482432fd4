# Shared by the benchmark scripts (sourced, not run): where things are, the
# options every script takes, and the lines they all print.
#
# Common options: --bin PATH, the contend executable to benchmark (default:
# this tree's build/bin/contend; another build's, e.g. to compare a change
# with the code before it), and --out DIR for generated inputs and logs.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin="$root/build/bin/contend"
out="$root/build/bench"

# bench_options USAGE OPTION=VARIABLE... -- "$@": `--OPTION VALUE` sets
# VARIABLE (the caller sets its default first); USAGE lists the script's own
# options for the usage line.
bench_options() {
  local usage=$1
  shift
  local -A variable=([bin]=bin [out]=out)
  while [ "$1" != -- ]; do
    variable[${1%%=*}]=${1#*=}
    shift
  done
  shift
  while [ $# -gt 0 ]; do
    local name=${1#--}
    if [[ $1 != --?* || $# -lt 2 || -z ${variable[$name]:-} ]]; then
      echo "usage: $0 $usage [--bin PATH] [--out DIR]" >&2
      exit 2
    fi
    printf -v "${variable[$name]}" '%s' "$2"
    shift 2
  done
}

# Checks that $bin runs (and makes its path absolute), makes $out, and prints what ran where.
bench_start() {
  [ -x "$bin" ] || { echo "no contend executable at $bin: build it (make build) or pass --bin PATH" >&2; exit 1; }
  bin=$(realpath "$bin")  # scripts run it from their own folders
  mkdir -p "$out"
  echo "contend: $bin"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m)"
}

# Seconds since START (from `date +%s%N`), with DIGITS decimals.
seconds_since() {
  awk -v a="$1" -v b="$(date +%s%N)" -v digits="$2" 'BEGIN {printf "%.*f", digits, (b - a) / 1e9}'
}

# Sets `pattern` to the METIS halo pattern of P ranks (Thune et al.'s Table
# IV setting: one mesh of 400,000 active cells, OVERLAP ghost layers, default
# 6, 240 B per ghost cell), generated once into $out (saying so).
# usage: halo_pattern P [OVERLAP]
halo_pattern() {
  local p=$1 overlap=${2:-6} start
  pattern="$out/halo-$p-overlap$overlap.pattern"
  [ ! -f "$pattern" ] || return 0
  start=$(date +%s%N)
  "$bin" generate-pattern --ranks "$p" --cells 400000 --overlap "$overlap" --bytes-per-cell 240 -o "$pattern" \
    > "$out/generate-$p-overlap$overlap.log"
  echo "P=$p: generated $(tail -1 "$out/generate-$p-overlap$overlap.log" | sed 's/^wrote [^:]*: //') in $(seconds_since "$start" 1) s"
}

# bench_simulate LABEL ARGS...: `contend simulate ARGS` with --stats, within
# $limit seconds of wall-clock time; prints "LABEL: " and its figures (or its error).
bench_simulate() {
  local label=$1 result
  shift
  result=$("$bin" simulate "$@" --quiet --stats --time-limit "$limit" 2>&1) || true
  echo "$label: ${result#contend: }"
}
