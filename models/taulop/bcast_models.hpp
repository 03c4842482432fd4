#pragma once
// Nuriyev, Rico-Gallego, Lastovetsky, "Model-based selection of optimal MPI
// broadcast algorithms for multi-core clusters", JPDC 2022, Sec. 4: analytical
// models of Open MPI's six broadcast algorithms, each point-to-point message
// a tau-Lop sequence of transfers, each tree stage a set of concurrent
// non-blocking flat trees (NBFTs) whose slowest one sets the stage time.
//
// Where the paper leaves room: H + n_s - 1 stages, H the height of the actual
// Open MPI tree (k-chain ceil((P-1)/K), split-binary floor(log2 P)); eq. 4's
// "+ 1" kept; n_s = ceil(m / m_s); root 0. Why: models/taulop/README.md.
#include <array>
#include <vector>

#include "models/taulop/bcast_trees.hpp"
#include "models/taulop/parameters.hpp"
#include "sim/core/mapping.hpp"

namespace contend::taulop {

// T^0_p2p(m) = o^0 + 2 L^0, T^1_p2p(m) = o^1 + 2 L^0 + L^1 (Sec. 4).
double p2p_time(const AlgorithmParameters& a, Channel c, double bytes);

class BcastModels {
 public:
  // `mapping` places ranks 0..P-1 (P = mapping.rank_count()).
  BcastModels(const Parameters& parameters, const Mapping& mapping);

  int procs() const { return mapping_.rank_count(); }
  Channel channel(int from, int to) const;

  // Eqs. (4) and (8): an NBFT of `nodes` nodes (root included) with
  // `network` children reached through the network, one segment each.
  double nbft_time(const AlgorithmParameters& a, int nodes, int network) const;
  // Eqs. (9)-(12): sum over the H + n_s - 1 stages of the slowest NBFT.
  double pipelined_tree_time(const BcastTree& tree, const AlgorithmParameters& a, std::uint64_t segments) const;

  double linear(double bytes) const;        // eq. (1)
  double chain(double bytes) const;         // eq. (10)
  double kchain(double bytes) const;        // eq. (12)
  double binary(double bytes) const;        // eq. (11)
  double binomial(double bytes) const;      // eq. (9)
  double split_binary(double bytes) const;  // eq. (13)
  double predict(BcastAlgorithm algorithm, double bytes) const;

  std::uint64_t segments(double bytes) const;  // n_s = ceil(m / m_s), at least 1
  // The largest NBFT (nodes, after eq. 4's replacement) evaluated so far on
  // channel c: beyond gamma^c's last point the factor is extrapolated.
  int largest_nbft(Channel c) const { return largest_nbft_[c]; }

 private:
  const Parameters& parameters_;
  const Mapping& mapping_;
  BcastTree binomial_, binary_, chain_, kchain_;
  mutable std::array<int, 2> largest_nbft_{0, 0};
};

}  // namespace contend::taulop
