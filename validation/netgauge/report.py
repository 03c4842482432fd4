#!/usr/bin/env python3
"""Relative error of the LogGOPS ping-pong model against the measured
ping-pong, per size and datatype (Bacon et al., EuroMPI 2023, Figs. 2-5).

Inputs: the per-size estimates and the fitted parameters that
`contend fit-loggops --sizes --fits` wrote. Two models, as Bacon Sec. 3.1:
  LogGOPS  2(max(o_s + O_s k, g + G k) + L + O_r k + o_r)  (fitted lines)
  LogGPS   2(max(o_s^, g) + G k + L + o_r^)                (per-size Netgauge estimates)
The LogGOPS numbers and their relative errors come from `contend pingpong
--model loggops --measured measured.csv` on the fitted platform file
(--contend, --platform; checked against the same computation here), else
from the formula above, computed here (the report says which).
Relative error = (model - measured) / measured. Measured: the median single
round trip (pingpong_median: each block's median, then the median over
blocks); Bacon Sec. 4.3 takes each block's mean instead (pingpong), which on a
loaded machine holds every preemption of the block: errors.csv has both."""
import argparse
import csv
import math
import os
import subprocess
import sys


# fit-loggops's columns with their units (--fits, --sizes) -> the names of
# the parameters here, which the CSVs of earlier runs still use.
WITHOUT_UNITS = {"L_s": "L", "g_s": "g", "G_s_per_byte": "G", "o_s_s": "o_s", "O_s_s_per_byte": "O_s",
                 "o_r_s": "o_r", "O_r_s_per_byte": "O_r", "netgauge_L_s": "netgauge_L", "delay_s": "delay",
                 "prtt1_s": "prtt1", "prttn_s": "prttn", "prttnd_s": "prttnd", "gap_s": "gap",
                 "o_s_hat_s": "o_s_hat", "o_r_hat_s": "o_r_hat", "pingpong_s": "pingpong",
                 "pingpong_median_s": "pingpong_median", "model_s": "model"}


def read_csv(path):
    with open(path, newline="") as f:
        return [{WITHOUT_UNITS.get(k, k): v for k, v in r.items()} for r in csv.DictReader(f)]


def fits_by_range(path):
    out = {}
    for r in read_csv(path):
        out[(r["range"], r["datatype"])] = {k: float(r[k]) for k in ("L", "g", "G", "o_s", "O_s", "o_r", "O_r")}
        out[("switch", "")] = int(r["switch_bytes"]) if r["switch_bytes"] else None
    return out


def loggops(p, k):
    return 2 * (max(p["o_s"] + p["O_s"] * k, p["g"] + p["G"] * k) + p["L"] + p["O_r"] * k + p["o_r"])


def loggps(p, k, o_s_hat, o_r_hat):
    return 2 * (max(o_s_hat, p["g"]) + p["G"] * k + p["L"] + o_r_hat)


def contend_pingpong(contend, platform, datatype, sizes, measured_csv):
    """{bytes: (simulated round trip, relative error against measured_csv)} from
    `contend pingpong --measured`, or None when the command is missing or fails."""
    if not contend or not platform:
        return None
    lo, hi = min(sizes), max(sizes)
    cmd = [contend, "pingpong", "--platform", platform, "--model", "loggops", "--sizes", f"{lo}:{hi}",
           "--datatype", datatype, "--measured", measured_csv]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except OSError:
        return None
    if run.returncode != 0:
        return None
    return parse_pingpong_output(run.stdout)


