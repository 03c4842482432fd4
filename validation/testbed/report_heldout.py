#!/usr/bin/python3
"""The held-out cases' report (run-heldout.sh): per-rank accuracy of every
model on the three sides of each rank's time.

Per case (workload x mapping x queue depth), per rank, the median over
repetitions of:
  recv   when the rank's last receive completed (pattern_run's recv_time_s),
         against contend's recv_time_s
  send   when its last send completed (send_time_s), against contend's
         send_time_s
  total  when it finished (time_s), against contend's total_time_s
all from the repetition's common start instant. Error: Thune et al.'s
eq. (11), sum_i |T_i^actual - T_i| / sum_i T_i^actual, per case and pooled
(over every rank of every case). Noise: eq. (11) of one repetition against
the medians (median over repetitions). The report fails when a rank ran on
another node than the case's mapping says (report.py's check).

Writes into RESULTS_DIR: errors.csv
(case,workload,mapping,queue,ranks_per_node,model,side,error), cases/ (per
rank and side: measured median, min, max and each model), plots/ (per case:
one panel per side, measured median with min-max bars and each model;
pooled-SIDE.png: the pooled error per model, one bar chart per side),
summary.md (seed, load, sizes, the tables).

Usage: report_heldout.py RESULTS_DIR PLATFORM MODEL...
"""
import csv
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from report import Case, eq11, failed_models, read_csv, read_measured  # noqa: E402

SIDES = ("recv", "send", "total")
MEASURED_COLUMN = {"recv": "recv_time_s", "send": "send_time_s", "total": "time_s"}
PREDICTED_COLUMN = {"recv": "recv_time_s", "send": "send_time_s", "total": "total_time_s"}


class HeldoutCase(Case):
    """report.py's case (placement check, makespan, losses) with the send and receive sides."""

    def __init__(self, results, row, models):
        super().__init__(results, row, models)
        self.queue = int(row["queue"])
        self.ranks_per_node = int(row["ranks_per_node"])
        self.load = float(row["load1"])
        raw = read_measured(os.path.join(results, "measured", self.name + ".csv"))
        self.side_samples, self.side_median, self.side_noise, self.side_predicted = {}, {}, {}, {}
        for side in SIDES:
            by_rank = [[] for _ in range(self.ranks)]
            by_rep = {}
            for r in raw:
                t = float(r[MEASURED_COLUMN[side]])
                by_rank[int(r["rank"])].append(t)
                by_rep.setdefault(int(r["repetition"]), [0.0] * self.ranks)[int(r["rank"])] = t
            self.side_samples[side] = by_rank
            self.side_median[side] = [statistics.median(v) for v in by_rank]
            self.side_noise[side] = statistics.median(eq11(self.side_median[side], rep) for rep in by_rep.values())
            self.side_predicted[side] = {}
            for model in self.predicted:
                rows = sorted(read_csv(os.path.join(results, "predicted", f"{self.name}.{model}.csv")),
                              key=lambda r: int(r["rank"]))
                self.side_predicted[side][model] = [float(r[PREDICTED_COLUMN[side]]) for r in rows]

    def error(self, model, side):
        return eq11(self.side_median[side], self.side_predicted[side][model])


def pooled(cases, model, side):
    actual, predicted = [], []
    for c in cases:
        if model not in c.predicted:
            return None
        actual += c.side_median[side]
        predicted += c.side_predicted[side][model]
    return eq11(actual, predicted)


def percent(e):
    return "n/a" if e is None else f"{100 * e:.1f}%"


def write_case_csv(case, models, path):
    present = [m for m in models if m in case.predicted]
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["rank", "node", "host", "side", "measured", "min", "max"] + present)
        for side in SIDES:
            for r in range(case.ranks):
                s = case.side_samples[side][r]
                w.writerow([r, case.nodes[r] if case.nodes else "", case.hosts[r], side] +
                           [f"{x:.6g}" for x in (case.side_median[side][r], min(s), max(s))] +
                           [f"{case.side_predicted[side][m][r]:.6g}" for m in present])
    os.replace(path + ".tmp", path)


def plot_case(case, models, path):
    present = [m for m in models if m in case.predicted]
    fig, axes = plt.subplots(len(SIDES), 1, figsize=(max(7, 0.5 * case.ranks), 3.2 * len(SIDES)), sharex=True)
    x = list(range(case.ranks))
    markers = "oD^sv<>p*hXP"
    for ax, side in zip(axes, SIDES):
        median, samples = case.side_median[side], case.side_samples[side]
        ax.bar(x, [1e3 * t for t in median], color="#9ecae1", label="measured (median; bars: min-max)",
               yerr=[[1e3 * (median[r] - min(samples[r])) for r in x], [1e3 * (max(samples[r]) - median[r]) for r in x]],
               capsize=2, ecolor="#555555")
        for i, m in enumerate(present):
            ax.plot(x, [1e3 * t for t in case.side_predicted[side][m]], markers[i % len(markers)], markersize=4,
                    label=f"{m} ({percent(case.error(m, side))})")
        ax.set_ylabel(f"{side} [ms]")
        ax.legend(fontsize=6, ncol=2)
    axes[-1].set_xticks(x)
    axes[-1].set_xticklabels([f"{r}\nn{case.nodes[r]}" if case.nodes else str(r) for r in x], fontsize=7)
    axes[-1].set_xlabel("rank / node")
    axes[0].set_title(f"{case.workload}, {case.mapping}, queue {case.queue}: last receive, last send, end",
                      fontsize=10)
    fig.tight_layout()
    fig.savefig(path + ".tmp.png", dpi=100)
    plt.close(fig)
    os.replace(path + ".tmp.png", path)


