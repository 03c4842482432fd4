#!/usr/bin/env python3
"""Every documented format example is a test (issue 17, item 6).

A fenced block in the manual (docs/*.md, README.md, the READMEs of models,
calibration methods and traces) preceded by the line

    <!-- example: FORMAT -->

is written to a file and given to the contend command that reads FORMAT;
the example fails the suite if that command refuses it. Every ```yaml
block must be marked (a YAML block is always an input example). FORMATs:

  platform          a whole platform file        contend platform --platform F
  models-section    a `models:` section          the same, appended to a small platform
  pattern           a pattern file               contend simulate --pattern F (256 cores)
  mapping           'rank node socket core'      contend simulate --mapping F
  hosts             a --hosts file (4 nodes)     contend simulate --hosts F --mapping rankfile
  ti                a one-file TI trace          contend simulate --trace F
  progress-profile  a per-rank profile CSV       contend progress --profile F --cores 2

A lesson of docs/teaching.md is a block of commands and their output,
marked `<!-- example: lesson tests/cli/teaching_NAME.tesh -->`: tesh runs
that file (ctest cli.teaching_NAME), and here the blocks marked with it,
in order, must be its commands and expected outputs, all of them ('$ contend
...' for '$ ${bindir}/contend ...', the output without tesh's '> '; a
command may go on over lines ending in '\'). Every tests/cli/teaching_*.tesh
must be shown in some lesson.

Usage: check_examples.py CONTEND_BIN SRCDIR WORKDIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys

import lessons

MARKER = re.compile(r"^<!-- example: ([a-z-]+)(?: (\S+))? -->\s*$")
FENCE = re.compile(r"^```([a-z]*)\s*$")

# A small platform for the examples that need one: 2 nodes x 2 sockets x 4 cores.
SMALL_PLATFORM = """name: doc-examples
nodes: {count: 2, sockets: 2, cores_per_socket: 4, core_speed: 1Gf}
levels:
  intra_socket: {latency: 1us, eager_threshold: 4KiB, bandwidth: 10GB/s}
  inter_socket: {latency: 2us, eager_threshold: 4KiB, bandwidth: 5GB/s}
  inter_node: {latency: 3us, eager_threshold: 64KiB, bandwidth: 10GB/s}
nic: {count: 1, bandwidth: 10GB/s}
network: {topology: star}
"""
FOUR_NODES = SMALL_PLATFORM.replace("count: 2, sockets: 2, cores_per_socket: 4", "count: 4, sockets: 1, cores_per_socket: 2")


def documents(src):
    patterns = ["README.md", "docs/*.md", "models/*/README.md", "calibrate/*/README.md", "traces/*/README.md"]
    files = []
    for p in patterns:
        files += sorted(glob.glob(os.path.join(src, p)))
    return files


def examples(path, src):
    """(where, format, text, argument) of each marked block; errors for unmarked yaml blocks."""
    found, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    rel = os.path.relpath(path, src)
    marked = None
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            marked = (m.group(1), i + 1, m.group(2))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if f:
            start = i + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            where = f"{rel}:{i + 1}"
            if marked and marked[1] == i:
                found.append((where, marked[0], "\n".join(lines[start:end]) + "\n", marked[2]))
            elif marked:
                errors.append(f"{rel}:{marked[1]}: the example marker is not right before a fenced block")
            elif f.group(1) == "yaml":
                errors.append(f"{where}: a yaml block without '<!-- example: FORMAT -->' before it")
            marked = None
            i = end + 1
            continue
        if marked and lines[i].strip():
            errors.append(f"{rel}:{marked[1]}: the example marker is not right before a fenced block")
            marked = None
        i += 1
    return found, errors


def ranks_of_mapping(text):
    return sum(1 for line in text.split("\n") if line.split("#")[0].strip())


def command(fmt, file, src, work, text):
    """The contend arguments that read `file` as `fmt`."""
    def write(name, content):
        p = os.path.join(work, name)
        with open(p, "w", encoding="utf-8") as out:
            out.write(content)
        return p

    if fmt == "platform":
        return ["platform", "--platform", file]
    if fmt == "models-section":
        return ["platform", "--platform", write(os.path.basename(file) + ".yaml", SMALL_PLATFORM + text)]
    if fmt == "pattern":
        return ["simulate", "--quiet", "--platform", os.path.join(src, "platforms/epyc-rome-2node.yaml"),
                "--pattern", file]
    if fmt == "mapping":
        n = ranks_of_mapping(text)
        pattern = write("ring.pattern", f"ranks {n}\n" + "".join(f"{r} {(r + 1) % n} 1KiB\n" for r in range(n)))
        return ["simulate", "--quiet", "--platform", write("small.yaml", SMALL_PLATFORM), "--pattern", pattern,
                "--mapping", file]
    if fmt == "hosts":
        hosts = [line.split()[0] for line in text.split("\n") if line.split("#")[0].strip()]
        rankfile = write("hosts.rankfile", "".join(f"rank {r}={h} slot=0:0\n" for r, h in enumerate(hosts)))
        pattern = write("pair.pattern", f"ranks {len(hosts)}\n0 1 1KiB\n")
        return ["simulate", "--quiet", "--platform", write("four.yaml", FOUR_NODES), "--pattern", pattern,
                "--hosts", file, "--mapping", "rankfile:" + rankfile]
    if fmt == "ti":
        return ["simulate", "--quiet", "--platform", write("small.yaml", SMALL_PLATFORM), "--trace", file]
    if fmt == "progress-profile":
        return ["progress", "--profile", file, "--cores", "2"]
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    contend, src, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures, checked, lesson_blocks = [], 0, []
    for doc in documents(src):
        found, errors = examples(doc, src)
        failures += errors
        for where, fmt, text, argument in found:
            if fmt == "lesson":
                lesson_blocks.append((where, argument, text))
                continue
            name = re.sub(r"[^A-Za-z0-9]+", "-", where) + {"progress-profile": ".csv", "ti": ".txt"}.get(fmt, "")
            file = os.path.join(work, name)
            with open(file, "w", encoding="utf-8") as out:
                out.write(text)
            args = command(fmt, file, src, work, text)
            if args is None:
                failures.append(f"{where}: unknown example format '{fmt}'")
                continue
            run = subprocess.run([contend] + args, cwd=src, capture_output=True, text=True)
            checked += 1
            status = "ok" if run.returncode == 0 else "FAILED"
            print(f"{status:6} {where} ({fmt}): contend {' '.join(args)}")
            if run.returncode != 0:
                failures.append(f"{where}: the {fmt} example is refused (exit {run.returncode}):\n{run.stderr}")
    lesson_files, problems = lessons.check(lesson_blocks, src)
    failures += problems
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{checked} documented examples and the lessons of {lesson_files} tesh files checked, {len(failures)} problems")
    sys.exit(1 if failures or checked == 0 or lesson_files == 0 else 0)


if __name__ == "__main__":
    main()
