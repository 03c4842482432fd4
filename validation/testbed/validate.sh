#!/usr/bin/env bash
# The testbed's end-to-end check: set up the emulated cluster, prove the
# shaping, calibrate it, run and predict the accuracy suite and its held-out
# cases (run-heldout.sh: drawn after calibration from a fresh seed), report,
# tear down.
#
#   validate.sh BUILD_DIR full    `make validate`: writes platforms/testbed.yaml
#                                 and validation/results/ (held-out cases under
#                                 validation/results/heldout/); never the tests'
#                                 tests/data/platforms/testbed-frozen.yaml, so
#                                 no test's expected output changes
#   validate.sh BUILD_DIR quick   the CI version (ctest): its own namespace
#                                 names and subnet, fewer sizes, workloads and
#                                 repetitions, everything under BUILD_DIR/testbed-ci;
#                                 fails on any broken step and on gross errors
# Needs root and network namespaces; without them it fails, loudly.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: validate.sh BUILD_DIR full|quick}" && pwd)
mode=${2:?usage: validate.sh BUILD_DIR full|quick}

case "$mode" in full | quick) ;; *) echo "validate.sh: mode must be full or quick, got '$mode'" >&2; exit 2 ;; esac
. "$here/lib.sh"
ctd_check_capabilities  # before anything is touched: root, tools, network namespaces

case "$mode" in
  full)
    platform=$source_dir/platforms/testbed.yaml
    results=$source_dir/validation/results
    rm -rf "$results"  # the last run's results, replaced as a whole
    ;;
  quick)
    # Apart from any testbed a developer has up.
    export CTD_PREFIX=ctdci CTD_SUBNET=10.213.38 CTD_STATE=/run/ctdci-testbed
    platform=$build/testbed-ci/testbed-ci.yaml
    results=$build/testbed-ci/results
    rm -rf "$build/testbed-ci"
    ;;
esac
. "$here/lib.sh"  # again: the quick mode's names
mkdir -p "$results/calibration"

phase_start=$SECONDS
phase() { ctd_log "== $1 (previous phase took $((SECONDS - phase_start)) s)"; phase_start=$SECONDS; }
began=$SECONDS

trap '"$here/down.sh" || true' EXIT
phase "set up: $CTD_NODES nodes ($CTD_SUITE_NODES for the workloads) x $CTD_SLOTS slots, $CTD_RATE links"
"$here/up.sh"
phase "shaping check"
"$here/check.sh" "$build" "$results/shaping-check.csv"
phase "calibration"
"$here/calibrate.sh" "$build" "$platform" "$results/calibration" "$mode"
phase "accuracy suite"
"$here/run-suite.sh" "$build" "$platform" "$results" "$mode"
phase "held-out cases"
"$here/run-heldout.sh" "$build" "$platform" "$results/heldout" "$mode"
phase "tear down"
"$here/down.sh"
trap - EXIT
phase "done"
ctd_log "validate ($mode) took $((SECONDS - began)) s"

if [ "$mode" = quick ]; then
  /usr/bin/python3 "$here/ci_checks.py" "$results" "$platform"
fi
