#pragma once
// The workload options commands share (--pattern or --trace, --ompi, --coll)
// and opening what they name. A command that simulates in child processes
// opens a fresh workload in each (make()): a pattern is read once and
// copied, a trace reopened (its readers hold files).
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/collectives/collectives.hpp"
#include "sim/core/pattern.hpp"
#include "sim/engine/workload.hpp"

namespace contend::cli {

struct WorkloadInput {
  std::string pattern, trace;
  std::string compute = "scaled";  // a trace's computation: scaled | measured
  std::string ompi = "4.1";
  std::vector<std::string> coll;
};

// --pattern FILE | --trace PATH, exactly one; --compute for a trace.
void add_workload_options(CLI::App& cmd, WorkloadInput& input);
// --ompi 3.1|4.1 and --coll OP=ALG[...]: how collectives run.
void add_collective_options(CLI::App& cmd, WorkloadInput& input);
coll::CollectiveSettings collective_settings(const WorkloadInput& input);

class WorkloadSource {
 public:
  explicit WorkloadSource(const WorkloadInput& input);
  int rank_count() const { return ranks_; }
  // "pattern halo-256.pattern (...)" or the trace's description.
  const std::string& description() const { return description_; }
  std::unique_ptr<Workload> make() const;

 private:
  WorkloadInput input_;
  coll::CollectiveSettings collectives_;
  std::optional<Pattern> pattern_;
  int ranks_ = 0;
  std::string description_;
};

}  // namespace contend::cli
