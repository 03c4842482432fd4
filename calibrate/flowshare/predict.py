#!/usr/bin/python3
"""Predicts flowshare_bench's experiments with contend's maxmin, fair and
with sharing by age, and compares the flow ends with the measured ones.

usage: predict.py CONTEND PLATFORM AGE_DECAY OUT_CSV RAW_CSV...

PLATFORM: a calibrated platform of the emulated cluster (block placement,
4 ranks per node: platforms/testbed.yaml, 4 nodes); experiments with a rank
beyond it are left out. Each experiment becomes a pattern (its flows, each at
its start_ms) simulated with `--model maxmin` on PLATFORM as it is, then on a
copy with `models: maxmin: {sharing: {age_decay: AGE_DECAY}}`. Error per
experiment: Thune eq. (11) over its flow ends (from the common start), per
repetition, median. OUT_CSV: queue,experiment,flows,error_fair,error_age.
"""
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile


def read_runs(path):
    queue = int(os.path.basename(path).split("q")[-1].split(".")[0])
    runs = {}
    for r in csv.DictReader(line for line in open(path) if not line.startswith("#")):
        runs.setdefault(r["experiment"], {}).setdefault(int(r["repetition"]), []).append(r)
    return queue, runs


def simulate(platform, flows, work):
    pattern = os.path.join(work, "p.pattern")
    with open(pattern, "w") as fh:
        fh.write("ranks 16\n")
        for f in flows:
            start = float(f["start_ms"])
            fh.write(f"{f['src']} {f['dst']} {f['bytes']}" + (f" @{start:g}ms" if start > 0 else "") + "\n")
    messages = os.path.join(work, "m.csv")
    subprocess.run([CONTEND, "simulate", "--platform", platform, "--pattern", pattern, "--model", "maxmin", "--quiet",
                    "--messages", messages], check=True)
    ends = {(r["src"], r["dst"]): float(r["end_s"]) for r in csv.DictReader(open(messages))}
    return [ends[(f["src"], f["dst"])] for f in flows]


def eq11(measured, predicted):
    return sum(abs(m - p) for m, p in zip(measured, predicted)) / sum(measured)


def main():
    global CONTEND
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    CONTEND, platform, decay, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    with tempfile.TemporaryDirectory() as work:
        weighted = os.path.join(work, "age.yaml")
        text = open(platform).read()
        option = f"  maxmin: {{sharing: {{age_decay: {decay}}}}}"
        if re.search(r"^  maxmin:.*$", text, re.M):
            text = re.sub(r"^  maxmin:.*$", option, text, count=1, flags=re.M)
        elif "\nmodels:\n" in text:
            text = text.replace("\nmodels:\n", f"\nmodels:\n  maxmin: {{sharing: {{age_decay: {decay}}}}}\n", 1)
        else:
            text += f"models:\n  maxmin: {{sharing: {{age_decay: {decay}}}}}\n"
        open(weighted, "w").write(text)
        rows = []
        for raw in sys.argv[5:]:
            queue, runs = read_runs(raw)
            for name, reps in runs.items():
                flows = reps[0]
                if any(int(f["src"]) >= 16 or int(f["dst"]) >= 16 for f in flows):
                    continue
                fair = simulate(platform, flows, work)
                age = simulate(weighted, flows, work)
                errors = [(eq11([float(f["end_s"]) for f in run], fair), eq11([float(f["end_s"]) for f in run], age))
                          for run in reps.values()]
                rows.append([queue, name, len(flows), statistics.median(e[0] for e in errors),
                             statistics.median(e[1] for e in errors)])
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["queue", "experiment", "flows", "error_fair", "error_age"])
        for r in rows:
            w.writerow(r[:3] + [f"{r[3]:.4f}", f"{r[4]:.4f}"])
    for queue in sorted({r[0] for r in rows}):
        for family in ("fanin", "fanout", "small"):
            sel = [r for r in rows if r[0] == queue and r[1].startswith(family) and r[2] > 1]
            if sel:
                print(f"queue {queue} {family}: {len(sel)} experiments, maxmin fair "
                      f"{statistics.mean(r[3] for r in sel):.1%}, age_decay {decay} {statistics.mean(r[4] for r in sel):.1%}")


if __name__ == "__main__":
    main()
