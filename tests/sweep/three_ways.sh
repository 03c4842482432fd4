#!/bin/bash
# The three ways of running a sweep give the same rows (docs/sweeps.md):
#   1. `contend sweep` with --jobs 1 and --jobs 2: identical files;
#   2. contend-sweep-mpi under `mpirun -np 3 --oversubscribe`: the same rows;
#   3. the Slurm array: its script passes `bash -n`, its tasks run here one
#      after the other with SLURM_ARRAY_TASK_ID set, then --merge: the same rows.
# wall_s (column 17 of small.yaml's rows) is measured, so it is left out of
# the comparisons; everything else, the hash included, must be equal. Then a
# row equals what `contend simulate --json` says for the same case.
# Usage: three_ways.sh CONTEND CONTEND_SWEEP_MPI SRCDIR WORKDIR
set -euo pipefail
export LC_ALL=C OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
contend=$(realpath "$1") driver=$(realpath "$2") src=$(realpath "$3") work=$4
fail() { echo "three_ways.sh: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
sweep=$src/tests/data/sweep/small.yaml
without_wall() { cut -d, -f1-16,18- "$1"; }

"$contend" sweep "$sweep" --jobs 1 --quiet --output jobs1.csv
"$contend" sweep "$sweep" --jobs 2 --quiet --output jobs2.csv
[ "$(wc -l < jobs1.csv)" = 9 ] || fail "jobs1.csv: expected a header and 8 rows"
grep -q ',error,' jobs1.csv && fail "a case failed: $(grep ',error,' jobs1.csv)"
cmp <(without_wall jobs1.csv) <(without_wall jobs2.csv) || fail "--jobs 1 and --jobs 2 differ"

mpirun -np 3 --oversubscribe "$driver" "$sweep" --contend "$contend" --quiet --output mpi.csv
cmp <(without_wall jobs1.csv) <(without_wall mpi.csv) || fail "contend-sweep-mpi's rows differ from contend sweep's"

"$contend" sweep "$sweep" --slurm-array 3 --jobs 1 --quiet --output array
bash -n array/sweep.sbatch || fail "array/sweep.sbatch: not valid bash"
grep -q '^#SBATCH --array=1-3$' array/sweep.sbatch || fail "no '#SBATCH --array=1-3' in the script"
for task in 1 2 3; do SLURM_ARRAY_TASK_ID=$task bash array/sweep.sbatch; done
[ "$(wc -l < array/shard-1-of-3.csv)" = 4 ] || fail "shard 1 of 3 should hold cases 0, 3 and 6"
"$contend" sweep --merge array --quiet --output merged.csv
cmp <(without_wall jobs1.csv) <(without_wall merged.csv) || fail "the merged shards differ from contend sweep's rows"
# A missing shard is named, and nothing is written.
rm array/shard-2-of-3.csv
if "$contend" sweep --merge array --output partial.csv 2> merge.err; then fail "merged without shard 2"; fi
grep -q "shard-2-of-3.csv: missing (array task 2 has not run)" merge.err || fail "merge: $(cat merge.err)"
[ ! -e partial.csv ] || fail "a partial merge was written"

# A row is what `contend simulate --json` says for its case (case 2: the
# cross-node mapping, 10GB/s between the nodes).
sed 's/bandwidth: {1: 10.5GB\/s, 2: 12.0GB\/s}/bandwidth: 10GB\/s/' "$src/platforms/epyc-rome-2node.yaml" > p10.yaml
grep -q 'bandwidth: 10GB/s' p10.yaml || fail "p10.yaml: the inter-node bandwidth was not replaced"
"$contend" simulate --platform p10.yaml --pattern "$src/traces/samples/bidirectional-pairs-4.pattern" \
  --mapping "$src/tests/data/sweep/cross-node-4.map" --quiet --json run.json
python3 - jobs1.csv run.json <<'PY'
import csv, json, sys
row = list(csv.DictReader(open(sys.argv[1])))[2]
run = json.load(open(sys.argv[2]))
ranks = [r["total_time_s"] if "total_time_s" in r else r["total_time"] for r in run["ranks"]]
def same(a, b):
    return abs(float(a) - float(b)) <= 1e-9 * max(abs(float(b)), 1e-300)
checks = {"makespan_s": run["summary"]["makespan"] if "summary" in run else run["makespan"],
          "min_rank_time_s": min(ranks), "max_rank_time_s": max(ranks),
          "mean_rank_time_s": sum(ranks) / len(ranks)}
for column, expected in checks.items():
    if not same(row[column], expected):
        sys.exit(f"case 2: {column} {row[column]} in the sweep, {expected} from contend simulate --json")
for level in ("intra_socket", "inter_socket", "inter_node"):
    if int(row[level + "_bytes"]) != run["levels"][level]["bytes"]:
        sys.exit(f"case 2: {level}_bytes {row[level + '_bytes']} in the sweep, {run['levels'][level]['bytes']} from simulate")
if int(row["messages"]) != run["messages"]:
    sys.exit("case 2: messages differ from contend simulate --json")
print("case 2's row equals contend simulate --json:", {c: row[c] for c in checks})
PY
echo "three_ways.sh: --jobs 1, --jobs 2, MPI on 3 ranks and a Slurm array of 3 give the same rows"
