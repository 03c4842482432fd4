#!/usr/bin/python3
"""The pictures of docs/teaching.md, drawn from contend's own outputs.

Each lesson's picture comes from running contend on the lesson's shipped
files: the intervals of --explain (what bounded each message, at what
rate), the closed form of `contend analyze`, the per-size rows of `contend
select -o` and the per-rank times of simulated broadcasts. The SVGs are
deterministic (fixed svg.hashsalt, no date), so that the committed ones can
be compared with a fresh run (ctest docs.teaching_pictures).

Usage: teaching_pictures.py [--contend BIN] [--out DIR] [--compare DIR]
  --contend  the contend binary (default build/bin/contend)
  --out      where to write the SVGs (default docs/teaching)
  --compare  also check that every picture written is byte-identical to the
             one of the same name in DIR, and that DIR has no other picture
"""
import argparse
import csv
import filecmp
import io
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EPYC = "platforms/epyc-rome-2node.yaml"
# The lessons' frozen copy of the testbed platform, which `make validate` recalibrates.
TESTBED = "tests/data/platforms/testbed-frozen.yaml"
GIGAETH = "platforms/martinasso-gigaeth-lam.yaml"
LATENCY_COLOUR = "#bbbbbb"
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#e377c2"]


class Contend:
    def __init__(self, binary):
        self.binary = binary

    def run(self, *args):
        """contend's standard output; any failure stops the script with contend's words."""
        done = subprocess.run([self.binary] + list(args), cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"teaching_pictures: contend {' '.join(args)} failed (exit {done.returncode}):\n{done.stderr}")
        return done.stdout

    def rows(self, *args):
        """The CSV contend writes to standard output, as dicts."""
        return list(csv.DictReader(io.StringIO(self.run(*args))))


def time_unit(seconds):
    """(scale, name) for an axis of times up to `seconds`."""
    return (1e6, "us") if seconds < 1e-3 else (1e3, "ms")


def resource_colours(rows):
    """A colour per resource in order of first appearance; latency grey."""
    colours = {"latency": LATENCY_COLOUR}
    for row in rows:
        if row["resource"] not in colours:
            colours[row["resource"]] = PALETTE[(len(colours) - 1) % len(PALETTE)]
    return colours


def message_label(row):
    return f"{row['src']} -> {row['dst']}"


def messages_of(rows):
    """Message ids in order of first appearance, with their labels."""
    seen = {}
    for row in rows:
        seen.setdefault(row["id"], message_label(row))
    return list(seen.items())


def draw_intervals(ax, rows, title, scale, unit):
    """One bar per message, one segment per --explain interval, coloured by
    the resource that bounded it."""
    colours = resource_colours(rows)
    messages = messages_of(rows)
    position = {mid: len(messages) - 1 - k for k, (mid, _) in enumerate(messages)}
    drawn = set()
    for row in rows:
        begin, end = float(row["begin_s"]) * scale, float(row["end_s"]) * scale
        name = row["resource"]
        ax.barh(position[row["id"]], end - begin, left=begin, height=0.6, color=colours[name],
                edgecolor="black", linewidth=0.4, label=None if name in drawn else name)
        drawn.add(name)
        rate = float(row["rate_Bps"])
        if rate > 0 and end - begin > 0.12 * ax.get_xlim()[1]:
            ax.text((begin + end) / 2, position[row["id"]], f"{rate / 1e9:.3g} GB/s" if rate >= 1e9 else f"{rate / 1e6:.4g} MB/s",
                    ha="center", va="center", fontsize=7, color="white")
    ax.set_yticks([position[mid] for mid, _ in messages], [label for _, label in messages])
    ax.set_xlabel(f"time [{unit}]")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))


