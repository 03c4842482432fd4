#!/usr/bin/env python3
"""Tests read the frozen testbed platform, not the shipped one
(docs/architecture.md, "Tests").

`make validate` recalibrates platforms/testbed.yaml; a test whose expected
output comes from its calibrated numbers breaks at every recalibration.
Such tests read tests/data/platforms/testbed-frozen.yaml, a copy that is
never recalibrated. This check reads every file a test is made of: the
source files named on the command lines of the registered tests (`ctest
--show-only=json-v1`: tesh files, scripts) and every file under tests/ or
under a test/ folder (C++ tests, the scripts' helpers). Only the files of
ALLOWED may name platforms/testbed.yaml, each for its reason: it tests the
shipped file, or runs on it without comparing its numbers with fixed
values. An allowed file that no longer names it must leave the list.

usage: frozen_testbed.py SRCDIR BUILDDIR CTEST
"""
import json
import os
import subprocess
import sys

SHIPPED = b"platforms/testbed.yaml"
FROZEN = "tests/data/platforms/testbed-frozen.yaml"

ALLOWED = {
    "tests/conventions/determinism.sh": "same bytes twice on the shipped inputs, under every model",
    "tests/traces/examples.sh": "the shipped traces replay completely on the shipped platform",
    "tests/traces/timeline.sh": "every model's timeline is valid on the shipped platform; no fixed numbers",
    "models/simgrid_lmm/test/sim_two_way_rendezvous.cpp": "every model runs on the shipped platform's sections",
    "calibrate/flowshare/test-pipeline.sh": "predict.py's pipeline on the shipped platform; no fixed numbers",
    "validation/testbed/test/heldout_offline.sh": "the held-out suite's own pipeline; maxmin against itself",
    "validation/testbed/validate.sh": "writes the shipped file (`make validate`); ctest's quick mode has its own",
    "validation/mapping/rankfile_check.sh": "rankfiles of the shipped platform under the real mpirun",
}
# Files that are no test but sit where tests do.
NOT_TESTS = {FROZEN, "tests/conventions/frozen_testbed.py"}
SKIPPED_DIRS = {".git", "bench", "docs"}  # at the root; __pycache__ anywhere


def fail(message):
    print(f"frozen_testbed.py: {message}", file=sys.stderr)
    sys.exit(1)


def ctest_files(src, build, ctest):
    """The files under src, outside the build tree, that the registered tests
    name on their command lines."""
    listing = subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True, text=True)
    if listing.returncode != 0:
        fail(f"'ctest --show-only=json-v1' in {build} exits {listing.returncode}: {listing.stderr.strip()}")
    tests = json.loads(listing.stdout)["tests"]
    build = os.path.realpath(build)
    files = set()
    for test in tests:
        for argument in test.get("command", []):
            path = os.path.realpath(argument)
            if os.path.isfile(path) and path.startswith(src + os.sep) and not path.startswith(build + os.sep):
                files.add(os.path.relpath(path, src))
    return len(tests), files


def test_tree_files(src, build):
    """Every file under tests/ or under a test/ folder, outside build trees."""
    build = os.path.realpath(build)
    files = set()
    for root, dirs, names in os.walk(src):
        rel_root = os.path.relpath(root, src)
        dirs[:] = [d for d in dirs if d != "__pycache__" and os.path.realpath(os.path.join(root, d)) != build and
                   (rel_root != "." or (d not in SKIPPED_DIRS and not d.startswith("build")))]
        parts = [] if rel_root == "." else rel_root.split(os.sep)
        if parts[:1] == ["tests"] or "test" in parts:
            files.update(os.path.join(rel_root, name) for name in names)
    return files


def main():
    if len(sys.argv) != 4:
        fail("usage: frozen_testbed.py SRCDIR BUILDDIR CTEST")
    src, build, ctest = os.path.realpath(sys.argv[1]), sys.argv[2], sys.argv[3]
    if not os.path.isfile(os.path.join(src, FROZEN)):
        fail(f"{FROZEN} is missing: the tests' frozen copy of platforms/testbed.yaml")
    test_count, named = ctest_files(src, build, ctest)
    files = (named | test_tree_files(src, build)) - NOT_TESTS
    # The scan must see what it guards, or it would pass on nothing.
    if not any(f.startswith("tests/cli/") and f.endswith(".tesh") for f in named):
        fail(f"no tests/cli/*.tesh among the files of ctest's {test_count} tests: the scan is broken")
    if not any("/test/" in f and f.endswith(".cpp") for f in files):
        fail("no */test/*.cpp found: the scan is broken")

    problems = []
    for path in sorted(files):
        with open(os.path.join(src, path), "rb") as f:
            lines = f.read().split(b"\n")
        hits = [n for n, line in enumerate(lines, start=1) if SHIPPED in line]
        if hits and path not in ALLOWED:
            where = ", ".join(f"{path}:{n}" for n in hits)
            problems.append(f"{where}: a test names platforms/testbed.yaml, which `make validate` recalibrates; "
                            f"read {FROZEN} instead (or add the file to ALLOWED with its reason if it tests "
                            f"the shipped file and compares none of its numbers with fixed values)")
    for path in sorted(ALLOWED):
        if path not in files:
            problems.append(f"{path}: in ALLOWED but not a test file (moved or gone?): remove it")
        elif SHIPPED not in open(os.path.join(src, path), "rb").read():
            problems.append(f"{path}: in ALLOWED but no longer names platforms/testbed.yaml: remove it")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"frozen_testbed.py: {len(files)} test files ({test_count} ctest entries) checked; "
          f"{len(ALLOWED)} allowed to read platforms/testbed.yaml")


if __name__ == "__main__":
    main()
