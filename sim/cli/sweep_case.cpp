#include "sim/cli/sweep_case.hpp"

#include <algorithm>
#include <chrono>

#include "models/registry.hpp"
#include "sim/cli/simulate_run.hpp"
#include "sim/core/sweep_rows.hpp"

namespace contend::cli {
namespace {

SimulateRequest request_of(const SweepCase& c) {
  SimulateRequest r;
  r.mapping = c.mapping;
  r.model = c.model;
  r.progress = c.progress;
  r.hosts = c.hosts;
  r.workload.pattern = c.pattern;
  r.workload.trace = c.trace;
  r.workload.compute = c.compute;
  r.workload.ompi = c.ompi;
  r.workload.coll = c.coll;
  r.oversubscribe = c.oversubscribe;
  r.time_limit = c.time_limit;
  return r;
}

CaseOutcome outcome_of(const Results& results) {
  CaseOutcome o;
  o.ok = true;
  o.makespan = results.makespan();
  if (!results.ranks.empty()) {
    double sum = 0;
    o.min_rank_time = results.ranks.front().total_time;
    o.max_rank_time = o.min_rank_time;
    for (const auto& rank : results.ranks) {
      sum += rank.total_time;
      o.min_rank_time = std::min(o.min_rank_time, rank.total_time);
      o.max_rank_time = std::max(o.max_rank_time, rank.total_time);
    }
    o.mean_rank_time = sum / static_cast<double>(results.ranks.size());
  }
  o.messages = results.total_messages();
  for (std::size_t l = 0; l < 3; ++l) o.level_bytes[l] = results.levels[l].bytes;
  return o;
}

}  // namespace

std::string run_sweep_case(const SweepCase& c) {
  const auto begin = std::chrono::steady_clock::now();
  CaseOutcome outcome;
  try {
    const Platform platform = parse_platform(YamlField::load_string(platform_text(c), c.platform));
    outcome = outcome_of(run_simulation(platform, request_of(c)).results);
  } catch (const Error& e) {
    outcome.ok = false;
    outcome.error = e.what();
  } catch (const std::exception& e) {
    outcome.ok = false;
    outcome.error = std::string("internal error: ") + e.what();
  }
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return encode_outcome(outcome);
}

void check_sweep_models(const SweepSpec& spec) {
  for (const auto& value : spec.values) {
    if (value.key != "model") continue;
    try {
      all_models().get(value.value);
    } catch (const Error& e) {
      throw Error(value.where, "model: " + std::string(e.what()));
    }
  }
}

}  // namespace contend::cli
