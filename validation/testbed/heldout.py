#!/usr/bin/python3
"""Draws the held-out cases of the accuracy suite: workloads nobody tuned a
parameter or chose a model on, generated after calibration from a fresh seed.

For each number of ranks per node (2, 3, 4 on NODES nodes: 8, 12, 16 ranks)
one irregular METIS halo workload (`contend generate-pattern`), two exchange
steps separated by `---`:
  small  one ghost layer, BPC_SMALL bytes per cell: messages of 4 KiB and
         more, eager and rendezvous at the network's 64 KiB threshold
  large  1-2 ghost layers, bytes per cell set so that the largest message is
         a size drawn between 1 and 4 MiB, within a volume of LARGE_VOLUME
         (so that a repetition takes about a second on 100 Mbit/s links)
Mesh size, layers, bytes per cell and METIS seeds are drawn from the seed.
Each workload runs under three mappings, RPN ranks on each node:
  block     ranks 0..RPN-1 on node 0, the next RPN on node 1, ...
  cyclic    rank r on node r mod NODES
  searched  `contend mapping search` under contend's default model on the
            calibrated platform (seed drawn too, a fixed number of simulations)
Every mapping is written as contend's mapping file (rank node socket core:
what the predictions use) and exported as an Open MPI rankfile (what the real
run uses: mpirun.sh with CTD_RANKFILE), through `contend mapping export`.

The seed comes from /dev/urandom unless --seed repeats a past run; it is
written to OUT_DIR/seed.txt. Writes OUT_DIR/workloads/*.pattern,
OUT_DIR/mappings/CASE.{map,rankfile}, OUT_DIR/platforms/RPNpn.yaml (the
calibrated platform with RPN cores per node, what the search, the exports
and the predictions of those cases use), OUT_DIR/plan.csv
(case,workload,mapping,ranks,ranks_per_node,platform,pattern,map,rankfile;
paths relative to OUT_DIR) and
OUT_DIR/sizes.csv (the message-size histogram, per workload).

Usage: heldout.py CONTEND PLATFORM OUT_DIR --node NAME... [--seed N] [--quick]
  --node   the testbed's node names (the hosts of the rankfiles), in order
  --quick  the CI version: 3 ranks per node only, mappings cyclic and searched
"""
import argparse
import csv
import math
import os
import random
import re
import subprocess
import tempfile

RANKS_PER_NODE = (2, 3, 4)
MAPPINGS = ("block", "cyclic", "searched")
QUICK_RANKS_PER_NODE = (3,)
QUICK_MAPPINGS = ("cyclic", "searched")
KiB, MiB = 1024, 1024 * 1024
SMALLEST = 4 * KiB  # bytes per cell of the small step: a one-cell message is 4 KiB at least
BPC_SMALL = (4 * KiB, 8 * KiB)
LARGEST = (1 * MiB, 4 * MiB)
LARGE_VOLUME = 48 * 1000 * 1000
CELLS_PER_RANK = (60, 200)
SEARCH_EVALUATIONS = 40
# Histogram bins of the message sizes (upper bounds, bytes).
SIZE_BINS = [16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, math.inf]


