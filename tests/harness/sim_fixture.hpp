#pragma once
// Helpers for simulation tests: a platform from inline YAML, a pattern or a
// scripted workload, one simulate() call.
#include <functional>
#include <string>
#include <vector>

#include "sim/core/results.hpp"
#include "sim/core/platform.hpp"
#include "sim/workload/pattern_workload.hpp"
#include "sim/engine/workload.hpp"

namespace contend::test {

// A platform of `nodes` x `sockets` x `cores`, every level constant
// `bandwidth` (B/s) and `latency` (s) unless overridden by `levels_yaml`.
std::string platform_yaml(int nodes, int sockets, int cores, const std::string& levels_yaml,
                          const std::string& network_yaml = "{topology: star, link_bandwidth: 1e12}",
                          const std::string& nic_yaml = "{bandwidth: 1e12}");

// Each rank runs script(mpi).
class ScriptWorkload final : public Workload {
 public:
  ScriptWorkload(int ranks, std::function<void(Mpi&)> script) : ranks_(ranks), script_(std::move(script)) {}
  int rank_count() const override { return ranks_; }
  std::string description() const override { return "script"; }
  void run(Mpi& mpi) override { script_(mpi); }

 private:
  int ranks_;
  std::function<void(Mpi&)> script_;
};

struct RunOptions {
  std::string mapping = "block";
  std::string model = "maxmin";
  bool oversubscribe = false;
};

Results run(const std::string& platform, Workload& workload, const RunOptions& options = {});
Results run_pattern(const std::string& platform, const std::vector<PatternMessage>& messages, int ranks,
                    const RunOptions& options = {});
// The error a run ends with ("(no error)" if none).
std::string run_error(const std::string& platform, Workload& workload, const RunOptions& options = {});

// Message records between src and dst, in completion order.
std::vector<MessageRecord> messages_between(const Results& r, int src, int dst);

}  // namespace contend::test
