#pragma once
// The equations behind the tau-Lop parameter estimation (Nuriyev et al.
// 2022): for one experiment (a broadcast of m bytes by one Open MPI algorithm
// on P ranks, followed by a flat gather of one segment, eq. (16)), the
// coefficients lambda of o^0, o^1, L^0, L^1 in eq. (19).
//
// Broadcasts are split into stages of concurrent non-blocking flat trees
// (NBFTs, Sec. 4): a node of depth d of the virtual tree sends segment s to
// its children in stage d + s + 1, so a tree of height H sending n_s segments
// takes H + n_s - 1 stages (eqs. (9)-(13)). A stage costs its slowest NBFT
// (eqs. (4), (8)):
//   gamma^0(P_j) T_p2p^0(m_s)   if the NBFT has no network transfer (C_j = 0)
//   gamma^1(P^o_j) T_p2p^1(m_s) otherwise, P^o_j = C_j + floor((P_j - C_j - 1) / Q) + 1.
// Which NBFT is slowest is decided with T^0 = T^1 / Q (eq. (3)), as eq. (18)
// does. Choices where the paper leaves room:
// - Eq. (18) also writes the cost of a shared-memory NBFT as
//   gamma^0 / Q * T_p2p^1, so that o^1 and L^1 absorb shared-memory time.
//   The analytical models evaluate gamma^0 T_p2p^0 = gamma^0 (o^0 + 2 L^0)
//   (eq. (8), and contend's taulop model), and parameters fitted through
//   eq. (18) do not reproduce the measured times there (on one node they
//   would even give the network parameters from shared-memory runs). We fit
//   the form the models evaluate; `literal_eq18` selects eq. (18) as printed.
// - Eq. (18) prints P^o without the "+ 1" of eq. (4); we follow eq. (4),
//   whose argument counts the root, so that a two-node NBFT over the network
//   gets gamma^1(2) = 1.
// - T_p2p^c(m) of a whole message (the linear tree, eq. (1), and the
//   split-binary exchange of m/2, eq. (13)) is (m / m_s) T_p2p^c(m_s): the
//   paper's parameters are those of one segment.
// The trees are Open MPI 4.1's (coll_base_topo.c): models/taulop/bcast_trees.hpp.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/taulop/bcast_trees.hpp"
#include "models/taulop/parameters.hpp"

namespace contend::calibrate {

// The six broadcast algorithms of the paper, with Open MPI's ids (the model's table).
using taulop::bcast_algorithm_info;
using taulop::BcastAlgorithm;

// The virtual trees (Open MPI 4.1's coll_base_topo, rooted at 0: all
// experiments use root 0) are the taulop model's, so that the fit and the
// analytical models it feeds stage the same trees.
using Tree = taulop::BcastTree;
using taulop::binary_tree;
using taulop::binomial_tree;
using taulop::chain_tree;

// Algorithm-independent parameters of Sec. 5.1, measured by the NBFT experiment.
struct NbftParameters {
  std::map<int, double> gamma_shared;   // gamma^0(P) for P >= 2 (gamma(2) = 1 by eq. (14))
  std::map<int, double> gamma_network;  // gamma^1(P)
  double q = 0;                         // Q(m_s), eq. (15)
  bool literal_eq18 = false;            // shared-memory NBFTs as gamma^0 / Q * T_p2p^1 (see above)

  // gamma^c(P): the measured value; beyond the measured range, the line
  // through the last two points, kept within eq. (7)'s bounds [1, P - 1].
  // Throws contend::Error when channel c was not measured.
  double gamma(int channel, int procs) const;
};

// Coefficients of (o^0, o^1, L^0, L^1).
using Coefficients = std::array<double, 4>;
Coefficients operator+(const Coefficients& a, const Coefficients& b);
Coefficients operator*(double k, const Coefficients& a);

// T_p2p^0(m_s) = o^0 + 2 L^0, T_p2p^1(m_s) = o^1 + 2 L^0 + L^1 (Sec. 4).
Coefficients p2p_coefficients(int channel);

struct Experiment {
  BcastAlgorithm algorithm = BcastAlgorithm::Binomial;
  std::uint64_t size = 0;         // m, bytes
  std::uint64_t segment = 0;      // m_s, bytes
  int fanout = 4;                 // K of the K-chain (coll_tuned_bcast_algorithm_chain_fanout)
  std::vector<int> node_of_rank;  // P = its size; two ranks on one node talk through shared memory
  int procs() const { return static_cast<int>(node_of_rank.size()); }
};

// Eq. (1) for linear, eqs. (9)-(13) for the others, as coefficients.
Coefficients bcast_coefficients(const Experiment& e, const NbftParameters& nbft);
// Eq. (17): the flat gather of one segment from every non-root rank.
Coefficients flat_gather_coefficients(const std::vector<int>& node_of_rank);
// Eq. (16) = bcast + gather.
Coefficients experiment_coefficients(const Experiment& e, const NbftParameters& nbft);

// One stage of a segmented tree broadcast: its slowest NBFT's cost in units
// of T_p2p^1(m_s) (with T^0 = T^1 / Q) and as coefficients. Exposed for tests.
struct Stage {
  double factor = 0;
  Coefficients coefficients{};
};
std::vector<Stage> nbft_stages(const Tree& tree, int segments, const std::vector<int>& node_of_rank,
                               const NbftParameters& nbft);

}  // namespace contend::calibrate
