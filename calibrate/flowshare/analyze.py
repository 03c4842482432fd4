#!/usr/bin/python3
"""Analyses flowshare_bench's raw CSVs: how concurrent TCP flows share a link.

usage: analyze.py OUT_DIR RAW_CSV...   (raw-q<Q>.csv: Q = the switch queue depth)

Every experiment of experiments.py has one bottleneck: node 0's downlink
(fan-in, small*-busy-in) or uplink (fan-out, small*-busy-out), at the rate C
of one flow alone (median of fanin-k1). Per experiment it writes, into OUT_DIR:
  flows.csv    per flow: median start, end, rate, slowdown (time / alone time)
               and the spread (min, max) over the repetitions
  weights.csv  per repetition: the constant per-flow weights that reproduce
               the measured ends under weighted sharing of C (fitted), in
               start order, normalised to the first flow's
  intervals.csv  per interval where the set of active flows is constant:
               each flow's share under those weights, and the fair 1/n
  laws.csv     each law's parameters (fitted on the fit set) and its error
               on the fit set and on the held-out experiments
  small.csv    a small message's time alone and behind an 8 MiB flow
  flows-q<Q>.png  every experiment's flows (start -> end, every repetition)
  shares.png, small.png  the summary plots
Error (Thune eq. (11) per experiment and repetition): sum_i |T_i - T'_i| /
sum_i T_i over its flows, T_i the measured end from the common start.
"""
import csv
import math
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TIE_S = 0.002  # starts closer than this are "simultaneous": ordered by flow index


def read_raw(path):
    queue = int(re.search(r"q(\d+)", os.path.basename(path)).group(1))
    rows = [r for r in csv.DictReader(line for line in open(path) if not line.startswith("#"))]
    runs = {}
    for r in rows:
        key = (queue, r["experiment"], int(r["repetition"]))
        runs.setdefault(key, []).append(
            dict(flow=int(r["flow"]), src=r["src_host"], dst=r["dst_host"], bytes=int(r["bytes"]),
                 planned=float(r["start_ms"]) / 1000, start=float(r["start_s"]), end=float(r["end_s"])))
    return queue, runs


def simulate(flows, capacity, weights, join_delay=0.0):
    """Ends of `flows` (planned start, bytes) sharing one link of `capacity`
    in proportion to `weights`; a flow that starts while another is moving
    data waits `join_delay` first (its handshake behind the link's queue)."""
    n = len(flows)
    begin = [f[0] for f in flows]
    order = sorted(range(n), key=lambda i: (begin[i], i))
    for i in order:  # the link is busy when a flow already started moves data at i's start
        if any(begin[j] <= flows[i][0] and j != i and (begin[j], j) < (begin[i], i) for j in order):
            begin[i] = flows[i][0] + join_delay
    left = [float(f[1]) for f in flows]
    end = [math.inf] * n
    t = 0.0
    active = set()
    pending = sorted(range(n), key=lambda i: (begin[i], i))
    while pending or active:
        if not active:
            t = max(t, begin[pending[0]])
        while pending and begin[pending[0]] <= t + 1e-15:
            active.add(pending.pop(0))
        total = sum(weights[i] for i in active)
        rate = {i: capacity * weights[i] / total for i in active}
        finish = min(left[i] / rate[i] for i in active)
        step = finish if not pending else min(finish, begin[pending[0]] - t)
        for i in list(active):
            left[i] -= rate[i] * step
            if left[i] <= 1e-6 * flows[i][1] or (step == finish and left[i] / rate[i] <= 1e-12):
                end[i] = t + step
                active.discard(i)
        t += step
    return end


def start_rank(flows):
    """Each flow's place in start order (0 = first), ties by flow index."""
    order = sorted(range(len(flows)), key=lambda i: (round(flows[i][0] / TIE_S), i))
    rank = [0] * len(flows)
    for place, i in enumerate(order):
        rank[i] = place
    return rank


def eq11(measured, predicted):
    return sum(abs(m - p) for m, p in zip(measured, predicted)) / sum(measured)


def implied_weights(run, capacity):
    """Constant weights that reproduce the measured ends (multiplicative fixed point)."""
    flows = [(f["start"], f["bytes"]) for f in run]
    w = [1.0] * len(run)
    for _ in range(300):
        ends = simulate(flows, capacity, w)
        w = [wi * max(1e-3, (e - f["start"])) / max(1e-3, (f["end"] - f["start"])) for wi, e, f in zip(w, ends, run)]
        s = w[0]
        w = [min(1e6, max(1e-6, x / s)) for x in w]
    return w


