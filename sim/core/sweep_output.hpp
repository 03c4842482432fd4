#pragma once
// Running a sweep, whoever runs its cases (`contend sweep` on local workers
// or as a shard of a Slurm array, contend-sweep-mpi): which cases are left
// to run, and the results file that grows as cases finish.
//
// Resuming: a row already in the output whose status is ok and whose hash is
// the case's (sweep_spec.hpp, CaseHasher) is kept; every other case runs
// (again). The output is rewritten whole, atomically (write_file_atomically:
// a temporary file renamed over it), at most once a second while cases
// finish and once at the end: an interrupted sweep leaves the rows finished
// by its last write, never half a row.
#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sim/core/sweep_rows.hpp"
#include "sim/core/sweep_spec.hpp"

namespace contend {

// "K/N" with 1 <= K <= N: the K-th of N shards; throws naming the text.
struct Shard {
  std::size_t k = 1, n = 1;
};
Shard parse_shard(const std::string& text);
// The shard's cases: every N-th from the (K-1)-th, so each shard gets cases
// from every part of the product (neighbours in the product cost alike).
std::vector<std::size_t> shard_cases(std::size_t total, const Shard& shard);

struct SweepPlan {
  std::vector<std::string> hashes;       // per case of the sweep (empty outside `cases`)
  std::map<std::size_t, SweepRow> rows;  // kept from the output of an earlier run
  std::vector<std::size_t> pending;      // the cases to run, in case order
};
// Hashes `cases` (an override the platform cannot take is an error here,
// before any case runs) and reads what `output` already holds ("-": nothing).
SweepPlan plan_sweep(const SweepSpec& spec, const std::vector<std::size_t>& cases, const std::string& output,
                     const std::string& contend_version);

class SweepOutput {
 public:
  SweepOutput(std::string path, const SweepSpec& spec, std::map<std::size_t, SweepRow> rows);
  void add(SweepRow row);  // and rewrites the file if the last write is a second old
  void finish();           // the last write
  const std::map<std::size_t, SweepRow>& rows() const { return rows_; }

 private:
  void write();
  std::string path_;
  const SweepSpec& spec_;
  std::map<std::size_t, SweepRow> rows_;
  std::chrono::steady_clock::time_point written_;
  bool periodic_ = true;  // a regular file: rewritten as cases finish
};

// How a sweep ended, printed by every runner: on standard error a warning
// when cases failed (always), on standard output the summary unless quiet:
//   sweep: 200 cases: 180 run, 20 already in results.csv, 2 failed; 25.1 s on 2 workers (430 cases/min)
struct SweepSummary {
  std::string program;  // "contend", for the warning
  std::string label;    // "sweep", "sweep (shard 2/4)", "contend-sweep-mpi"
  std::string on;       // "2 workers", "3 ranks"
  std::size_t cases = 0, run = 0, kept = 0;
  std::string output;
  double wall_seconds = 0;
};
void print_sweep_end(const SweepOutput& results, const SweepSummary& summary, bool quiet);

}  // namespace contend