def log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def generate(contend, ranks, cells_per_rank, overlap, bytes_per_cell, seed):
    """Messages (src, dst, bytes) of one generate-pattern run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "halo.pattern")  # contend writes it atomically (a rename): read it afterwards
        subprocess.run([contend, "generate-pattern", "--ranks", str(ranks), "--cells-per-rank", str(cells_per_rank),
                        "--overlap", str(overlap), "--bytes-per-cell", str(bytes_per_cell), "--seed", str(seed),
                        "-o", path], check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            return [tuple(int(x) for x in line.split()[:3]) for line in f
                    if line.strip() and not line.startswith("#") and not line.startswith("ranks")]


def halo_step(rng, contend, ranks, overlap, bytes_per_cell):
    """One METIS halo exchange with drawn mesh size and METIS seed, and its parameters."""
    cells = rng.randint(*CELLS_PER_RANK)
    seed = rng.randrange(1, 2**31)
    return generate(contend, ranks, cells, overlap, bytes_per_cell, seed), \
        f"--cells-per-rank {cells} --overlap {overlap} --bytes-per-cell {bytes_per_cell} --seed {seed}"


def workload(rng, contend, ranks, path):
    """Writes one held-out workload (small step, ---, large step)."""
    small, small_args = halo_step(rng, contend, ranks, 1, round(log_uniform(rng, *BPC_SMALL)))
    # The large step: ghost-cell counts first (1 byte per cell), then the
    # bytes per cell that put its largest message at the drawn size, within
    # the volume.
    overlap = rng.choice((1, 2))
    cells, metis_seed = rng.randint(*CELLS_PER_RANK), rng.randrange(1, 2**31)
    probe = generate(contend, ranks, cells, overlap, 1, metis_seed)
    largest = log_uniform(rng, *LARGEST)
    bytes_per_cell = max(SMALLEST, min(int(largest / max(m[2] for m in probe)),
                                       int(LARGE_VOLUME / sum(m[2] for m in probe))))
    large = generate(contend, ranks, cells, overlap, bytes_per_cell, metis_seed)
    large_args = f"--cells-per-rank {cells} --overlap {overlap} --bytes-per-cell {bytes_per_cell} --seed {metis_seed}"
    lines = ["# Held-out irregular halo exchange (validation/testbed/heldout.py): two METIS halo steps",
             f"# small: contend generate-pattern --ranks {ranks} {small_args}",
             f"# large: contend generate-pattern --ranks {ranks} {large_args}", f"ranks {ranks}"]
    lines += [f"{s} {d} {b}" for s, d, b in small] + ["---"] + [f"{s} {d} {b}" for s, d, b in large]
    write_lines(path, lines)
    return [m[2] for m in small + large]


def fixed_mapping(name, ranks, nodes, rpn):
    """contend's mapping file lines for block or cyclic with RPN ranks per node."""
    lines = [f"# {name}: {rpn} ranks per node on {nodes} nodes (validation/testbed/heldout.py)"]
    for r in range(ranks):
        node, core = (r // rpn, r % rpn) if name == "block" else (r % nodes, r // nodes)
        lines.append(f"{r} {node} 0 {core}")
    return lines


def export_rankfile(contend, platform, hosts, mapping, ranks, rankfile):
    """The mapping as an Open MPI rankfile: the host of each rank from `contend mapping export`
    (SLURM_HOSTFILE form, one host per rank), any core of this machine (the emulated nodes share
    its cores and the testbed runs unbound: mpirun.sh)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "hosts")
        subprocess.run([contend, "mapping", "export", "--platform", platform, "--hosts", hosts, "--mapping", mapping,
                        "--ranks", str(ranks), "--launcher", "slurm", "-o", out, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        with open(out) as f:
            per_rank = [line.split()[0] for line in f if line.strip()]
    if len(per_rank) != ranks:
        raise SystemExit(f"heldout.py: mapping export of {mapping} gave {len(per_rank)} hosts for {ranks} ranks")
    write_lines(rankfile, [f"rank {r}={h} slot=0-{os.cpu_count() - 1}" for r, h in enumerate(per_rank)])
    return per_rank


def platform_with_cores(platform, cores, path):
    """The calibrated platform with CORES per node (its one socket's cores): the mapping search,
    the exports and the predictions then place exactly RPN ranks on every node."""
    with open(platform) as f:
        text = f.read()
    text, count = re.subn(r"^(\s+cores_per_socket:\s*)\d+", lambda m: m.group(1) + str(cores), text, flags=re.M)
    if count != 1 or not re.search(r"^\s+sockets:\s*1\s*$", text, flags=re.M):
        raise SystemExit(f"heldout.py: {platform}: expected one socket per node and one 'cores_per_socket:'")
    write_lines(path, text.rstrip("\n").split("\n"))


def write_lines(path, lines):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def size_bin(size):
    return next(i for i, top in enumerate(SIZE_BINS) if size < top)


def bin_label(i):
    def fmt(b):
        return f"{b // MiB} MiB" if b >= MiB else f"{b // KiB} KiB"
    low = 0 if i == 0 else SIZE_BINS[i - 1]
    return f"< {fmt(SIZE_BINS[i])}" if i == 0 else (f">= {fmt(low)}" if math.isinf(SIZE_BINS[i])
                                                    else f"{fmt(low)}-{fmt(SIZE_BINS[i])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("contend")
    parser.add_argument("platform")
    parser.add_argument("out_dir")
    parser.add_argument("--node", action="append", required=True)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--quick", action="store_true")
    a = parser.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    nodes = len(a.node)
    for d in ("workloads", "mappings", "platforms"):
        os.makedirs(os.path.join(a.out_dir, d), exist_ok=True)
    write_lines(os.path.join(a.out_dir, "seed.txt"), [str(seed)])
    plan, histogram = [], []
    for rpn in QUICK_RANKS_PER_NODE if a.quick else RANKS_PER_NODE:
        ranks = nodes * rpn
        name = f"halo-{rpn}pn"
        pattern = os.path.join(a.out_dir, "workloads", name + ".pattern")
        sizes = workload(rng, a.contend, ranks, pattern)
        counts = [0] * len(SIZE_BINS)
        for s in sizes:
            counts[size_bin(s)] += 1
        histogram.append([name, len(sizes), min(sizes), max(sizes)] + counts)
        platform = os.path.join(a.out_dir, "platforms", f"{rpn}pn.yaml")
        platform_with_cores(a.platform, rpn, platform)
        hosts = os.path.join(a.out_dir, "mappings", name + ".hosts")
        write_lines(hosts, [f"{n} slots={rpn}" for n in a.node])
        search_seed = rng.randrange(1, 2**31)
        for m in QUICK_MAPPINGS if a.quick else MAPPINGS:
            case = f"{name}.{m}"
            map_file = os.path.join(a.out_dir, "mappings", case + ".map")
            if m == "searched":
                # contend's default model (no --model), a fixed number of simulations: the same seed, the same mapping.
                with open(os.path.join(a.out_dir, "mappings", case + ".search.txt"), "w") as log:
                    subprocess.run([a.contend, "mapping", "search", "--platform", platform, "--hosts", hosts,
                                    "--pattern", pattern, "--seed", str(search_seed), "--max-evaluations",
                                    str(SEARCH_EVALUATIONS), "--jobs", "2", "-o", map_file], check=True, stdout=log)
            else:
                write_lines(map_file, fixed_mapping(m, ranks, nodes, rpn))
            rankfile = os.path.join(a.out_dir, "mappings", case + ".rankfile")
            per_rank = export_rankfile(a.contend, platform, hosts, map_file, ranks, rankfile)
            for n in a.node:
                if per_rank.count(n) != rpn:
                    raise SystemExit(f"heldout.py: the {m} mapping of {name} puts {per_rank.count(n)} ranks on {n}, "
                                     f"expected {rpn}")
            plan.append([case, name, m, ranks, rpn] +
                        [os.path.relpath(p, a.out_dir) for p in (platform, pattern, map_file, rankfile)])
    with open(os.path.join(a.out_dir, "plan.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case", "workload", "mapping", "ranks", "ranks_per_node", "platform", "pattern", "map", "rankfile"])
        w.writerows(plan)
    with open(os.path.join(a.out_dir, "sizes.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["workload", "messages", "smallest", "largest"] + [bin_label(i) for i in range(len(SIZE_BINS))])
        w.writerows(histogram)
    print(f"heldout.py: seed {seed}, {len(plan)} cases")


if __name__ == "__main__":
    main()