# The laws: each maps (experiment name, run, capacity, params) to predicted
# ends. A run's flows all cross one bottleneck: node 0's downlink (at the
# switch: fan-in, small*-in) or uplink (node 0's own queue: fan-out, *-out).
def downlink(name):
    return name.startswith("fanin") or name.endswith("-in")


def planned(run):
    return [(f["planned"], f["bytes"]) for f in run]


def law_fair(name, run, capacity, _):
    return simulate(planned(run), capacity, [1.0] * len(run))


def law_age(name, run, capacity, p):
    """Flow m-th in start order (ties: as posted) weighs g^m, on every link."""
    flows = planned(run)
    return simulate(flows, capacity, [p["g"] ** r for r in start_rank(flows)])


def law_age_downlink(name, run, capacity, p):
    """The same on the switch's downlinks only; the sender's uplink stays fair."""
    flows = planned(run)
    g = p["g"] if downlink(name) else 1.0
    return simulate(flows, capacity, [g ** r for r in start_rank(flows)])


def law_age_oracle(name, run, capacity, p):
    """Upper bound of any start-order law: the order as measured (not knowable
    before the run: sub-millisecond differences decide it)."""
    flows = planned(run)
    measured = [(f["start"], f["bytes"]) for f in run]
    g = p["g"] if downlink(name) else 1.0
    order = sorted(range(len(run)), key=lambda i: measured[i][0])
    rank = {i: place for place, i in enumerate(order)}
    return simulate(flows, capacity, [g ** rank[i] for i in range(len(run))])


def law_join(name, run, capacity, p):
    """Fair, but a flow joining a busy link waits join_s first (its handshake
    behind the link's queue)."""
    return simulate(planned(run), capacity, [1.0] * len(run), p["join_s"])