def parse_pingpong_output(text):
    """Rows whose first field is a size in bytes and which hold a round trip:
    CSV with a header naming 'bytes'/'size' and 'round_trip'/'rtt'/'time' columns."""
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    if not lines:
        return None
    header = [h.strip() for h in lines[0].split(",")]
    if "bytes" not in header or "simulated_s" not in header or "relative_error" not in header:
        return None
    size_col, time_col, error_col = header.index("bytes"), header.index("simulated_s"), header.index("relative_error")
    out = {}
    for l in lines[1:]:
        f = [x.strip() for x in l.split(",")]
        try:
            out[int(float(f[size_col]))] = (float(f[time_col]), float(f[error_col]))
        except (ValueError, IndexError):
            return None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", required=True)
    ap.add_argument("--fits", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--contend")
    ap.add_argument("--platform")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    fits = fits_by_range(a.fits)
    switch = fits[("switch", "")]
    rows = read_csv(a.sizes)
    by_type = {}
    for r in rows:
        by_type.setdefault(r["datatype"], []).append(r)

    # The measured round trip per size (what contend pingpong --measured compares with).
    measured_csv = os.path.join(a.out, "measured.csv")
    os.makedirs(a.out, exist_ok=True)
    with open(measured_csv, "w", newline="") as f:
        w = csv.writer(f, quoting=csv.QUOTE_MINIMAL)
        w.writerow(["datatype", "bytes", "seconds"])
        for r in rows:
            w.writerow([r["datatype"], r["bytes"], float(r.get("pingpong_median") or 0) or float(r["pingpong"])])

    results, sources = [], {}
    for datatype, rs in by_type.items():
        rs.sort(key=lambda r: int(r["bytes"]))
        simulated = contend_pingpong(a.contend, a.platform, datatype, [int(r["bytes"]) for r in rs], measured_csv)
        sources[datatype] = ("contend pingpong --model loggops --measured" if simulated
                             else "formula (computed in report.py)")
        for r in rs:
            k = int(r["bytes"])
            rng = "eager" if switch is None or k < switch else "rendezvous"
            p = fits[(rng, datatype)]
            mean = float(r["pingpong"])
            measured = float(r.get("pingpong_median") or 0) or mean
            model = simulated[k][0] if simulated and k in simulated else loggops(p, k)
            error = (model - measured) / measured
            if simulated and k in simulated and abs(simulated[k][1] - error) > 1e-3 * max(1, abs(error)):
                sys.exit(f"report.py: {datatype} {k} B: contend pingpong says {simulated[k][1]}, report.py {error}")
            gps = loggps(p, k, float(r["o_s_hat"]), float(r["o_r_hat"]))
            results.append(dict(datatype=datatype, bytes=k, range=rng, measured=measured, mean=mean, loggops=model,
                                loggps=gps, formula=loggops(p, k), err_loggops=error,
                                err_loggops_mean=(model - mean) / mean, err_loggps=(gps - measured) / measured))

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "errors.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["datatype", "bytes", "range", "measured_s", "measured_block_mean_s", "loggops_s", "loggps_s",
                    "formula_s", "rel_err_loggops", "rel_err_loggps", "rel_err_loggops_vs_block_mean"])
        for r in results:
            w.writerow([r["datatype"], r["bytes"], r["range"], f"{r['measured']:.6g}", f"{r['mean']:.6g}",
                        f"{r['loggops']:.6g}", f"{r['loggps']:.6g}", f"{r['formula']:.6g}", f"{r['err_loggops']:.4f}",
                        f"{r['err_loggps']:.4f}", f"{r['err_loggops_mean']:.4f}"])
    summary = []
    for datatype in by_type:
        rs = [r for r in results if r["datatype"] == datatype]
        mean_abs = lambda key: sum(abs(r[key]) for r in rs) / len(rs)
        summary.append((datatype, len(rs), mean_abs("err_loggops"), mean_abs("err_loggps"), sources[datatype],
                        mean_abs("err_loggops_mean"), sum(r["err_loggops"] for r in rs) / len(rs)))
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["datatype", "sizes", "mean_abs_rel_err_loggops", "mean_abs_rel_err_loggps", "loggops_from",
                    "mean_abs_rel_err_loggops_vs_block_mean", "mean_signed_rel_err_loggops"])
        for s in summary:
            w.writerow([s[0], s[1], f"{s[2]:.4f}", f"{s[3]:.4f}", s[4], f"{s[5]:.4f}", f"{s[6]:.4f}"])
    for s in summary:
        print(f"{s[0]:<22} {s[1]:>3} sizes: mean |rel. error| LogGOPS {100 * s[2]:6.1f}% (signed {100 * s[6]:+6.1f}%, "
              f"vs block means {100 * s[5]:6.1f}%)  LogGPS {100 * s[3]:6.1f}%  ({s[4]})")
    plot(results, summary, switch, a.out, a.note)


def plot(results, summary, switch, out, note):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib missing: CSV only", file=sys.stderr)
        return
    types = [s[0] for s in summary]
    fig, axes = plt.subplots(2, len(types), figsize=(4.2 * len(types), 6.5), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [2, 1]})
    for i, t in enumerate(types):
        rs = [r for r in results if r["datatype"] == t]
        k = [r["bytes"] for r in rs]
        top, bottom = axes[0][i], axes[1][i]
        top.loglog(k, [r["measured"] * 1e6 for r in rs], "ko-", label="measured (median round trip)", ms=3)
        top.loglog(k, [r["mean"] * 1e6 for r in rs], "-", color="0.6", lw=0.8, label="measured (block mean, Bacon)")
        top.loglog(k, [r["loggops"] * 1e6 for r in rs], "C0s--", label="LogGOPS (fitted)", ms=3)
        top.loglog(k, [r["loggps"] * 1e6 for r in rs], "C1^:", label="LogGPS (per-size)", ms=3)
        top.set_title(t, fontsize=10)
        bottom.semilogx(k, [100 * r["err_loggops"] for r in rs], "C0s--", ms=3)
        bottom.semilogx(k, [100 * r["err_loggps"] for r in rs], "C1^:", ms=3)
        bottom.axhline(0, color="gray", lw=0.5)
        bottom.set_ylim(-100, 300)  # LogGPS's per-size estimates can be far off (preempted samples): clipped
        bottom.set_xlabel("message size (payload bytes)")
        if switch:
            for ax in (top, bottom):
                ax.axvline(switch, color="gray", ls="-.", lw=0.7)
        if i == 0:
            top.set_ylabel("round trip (us)")
            bottom.set_ylabel("relative error (%)")
            top.legend(fontsize=8)
    fig.suptitle("LogGOPS vs measured ping-pong (Bacon et al. Figs. 2-4)" + (f"; {note}" if note else ""), fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "pingpong-error.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(1.2 * len(types) + 3, 3.5))
    xs = range(len(types))
    for offset, index, label in ((-0.2, 2, "LogGOPS"), (0.2, 3, "LogGPS (per-size)")):
        values = [100 * s[index] for s in summary]
        bars = ax.bar([x + offset for x in xs], values, 0.4, label=label)
        for bar, v in zip(bars, values):
            ax.text(bar.get_x() + bar.get_width() / 2, v, f"{v:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_yscale("log")  # LogGPS's per-size estimates can be orders of magnitude off
    ax.set_xticks(list(xs))
    ax.set_xticklabels(types, rotation=20, fontsize=8)
    ax.set_ylabel("mean |relative error| (%)")
    ax.set_title("Mean relative error per datatype (Bacon et al. Fig. 5)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "mean-error.png"), dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