def draw_rates(ax, rows, title, scale, unit):
    """Each message's rate over time, a step per --explain interval (the
    first messages drawn thicker, so that equal rates stay visible), and the
    sum of the rates."""
    messages = messages_of(rows)
    instants = sorted({float(row[key]) for row in rows for key in ("begin_s", "end_s")})
    for k, (mid, label) in enumerate(messages):
        xs, ys = [], []
        for row in rows:
            if row["id"] == mid:
                xs += [float(row["begin_s"]) * scale, float(row["end_s"]) * scale]
                ys += [float(row["rate_Bps"]) / 1e6] * 2
        ax.plot(xs, ys, color=PALETTE[k % len(PALETTE)], label=label, linewidth=1.5 + 2.0 * (len(messages) - 1 - k))
    total = [sum(float(row["rate_Bps"]) for row in rows if float(row["begin_s"]) <= t < float(row["end_s"])) / 1e6
             for t in instants]
    ax.step([t * scale for t in instants], total, where="post", color="black", linestyle="--", linewidth=1,
            label="sum of the rates")
    ax.set_xlabel(f"time [{unit}]")
    ax.set_ylabel("rate [MB/s]")
    ax.set_ylim(bottom=0, top=max(total) * 1.1)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))


def end_of(rows):
    return max(float(row["end_s"]) for row in rows)


def save(figure, out, name):
    figure.tight_layout()
    figure.savefig(os.path.join(out, name), format="svg", metadata={"Date": None})
    plt.close(figure)
    return name


def intervals_picture(contend, out, name, runs, draw):
    """One panel per (title, contend arguments) run with --explain -, on a shared time axis."""
    explained = [(title, contend.rows(*args, "--explain", "-", "--quiet")) for title, args in runs]
    scale, unit = time_unit(max(end_of(rows) for _, rows in explained))
    figure, axes = plt.subplots(len(runs), 1, figsize=(8.5, 1.2 + 1.6 * len(runs)), sharex=True, squeeze=False)
    horizon = max(end_of(rows) for _, rows in explained) * scale * 1.02
    for ax, (title, rows) in zip(axes[:, 0], explained):
        ax.set_xlim(0, horizon)
        draw(ax, rows, title, scale, unit)
    for ax in axes[:-1, 0]:
        ax.set_xlabel("")
    return save(figure, out, name)


def lesson_fan_in(contend, out):
    args = ["simulate", "--platform", TESTBED, "--pattern", "tests/data/attribution/fan-in-3.pattern", "--mapping", "cyclic"]
    return intervals_picture(contend, out, "fan-in.svg", [("fan-in of 3 on node 0 (testbed, maxmin)", args)], draw_intervals)


def lesson_staircase(contend, out, work):
    counts = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]
    simulated, closed_form, per_process = [], [], []
    for n in counts:
        pattern = os.path.join(work, f"socket-{n}.pattern")
        with open(pattern, "w", encoding="utf-8") as f:
            f.write(f"ranks {2 * n}\n" + "".join(f"{i} {n + i} 1000000\n" for i in range(n)))
        common = ["--platform", EPYC, "--pattern", pattern]
        rows = contend.rows("simulate", *common, "--model", "staircase", "--explain", "-", "--quiet")
        simulated.append(end_of(rows) * 1e6)
        per_process.append(max(float(r["rate_Bps"]) for r in rows) / 1e9)
        analysed = contend.rows("analyze", *common, "--quiet", "--per-rank", "-")
        closed_form.append(max(float(r["total_time_s"]) for r in analysed) * 1e6)
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    left.plot(counts, per_process, "o-", color=PALETTE[0], label="per process: BW_MP(N)/N")
    left.plot(counts, [n * r for n, r in zip(counts, per_process)], "s-", color=PALETTE[1], label="socket: BW_MP(N)")
    left.set_xlabel("N receiving processes in socket 0")
    left.set_ylabel("rate [GB/s] (simulated)")
    left.set_ylim(bottom=0)
    left.legend(fontsize=7)
    left.set_title("the staircase (Epyc Rome, intra-socket)", fontsize=10)
    right.plot(counts, simulated, "o", color=PALETTE[0], label="contend simulate --model staircase")
    right.plot(counts, closed_form, "-", color=PALETTE[2], label="contend analyze (Thune eq. (7))")
    right.set_xlabel("N receiving processes in socket 0")
    right.set_ylabel("time of the exchange [us]")
    right.set_ylim(bottom=0)
    right.legend(fontsize=7)
    right.set_title("1 MB to each of N processes", fontsize=10)
    return save(figure, out, "staircase-socket.svg")