def is_fit_case(name, queue):
    # Fit on the simultaneous and 10 ms-staggered fan-ins of 2 and 3 flows;
    # everything else (4 flows, 50 ms, unequal sizes, several senders per
    # node, fan-out, small messages) is held out. Join delays are per queue.
    return re.fullmatch(r"fanin-k[23]-eq-s(0|10)", name) is not None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    runs = {}
    queues = []
    for path in sys.argv[2:]:
        q, r = read_raw(path)
        queues.append(q)
        runs.update(r)
    capacity = {}
    for q in queues:
        rates = [run[0]["bytes"] / (run[0]["end"] - run[0]["start"]) for (qq, name, _), run in runs.items()
                 if qq == q and name == "fanin-k1-eq-s0"]
        if not rates:
            sys.exit(f"analyze.py: queue {q}: no fanin-k1-eq-s0 runs (one flow alone: the link's rate)")
        capacity[q] = statistics.median(rates)
        print(f"queue {q}: one flow alone {capacity[q] / 1e6:.3f} MB/s (n={len(rates)}, "
              f"{min(rates) / 1e6:.3f}-{max(rates) / 1e6:.3f})")
    experiments = sorted({(q, name) for q, name, _ in runs}, key=lambda k: (k[0], list(runs).index((k[0], k[1], 0))))

    # flows.csv
    with open(os.path.join(out, "flows.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["queue", "experiment", "flow", "src", "dst", "bytes", "planned_start_s", "start_s", "end_s",
                    "end_min_s", "end_max_s", "rate_MBps", "slowdown", "repetitions"])
        for q, name in experiments:
            reps = [runs[k] for k in runs if k[0] == q and k[1] == name]
            for f in range(len(reps[0])):
                ends = [r[f]["end"] for r in reps]
                starts = [r[f]["start"] for r in reps]
                durations = [r[f]["end"] - r[f]["start"] for r in reps]
                b = reps[0][f]["bytes"]
                w.writerow([q, name, f, reps[0][f]["src"], reps[0][f]["dst"], b, reps[0][f]["planned"],
                            f"{statistics.median(starts):.6f}", f"{statistics.median(ends):.6f}", f"{min(ends):.6f}",
                            f"{max(ends):.6f}", f"{b / statistics.median(durations) / 1e6:.3f}",
                            f"{statistics.median(durations) / (b / capacity[q]):.3f}", len(reps)])

    # weights.csv: implied weights in start order (measured start order).
    with open(os.path.join(out, "weights.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["queue", "experiment", "repetition", "weights_in_start_order", "first_started_ends_first"])
        for (q, name, rep), run in sorted(runs.items()):
            if len(run) < 2 or name.startswith("small"):
                continue
            weights = implied_weights(run, capacity[q])
            order = sorted(range(len(run)), key=lambda i: run[i]["start"])
            ordered = [weights[i] / weights[order[0]] for i in order]
            first_end = min(range(len(run)), key=lambda i: run[i]["end"])
            w.writerow([q, name, rep, " ".join(f"{x:.3f}" for x in ordered), int(first_end == order[0])])

    # intervals.csv: the shares the implied weights give over each interval
    # where the set of active flows is constant (from the measured starts and
    # ends), against the fair share 1/n.
    with open(os.path.join(out, "intervals.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["queue", "experiment", "repetition", "from_s", "to_s", "active_flows", "shares", "fair_share",
                    "largest_share_over_fair"])
        for (q, name, rep), run in sorted(runs.items()):
            if len(run) < 2 or name.startswith("small"):
                continue
            weights = implied_weights(run, capacity[q])
            instants = sorted({f["start"] for f in run} | {f["end"] for f in run})
            for a, b in zip(instants, instants[1:]):
                active = [i for i, f in enumerate(run) if f["start"] <= a and f["end"] >= b]
                if len(active) < 2:
                    continue
                total = sum(weights[i] for i in active)
                shares = [weights[i] / total for i in active]
                w.writerow([q, name, rep, f"{a:.6f}", f"{b:.6f}", " ".join(str(i) for i in active),
                            " ".join(f"{x:.3f}" for x in shares), f"{1 / len(active):.3f}",
                            f"{max(shares) * len(active):.3f}"])

    # laws.csv: grid search of each law's parameters on the fit set.
    ages = [{"g": g / 100} for g in range(30, 101, 2)]
    laws = {
        "fair": (law_fair, [{}]),
        "age": (law_age, ages),
        "age-downlink": (law_age_downlink, ages),
        "age-oracle-order": (law_age_oracle, ages),
        "join": (law_join, [{"join_s": d / 1000} for d in range(0, 201, 2)]),
    }

    def errors(law, params, q, select):
        errs = {}
        for (qq, name, rep), run in runs.items():
            if qq != q or not select(name) or name.startswith("small"):
                continue
            errs.setdefault(name, []).append(eq11([f["end"] for f in run], law(name, run, capacity[q], params)))
        return errs

    with open(os.path.join(out, "laws.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["queue", "law", "parameters", "fit_error", "held_out_error", "held_out_fanin", "held_out_fanout",
                    "held_out_worst", "worst_case"])
        for q in queues:
            for law_name, (law, grid) in laws.items():
                best = min(grid, key=lambda p: statistics.mean(
                    statistics.median(v) for v in errors(law, p, q, lambda n: is_fit_case(n, q)).values()))
                fit = errors(law, best, q, lambda n: is_fit_case(n, q))
                held = errors(law, best, q, lambda n: not is_fit_case(n, q))
                med = {n: statistics.median(v) for n, v in held.items()}
                worst = max(med, key=med.get)
                fanin = [v for n, v in med.items() if n.startswith("fanin")]
                fanout = [v for n, v in med.items() if n.startswith("fanout")]
                w.writerow([q, law_name, " ".join(f"{k}={v}" for k, v in best.items()),
                            f"{statistics.mean(statistics.median(v) for v in fit.values()):.4f}",
                            f"{statistics.mean(med.values()):.4f}", f"{statistics.mean(fanin):.4f}",
                            f"{statistics.mean(fanout):.4f}", f"{med[worst]:.4f}", worst])
                for n in sorted(med):
                    w.writerow([q, law_name + " (held out)", n, "", f"{med[n]:.4f}", "", "", "", ""])

    # small.csv
    with open(os.path.join(out, "small.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        cases = ("alone", "busy-in", "busy-in2", "busy-out")
        w.writerow(["queue", "bytes"] + [f"{c}_{x}_s" for c in cases for x in ("median", "min", "max")] +
                   ["full_queue_drain_s"])
        for q in queues:
            for kib in (4, 16, 64):
                row = [q, kib * 1024]
                for case in cases:
                    # The small message is the last flow of its experiment.
                    t = [r[-1]["end"] - r[-1]["start"] for (qq, n, _), r in runs.items()
                         if qq == q and n == f"small{kib}k-{case}"]
                    row += [f"{statistics.median(t):.6f}", f"{min(t):.6f}", f"{max(t):.6f}"] if t else ["", "", ""]
                if any(row[2:]):
                    w.writerow(row + [f"{q * 1514 * 1448 / 1514 / capacity[q]:.6f}"])

    plot_flows(out, runs, queues, experiments)
    plot_shares(out, runs, queues)
    if any(name.startswith("small") for _, name, _ in runs):
        plot_small(out, runs, queues)


def plot_shares(out, runs, queues):
    """Slowdown of the 1st, 2nd, ... flow to end, k equal simultaneous flows."""
    fig, axes = plt.subplots(1, 2 * len(queues), figsize=(4 * 2 * len(queues), 3.4), squeeze=False)
    panels = [(q, family) for q in queues for family in ("fanin", "fanout")]
    for ax, (q, family) in zip(axes.flat, panels):
        cap = statistics.median(r[0]["bytes"] / (r[0]["end"] - r[0]["start"]) for (qq, n, _), r in runs.items()
                                if qq == q and n == "fanin-k1-eq-s0")
        for k in range(2, 5):
            name = f"{family}-k{k}-eq-s0"
            for (qq, n, _), run in runs.items():
                if qq != q or n != name:
                    continue
                slow = sorted((f["end"] - f["start"]) / (f["bytes"] / cap) for f in run)
                ax.plot([k + 0.08 * (i - (k - 1) / 2) for i in range(k)], slow, ".", color=f"C{k}", alpha=0.6)
            ax.plot([k - 0.2, k + 0.2], [k, k], "k-", lw=2)
        ax.set_xticks([2, 3, 4])
        ax.set_xlabel("flows k (dots: 1st..k-th to end, every repetition; bar: fair = k)", fontsize=7)
        ax.set_ylabel("time / time alone")
        ax.set_title(f"{family}, equal 2 MiB, simultaneous, queue {q}", fontsize=9)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "shares.png"), dpi=90)
    plt.close(fig)


def plot_small(out, runs, queues):
    """A small message's time alone and 300 ms into an 8 MiB flow on its link."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for qi, q in enumerate(queues):
        for di, (suffix, marker) in enumerate((("alone", "o"), ("busy-in", "s"), ("busy-in2", "D"),
                                               ("busy-out", "^"))):
            xs, ys = [], []
            for kib in (4, 16, 64):
                for (qq, n, _), r in runs.items():
                    if qq == q and n == f"small{kib}k-{suffix}":
                        xs.append(kib * (1 + 0.04 * (qi * 4 + di)))
                        ys.append(1000 * (r[-1]["end"] - r[-1]["start"]))
            ax.plot(xs, ys, marker, color=f"C{qi}", alpha=0.6, label=f"queue {q}: {suffix}")
        ax.axhline(1000 * q * 1514 * 8 / 100e6, color=f"C{qi}", ls="--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([4, 16, 64])
    ax.set_xticklabels(["4 KiB", "16 KiB", "64 KiB"])
    ax.set_ylabel("message time (ms)")
    ax.set_title("small message behind 8 MiB flows (dashed: a full queue's drain)", fontsize=9)
    ax.legend(fontsize=6)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "small.png"), dpi=90)
    plt.close(fig)


def plot_flows(out, runs, queues, experiments):
    for q in queues:
        names = [n for qq, n in experiments if qq == q]
        cols = 6
        rows = (len(names) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.2 * rows), squeeze=False)
        for ax, name in zip(axes.flat, names):
            reps = sorted((k[2], r) for k, r in runs.items() if k[0] == q and k[1] == name)
            for rep, run in reps:
                for f in run:
                    y = f["flow"] + rep / (len(reps) + 1) * 0.8
                    ax.plot([f["start"], f["end"]], [y, y], color=f"C{f['flow']}", lw=1)
            ax.set_title(name, fontsize=8)
            ax.tick_params(labelsize=6)
            ax.set_xlabel("s", fontsize=6)
        for ax in list(axes.flat)[len(names):]:
            ax.axis("off")
        fig.suptitle(f"flows (start -> end, one line per repetition), switch queue {q} packets", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"flows-q{q}.png"), dpi=80)
        plt.close(fig)


if __name__ == "__main__":
    main()
