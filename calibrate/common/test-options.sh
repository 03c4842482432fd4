#!/usr/bin/env bash
# ctest calibrate.driver_options: every calibration driver (calibrate/<method>/calibrate.sh)
# refuses a bad command line with one clear line and exit status 2, before
# it runs anything: an unknown option, and an option that takes a value
# given last without one (a common option and one of the driver's own).
# usage: test-options.sh SOURCE_DIR
set -uo pipefail
source_dir=$1
failures=0

# expect DRIVER EXPECTED_FIRST_LINE ARGS...
expect() {
  local driver=$1 expected=$2 status first
  shift 2
  first=$("$source_dir/calibrate/$driver/calibrate.sh" "$@" 2>&1 > /dev/null | head -1)
  "$source_dir/calibrate/$driver/calibrate.sh" "$@" > /dev/null 2>&1
  status=$?
  if [ "$status" -ne 2 ] || [ "$first" != "$expected" ]; then
    echo "FAIL: $driver $*: exit $status, first line '$first' (expected exit 2, '$expected')" >&2
    failures=$((failures + 1))
  fi
}

declare -A own_option=([flowcut]=--raw [multipair]=--levels [netgauge]=--level [taulop]=--segment [transport]=--fits)
for driver in flowcut multipair netgauge taulop transport; do
  expect "$driver" "calibrate.sh: unknown option '--bogus'" --bogus value
  expect "$driver" "calibrate.sh: option '--platform' needs a value" --local --platform
  expect "$driver" "calibrate.sh: option '${own_option[$driver]}' needs a value" --local "${own_option[$driver]}"
done
[ "$failures" -eq 0 ] || exit 1
echo "calibrate.driver_options: 15 bad command lines refused"
