#!/usr/bin/env python3
"""Checks a Chrome trace written by `contend simulate --timeline`.

usage: check_chrome_trace.py TRACE.json MESSAGES [--shifted SHORT.json OFFSET_US]

- the file is JSON with "traceEvents" and displayTimeUnit "ns";
- every "ts" and "dur" is written with three decimals (whole nanoseconds);
- on each rank's track (pid, tid) the slices, in file order, begin in time
  order and nest (a slice ends inside the one enclosing it);
- flow starts ("s") and ends ("f", bound to the enclosing slice) pair up by
  id, the end not before the start, MESSAGES of them; read in file order as
  Perfetto reads them (a flow event binds to the slice open on its track),
  each finds a slice open on its track that encloses its time;
- counter events ("C", the resource loads) are in the "resources" process,
  one numeric value each; on each counter track the samples are in time
  order, one per instant, never negative, never twice the same value in a
  row, and the last one is 0 (every resource is idle at the end);
- with --shifted: the events after OFFSET_US are SHORT.json's events moved
  by OFFSET_US, to the nanosecond (a long run keeps its nanoseconds).
"""
import json
import re
import sys
from decimal import Decimal


def fail(message):
    print(f"check_chrome_trace.py: {sys.argv[1]}: {message}", file=sys.stderr)
    sys.exit(1)


def read(path):
    text = open(path).read()
    # Numbers kept as written: Decimal is exact where float is not.
    trace = json.loads(text, parse_float=Decimal)
    for field in re.findall(r'"(?:ts|dur|data_start_us|arrived_us)":(-?[0-9.eE+-]+)', text):
        if not re.fullmatch(r"[0-9]+\.[0-9]{3}", field):
            fail(f"time {field} is not microseconds with three decimals")
    return trace


def ns(value):
    return int(Decimal(value) * 1000)


def check(trace, messages):
    if trace.get("displayTimeUnit") != "ns":
        fail("displayTimeUnit is not ns")
    events = trace["traceEvents"]
    open_slices = {}
    for e in events:
        if e["ph"] != "X":
            continue
        track = (e["pid"], e["tid"])
        begin, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
        stack = open_slices.setdefault(track, [])
        if stack and begin < stack[-1][0]:
            fail(f"slice {e['name']} at {e['ts']} begins before the previous one on track {track}")
        while stack and stack[-1][1] <= begin and not (stack[-1][1] == begin == end and stack[-1][0] <= begin):
            stack.pop()
        if stack and end > stack[-1][1]:
            fail(f"slice {e['name']} [{e['ts']}, +{e['dur']}] overlaps the end of its enclosing one on track {track}")
        stack.append((begin, end))
    open_slices = {}
    for e in events:
        track = (e.get("pid"), e.get("tid"))
        if e["ph"] == "X":
            begin, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            stack = open_slices.setdefault(track, [])
            while stack and stack[-1][1] < begin:
                stack.pop()
            stack.append((begin, end))
        elif e["ph"] in ("s", "f"):
            at = ns(e["ts"])
            stack = open_slices.get(track, [])
            while stack and stack[-1][1] < at:
                stack.pop()
            if not stack or not stack[-1][0] <= at <= stack[-1][1]:
                fail(f"flow event {e['ph']} {e['id']} at {e['ts']} has no slice open on track {track}")
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    if len(starts) != messages or set(starts) != set(ends):
        fail(f"{len(starts)} flow starts and {len(ends)} flow ends for {messages} messages")
    for i, s in starts.items():
        f = ends[i]
        if f.get("bp") != "e" or ns(f["ts"]) < ns(s["ts"]) or s["tid"] != s["args"]["src"] or f["tid"] != s["args"]["dst"]:
            fail(f"flow {i} is not from its sender's post to its receiver's completion")


def check_counters(trace):
    events = trace["traceEvents"]
    resources = [e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"
                 and e["args"]["name"] == "resources"]
    tracks = {}
    for e in events:
        if e["ph"] != "C":
            continue
        if e["pid"] not in resources:
            fail(f"counter {e['name']} is not in the resources process")
        if len(e["args"]) != 1:
            fail(f"counter {e['name']} at {e['ts']} has {len(e['args'])} values")
        value = next(iter(e["args"].values()))
        if not isinstance(value, (int, Decimal)) or value < 0:
            fail(f"counter {e['name']} at {e['ts']} has value {value}")
        tracks.setdefault(e["name"], []).append((ns(e["ts"]), value))
    for name, samples in tracks.items():
        for (t0, v0), (t1, v1) in zip(samples, samples[1:]):
            if t1 <= t0:
                fail(f"counter {name}: a sample at {t1} ns after one at {t0} ns")
            if v1 == v0:
                fail(f"counter {name}: value {v1} twice in a row (at {t0} and {t1} ns)")
        if samples[-1][1] != 0:
            fail(f"counter {name} ends at {samples[-1][1]}, not 0")


def timed_events(trace, offset_ns):
    out = []
    for e in trace["traceEvents"]:
        if "ts" not in e or ns(e["ts"]) < offset_ns:
            continue
        out.append((e["ph"], e["name"], e.get("tid"), ns(e["ts"]) - offset_ns, ns(e.get("dur", 0))))
    return out


def main():
    trace = read(sys.argv[1])
    check(trace, int(sys.argv[2]))
    check_counters(trace)
    if len(sys.argv) == 6 and sys.argv[3] == "--shifted":
        offset = ns(sys.argv[5])
        long_run, short_run = timed_events(trace, offset), timed_events(read(sys.argv[4]), 0)
        if len(long_run) != len(short_run):
            fail(f"{len(long_run)} events after the offset, {len(short_run)} in the short run")
        for a, b in zip(long_run, short_run):
            if a[:3] != b[:3] or abs(a[3] - b[3]) > 1 or abs(a[4] - b[4]) > 1:
                fail(f"{a} after the offset, {b} in the short run (times in ns)")


main()
