#include "sim/search/mapping_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/search/local_search.hpp"
#include "sim/search/socket_assignment.hpp"
#include "sim/search/starting_points.hpp"

namespace contend {
namespace {

using Clock = std::chrono::steady_clock;

const ScoredMapping& best_of(const std::vector<ScoredMapping>& all) {
  const ScoredMapping* best = &all.front();
  for (const auto& s : all)
    if (s.evaluation.better_than(best->evaluation)) best = &s;
  return *best;
}

// The starting points other than block, each placement once.
std::vector<NamedMapping> other_starts(const CommGraph& graph, const Machine& machine, std::uint64_t seed,
                                       std::vector<NamedMapping>& launchers) {
  const NodeArchitecture& nodes = machine.nodes();
  std::vector<NamedMapping> out(launchers.begin() + 1, launchers.end());
  auto add = [&](const std::string& name, Mapping m) {
    for (auto& known : launchers)
      if (same_sockets(known.mapping, m)) return;
    for (auto& known : out)
      if (same_sockets(known.mapping, m)) return;
    out.push_back({name, std::move(m)});
  };
  for (bool spread : {false, true}) {
    const std::string layout = spread ? "spread" : "packed";
    add("metis-" + layout, partitioned_mapping(graph, nodes, spread, seed));
    add("greedy-" + layout, grouped_mapping(graph, nodes, spread));
  }
  return out;
}

}  // namespace

SearchResult search_mapping(const EvaluationSetup& setup, const Machine& machine, const SearchOptions& o) {
  const auto begin = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - begin).count(); };
  auto log = [&](const std::string& line) {
    if (o.log) o.log(fmt::format("[{:7.1f} s] {}", elapsed(), line));
  };
  const NodeArchitecture& nodes = machine.nodes();
  const int ranks = setup.rank_count;
  if (ranks > nodes.total_cores()) {
    throw Error(fmt::format("the search places one rank per core: {} ranks but the platform has {} cores", ranks,
                            nodes.total_cores()));
  }
  if (o.batch < 1 || o.patience < 1) throw Error("the search needs a batch and a patience of at least 1");
  Evaluator evaluator(setup, o.jobs);
  SearchResult out;

  // 1. The communication graph, from the block run that is also the baseline.
  auto launchers = launcher_mappings(ranks, machine);
  log("simulating " + launchers.front().name + " (records the communication graph)");
  auto [block_evaluation, graph] = evaluator.evaluate_and_record(launchers.front().mapping, "block");
  out.block = {"block", launchers.front().mapping, block_evaluation};
  out.graph = std::move(graph);
  const Surrogate surrogate(*setup.platform, out.graph);
  // From here the budget is a hard limit: simulations still running when it
  // ends are killed (their candidates dropped), none starts after it.
  evaluator.set_deadline(begin +
                         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.budget_seconds)));

  // 2. The starting points: Open MPI's default first (the gain is reported
  // against it), then the others by surrogate score, simulated `jobs` at a
  // time while the budget lasts (a large workload may afford only a few).
  auto starts = other_starts(out.graph, machine, o.seed, launchers);
  std::stable_sort(starts.begin(), starts.end(), [&](const NamedMapping& a, const NamedMapping& b) {
    const bool a_default = a.name.find("ompi:default") != std::string::npos;
    const bool b_default = b.name.find("ompi:default") != std::string::npos;
    if (a_default != b_default) return a_default;
    return surrogate.score(a.mapping) < surrogate.score(b.mapping);
  });
  out.starts.push_back({launchers.front().name, launchers.front().mapping, block_evaluation});
  const std::size_t wave = static_cast<std::size_t>(std::max(o.jobs, 1));
  std::size_t skipped = 0;
  // A wave or round is expected to last as long as the last one did (its
  // proposals, child processes and results included), at least as long as
  // its slowest simulation: the search stops before the one that would pass
  // the budget.
  double last_wave = 0;
  for (std::size_t first = 0; first < starts.size(); first += wave) {
    if (first > 0 && elapsed() + std::max(evaluator.longest_simulation(), last_wave) > o.budget_seconds) {
      skipped = starts.size() - first;
      break;
    }
    std::vector<Mapping> mappings;
    std::vector<std::string> names;
    for (std::size_t i = first; i < std::min(first + wave, starts.size()); ++i) {
      mappings.push_back(starts[i].mapping);
      names.push_back(starts[i].name);
    }
    log(fmt::format("simulating starting points: {}", fmt::join(names, ", ")));
    const double wave_start = elapsed();
    const auto evaluations = evaluator.evaluate(mappings, names);
    last_wave = elapsed() - wave_start;
    std::size_t cut = 0;
    for (std::size_t i = 0; i < mappings.size(); ++i) {
      if (evaluations[i]) {
        out.starts.push_back({names[i], mappings[i], *evaluations[i]});
      } else {
        ++cut;
      }
    }
    if (cut > 0) {
      skipped = starts.size() - first - (mappings.size() - cut);
      break;
    }
  }
  if (skipped > 0) log(fmt::format("the budget leaves {} starting points unsimulated", skipped));
  out.unsimulated_starts = skipped;
  for (const auto& s : out.starts) {
    if (s.name.find("ompi:default") != std::string::npos)
      out.ompi_default = ScoredMapping{"ompi:default", s.mapping, s.evaluation};
  }
  ScoredMapping incumbent = best_of(out.starts);
  log(fmt::format("best start: {} ({})", incumbent.name, units::format_duration(incumbent.evaluation.makespan)));

  // 3. Rounds of surrogate-ranked proposals, simulated in batches.
  const ProposalBudget budget = proposal_budget(out.graph);
  const std::string origin = incumbent.name.substr(0, incumbent.name.find(" = "));
  int stalled = 0;
  double last_round = 0;
  while (true) {
    int batch = o.batch;
    if (o.max_evaluations > 0) {
      batch = std::min(batch, o.max_evaluations - evaluator.simulations());
      if (batch <= 0) {
        out.stopped = fmt::format("the evaluation cap ({} simulations)", o.max_evaluations);
        break;
      }
    }
    const double round_time = std::max(evaluator.longest_simulation() * ((batch + o.jobs - 1) / o.jobs), last_round);
    if (elapsed() + round_time > o.budget_seconds) {
      out.stopped = fmt::format("the time budget ({:g} s; a round takes about {:.1f} s)", o.budget_seconds, round_time);
      break;
    }
    const double round_start = elapsed();
    SearchRandom random(o.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(out.rounds) + 1);
    auto proposals = propose(SocketAssignment::of(incumbent.mapping, nodes), incumbent.evaluation.rank_times, out.graph,
                             surrogate, budget, random);
    if (proposals.empty()) {
      out.stopped = "no new candidates around the best mapping";
      break;
    }
    if (static_cast<int>(proposals.size()) > batch) proposals.erase(proposals.begin() + batch, proposals.end());
    std::vector<Mapping> mappings;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < proposals.size(); ++i) {
      mappings.push_back(proposals[i].assignment.to_mapping());
      names.push_back(fmt::format("round {} candidate {}", out.rounds + 1, i));
    }
    const auto results = evaluator.evaluate(mappings, names);
    last_round = elapsed() - round_start;
    ++out.rounds;
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i] && (!best || results[i]->better_than(*results[*best]))) best = i;
    const bool cut = std::any_of(results.begin(), results.end(), [](const auto& r) { return !r.has_value(); });
    if (best && results[*best]->better_than(incumbent.evaluation)) {
      incumbent = ScoredMapping{origin + " refined", mappings[*best], *results[*best]};
      stalled = 0;
      log(fmt::format("round {}: {} ({} moves)", out.rounds, units::format_duration(results[*best]->makespan),
                      proposals[*best].moves));
    } else if (!cut && ++stalled >= o.patience) {
      out.stopped = fmt::format("converged ({} rounds without a better mapping)", o.patience);
      break;
    }
    if (cut) {
      out.stopped =
          fmt::format("the time budget ({:g} s; simulations still running at its end were stopped)", o.budget_seconds);
      break;
    }
  }
  out.best = std::move(incumbent);
  out.simulations = evaluator.simulations();
  out.wall_seconds = elapsed();
  return out;
}

}  // namespace contend
