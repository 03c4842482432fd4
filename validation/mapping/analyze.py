#!/usr/bin/python3
"""Measured against predicted makespans of each mapping (validation/mapping/run.sh).

Per workload: the predicted makespan (contend mapping compare, maxmin) and
the measured one (per repetition, the slowest rank's time from the common
start; median and quartiles over repetitions) of every mapping. Checks
(issue 13, item 5): the searched mapping is measured no slower than the best
of the others (medians), and the predicted ranking of the mappings equals
the measured one (mappings predicted within 2% of each other count as one
rank: the measurement cannot order them).

Fails when a rank ran on another host than its mapping says. Writes
RESULTS_DIR/summary.md and RESULTS_DIR/makespans.png; exits 1 when a
check fails.

Usage: analyze.py RESULTS_DIR
"""
import csv
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def mapping_name(text):
    base = os.path.basename(text)
    return base.split(".")[-2] if base.endswith(".map") else text


def predicted(path):
    with open(path) as f:
        return {mapping_name(row["mapping"]): float(row["makespan_s"]) for row in csv.DictReader(f)}


def rankfile_hosts(path):
    hosts = {}
    with open(path) as f:
        for line in f:
            rank, rest = line.split("=", 1)
            hosts[int(rank.split()[1])] = rest.split()[0]
    return hosts


def measured(path, hosts):
    """Slowest rank's time per repetition, sorted; fails when a rank ran elsewhere than its mapping says."""
    per_rep = {}
    with open(path) as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            if row["host"] != hosts[int(row["rank"])]:
                sys.exit(f"{path}: rank {row['rank']} ran on {row['host']}, its mapping says {hosts[int(row['rank'])]}")
            rep = int(row["repetition"])
            # `time`: pattern_run's column before it carried its unit.
            per_rep[rep] = max(per_rep.get(rep, 0.0), float(row["time_s"] if "time_s" in row else row["time"]))
    return sorted(per_rep.values())


def ranking(values, tie=0.02):
    """Rank of each name, names within `tie` (relative) of the previous sharing its rank."""
    order = sorted(values, key=values.get)
    ranks, rank, previous = {}, 0, None
    for name in order:
        if previous is None or values[name] > values[previous] * (1 + tie):
            rank += 1
        ranks[name] = rank
        previous = name
    return ranks


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = sys.argv[1]
    workloads = sorted(f[: -len(".predicted.csv")] for f in os.listdir(results) if f.endswith(".predicted.csv"))
    lines = ["# Mappings on the emulated cluster: predicted and measured", ""]
    load = os.path.join(results, "load.txt")
    if os.path.exists(load):
        lines += [open(load).read().strip().replace("\n", "; "), ""]
    ok = True
    fig, axes = plt.subplots(1, len(workloads), figsize=(6 * len(workloads), 4), squeeze=False)
    for ax, w in zip(axes[0], workloads):
        pred = predicted(os.path.join(results, f"{w}.predicted.csv"))
        meas = {m: measured(os.path.join(results, "measured", f"{w}.{m}.csv"),
                            rankfile_hosts(os.path.join(results, "mappings", f"{w}.{m}.rankfile")))
                for m in pred}
        median = {m: statistics.median(v) for m, v in meas.items()}
        lines += [f"## {w}", "", "| mapping | predicted | measured median | quartiles | repetitions |",
                  "| --- | --- | --- | --- | --- |"]
        for m in sorted(pred, key=pred.get):
            q = statistics.quantiles(meas[m], n=4) if len(meas[m]) > 1 else [meas[m][0]] * 3
            lines.append(f"| {m} | {pred[m] * 1e3:.3f} ms | {median[m] * 1e3:.3f} ms | "
                         f"{q[0] * 1e3:.3f}-{q[2] * 1e3:.3f} ms | {len(meas[m])} |")
        others = [median[m] for m in median if m != "searched"]
        fastest = median["searched"] <= min(others)
        # Predicted tie groups (within 2%) are ranked by their measured median.
        pred_rank = ranking(pred)
        groups = {}
        for m, r in pred_rank.items():
            groups.setdefault(r, []).append(median[m])
        group_median = {r: statistics.median(v) for r, v in groups.items()}
        same_order = [r for r in sorted(group_median, key=group_median.get)] == sorted(group_median)
        lines += ["", f"- searched mapping measured no slower than the best of the others: {'yes' if fastest else 'NO'}",
                  f"- predicted ranking equals the measured one: {'yes' if same_order else 'NO'}", ""]
        ok = ok and fastest and same_order
        names = sorted(pred, key=pred.get)
        ax.boxplot([[t * 1e3 for t in meas[m]] for m in names], labels=names)
        ax.plot(range(1, len(names) + 1), [pred[m] * 1e3 for m in names], "rx", label="predicted (maxmin)")
        ax.set_title(w)
        ax.set_ylabel("makespan (ms)")
        ax.tick_params(axis="x", rotation=30)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(results, "makespans.png"), dpi=100)
    with open(os.path.join(results, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
