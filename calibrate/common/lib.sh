# Shell helpers of the calibration drivers (calibrate/<method>/calibrate.sh)
# and their end-to-end tests (calibrate/<method>/test-pipeline.sh). Sourced.

# The driver's usage: its header comment, from line 2 to the first line that
# is not a comment.
calibrate_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0" >&2
  exit 2
}

calibrate_fail() {
  echo "calibrate.sh: $*" >&2
  exit 2
}

# The options every driver takes; sets `consumed` to the number of words
# used (0: not one of them).
#   --platform FILE  --output FILE  --bin DIR  --hostfile FILE
#   --launcher "COMMAND"  --local  -h|--help
calibrate_common_option() {
  consumed=0
  case $1 in
    --platform|--output|--bin|--hostfile|--launcher) calibrate_needs_value "$@" ;;
  esac
  case $1 in
    --platform) platform=$2; consumed=2 ;;
    --output) output=$2; consumed=2 ;;
    --bin) bin=$2; consumed=2 ;;
    --hostfile) hostfile=$2; consumed=2 ;;
    --launcher) launcher=$2; consumed=2 ;;
    --local) local=1; consumed=1 ;;
    -h|--help) calibrate_usage ;;
  esac
}

# A driver's command line: first sets the common options' defaults (empty;
# --bin: the checkout's build/bin, from the driver's $root; --local off).
# Then each word is a common option, or one of the driver's own, given as
# the name of an associative array from option to the variable its value
# goes to (an array variable collects every value given); the entry `--`,
# where there is one, names the array that takes every word after `--`.
# Anything else is an unknown option.
calibrate_parse_options() {  # calibrate_parse_options OWN_OPTIONS "$@"
  local -n calibrate_own=$1
  shift
  platform="" output="" bin=$root/build/bin hostfile="" launcher="" local=0
  if [ -n "${calibrate_own[--]:-}" ]; then
    local -n calibrate_rest=${calibrate_own[--]}
    calibrate_rest=()
  fi
  while [ $# -gt 0 ]; do
    calibrate_common_option "$@"
    if [ "$consumed" -gt 0 ]; then shift "$consumed"; continue; fi
    if [ -z "$1" ] || [ -z "${calibrate_own[$1]:-}" ]; then
      echo "calibrate.sh: unknown option '$1'" >&2
      calibrate_usage
    elif [ "$1" = -- ]; then
      shift
      calibrate_rest=("$@")
      return
    fi
    calibrate_needs_value "$@"
    calibrate_set_option "${calibrate_own[$1]}" "$2"
    shift 2
  done
}

# An option that takes a value is not the last word.
calibrate_needs_value() {  # calibrate_needs_value OPTION [VALUE...]
  [ $# -ge 2 ] || calibrate_fail "option '$1' needs a value"
}

# VARIABLE=VALUE, or VALUE appended where VARIABLE is an array.
calibrate_set_option() {  # calibrate_set_option VARIABLE VALUE
  if [[ $(declare -p "$1" 2> /dev/null) == "declare -a"* ]]; then
    local -n calibrate_list=$1
    calibrate_list+=("$2")
  else
    printf -v "$1" '%s' "$2"
  fi
}

# --platform is required; --output defaults to it (in place); the programs
# must be built; Open MPI refuses root unless told.
calibrate_check() {  # calibrate_check TOOL...
  [ -n "$platform" ] || { echo "calibrate.sh: --platform is required" >&2; calibrate_usage; }
  [ -n "${output:-}" ] || output=$platform
  local tool
  for tool in "$@"; do
    [ -x "$bin/$tool" ] || { echo "calibrate.sh: $bin/$tool not found (build first, or give --bin)" >&2; exit 1; }
  done
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# Sets the array `launch` to the launch prefix: --launcher's words, else the
# driver's prefix for --hostfile or for --local (given as the names of two
# arrays); `where` says which (launcher, hostfile or local).
calibrate_launch() {  # calibrate_launch HOSTFILE_ARRAY LOCAL_ARRAY
  local -n for_hostfile=$1 for_local=$2
  if [ -n "$launcher" ]; then
    read -r -a launch <<< "$launcher"
    where=launcher
  elif [ -n "$hostfile" ]; then
    launch=("${for_hostfile[@]}")
    where=hostfile
  elif [ "$local" -eq 1 ]; then
    launch=("${for_local[@]}")
    where=local
  else
    calibrate_fail "say where to run: --hostfile FILE, --launcher \"COMMAND\" or --local"
  fi
}

# The launch of the drivers that run one job per level and add -np and
# --map-by to it themselves (multipair, transport): sets `launch` and `where`
# (calibrate_launch: mpirun --hostfile FILE, or this machine's shared
# memory), `levels` to all three unless given (--local: intra_socket), and
# `binding` to mpirun's --bind-to words (none when $bind is empty).
calibrate_per_level_launch() {
  local on_hostfile=(mpirun --hostfile "$hostfile")
  local on_this_machine=(mpirun --oversubscribe --mca btl "self,vader" --mca mpi_yield_when_idle 1)
  calibrate_launch on_hostfile on_this_machine
  if [ "$where" = local ]; then
    levels=${levels:-intra_socket}
  else
    levels=${levels:-intra_socket inter_socket inter_node}
  fi
  binding=()
  if [ -n "$bind" ]; then binding=(--bind-to "$bind"); fi
}

# Copies --platform to --output unless they are one file, then runs (and
# says) `contend FIT_COMMAND RAW_FILES... --platform OUTPUT [--fits FITS]`.
calibrate_fit_output() {  # calibrate_fit_output FIT_COMMAND RAW_FILES...
  if [ "$output" != "$platform" ]; then
    cp "$platform" "$output"
  fi
  local fit=("$bin/contend" "$@" --platform "$output")
  if [ -n "$fits" ]; then fit+=(--fits "$fits"); fi
  echo "calibrate.sh: ${fit[*]}"
  "${fit[@]}"
}

# The start of every test-pipeline.sh: `test-pipeline.sh BUILD_DIR SOURCE_DIR`;
# sets build, source_dir, bin and an empty work folder $build/NAME-pipeline,
# lets Open MPI run as root, and defines fail.
pipeline_setup() {  # pipeline_setup NAME BUILD_DIR SOURCE_DIR
  build=$2
  source_dir=$3
  bin=$build/bin
  work=$build/$1-pipeline
  rm -rf "$work"
  mkdir -p "$work"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_gds=hash
}

fail() {
  echo "test-pipeline: FAIL: $*" >&2
  exit 1
}
