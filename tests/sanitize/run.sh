#!/usr/bin/env bash
# `make test-sanitize`, after the build: the ctest suite of BUILD_DIR (a
# CONTEND_SANITIZE build) under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer. Every report goes to a file under
# BUILD_DIR/sanitizer-reports rather than to the test's stderr, so that a
# report counts even where a test expects its program to fail; any report
# fails the run, as does any failing test. What is suppressed, and why, is in
# tests/sanitize/*.supp; what is left out, and why, is below and in
# tests/sanitize/README.md (with how to read a report).
# Usage: tests/sanitize/run.sh BUILD_DIR JOBS
set -uo pipefail
build=$(cd "$1" && pwd) jobs=$2
here=$(cd "$(dirname "$0")" && pwd)
reports=$build/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"

# Left out: the emulated cluster creates network namespaces with fixed names
# and needs the machine alone (root); `make test` runs it.
excluded='^validation\.testbed_quick$'
# The tests that start MPI programs under mpirun (Open MPI): the tracer's
# (preloaded), the calibration pipelines', the rankfile validation's, and
# sweep.three_ways (contend-sweep-mpi). LeakSanitizer is off there: Open MPI
# unloads its components (dlclose) at MPI_Finalize, so what they allocated
# is reported as leaks from "<unknown module>" that no suppression can name.
# ASan and UBSan stay on; contend's own programs are leak-checked by every
# other test (`contend sweep` by sweep.resume and the sweep tesh files).
mpi_tests='^(traces\.tracer_.*|calibrate\..*_pipeline|validation\.mapping_rankfile|sweep\.three_ways)$'

options() {  # LEAKS (0|1)
  local common="log_path=$reports/report:print_suppressions=0"
  # verify_asan_link_order=0: the tracer (libcontend-trace.so, built without
  # the sanitizers) is preloaded before the ASan runtime the programs link.
  export ASAN_OPTIONS="$common:detect_leaks=$1:verify_asan_link_order=0:suppressions=$here/asan.supp"
  export LSAN_OPTIONS="$common:suppressions=$here/lsan.supp"
  export UBSAN_OPTIONS="$common:print_stacktrace=1:halt_on_error=1:suppressions=$here/ubsan.supp"
}

# Every suppression has its reason on the comment line just above it.
for supp in "$here"/*.supp; do
  awk -v file="$supp" '!/^#/ && NF && prev !~ /^#/ { print file ":" NR ": a suppression without its reason on the line above"; bad = 1 }
    { prev = $0 } END { exit bad }' "$supp" || exit 1
done

cd "$build" || exit 1
options 1
ctest --output-on-failure -j "$jobs" -E "$excluded|$mpi_tests"
status=$?
options 0
ctest --output-on-failure -j "$jobs" -R "$mpi_tests" -E "$excluded" || status=1

if compgen -G "$reports/report*" > /dev/null; then
  for f in "$reports"/report*; do
    echo "=== $f"
    cat "$f"
  done
  echo "make test-sanitize: $(ls "$reports" | wc -l) sanitizer report(s), above" >&2
  status=1
fi
exit $status
