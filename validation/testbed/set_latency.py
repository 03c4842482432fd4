#!/usr/bin/python3
"""Sets a level's latency in a platform file from Netgauge's L (half the
1-byte round trip, column netgauge_L_s of `contend fit-loggops --fits`;
netgauge_L in files written before the CSV headers carried their units),
keeping every other line.

Why: on the testbed the multi-pair regression's intercept (Thune's tau) is not
a latency: a rendezvous handshake waits behind the other direction's queued
data (up to 100 packets, 12 ms at 100 Mbit/s), so the intercept wanders from
-0.3 to +6 ms between runs, while a 1-byte ping-pong is stable at ~25 us.
Programs with many small messages and collectives (the sample applications)
pay the latency once per step, so a 6 ms tau multiplies their predicted time.

Usage: set_latency.py PLATFORM LEVEL FITS_CSV
"""
import csv
import os
import re
import sys


def netgauge_latency(fits_csv):
    with open(fits_csv) as f:
        rows = [r.get("netgauge_L_s") or r.get("netgauge_L") for r in csv.DictReader(f)]
    rows = [r for r in rows if r]
    if not rows:
        sys.exit(f"set_latency.py: {fits_csv}: no netgauge_L_s column or no rows")
    return float(rows[0])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    platform, level, fits = sys.argv[1:]
    seconds = netgauge_latency(fits)
    lines = open(platform).read().split("\n")
    start = next((i for i, l in enumerate(lines) if re.fullmatch(rf"  {level}:\s*(#.*)?", l)), None)
    if start is None:
        sys.exit(f"set_latency.py: {platform}: no level '{level}' under levels:")
    for i in range(start + 1, len(lines)):
        if not lines[i].startswith("    "):
            break
        if re.match(r"    latency:", lines[i]):
            lines[i] = f"    latency: {seconds * 1e6:.4g}us  # Netgauge L = PRTT(1,0,1)/2 ({os.path.basename(fits)})"
            break
    else:
        sys.exit(f"set_latency.py: {platform}: level '{level}' has no latency line")
    with open(platform + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(platform + ".tmp", platform)
    print(f"set_latency.py: {level} latency {seconds * 1e6:.4g} us")


if __name__ == "__main__":
    main()
