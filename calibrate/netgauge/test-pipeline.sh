#!/usr/bin/env bash
# End-to-end test of the Netgauge-style LogGOPS calibration on this machine:
# netgauge_bench on 2 ranks over shared memory (small sizes, contiguous and
# a vector datatype), contend fit-loggops into a copy of loggops-shm.yaml.
# Checks: an inter_node run on one host is refused; every fitted value is finite and >= 0; the protocol switch is found
# at Open MPI's vader eager limit (read from ompi_info; payloads are powers of
# two and the limit counts the header, so the first rendezvous size is the
# power of two in (limit/2, limit]); the platform file parses and validates;
# only models.loggops.intra_socket (and the threshold line) changed; and
# `contend pingpong` on the written file gives the fit's own model round trips
# (the values survive the platform file, to its four significant digits).
# Usage: test-pipeline.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
source "$(dirname "$0")/../common/lib.sh"
pipeline_setup netgauge "$@"
mpi=(mpirun -np 2 --mca btl self,vader)
# Placement is checked: inter_node with both ranks on this host is refused.
if "${mpi[@]}" "$build/bin/netgauge_bench" --level inter_node -o "$work/refused.csv" 2> "$work/refused.log"; then
  fail "inter_node on one host was not refused"
fi
grep -q "refusing to measure: level inter_node needs the two halves on different nodes" "$work/refused.log" ||
  { cat "$work/refused.log" >&2; fail "no placement error"; }
"${mpi[@]}" "$build/bin/netgauge_bench" --level intra_socket --min-size 1 --max-size 64KiB --repetitions 7 \
  --pingpong-iterations 20 --datatype contiguous --datatype vector:4,1,4:float -o "$work/raw.csv" 2> "$work/bench.log" ||
  { cat "$work/bench.log" >&2; fail "netgauge_bench failed"; }

cp "$source_dir/platforms/loggops-shm.yaml" "$work/platform.yaml"
"$build/bin/contend" fit-loggops "$work/raw.csv" --platform "$work/platform.yaml" --level intra_socket \
  --fits "$work/fits.csv" --sizes "$work/sizes.csv" | tee "$work/fit.txt"
"$build/bin/contend" platform --platform "$work/platform.yaml" > /dev/null || fail "the written platform file does not validate"

/usr/bin/python3 - "$work" "$source_dir/platforms/loggops-shm.yaml" "$build/bin/contend" <<'PY'
import csv, math, re, subprocess, sys
work, original, contend = sys.argv[1:4]
def fail(msg):
    sys.exit("test-pipeline: FAIL: " + msg)
fits = list(csv.DictReader(open(f"{work}/fits.csv")))
if not fits:
    fail("no fitted values")
for r in fits:
    for k in ("L_s", "g_s", "G_s_per_byte", "o_s_s", "O_s_s_per_byte", "o_r_s", "O_r_s_per_byte"):
        v = float(r[k])
        if not math.isfinite(v) or v < 0:
            fail(f"{r['range']} {r['datatype']} {k} = {v}")
if {r["datatype"] for r in fits} != {"contiguous", "vector:4,1,4:float"}:
    fail("datatypes missing from the fit")

# The protocol switch against Open MPI's vader eager limit.
info = subprocess.run(["ompi_info", "--param", "btl", "vader", "--level", "9", "--parsable"],
                      capture_output=True, text=True).stdout
m = re.search(r"btl_vader_eager_limit:value:(\d+)", info)
switch = fits[0]["switch_bytes"]
if m:
    limit = int(m.group(1))
    if not switch:
        fail(f"no protocol switch found; vader's eager limit is {limit} B")
    if not (limit / 2 < int(switch) <= limit):
        fail(f"protocol switch at {switch} B, vader's eager limit is {limit} B")
    print(f"test-pipeline: switch {switch} B, vader eager limit {limit} B")
else:
    print("test-pipeline: vader's eager limit not readable from ompi_info: switch not checked")

# Only the loggops section was added (and the threshold line, if it changed).
before = open(original).read().splitlines()
after = open(f"{work}/platform.yaml").read().splitlines()
kept = [l for l in before if l in after]
changed = [l for l in before if l not in after]
if any("eager_threshold" not in l for l in changed):
    fail(f"lines outside the fitted section changed: {changed}")

# contend pingpong on the written file reproduces the fit's model round trips.
sizes = [r for r in csv.DictReader(open(f"{work}/sizes.csv"))]
for datatype in ("contiguous", "vector:4,1,4:float"):
    rows = {int(r["bytes"]): float(r["model_s"]) for r in sizes if r["datatype"] == datatype}
    out = subprocess.run([contend, "pingpong", "--platform", f"{work}/platform.yaml", "--sizes",
                          f"{min(rows)}:{max(rows)}", "--datatype", datatype], capture_output=True, text=True, check=True).stdout
    lines = [l for l in out.splitlines() if l and not l.startswith("#")]
    header = lines[0].split(",")
    for l in lines[1:]:
        f = dict(zip(header, l.split(",")))
        k, formula = int(f["bytes"]), float(f["formula_s"])
        if abs(formula - rows[k]) > 2e-3 * rows[k]:
            fail(f"{datatype} {k} B: contend pingpong {formula} s, fit {rows[k]} s")
print("test-pipeline: ok")
PY
