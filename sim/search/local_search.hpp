#pragma once
// The neighbours of a mapping worth simulating: short chains of swaps and
// moves, each step the best of a few sampled ones by the surrogate (a
// steepest-descent step on the closed forms). Moves favour the ranks the
// last simulation found slowest and pull a rank next to the partners it
// exchanges the most bytes with. Everything draws from a generator seeded
// by (seed, round): the same seed gives the same candidates.
#include <cstdint>
#include <vector>

#include "sim/search/comm_graph.hpp"
#include "sim/search/socket_assignment.hpp"
#include "sim/search/surrogate.hpp"

namespace contend {

// SplitMix64: portable, so a seed means the same search on every machine.
class SearchRandom {
 public:
  explicit SearchRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

struct Proposal {
  SocketAssignment assignment;
  double score;  // the surrogate's
  int moves;     // applied to the incumbent
};

struct ProposalBudget {
  int chains = 32;            // candidates built per round
  int samples_per_step = 16;  // moves the surrogate compares at each step
};

// `rank_times`: the incumbent's simulated time per rank (its slowest ranks
// are moved first). Returns distinct proposals, best surrogate score first.
std::vector<Proposal> propose(const SocketAssignment& incumbent, const std::vector<double>& rank_times,
                              const CommGraph& graph, const Surrogate& surrogate, const ProposalBudget& budget,
                              SearchRandom& random);

// Budget for a round, from the problem's size: about 2000 surrogate
// evaluations at 64-512 ranks, fewer for larger graphs.
ProposalBudget proposal_budget(const CommGraph& graph);

}  // namespace contend
