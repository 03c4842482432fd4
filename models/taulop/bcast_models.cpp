#include "models/taulop/bcast_models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace contend::taulop {

double p2p_time(const AlgorithmParameters& a, Channel c, double bytes) {
  const double copies = 2 * a.L0(bytes);  // through the intermediate buffer, or to and from the NIC
  if (c == kSharedMemory) return a.o0(bytes) + copies;
  return a.o1(bytes) + copies + a.L1(bytes);
}

BcastModels::BcastModels(const Parameters& parameters, const Mapping& mapping)
    : parameters_(parameters),
      mapping_(mapping),
      binomial_(binomial_tree(mapping.rank_count())),
      binary_(binary_tree(mapping.rank_count())),
      chain_(chain_tree(mapping.rank_count(), 1)),
      kchain_(chain_tree(mapping.rank_count(), parameters.kchain_fanout)) {}

Channel BcastModels::channel(int from, int to) const {
  return mapping_[from].node == mapping_[to].node ? kSharedMemory : kNetwork;
}

std::uint64_t BcastModels::segments(double bytes) const {
  const double n = std::ceil(bytes / static_cast<double>(parameters_.segment_size));
  // The pipelined models take a stage per segment: bounded as the simulated
  // collectives are (sim/collectives/context.hpp).
  if (n > static_cast<double>(limits::kMaxSegments)) {
    throw LimitError(limits::exceeds(
        fmt::format("a broadcast of {:.0f} B in segments of {} B: {:.0f} segments", bytes, parameters_.segment_size, n),
        limits::kMaxSegmentsText));
  }
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(n));
}

double BcastModels::nbft_time(const AlgorithmParameters& a, int nodes, int network) const {
  const double ms = static_cast<double>(parameters_.segment_size);
  if (network == 0) {
    largest_nbft_[kSharedMemory] = std::max(largest_nbft_[kSharedMemory], nodes);
    return parameters_.channels[kSharedMemory].gamma(nodes) * p2p_time(a, kSharedMemory, ms);  // eq. (8), c = 0
  }
  // Eq. (4): every Q shared-memory children weigh as one network child.
  const double q = parameters_.q(ms);
  const int equivalent = network + static_cast<int>(std::floor((nodes - network - 1) / q)) + 1;
  largest_nbft_[kNetwork] = std::max(largest_nbft_[kNetwork], equivalent);
  return parameters_.channels[kNetwork].gamma(equivalent) * p2p_time(a, kNetwork, ms);  // eq. (8), c = 1
}

double BcastModels::pipelined_tree_time(const BcastTree& tree, const AlgorithmParameters& a,
                                        std::uint64_t segments) const {
  if (tree.height == 0) return 0;
  // The slowest NBFT among the internal nodes of each depth: a node at depth
  // d sends segment s in stage d + s, so stage i runs depths i - n_s .. i - 1.
  std::vector<double> slowest(static_cast<std::size_t>(tree.height), 0.0);
  for (int v = 0; v < tree.size(); ++v) {
    const auto& kids = tree.children[static_cast<std::size_t>(v)];
    if (kids.empty()) continue;
    const int network = static_cast<int>(
        std::count_if(kids.begin(), kids.end(), [&](int child) { return channel(v, child) == kNetwork; }));
    double& m = slowest[static_cast<std::size_t>(tree.depth[static_cast<std::size_t>(v)])];
    m = std::max(m, nbft_time(a, static_cast<int>(kids.size()) + 1, network));
  }
  const long long stages = tree.height + static_cast<long long>(segments) - 1;
  double total = 0;
  for (long long i = 1; i <= stages; ++i) {
    const long long first = std::max(0LL, i - static_cast<long long>(segments));
    const long long last = std::min<long long>(i - 1, tree.height - 1);
    double stage = 0;
    for (long long d = first; d <= last; ++d) stage = std::max(stage, slowest[static_cast<std::size_t>(d)]);
    total += stage;
  }
  return total;
}

double BcastModels::linear(double bytes) const {
  const AlgorithmParameters a = parameters_.for_algorithm(BcastAlgorithm::Linear);
  double total = 0;
  for (int i = 1; i < procs(); ++i) total += p2p_time(a, channel(0, i), bytes);  // eq. (1): one send after another
  return total;
}

double BcastModels::chain(double bytes) const {
  return pipelined_tree_time(chain_, parameters_.for_algorithm(BcastAlgorithm::Chain), segments(bytes));
}

double BcastModels::kchain(double bytes) const {
  return pipelined_tree_time(kchain_, parameters_.for_algorithm(BcastAlgorithm::KChain), segments(bytes));
}

double BcastModels::binary(double bytes) const {
  return pipelined_tree_time(binary_, parameters_.for_algorithm(BcastAlgorithm::Binary), segments(bytes));
}

double BcastModels::binomial(double bytes) const {
  return pipelined_tree_time(binomial_, parameters_.for_algorithm(BcastAlgorithm::Binomial), segments(bytes));
}

double BcastModels::split_binary(double bytes) const {
  const AlgorithmParameters a = parameters_.for_algorithm(BcastAlgorithm::SplitBinary);
  const double half = std::ceil(bytes / 2);
  // Forwarding phase: each subtree pipelines its half; the root's NBFT sends
  // one segment to each child per stage.
  const double forwarding = pipelined_tree_time(binary_, a, segments(half));
  // Exchange phase: left node v (odd) swaps halves with v + 1; for even P the
  // last left node gets the right half from the root. The slowest pair counts.
  double exchange = 0;
  for (int v = 1; v < procs(); v += 2) {
    const int partner = v + 1 < procs() ? v + 1 : 0;
    exchange = std::max(exchange, p2p_time(a, channel(v, partner), half));
  }
  return forwarding + exchange;
}

double BcastModels::predict(BcastAlgorithm algorithm, double bytes) const {
  switch (algorithm) {
    case BcastAlgorithm::Linear:
      return linear(bytes);
    case BcastAlgorithm::Chain:
      return chain(bytes);
    case BcastAlgorithm::KChain:
      return kchain(bytes);
    case BcastAlgorithm::SplitBinary:
      return split_binary(bytes);
    case BcastAlgorithm::Binary:
      return binary(bytes);
    case BcastAlgorithm::Binomial:
      return binomial(bytes);
  }
  return 0;
}

}  // namespace contend::taulop
