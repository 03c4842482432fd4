#pragma once
// Simulating candidate mappings, each in a child process of its own
// (SimGrid allows one engine per process; sim/engine/worker_pool.hpp), at
// most N at a time, results in candidate order whatever N is.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/worker_pool.hpp"
#include "sim/engine/workload.hpp"
#include "sim/search/comm_graph.hpp"

namespace contend {

// What a simulation of the workload needs, mapping aside.
struct EvaluationSetup {
  const Platform* platform = nullptr;
  const ModelRegistry* models = nullptr;
  std::string model = "maxmin";
  std::optional<Progress> progress;
  int rank_count = 0;
  // Builds a fresh workload; called in each child (trace readers open their files there).
  std::function<std::unique_ptr<Workload>()> make_workload;
};

// One mapping's simulated outcome.
struct Evaluation {
  double makespan = 0;
  double mean_rank_time = 0;
  int slowest_rank = 0;
  std::array<LevelStats, 3> levels{};
  std::vector<double> rank_times;  // each rank's total time

  std::string serialize() const;
  static Evaluation parse(std::string_view text);
  // The search's order: makespan first, then the mean rank time.
  bool better_than(const Evaluation& other) const;
};

class Evaluator {
 public:
  Evaluator(EvaluationSetup setup, int jobs);

  // Simulates each mapping (names label them in the runs and in errors);
  // throws contend::Error naming the first that failed. A simulation the
  // deadline cuts (killed, or not started) has no evaluation.
  std::vector<std::optional<Evaluation>> evaluate(const std::vector<Mapping>& mappings,
                                                  const std::vector<std::string>& names);
  // From now on, simulations still running at `deadline` are killed.
  void set_deadline(WorkerPool::Deadline deadline) { deadline_ = deadline; }
  // One simulation that also records the messages: its evaluation and the
  // workload's communication graph.
  std::pair<Evaluation, CommGraph> evaluate_and_record(const Mapping& mapping, const std::string& name);

  int simulations() const { return simulations_; }
  // The longest wall time one simulation has taken so far, seconds.
  double longest_simulation() const { return longest_; }
  int jobs() const { return jobs_; }
  const EvaluationSetup& setup() const { return setup_; }

 private:
  EvaluationSetup setup_;
  int jobs_;
  int simulations_ = 0;
  double longest_ = 0;
  std::optional<WorkerPool::Deadline> deadline_;
};

}  // namespace contend
