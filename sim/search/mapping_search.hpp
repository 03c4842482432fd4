#pragma once
// `contend mapping search`: the mapping with the lowest simulated makespan
// that a budget finds (docs/mappings.md, "Searching a mapping").
//  1. One simulation under block records the communication graph.
//  2. Starting points (starting_points.hpp) are simulated; the best is the
//     incumbent.
//  3. Rounds: the surrogate ranks proposals around the incumbent
//     (local_search.hpp), the best few of them (a batch of fixed size) are
//     simulated in parallel, the best simulated one replaces the incumbent
//     if its makespan (then mean rank time) is lower.
//  4. The search stops when `patience` rounds in a row found nothing better
//     (converged), when the next round would overrun the time budget, or at
//     the evaluation cap.
// The candidates depend on the seed and on what was simulated, never on
// the number of workers: with the same seed, a search that converges (or
// stops at the same cap) gives the same mapping whatever --jobs is.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/hosts.hpp"
#include "sim/search/evaluation.hpp"
#include "sim/search/surrogate.hpp"

namespace contend {

struct SearchOptions {
  double budget_seconds = 60;
  int jobs = 1;
  std::uint64_t seed = 1;
  int max_evaluations = 0;                      // simulations; 0: no cap
  int batch = 8;                                // candidates simulated per round
  int patience = 4;                             // rounds without a better mapping before stopping
  std::function<void(const std::string&)> log;  // progress lines, if set
};

struct ScoredMapping {
  std::string name;
  Mapping mapping;
  Evaluation evaluation;
};

struct SearchResult {
  ScoredMapping best;
  ScoredMapping block;
  // Absent when it does not fit one rank per core or the budget ended first.
  std::optional<ScoredMapping> ompi_default;
  std::vector<ScoredMapping> starts;   // every starting point simulated, in that order
  std::size_t unsimulated_starts = 0;  // starting points the budget left out
  CommGraph graph;
  int rounds = 0;
  int simulations = 0;
  double wall_seconds = 0;
  std::string stopped;  // why the search stopped
};

SearchResult search_mapping(const EvaluationSetup& setup, const Machine& machine, const SearchOptions& options);

}  // namespace contend
