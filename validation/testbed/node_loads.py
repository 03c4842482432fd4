#!/usr/bin/python3
"""Per node of each held-out case (run-heldout.sh's RESULTS_DIR): the bytes
its link carries in and out between nodes over all exchange steps, and when
its last receive ended, measured and predicted, over its ingress bound (the
bytes into the node / RATE: the earliest its link could have delivered them).
docs/accuracy.md ("Why halo-2pn misses") reads the held-out misses from it:
a node that receives little ends near its bound while a flow-level model ends
it late, and a heavily loaded one loses rate at a shallow queue.

Usage: node_loads.py RESULTS_DIR MODEL --rate BYTES_PER_S [--groups]
  default   one CSV row per case and node (stdout)
  --groups  the medians per group of nodes: light (bytes in < 0.85 x the
            mean of its case), heavy (> 1.15 x), balanced; per queue depth
"""
import argparse
import os
import statistics
import sys

from report import read_csv
from report_heldout import HeldoutCase

LIGHT, HEAVY = 0.85, 1.15


def read_exchanges(path):
    """The (source, destination, bytes) messages of a pattern file's exchange steps."""
    messages = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#") or words[0] in ("ranks", "---"):
                continue
            try:
                source, destination, size = (int(w) for w in words)
            except ValueError:
                sys.exit(f"node_loads.py: {path}:{number}:1: expected 'SOURCE DESTINATION BYTES', got '{line.strip()}'")
            messages.append((source, destination, size))
    return messages


def node_rows(results, case, model, rate):
    if model not in case.predicted:
        sys.exit(f"node_loads.py: {case.name}: no prediction by {model} in {results}/predicted")
    nodes = case.nodes
    into, out_of = {n: 0 for n in nodes}, {n: 0 for n in nodes}
    for source, destination, size in read_exchanges(os.path.join(results, "workloads", case.workload + ".pattern")):
        if max(source, destination) >= len(nodes):
            sys.exit(f"node_loads.py: {case.workload}.pattern names rank {max(source, destination)}, "
                     f"the case has {len(nodes)}")
        if nodes[source] != nodes[destination]:
            out_of[nodes[source]] += size
            into[nodes[destination]] += size
    measured, predicted = case.side_median["recv"], case.side_predicted["recv"][model]
    rows = []
    for n in sorted(into):
        ranks = [r for r, node in enumerate(nodes) if node == n]
        bound = into[n] / rate
        end_measured, end_predicted = max(measured[r] for r in ranks), max(predicted[r] for r in ranks)
        rows.append({"case": case.name, "queue": case.queue, "node": n, "bytes_in": into[n], "bytes_out": out_of[n],
                     "bound_s": bound, "measured_s": end_measured, "predicted_s": end_predicted,
                     "measured_over_bound": end_measured / bound if bound else float("nan"),
                     "predicted_over_bound": end_predicted / bound if bound else float("nan")})
    mean_in = statistics.mean(r["bytes_in"] for r in rows)
    for r in rows:
        share = r["bytes_in"] / mean_in if mean_in else 1.0
        r["group"] = "light" if share < LIGHT else "heavy" if share > HEAVY else "balanced"
    return rows


def print_groups(rows):
    print("| group | queue | nodes | measured / bound | predicted / bound | predicted vs measured |")
    print("| --- | --- | --- | --- | --- | --- |")
    for group in ("light", "heavy", "balanced"):
        for queue in sorted({r["queue"] for r in rows}):
            g = [r for r in rows if r["group"] == group and r["queue"] == queue and r["bytes_in"]]
            if not g:
                continue
            bias = statistics.median((r["predicted_s"] - r["measured_s"]) / r["measured_s"] for r in g)
            print(f"| {group} | {queue} | {len(g)} | {statistics.median(r['measured_over_bound'] for r in g):.2f} | "
                  f"{statistics.median(r['predicted_over_bound'] for r in g):.2f} | {100 * bias:+.0f}% |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("model")
    parser.add_argument("--rate", type=float, required=True, help="a node link's rate, bytes/s")
    parser.add_argument("--groups", action="store_true")
    a = parser.parse_args()
    if a.rate <= 0:
        sys.exit(f"node_loads.py: --rate must be positive, got {a.rate}")
    cases = [HeldoutCase(a.results, row, [a.model]) for row in read_csv(os.path.join(a.results, "cases.csv"))]
    rows = [r for c in cases for r in node_rows(a.results, c, a.model, a.rate)]
    if a.groups:
        print_groups(rows)
        return
    columns = ["case", "node", "group", "bytes_in", "bytes_out", "bound_s", "measured_s", "predicted_s",
               "measured_over_bound", "predicted_over_bound"]
    print(",".join(columns))
    for r in rows:
        print(",".join(f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in columns))


if __name__ == "__main__":
    main()
