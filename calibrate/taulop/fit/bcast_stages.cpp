#include "calibrate/taulop/fit/bcast_stages.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"

namespace contend::calibrate {

double NbftParameters::gamma(int channel, int procs) const {
  const auto& table = channel == 0 ? gamma_shared : gamma_network;
  if (procs <= 2) return 1;  // eq. (14): gamma(2) = 1 by definition
  if (table.empty()) {
    throw Error(std::string("no gamma^") + (channel == 0 ? "0 (shared memory)" : "1 (network)") +
                " was measured, but an experiment needs it for an NBFT of " + std::to_string(procs) + " processes");
  }
  if (const auto hit = table.find(procs); hit != table.end()) return hit->second;
  double value = 0;
  if (procs < table.begin()->first || table.size() == 1) {
    // Below the measured range, or a single point: interpolate from gamma(2) = 1.
    const auto& [p, g] = *table.begin();
    value = p == 2 ? g : 1 + (g - 1) * (procs - 2) / static_cast<double>(p - 2);
  } else {
    auto upper = table.lower_bound(procs);
    if (upper == table.end()) --upper;  // beyond: the last two points
    auto lower = std::prev(upper);
    value = lower->second +
            (upper->second - lower->second) * (procs - lower->first) / static_cast<double>(upper->first - lower->first);
  }
  return std::clamp(value, 1.0, static_cast<double>(procs - 1));
}

Coefficients operator+(const Coefficients& a, const Coefficients& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]};
}

Coefficients operator*(double k, const Coefficients& a) { return {k * a[0], k * a[1], k * a[2], k * a[3]}; }

Coefficients p2p_coefficients(int channel) {
  if (channel == 0) return {1, 0, 2, 0};
  return {0, 1, 2, 1};
}

namespace {

int channel_between(const std::vector<int>& node_of_rank, int a, int b) {
  return node_of_rank[static_cast<std::size_t>(a)] == node_of_rank[static_cast<std::size_t>(b)] ? 0 : 1;
}

// Eqs. (4) and (8): one NBFT's cost.
Stage nbft_cost(int procs, int network_transfers, const NbftParameters& nbft) {
  if (network_transfers == 0) {
    const double gamma = nbft.gamma(0, procs);
    if (nbft.literal_eq18) return Stage{gamma / nbft.q, (gamma / nbft.q) * p2p_coefficients(1)};
    return Stage{gamma / nbft.q, gamma * p2p_coefficients(0)};
  }
  const int equivalent = network_transfers + static_cast<int>(std::floor((procs - network_transfers - 1) / nbft.q)) + 1;
  const double gamma = nbft.gamma(1, equivalent);
  return Stage{gamma, gamma * p2p_coefficients(1)};
}

std::uint64_t segments_of(std::uint64_t bytes, std::uint64_t segment) {
  // Open MPI sends the whole buffer at once when segsize >= the message (coll_base_util segcount).
  if (segment == 0 || segment >= bytes) return 1;
  return (bytes + segment - 1) / segment;
}

Coefficients tree_bcast(const Tree& tree, std::uint64_t segments, const std::vector<int>& nodes,
                        const NbftParameters& nbft) {
  Coefficients total{};
  for (const auto& stage : nbft_stages(tree, static_cast<int>(segments), nodes, nbft))
    total = total + stage.coefficients;
  return total;
}

// Eq. (13): forwarding of each half down its subtree, then the exchange of
// halves between partners (v odd with v + 1; for even P, the last rank gets
// the right half from the root), max_c T_p2p^c(m/2). T_p2p^c(m/2) is taken
// as (m/2)/m_s times T_p2p^c(m_s): the paper gives the parameters for m_s only.
Coefficients split_binary_bcast(const Experiment& e, const NbftParameters& nbft) {
  const int p = e.procs();
  const std::uint64_t left = (e.size + 1) / 2;  // Open MPI's first half: ceil(m / 2)
  const Tree tree = binary_tree(p);
  const std::uint64_t segments = segments_of(left, e.segment);
  Coefficients forward = tree_bcast(tree, segments, e.node_of_rank, nbft);
  int exchange_channel = 0;
  for (int v = 1; v < p; v += 2) {
    const int partner = v + 1 < p ? v + 1 : 0;
    exchange_channel = std::max(exchange_channel, channel_between(e.node_of_rank, v, partner));
  }
  const double half_segments = static_cast<double>(left) / static_cast<double>(e.segment);
  return forward + half_segments * p2p_coefficients(exchange_channel);
}

}  // namespace

