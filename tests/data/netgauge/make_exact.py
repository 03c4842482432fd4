#!/usr/bin/env python3
"""Writes exact.csv: netgauge_bench's raw CSV for a machine that follows
LogGOPS exactly (the PRTT identities of Hoefler's method), for
tests/cli/fit_loggops.tesh. Payload sizes 1 B .. 32 KiB, switch at 4 KiB,
n = 10, d = PRTT(1,0,s); one repetition (the medians are the values).
  eager:      L 0.5us g 0.2us G 0.1ns  contiguous o_s 0.1us O_s 0.05ns o_r 0.15us O_r 0.02ns
  rendezvous: L 2us   g 0.4us G 0.1ns  contiguous o_s 0.3us O_s 0.05ns o_r 0.5us  O_r 0.02ns
  vector:2,1,2:int (8 B payload), both ranges: o_s 0.2us O_s 0.15ns o_r 0.3us O_r 0.1ns
PRTT(n,0,s) = PRTT(1,0,s) + (n-1) max(o_s + O_s s, g + G s): a sender slower
than its NIC injects at its own pace (only the vector is)."""
EAGER = dict(L=0.5e-6, g=0.2e-6, G=0.1e-9, o_s=0.1e-6, O_s=0.05e-9, o_r=0.15e-6, O_r=0.02e-9)
RNDV = dict(L=2e-6, g=0.4e-6, G=0.1e-9, o_s=0.3e-6, O_s=0.05e-9, o_r=0.5e-6, O_r=0.02e-9)
VECTOR = dict(o_s=0.2e-6, O_s=0.15e-9, o_r=0.3e-6, O_r=0.1e-9)
N = 10

def rows(datatype, payload, s, p):
    send, gap, recv = p["o_s"] + p["O_s"] * s, p["g"] + p["G"] * s, p["o_r"] + p["O_r"] * s
    prtt1 = 2 * (max(send, gap) + p["L"] + recv)
    d = prtt1
    count = s // payload
    q = f'"{datatype}",{s},{count}'
    return [f"{q},prtt,1,0,0,{prtt1:.9g}",
            f"{q},prtt,{N},0,0,{prtt1 + (N - 1) * max(send, gap):.9g}",
            f"{q},prtt,{N},{d:.9g},0,{prtt1 + (N - 1) * (send + d):.9g}",
            f"{q},orecv,{N},{d:.9g},0,{(N - 1) * recv:.9g}",
            f"{q},pingpong,1,0,0,{prtt1:.9g}"]

lines = ["# exact LogGOPS machine (tests/data/netgauge/make_exact.py)", "datatype,bytes,count,quantity,n,delay,repetition,time"]
for s in [2 ** e for e in range(16)]:
    p = EAGER if s < 4096 else RNDV
    lines += rows("contiguous", 1, s, p)
    if s >= 8:
        lines += rows("vector:2,1,2:int", 8, s, dict(p, **VECTOR))
open("exact.csv", "w").write("\n".join(lines) + "\n")
