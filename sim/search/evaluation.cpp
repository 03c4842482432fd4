#include "sim/search/evaluation.hpp"

#include <fmt/format.h>

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/engine/worker_pool.hpp"

namespace contend {

std::string Evaluation::serialize() const {
  std::string out = fmt::format("{:.17g} {:.17g} {} {}", makespan, mean_rank_time, slowest_rank, rank_times.size());
  for (const auto& l : levels) out += fmt::format(" {} {}", l.messages, l.bytes);
  for (double t : rank_times) out += fmt::format(" {:.17g}", t);
  return out + "\n";
}

Evaluation Evaluation::parse(std::string_view text) {
  std::istringstream in{std::string(text)};
  Evaluation e;
  std::size_t ranks = 0;
  in >> e.makespan >> e.mean_rank_time >> e.slowest_rank >> ranks;
  for (auto& l : e.levels) in >> l.messages >> l.bytes;
  e.rank_times.resize(ranks);
  for (double& t : e.rank_times) in >> t;
  if (!in) throw Error("a simulation's answer could not be read back");
  return e;
}

bool Evaluation::better_than(const Evaluation& other) const {
  if (makespan != other.makespan) return makespan < other.makespan;
  return mean_rank_time < other.mean_rank_time;
}

namespace {

Evaluation evaluation_of(const Results& r) {
  Evaluation e;
  e.levels = r.levels;
  double sum = 0;
  for (const auto& rank : r.ranks) {
    e.rank_times.push_back(rank.total_time);
    sum += rank.total_time;
    if (rank.total_time > e.makespan) {
      e.makespan = rank.total_time;
      e.slowest_rank = rank.rank;
    }
  }
  e.mean_rank_time = r.ranks.empty() ? 0 : sum / static_cast<double>(r.ranks.size());
  return e;
}

Results run_one(const EvaluationSetup& s, const Mapping& mapping, const std::string& name, bool record) {
  auto workload = s.make_workload();
  SimulationOptions options;
  options.model = s.model;
  options.progress = s.progress;
  options.mapping_name = name;
  options.record_messages = record;
  return simulate(*s.platform, mapping, *workload, *s.models, options);
}

}  // namespace

Evaluator::Evaluator(EvaluationSetup setup, int jobs) : setup_(std::move(setup)), jobs_(jobs) {
  if (jobs < 1) throw Error("--jobs must be at least 1, got " + std::to_string(jobs));
}

std::vector<std::optional<Evaluation>> Evaluator::evaluate(const std::vector<Mapping>& mappings,
                                                           const std::vector<std::string>& names) {
  const auto results = WorkerPool(jobs_, deadline_).run(mappings.size(), [&](std::size_t i) {
    return evaluation_of(run_one(setup_, mappings[i], names[i], false)).serialize();
  });
  std::vector<std::optional<Evaluation>> out;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].cut) {
      out.emplace_back();
      continue;
    }
    if (!results[i].ok) throw_job_failure(results[i], "simulating mapping " + names[i]);
    longest_ = std::max(longest_, results[i].wall_seconds);
    out.push_back(Evaluation::parse(results[i].answer));
  }
  for (const auto& e : out) simulations_ += e ? 1 : 0;
  return out;
}

std::pair<Evaluation, CommGraph> Evaluator::evaluate_and_record(const Mapping& mapping, const std::string& name) {
  const auto results = WorkerPool(1).run(1, [&](std::size_t) {
    const Results r = run_one(setup_, mapping, name, true);
    return evaluation_of(r).serialize() + CommGraph(setup_.rank_count, r.messages).serialize();
  });
  if (!results[0].ok) throw_job_failure(results[0], "simulating mapping " + name);
  longest_ = std::max(longest_, results[0].wall_seconds);
  ++simulations_;
  const std::string& answer = results[0].answer;
  const auto split = answer.find('\n');
  return {Evaluation::parse(answer.substr(0, split)), CommGraph::parse(answer.substr(split + 1))};
}

}  // namespace contend