def plot_pooled(cases, models, side, path):
    present = [m for m in models if pooled(cases, m, side) is not None]
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(present)), 3.5))
    values = [100 * pooled(cases, m, side) for m in present]
    ax.bar(range(len(present)), values, color="#6baed6")
    for i, v in enumerate(values):
        ax.text(i, v, f"{v:.1f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(present)))
    ax.set_xticklabels(present, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("eq. (11) [%]")
    ax.set_title(f"Held-out cases pooled, {side} side ({len(cases)} cases)")
    fig.tight_layout()
    fig.savefig(path + ".tmp.png", dpi=100)
    plt.close(fig)
    os.replace(path + ".tmp.png", path)


def best(errors):
    """The model with the lowest error, of {model: error or None}."""
    known = {m: e for m, e in errors.items() if e is not None}
    return min(known, key=known.get) if known else "n/a"


def summary(results, cases, models, platform):
    with open(os.path.join(results, "seed.txt")) as f:
        seed = f.read().strip()
    sizes = read_csv(os.path.join(results, "sizes.csv"))
    loads = [c.load for c in cases]
    out = [f"Held-out cases drawn with seed {seed} (`run-heldout.sh ... --seed {seed}` repeats them); platform "
           f"`{platform}` (calibrated at the testbed's queue depth), with 2, 3 or 4 cores per node as the case's "
           f"ranks per node; per rank the median of {len(cases[0].repetitions)} repetitions. Load average (1 min) "
           f"when a case began: {min(loads):.2f}-{max(loads):.2f}.", "",
           "Message sizes (both steps of each workload):", "",
           "| workload | messages | smallest | largest | " + " | ".join(list(sizes[0])[4:]) + " |",
           "|---|---|---|---|" + "---|" * (len(sizes[0]) - 4)]
    for s in sizes:
        values = list(s.values())
        out.append(f"| {values[0]} | {values[1]} | {int(values[2]) / 1024:.1f} KiB | {int(values[3]) / 1048576:.2f} MiB | "
                   + " | ".join(values[4:]) + " |")
    for side in SIDES:
        out += ["", f"Eq. (11) per model, {side} side:", "",
                "| case | queue | measured makespan (min-max) | noise | drops, retransmits | " + " | ".join(models) +
                " | best |", "|---|---|---|---|---|" + "---|" * len(models) + "---|"]
        for c in cases:
            errors = {m: c.error(m, side) if m in c.predicted else None for m in models}
            out.append(f"| {c.workload} / {c.mapping} | {c.queue} | {1e3 * c.makespan:.1f} ms "
                       f"({1e3 * c.makespan_min:.1f}-{1e3 * c.makespan_max:.1f}) | {percent(c.side_noise[side])} | "
                       f"{c.drops:.0f}, {c.retransmits:.0f} | " + " | ".join(percent(errors[m]) for m in models) +
                       f" | {best(errors)} |")
    out += ["", "Pooled (eq. (11) over every rank of every case):", "", "| model | recv | send | total |",
            "|---|---|---|---|"]
    for m in models:
        out.append(f"| {m} | " + " | ".join(percent(pooled(cases, m, side)) for side in SIDES) + " |")
    out.append("")
    out.append("Best pooled: " + ", ".join(f"{side} {best({m: pooled(cases, m, side) for m in models})}"
                                           for side in SIDES) + ".")
    for queue in sorted({c.queue for c in cases}):
        subset = [c for c in cases if c.queue == queue]
        out.append(f"Queue {queue}: pooled total " +
                   ", ".join(f"{m} {percent(pooled(subset, m, 'total'))}" for m in models) + ".")
    worst = {m: max((c.error(m, "total") for c in cases if m in c.predicted), default=None) for m in models}
    out.append("Worst case per model (total): " + ", ".join(f"{m} {percent(worst[m])}" for m in models) + ".")
    out += failed_models(cases)
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    results, platform, models = sys.argv[1], sys.argv[2], sys.argv[3:]
    cases = [HeldoutCase(results, row, models) for row in read_csv(os.path.join(results, "cases.csv"))]
    if not cases:
        sys.exit("report_heldout.py: no case in cases.csv")
    for d in ("cases", "plots"):
        os.makedirs(os.path.join(results, d), exist_ok=True)
    with open(os.path.join(results, "errors.csv.tmp"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case", "workload", "mapping", "queue", "ranks_per_node", "model", "side", "error"])
        for c in cases:
            write_case_csv(c, models, os.path.join(results, "cases", c.name + ".csv"))
            plot_case(c, models, os.path.join(results, "plots", c.name + ".png"))
            for m in models:
                for side in SIDES:
                    e = c.error(m, side) if m in c.predicted else None
                    w.writerow([c.name, c.workload, c.mapping, c.queue, c.ranks_per_node, m, side,
                                "" if e is None else f"{e:.4f}"])
    os.replace(os.path.join(results, "errors.csv.tmp"), os.path.join(results, "errors.csv"))
    for side in SIDES:
        plot_pooled(cases, models, side, os.path.join(results, "plots", f"pooled-{side}.png"))
    text = summary(results, cases, models, platform)
    with open(os.path.join(results, "summary.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(results, "summary.md.tmp"), os.path.join(results, "summary.md"))
    print(text)


if __name__ == "__main__":
    main()
