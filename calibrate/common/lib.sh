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
# used (0: not one of them). Drivers keep their own loop for the rest.
#   --platform FILE  --output FILE  --bin DIR  --hostfile FILE
#   --launcher "COMMAND"  --local  -h|--help
calibrate_common_option() {
  consumed=0
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
