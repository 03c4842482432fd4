#!/usr/bin/python3
"""Compares the testbed's measured per-rank times with every model's
predictions and writes the accuracy report.

Per case (workload x mapping):
  measured  per rank, the median over repetitions of its time from the common
            start to the end of its last step; spread = min, quartiles, max
  predicted contend's per-rank total_time_s
  error     Thune et al. eq. (11): sum_i |T_i^actual - T_i| / sum_i T_i^actual
  makespan  the median over repetitions of the slowest rank's time, against the
            predicted slowest rank: (predicted - measured) / measured
  noise     eq. (11) of a single repetition against the medians (median over
            repetitions): the error the measurement noise alone would give
  recv only eq. (11) against each rank's predicted receive completion alone, as
            if its sends completed at once: Open MPI's TCP transport completes
            a send when its data is in the kernel, about 1 MB before delivery
            on the testbed, while contend completes it at delivery; the truth
            lies between the two columns
  late      how long after the common start instant a rank began, mean
  losses    packets dropped by the shaped links' queues and TCP segments
            retransmitted, per repetition (run-suite.sh counts them)

Writes into RESULTS_DIR: errors.csv, per-case CSVs (cases/), plots (plots/),
summary.md. Fails when a rank ran on another node than the mapping says.

Usage: report.py RESULTS_DIR PLATFORM MODEL...
"""
import csv
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

IRREGULAR = "irregular"


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def read_measured(path):
    """pattern_run's raw CSV; results of runs before its columns carried their unit say `time`, `late`."""
    rows = read_csv(path)
    for r in rows:
        for old in ("time", "late"):
            if old in r and old + "_s" not in r:
                r[old + "_s"] = r.pop(old)
    return rows


def quantile(values, q):
    v = sorted(values)
    pos = q * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def eq11(actual, predicted):
    """Thune et al. eq. (11), total relative error over ranks."""
    return sum(abs(a - p) for a, p in zip(actual, predicted)) / sum(actual)


class Case:
    def __init__(self, results, row, models):
        self.name = row["case"]
        self.workload = row["workload"]
        self.mapping = row["mapping"]
        raw = read_measured(os.path.join(results, "measured", self.name + ".csv"))
        self.ranks = int(row["ranks"])
        runs = int(row["repetitions"]) + int(row["warmup"])
        self.drops = int(row["drops"]) / runs  # per repetition, all shaped links
        self.retransmits = int(row["retransmits"]) / runs
        by_rank = [[] for _ in range(self.ranks)]
        by_rep = {}
        self.hosts = [None] * self.ranks
        self.late = statistics.mean(float(r["late_s"]) for r in raw)
        for r in raw:
            rank, t = int(r["rank"]), float(r["time_s"])
            by_rank[rank].append(t)
            by_rep.setdefault(int(r["repetition"]), [0.0] * self.ranks)[rank] = t
            self.hosts[rank] = r["host"]
        self.samples = by_rank
        self.median = [statistics.median(v) for v in by_rank]
        self.repetitions = [by_rep[k] for k in sorted(by_rep)]
        self.makespan = statistics.median(max(rep) for rep in self.repetitions)
        self.makespan_min = min(max(rep) for rep in self.repetitions)
        self.makespan_max = max(max(rep) for rep in self.repetitions)
        self.noise = statistics.median(eq11(self.median, rep) for rep in self.repetitions)
        self.predicted, self.predicted_recv, self.failed, self.nodes = {}, {}, {}, None
        for model in models:
            path = os.path.join(results, "predicted", f"{self.name}.{model}.csv")
            if not os.path.exists(path):
                err = path + ".err"
                self.failed[model] = open(err).readline().strip() if os.path.exists(err) else "no prediction"
                continue
            rows = sorted(read_csv(path), key=lambda r: int(r["rank"]))
            self.predicted[model] = [float(r["total_time_s"]) for r in rows]
            self.predicted_recv[model] = [float(r["recv_time_s"]) for r in rows]
            self.nodes = [int(r["node"]) for r in rows]
        self.check_placement()

    def check_placement(self):
        if self.nodes is None:
            return
        for rank, (host, node) in enumerate(zip(self.hosts, self.nodes)):
            m = re.search(r"-n(\d+)$", host or "")
            if not m or int(m.group(1)) != node:
                sys.exit(f"report.py: {self.name}: rank {rank} ran on {host} but the '{self.mapping}' mapping "
                         f"puts it on node {node}: the real run and the prediction disagree on placement")

    def errors(self, model):
        p = self.predicted[model]
        return eq11(self.median, p), max(p), (max(p) - self.makespan) / self.makespan

    def recv_only_error(self, model):
        return eq11(self.median, self.predicted_recv[model])


def write_case_csv(case, models, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["rank", "node", "host", "measured", "min", "q1", "q3", "max"] + [m for m in models if m in case.predicted])
        for r in range(case.ranks):
            s = case.samples[r]
            w.writerow([r, case.nodes[r] if case.nodes else "", case.hosts[r]] +
                       [f"{x:.6g}" for x in (case.median[r], min(s), quantile(s, 0.25), quantile(s, 0.75), max(s))] +
                       [f"{case.predicted[m][r]:.6g}" for m in models if m in case.predicted])


