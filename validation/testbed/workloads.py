#!/usr/bin/python3
"""Writes the accuracy suite's workloads (contend pattern files) for a
testbed of NODES x SLOTS ranks. Same arguments, same files.

  irregular-a, irregular-b  halo exchanges of an irregular 3-D mesh partitioned
                            with METIS (contend generate-pattern; Thune et al.'s
                            Algorithm 2 with realistic neighbours and sizes)
  conflicts                 Martinasso & Mehaut Sec. 5.3, scaled to the testbed:
                            flows between ranks of different nodes (under the
                            block mapping), flow i starting i x STAGGER after
                            the step began, sizes cycling 1, 2, 4, 2, 1 units
  bcast-binomial            a binomial broadcast from rank 0 as sequential
                            exchange steps: in step k every rank r < 2^k
                            sends the message to r + 2^k (Open MPI's binomial
                            tree, children by increasing distance)
  bcast-ompi                one `bcast 0 1MB` step: MPI_Bcast for real, Open
                            MPI 4.1's fixed decision rules choose the algorithm
                            (binomial for 16 ranks and 1 MB); contend
                            predicts its own decomposition of that choice

Usage: workloads.py CONTEND NODES SLOTS OUT_DIR
"""
import os
import random
import subprocess
import sys

# Martinasso's pattern: 30 flows of 1-4 MB started 1 ms apart on a 112 MB/s
# network (a 1 MB flow alone takes 9 ms, the stagger is 0.11 of it). On the
# 12 MB/s testbed a 256 KiB unit takes 22 ms and 1 MiB 88 ms; STAGGER keeps
# the same ratio to the middle size.
CONFLICT_FLOWS = 24
CONFLICT_UNIT = 256 * 1024
CONFLICT_CYCLE = [1, 2, 4, 2, 1]
CONFLICT_STAGGER_MS = 10
CONFLICT_SEED = 5910  # Martinasso & Mehaut, INRIA RR-5910
BCAST_BYTES = 1024 * 1024
# Below 1048576 B: Open MPI 4.1's fixed rules pick the binomial tree for 16-31 ranks.
OMPI_BCAST_BYTES = 1000000


def irregular(contend, ranks, seed, out):
    # 2 ghost layers of 2400 B per cell: messages of a few kB to ~0.5 MB,
    # eager and rendezvous mixed, a few MB per node across the network.
    subprocess.run([contend, "generate-pattern", "--ranks", str(ranks), "--cells", str(250 * ranks),
                    "--overlap", "2", "--bytes-per-cell", "2400", "--seed", str(seed), "-o", out],
                   check=True, stdout=subprocess.DEVNULL)


def conflicts(nodes, slots, out):
    rng = random.Random(CONFLICT_SEED)
    ranks = nodes * slots
    lines = [f"# Martinasso-style conflicts: {CONFLICT_FLOWS} inter-node flows (block mapping), "
             f"flow i starts at i x {CONFLICT_STAGGER_MS} ms, sizes cycle {CONFLICT_CYCLE} x {CONFLICT_UNIT} B",
             f"# validation/testbed/workloads.py, seed {CONFLICT_SEED}", f"ranks {ranks}"]
    for i in range(CONFLICT_FLOWS):
        src_node, dst_node = rng.sample(range(nodes), 2)
        src = src_node * slots + rng.randrange(slots)
        dst = dst_node * slots + rng.randrange(slots)
        size = CONFLICT_UNIT * CONFLICT_CYCLE[i % len(CONFLICT_CYCLE)]
        start = f" @{i * CONFLICT_STAGGER_MS}ms" if i > 0 else ""
        lines.append(f"{src} {dst} {size}{start}")
    write(out, lines)


def binomial_bcast(ranks, out):
    lines = [f"# Binomial broadcast of {BCAST_BYTES} B from rank 0 as sequential exchange steps "
             "(validation/testbed/workloads.py)", f"ranks {ranks}"]
    distance = 1
    while distance < ranks:
        if distance > 1:
            lines.append("---")
        for r in range(min(distance, ranks - distance)):
            lines.append(f"{r} {r + distance} {BCAST_BYTES}")
        distance *= 2
    write(out, lines)


def ompi_bcast(ranks, out):
    write(out, [f"# MPI_Bcast of {OMPI_BCAST_BYTES} B from rank 0 (validation/testbed/workloads.py)", f"ranks {ranks}",
                f"bcast 0 {OMPI_BCAST_BYTES}"])


def write(path, lines):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    contend, nodes, slots, out_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    if nodes < 2 or slots < 1:
        sys.exit("workloads.py: needs at least 2 nodes and 1 slot")
    os.makedirs(out_dir, exist_ok=True)
    ranks = nodes * slots
    irregular(contend, ranks, 1, os.path.join(out_dir, "irregular-a.pattern"))
    irregular(contend, ranks, 3, os.path.join(out_dir, "irregular-b.pattern"))
    conflicts(nodes, slots, os.path.join(out_dir, "conflicts.pattern"))
    binomial_bcast(ranks, os.path.join(out_dir, "bcast-binomial.pattern"))
    ompi_bcast(ranks, os.path.join(out_dir, "bcast-ompi.pattern"))


if __name__ == "__main__":
    main()
