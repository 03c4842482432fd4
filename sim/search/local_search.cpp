#include "sim/search/local_search.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace contend {

std::uint64_t SearchRandom::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

ProposalBudget proposal_budget(const CommGraph& graph) {
  // One surrogate evaluation costs about (ranks + edges) operations.
  const double size = static_cast<double>(graph.ranks()) + static_cast<double>(graph.edges().size());
  const int evaluations = static_cast<int>(std::clamp(2e7 / std::max(size, 1.0), 64.0, 2000.0));
  ProposalBudget b;
  // Chains of 1, 2, 4 and 8 steps in turn: 3.75 steps on average.
  b.samples_per_step = std::clamp(evaluations / (32 * 4), 2, 16);
  b.chains = std::clamp(static_cast<int>(evaluations / (3.75 * b.samples_per_step)), 8, 32);
  return b;
}

namespace {

// Bytes from `rank` to the ranks of `socket`.
double affinity(const CommGraph& g, const SocketAssignment& a, int rank, int socket) {
  double sum = 0;
  for (const auto& n : g.neighbours(rank))
    if (a.socket_of(n.rank) == socket) sum += n.bytes;
  return sum;
}

class MoveMaker {
 public:
  MoveMaker(const CommGraph& g, const std::vector<double>& rank_times, SearchRandom& random) : g_(g), random_(random) {
    std::vector<int> order(static_cast<std::size_t>(g.ranks()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return rank_times[static_cast<std::size_t>(a)] > rank_times[static_cast<std::size_t>(b)];
    });
    const std::size_t keep = std::min(order.size(), std::max<std::size_t>(4, order.size() / 20));
    critical_.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep));
  }

  // One random swap or move applied to `a`: a slow rank (or any), towards
  // the socket of a partner chosen by bytes (or any other socket).
  void apply_one(SocketAssignment& a) {
    if (a.sockets() < 2) return;
    const int rank = random_.unit() < 0.6 ? critical_[random_.below(critical_.size())]
                                          : static_cast<int>(random_.below(static_cast<std::size_t>(a.ranks())));
    const int from = a.socket_of(rank);
    int target = -1;
    const auto& partners = g_.neighbours(rank);
    if (!partners.empty() && random_.unit() < 0.7) {
      double total = 0;
      for (const auto& p : partners) total += p.bytes;
      double pick = random_.unit() * total;
      for (const auto& p : partners) {
        target = a.socket_of(p.rank);
        if ((pick -= p.bytes) <= 0) break;
      }
    }
    if (target < 0 || target == from) {
      target = static_cast<int>(random_.below(static_cast<std::size_t>(a.sockets() - 1)));
      if (target >= from) ++target;
    }
    const auto& members = a.members(target);
    if (a.free(target) > 0 && (members.empty() || random_.unit() < 0.5)) {
      a.move(rank, target);
      return;
    }
    // Swap with the member (of a few sampled) that belongs there least.
    int other = -1;
    double least = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 4; ++k) {
      const int m = members[random_.below(members.size())];
      const double here = affinity(g_, a, m, target);
      if (here < least || (here == least && m < other)) {
        least = here;
        other = m;
      }
    }
    a.swap(rank, other);
  }

 private:
  const CommGraph& g_;
  SearchRandom& random_;
  std::vector<int> critical_;
};

}  // namespace

std::vector<Proposal> propose(const SocketAssignment& incumbent, const std::vector<double>& rank_times,
                              const CommGraph& graph, const Surrogate& surrogate, const ProposalBudget& budget,
                              SearchRandom& random) {
  MoveMaker maker(graph, rank_times, random);
  std::vector<Proposal> out;
  for (int chain = 0; chain < budget.chains; ++chain) {
    SocketAssignment current = incumbent;
    double score = 0;
    const int steps = 1 << (chain % 4);
    for (int step = 0; step < steps; ++step) {
      // The best of a few sampled moves, even if it is worse than standing
      // still: a chain may cross a ridge the closed forms see.
      std::optional<SocketAssignment> best;
      double best_score = std::numeric_limits<double>::infinity();
      for (int s = 0; s < budget.samples_per_step; ++s) {
        SocketAssignment next = current;
        maker.apply_one(next);
        const double sc = surrogate.score(next.to_mapping());
        if (sc < best_score) {
          best_score = sc;
          best = std::move(next);
        }
      }
      current = std::move(*best);
      score = best_score;
    }
    if (current == incumbent) continue;
    if (std::any_of(out.begin(), out.end(), [&](const Proposal& p) { return p.assignment == current; })) continue;
    out.push_back(Proposal{std::move(current), score, steps});
  }
  std::stable_sort(out.begin(), out.end(), [](const Proposal& a, const Proposal& b) { return a.score < b.score; });
  return out;
}

}  // namespace contend