def plot_case(case, models, path):
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * case.ranks), 4))
    x = list(range(case.ranks))
    low = [case.median[r] - min(case.samples[r]) for r in x]
    high = [max(case.samples[r]) - case.median[r] for r in x]
    ax.bar(x, [1e3 * t for t in case.median], color="#9ecae1", label="measured (median; bars: min-max)",
           yerr=[[1e3 * t for t in low], [1e3 * t for t in high]], capsize=2, ecolor="#555555")
    markers = "oD^sv<>p*"
    for i, m in enumerate(mm for mm in models if mm in case.predicted):
        err, _, _ = case.errors(m)
        ax.plot(x, [1e3 * t for t in case.predicted[m]], markers[i % len(markers)], label=f"{m} (eq. 11: {100 * err:.1f}%)")
    ax.set_xticks(x)
    ax.set_xticklabels([f"{r}\nn{case.nodes[r]}" if case.nodes else str(r) for r in x], fontsize=7)
    ax.set_xlabel("rank / node")
    ax.set_ylabel("time [ms]")
    ax.set_title(f"{case.workload}, mapping {case.mapping}: measured vs predicted per rank")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path + ".tmp.png", dpi=110)
    plt.close(fig)
    os.replace(path + ".tmp.png", path)


def pooled(cases, model, recv_only=False):
    """eq. (11) over every rank of several cases together."""
    actual, predicted = [], []
    for c in cases:
        if model not in c.predicted:
            return None
        actual += c.median
        predicted += c.predicted_recv[model] if recv_only else c.predicted[model]
    return eq11(actual, predicted) if actual else None


def summary(results, cases, models, platform):
    out = [f"Platform `{platform}`; per case the median of {len(cases[0].repetitions)} repetitions per rank; "
           "noise: eq. (11) of one repetition against the medians; late start: mean delay of a rank's start after the "
           "common instant (CPU busy); drops and retransmits per repetition; recv only: eq. (11) against the predicted "
           "receive completions alone (as if sends completed at once).", "",
           "| case | ranks | measured makespan (min-max) | noise | late start | drops, retransmits | " +
           " | ".join(f"{m} eq. (11) | {m} makespan | {m} recv only" for m in models) + " |",
           "|---|---|---|---|---|---|" + "---|---|---|" * len(models)]
    for c in cases:
        cells = []
        for m in models:
            if m in c.predicted:
                err, _, mk = c.errors(m)
                cells += [f"{100 * err:.1f}%", f"{100 * mk:+.1f}%", f"{100 * c.recv_only_error(m):.1f}%"]
            else:
                cells += ["n/a", "n/a", "n/a"]
        out.append(f"| {c.workload} / {c.mapping} | {c.ranks} | {1e3 * c.makespan:.1f} ms "
                   f"({1e3 * c.makespan_min:.1f}-{1e3 * c.makespan_max:.1f}) | {100 * c.noise:.1f}% | {1e3 * c.late:.1f} ms | "
                   f"{c.drops:.0f}, {c.retransmits:.0f} | " +
                   " | ".join(cells) + " |")
    irregular = [c for c in cases if c.workload.startswith(IRREGULAR)]
    if irregular:
        def pooled_list(recv_only):
            return ", ".join(f"{m} {100 * e:.1f}%" if (e := pooled(irregular, m, recv_only)) is not None else f"{m} n/a"
                             for m in models)
        out += ["", "Irregular patterns pooled (eq. (11) over every rank of every irregular case): " + pooled_list(False),
                "", "The same against the predicted receive completions alone (sends completing at once): " +
                pooled_list(True)]
    out += failed_models(cases)
    return "\n".join(out) + "\n"


def failed_models(cases):
    """A line per model that could not predict a case, with its reason (both reports' summaries)."""
    failed = sorted({(m, c.failed[m]) for c in cases for m in c.failed})
    return [f"\nModel `{m}` made no prediction: {why}" for m, why in failed]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    results, platform, models = sys.argv[1], sys.argv[2], sys.argv[3:]
    cases = [Case(results, row, models) for row in read_csv(os.path.join(results, "cases.csv"))]
    os.makedirs(os.path.join(results, "cases"), exist_ok=True)
    os.makedirs(os.path.join(results, "plots"), exist_ok=True)
    with open(os.path.join(results, "errors.csv.tmp"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "workload", "mapping", "model", "total_relative_error", "makespan_measured",
                    "makespan_predicted", "makespan_error", "noise", "recv_only_error"])
        for c in cases:
            write_case_csv(c, models, os.path.join(results, "cases", c.name + ".csv"))
            plot_case(c, models, os.path.join(results, "plots", c.name + ".png"))
            for m in models:
                if m in c.predicted:
                    err, mk_pred, mk_err = c.errors(m)
                    w.writerow([c.name, c.workload, c.mapping, m, f"{err:.4f}", f"{c.makespan:.6g}", f"{mk_pred:.6g}",
                                f"{mk_err:.4f}", f"{c.noise:.4f}", f"{c.recv_only_error(m):.4f}"])
                else:
                    w.writerow([c.name, c.workload, c.mapping, m, "", f"{c.makespan:.6g}", "", "", f"{c.noise:.4f}", ""])
    os.replace(os.path.join(results, "errors.csv.tmp"), os.path.join(results, "errors.csv"))
    text = summary(results, cases, models, platform)
    with open(os.path.join(results, "summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