def lesson_mixed(contend, out):
    args = ["simulate", "--platform", EPYC, "--pattern", "docs/teaching/mixed-3.pattern",
            "--mapping", "docs/teaching/two-sockets.map"]
    runs = [(f"--model {m}", args + ["--model", m]) for m in ("staircase", "maxmin")]
    return intervals_picture(contend, out, "mixed.svg", runs, draw_intervals)


def lesson_flowcut(contend, out):
    args = ["simulate", "--platform", GIGAETH, "--pattern", "tests/data/attribution/chain-3.pattern", "--mapping", "cyclic"]
    runs = [(f"0 -> 1 -> 2 on GigaEth/LAM, --model {m}", args + ["--model", m]) for m in ("flowcut", "maxmin")]
    return intervals_picture(contend, out, "flowcut.svg", runs, draw_rates)


def lesson_bcast(contend, out, work):
    table = os.path.join(work, "select.csv")
    contend.run("select", "bcast", "--platform", TESTBED, "--procs", "16", "--sizes", "1K:1M", "--simulate",
                "--model", "taulop", "-o", table)
    rows = list(csv.DictReader(open(table, encoding="utf-8")))
    sizes = sorted({int(r["bytes"]) for r in rows})
    figure, ax = plt.subplots(figsize=(8.5, 4))
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    for k, algorithm in enumerate(algorithms):
        times = [float(r["simulated_time_s"]) * 1e3 for r in rows if r["algorithm"] == algorithm]
        ax.plot(sizes, times, "o-", markersize=3, color=PALETTE[k % len(PALETTE)], label=f"{algorithm} (forced)")
    decided = []
    for size in sizes:
        pattern = os.path.join(work, f"bcast-{size}.pattern")
        with open(pattern, "w", encoding="utf-8") as f:
            f.write(f"ranks 16\nbcast 0 {size}\n")
        ranks = contend.rows("simulate", "--platform", TESTBED, "--pattern", pattern, "--model", "taulop",
                             "--quiet", "--per-rank", "-")
        decided.append(max(float(r["total_time_s"]) for r in ranks) * 1e3)
    ax.plot(sizes, decided, "k*--", markersize=8, label="Open MPI 4.1's decision")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [f"{size // 1024}K" if size < 1 << 20 else f"{size >> 20}M" for size in sizes])
    ax.minorticks_off()
    ax.set_yscale("log")
    ax.set_xlabel("message size [B]")
    ax.set_ylabel("simulated broadcast time [ms] (taulop)")
    ax.set_title("MPI_Bcast on the testbed's 16 ranks", fontsize=10)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return save(figure, out, "bcast.svg")


def lesson_step(contend, out):
    args = ["simulate", "--platform", EPYC, "--pattern", "docs/teaching/staircase-3.pattern", "--model", "staircase"]
    return intervals_picture(contend, out, "step.svg", [("3 receivers in one socket (staircase)", args)], draw_rates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--contend", default=os.path.join(ROOT, "build/bin/contend"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs/teaching"))
    parser.add_argument("--compare")
    options = parser.parse_args()
    plt.rcParams.update({"svg.hashsalt": "contend-teaching", "font.size": 9})
    os.makedirs(options.out, exist_ok=True)
    contend = Contend(os.path.abspath(options.contend))
    with tempfile.TemporaryDirectory() as work:
        written = [lesson_fan_in(contend, options.out), lesson_staircase(contend, options.out, work),
                   lesson_mixed(contend, options.out), lesson_flowcut(contend, options.out),
                   lesson_bcast(contend, options.out, work), lesson_step(contend, options.out)]
    for name in written:
        print(f"wrote {os.path.join(options.out, name)}")
    if options.compare:
        problems = [f"{name}: differs from {os.path.join(options.compare, name)} (run scripts/teaching_pictures.py)"
                    for name in written
                    if not os.path.isfile(os.path.join(options.compare, name))
                    or not filecmp.cmp(os.path.join(options.out, name), os.path.join(options.compare, name), shallow=False)]
        problems += [f"{os.path.join(options.compare, name)}: no lesson draws it"
                     for name in sorted(os.listdir(options.compare)) if name.endswith(".svg") and name not in written]
        for p in problems:
            print(p, file=sys.stderr)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
