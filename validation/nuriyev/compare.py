#!/usr/bin/env python3
"""Nuriyev et al. (JPDC 2022) Table 3 against contend's analytical models.

Usage: compare.py TABLE3_CSV RESULTS_DIR [--min-model N] [--min-ompi N]

RESULTS_DIR holds one `contend select bcast -o` file per case,
<cluster>-<procs>.csv (and, from simulate.sh, sim-<model>-<cluster>-<procs>.csv).
Writes RESULTS_DIR/table3-comparison.csv (one row per case and size),
RESULTS_DIR/dynamic-vs-analytical.csv when simulations exist, and prints the
agreement counts. Exits 1 when the model-based agreement is below --min-model
or the Open MPI agreement below --min-ompi (the figures models/taulop/README.md reports).
"""
import csv
import glob
import os
import sys


# Files `contend select` wrote before its time columns carried their unit.
OLD_NAMES = {"model_seconds": "model_time_s", "simulated_seconds": "simulated_time_s"}


def read_select(path):
    """bytes -> {algorithm: row}"""
    by_size = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            for old, new in OLD_NAMES.items():
                if old in row:
                    row[new] = row.pop(old)
            by_size.setdefault(int(row["bytes"]), {})[row["algorithm"]] = row
    return by_size


def argmin(times):
    return min(times, key=times.get)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    table3, results = argv[1], argv[2]
    limits = {"--min-model": 0, "--min-ompi": 0}
    rest = argv[3:]
    while rest:
        if rest[0] not in limits or len(rest) < 2:
            sys.exit(f"compare.py: unexpected argument {rest[0]}")
        limits[rest[0]] = int(rest[1])
        rest = rest[2:]

    with open(table3, newline="") as f:
        paper = list(csv.DictReader(line for line in f if not line.startswith("#")))
    cases = {}
    rows = []
    totals = {"model": 0, "model_vs_best": 0, "ompi": 0, "n": 0, "near": 0}
    for p in paper:
        key = (p["cluster"], int(p["procs"]))
        if key not in cases:
            path = os.path.join(results, f"{key[0]}-{key[1]}.csv")
            if not os.path.exists(path):
                sys.exit(f"compare.py: missing {path} (run run.sh first)")
            cases[key] = read_select(path)
        by_alg = cases[key][int(p["kib"]) * 1024]
        times = {a: float(r["model_time_s"]) for a, r in by_alg.items()}
        any_row = next(iter(by_alg.values()))
        choice = argmin(times)
        ompi = any_row["ompi_choice"]
        paper_choice_penalty = times[p["model_based"]] / times[choice] - 1
        row = {
            "cluster": key[0], "procs": key[1], "kib": p["kib"],
            "paper_best": p["best"], "paper_model": p["model_based"], "contend_model": choice,
            "model_agrees": int(choice == p["model_based"]), "model_is_paper_best": int(choice == p["best"]),
            "contend_penalty_of_paper_model_pct": f"{100 * paper_choice_penalty:.1f}",
            "paper_ompi": p["ompi"], "contend_ompi": ompi, "ompi_segment_bytes": any_row["ompi_segment_bytes"],
            "ompi_agrees": int(ompi == p["ompi"]),
            "contend_ompi_penalty_pct": f"{100 * float(any_row['ompi_penalty']):.1f}" if any_row["ompi_penalty"] else "",
            "paper_ompi_penalty_pct": p["ompi_penalty_pct"],
        }
        rows.append(row)
        totals["model"] += row["model_agrees"]
        totals["model_vs_best"] += row["model_is_paper_best"]
        totals["ompi"] += row["ompi_agrees"]
        totals["near"] += int(paper_choice_penalty <= 0.10)
        totals["n"] += 1
    out = os.path.join(results, "table3-comparison.csv")
    with open(out + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    os.replace(out + ".tmp", out)

    n = totals["n"]
    print(f"model-based choice = paper's Model-based column: {totals['model']}/{n}")
    print(f"model-based choice = paper's Best column:        {totals['model_vs_best']}/{n}")
    print(f"paper's Model-based choice within 10% of the best here: {totals['near']}/{n}")
    print(f"Open MPI 3.1 fixed decision = paper's Open MPI:   {totals['ompi']}/{n}")
    by_case = {}
    for r in rows:
        k = f"{r['cluster']} P={r['procs']}"
        by_case.setdefault(k, [0, 0, 0])
        by_case[k][0] += r["model_agrees"]
        by_case[k][1] += r["ompi_agrees"]
        by_case[k][2] += 1
    for k, (m, o, c) in by_case.items():
        print(f"  {k:<20} model {m}/{c}  ompi {o}/{c}")

    dynamic_vs_analytical(results, paper)

    failed = False
    if totals["model"] < limits["--min-model"]:
        print(f"FAIL: model-based agreement {totals['model']} < {limits['--min-model']}")
        failed = True
    if totals["ompi"] < limits["--min-ompi"]:
        print(f"FAIL: Open MPI agreement {totals['ompi']} < {limits['--min-ompi']}")
        failed = True
    return 1 if failed else 0


def dynamic_vs_analytical(results, paper):
    """Per simulated case and size: the analytical and the simulated choice,
    and the paper's measured best where Table 3 has the case."""
    best = {(p["cluster"], p["procs"], int(p["kib"])): p["best"] for p in paper}
    paper_model = {(p["cluster"], p["procs"], int(p["kib"])): p["model_based"] for p in paper}
    rows = []
    for path in sorted(glob.glob(os.path.join(results, "sim-*.csv"))):
        name = os.path.basename(path)[len("sim-"):-len(".csv")]
        model, cluster, procs = name.rsplit("-", 2)
        for size, by_alg in sorted(read_select(path).items()):
            analytical = {a: float(r["model_time_s"]) for a, r in by_alg.items()}
            simulated = {a: float(r["simulated_time_s"]) for a, r in by_alg.items()}
            a_choice, s_choice = argmin(analytical), argmin(simulated)
            rank_a = sorted(analytical, key=analytical.get)
            rank_s = sorted(simulated, key=simulated.get)
            paper_best = best.get((cluster, procs, size // 1024), "")
            paper_choice = paper_model.get((cluster, procs, size // 1024), "")
            rows.append({
                "model": model, "cluster": cluster, "procs": procs, "kib": size // 1024,
                "analytical_choice": a_choice, "simulated_choice": s_choice, "same_choice": int(a_choice == s_choice),
                "paper_best": paper_best, "simulated_is_paper_best": int(s_choice == paper_best) if paper_best else "",
                "paper_model": paper_choice,
                "simulated_is_paper_model": int(s_choice == paper_choice) if paper_choice else "",
                "analytical_order": " ".join(rank_a), "simulated_order": " ".join(rank_s),
                "simulated_penalty_of_analytical_choice_pct": f"{100 * (simulated[a_choice] / simulated[s_choice] - 1):.1f}",
                **{f"sim_{a}_ms": f"{1e3 * simulated[a]:.4g}" for a in rank_a},
                **{f"model_{a}_ms": f"{1e3 * analytical[a]:.4g}" for a in rank_a},
            })
    if not rows:
        return
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    out = os.path.join(results, "dynamic-vs-analytical.csv")
    with open(out + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    os.replace(out + ".tmp", out)
    for model in sorted({r["model"] for r in rows}):
        mine = [r for r in rows if r["model"] == model]
        same = sum(r["same_choice"] for r in mine)
        known = [r for r in mine if r["paper_best"]]
        hits = sum(r["simulated_is_paper_best"] for r in known)
        as_paper_model = sum(r["simulated_is_paper_model"] for r in known)
        print(f"dynamic simulation ({model}) picks the analytical model's algorithm: {same}/{len(mine)}, "
              f"the paper's measured best: {hits}/{len(known)}, the paper's model-based choice: "
              f"{as_paper_model}/{len(known)} (dynamic-vs-analytical.csv)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