std::vector<Stage> nbft_stages(const Tree& tree, int segments, const std::vector<int>& node_of_rank,
                               const NbftParameters& nbft) {
  const auto& depth = tree.depth;
  // tree.height: the stages one segment takes to reach the deepest leaf.
  std::vector<Stage> stages(static_cast<std::size_t>(std::max(0, tree.height + segments - 1)));
  for (int v = 0; v < tree.size(); ++v) {
    const auto& kids = tree.children[static_cast<std::size_t>(v)];
    if (kids.empty()) continue;
    int network = 0;
    for (int c : kids) network += channel_between(node_of_rank, v, c);
    const Stage cost = nbft_cost(static_cast<int>(kids.size()) + 1, network, nbft);
    // Node v sends segment s in stage depth(v) + s (0-based).
    for (int s = 0; s < segments; ++s) {
      auto& stage = stages[static_cast<std::size_t>(depth[static_cast<std::size_t>(v)] + s)];
      if (cost.factor > stage.factor) stage = cost;
    }
  }
  return stages;
}

Coefficients bcast_coefficients(const Experiment& e, const NbftParameters& nbft) {
  const int p = e.procs();
  if (p < 2) throw Error("a broadcast experiment needs at least 2 processes");
  if (e.segment == 0) throw Error("the segment size m_s must be positive");
  const std::uint64_t segments = segments_of(e.size, e.segment);
  switch (e.algorithm) {
    case BcastAlgorithm::Linear: {
      // Eq. (1): P - 1 blocking point-to-point sends of the whole message,
      // T_p2p^c(m) taken as (m / m_s) T_p2p^c(m_s).
      Coefficients sum{};
      const double per_message = static_cast<double>(e.size) / static_cast<double>(e.segment);
      for (int r = 1; r < p; ++r) sum = sum + per_message * p2p_coefficients(channel_between(e.node_of_rank, 0, r));
      return sum;
    }
    case BcastAlgorithm::Chain:
      return tree_bcast(chain_tree(p, 1), segments, e.node_of_rank, nbft);
    case BcastAlgorithm::KChain:
      return tree_bcast(chain_tree(p, e.fanout), segments, e.node_of_rank, nbft);
    case BcastAlgorithm::Binary:
      return tree_bcast(binary_tree(p), segments, e.node_of_rank, nbft);
    case BcastAlgorithm::Binomial:
      return tree_bcast(binomial_tree(p), segments, e.node_of_rank, nbft);
    case BcastAlgorithm::SplitBinary: {
      // Open MPI falls back to the chain (fanout 1) when a half is empty or smaller than a segment.
      const std::uint64_t left = (e.size + 1) / 2, right = e.size - left;
      if (right == 0 || e.segment > right || e.segment > left) {
        return tree_bcast(chain_tree(p, 1), segments, e.node_of_rank, nbft);
      }
      return split_binary_bcast(e, nbft);
    }
  }
  throw Error("internal error: unknown broadcast algorithm");
}

Coefficients flat_gather_coefficients(const std::vector<int>& node_of_rank) {
  Coefficients sum{};
  for (int r = 1; r < static_cast<int>(node_of_rank.size()); ++r)
    sum = sum + p2p_coefficients(channel_between(node_of_rank, 0, r));
  return sum;
}

Coefficients experiment_coefficients(const Experiment& e, const NbftParameters& nbft) {
  return bcast_coefficients(e, nbft) + flat_gather_coefficients(e.node_of_rank);
}

}  // namespace contend::calibrate
