#!/usr/bin/env python3
"""Writes the experiments of flowshare_bench (experiment,src,dst,bytes,start_ms).

Ranks are placed block-wise, SLOTS per node: rank = SLOTS * node + slot
(validation/testbed/mpirun.sh's default placement). Node 0 is the node whose
link the flows share: fan-in into its downlink, fan-out from its uplink.

usage: experiments.py [--slots 4] > flows.csv
"""
import argparse
import sys

MIB = 1 << 20
KIB = 1 << 10
EQUAL = 2 * MIB
UNEQUAL = [1 * MIB, 4 * MIB, 256 * KIB, 8 * MIB]  # flow i's size in the unequal runs
BIG = 8 * MIB


def experiments(slots):
    rank = lambda node, slot: slots * node + slot
    out = []

    def add(name, flows):
        out.extend((name, s, d, b, t) for s, d, b, t in flows)

    # Fan-in: k senders on distinct nodes 1..k into k ranks of node 0.
    for k in range(1, 5):
        add(f"fanin-k{k}-eq-s0", [(rank(i + 1, 0), rank(0, i), EQUAL, 0) for i in range(k)])
    for gap in (10, 50):
        for k in range(2, 5):
            add(f"fanin-k{k}-eq-s{gap}", [(rank(i + 1, 0), rank(0, i), EQUAL, gap * i) for i in range(k)])
    for k in range(2, 5):
        add(f"fanin-k{k}-uneq-s0", [(rank(i + 1, 0), rank(0, i), UNEQUAL[i], 0) for i in range(k)])
    # Fan-in of 2 and 4 with several senders on one node (ranks per node 2, 4).
    add("fanin-k2-rpn2-s0", [(rank(1, i), rank(0, i), EQUAL, 0) for i in range(2)])
    add("fanin-k4-rpn2-s0", [(rank(1 + i // 2, i % 2), rank(0, i), EQUAL, 0) for i in range(4)])
    add("fanin-k4-rpn4-s0", [(rank(1, i), rank(0, i), EQUAL, 0) for i in range(4)])
    # Fan-out: k ranks of node 0 to distinct nodes 1..k.
    for k in range(2, 5):
        add(f"fanout-k{k}-eq-s0", [(rank(0, i), rank(i + 1, 0), EQUAL, 0) for i in range(k)])
    for k in range(2, 5):
        add(f"fanout-k{k}-eq-s50", [(rank(0, i), rank(i + 1, 0), EQUAL, 50 * i) for i in range(k)])
    add("fanout-k3-uneq-s0", [(rank(0, i), rank(i + 1, 0), UNEQUAL[i], 0) for i in range(3)])
    # A small message alone, and sent 300 ms into 8 MiB flows through the
    # same link: node 0's downlink with one flow (busy-in: it arrives no
    # faster than it leaves, no queue at the switch) and with two flows from
    # two nodes (busy-in2: the switch's queue fills), node 0's uplink
    # (busy-out: the sender's own queue).
    for small in (4 * KIB, 16 * KIB, 64 * KIB):
        kib = small // KIB
        add(f"small{kib}k-alone", [(rank(2, 0), rank(0, 1), small, 0)])
        add(f"small{kib}k-busy-in", [(rank(1, 0), rank(0, 0), BIG, 0), (rank(2, 0), rank(0, 1), small, 300)])
        add(f"small{kib}k-busy-in2", [(rank(1, 0), rank(0, 0), BIG, 0), (rank(3, 0), rank(0, 2), BIG, 0),
                                      (rank(2, 0), rank(0, 1), small, 300)])
        add(f"small{kib}k-busy-out", [(rank(0, 0), rank(1, 0), BIG, 0), (rank(0, 1), rank(2, 0), small, 300)])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slots", type=int, default=4)
    args = parser.parse_args()
    if args.slots < 4:
        sys.exit("experiments.py: --slots must be at least 4 (four ranks of one node send or receive)")
    print("experiment,src,dst,bytes,start_ms")
    for row in experiments(args.slots):
        print(",".join(str(x) for x in row))


if __name__ == "__main__":
    main()
