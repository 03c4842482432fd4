#pragma once
// The cheap stand-ins for a simulation that prune the search's candidates,
// and the figures that say why a mapping is faster:
//  - Thune et al.'s staircase closed forms (`contend analyze`,
//    models/staircase/closed_form.hpp) on the whole communication graph
//    taken as one many-pair exchange: per-rank times with the sharing of
//    each socket's memory bus (eqs. (12)-(17)) and each node's NIC (eq. (7));
//  - the bytes each level carries, the bytes crossing the network, and how
//    many ranks share each contended group (a node's NIC, a socket's bus).
#include <array>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/pattern.hpp"
#include "sim/core/platform.hpp"
#include "sim/search/comm_graph.hpp"

namespace contend {

class Surrogate {
 public:
  Surrogate(const Platform& platform, const CommGraph& graph);
  // Eq. (18) per rank on the graph as one exchange.
  std::vector<double> rank_times(const Mapping& mapping) const;
  // The closed-form makespan, plus a twentieth of the mean rank time so that
  // a change that helps every rank but the slowest still counts.
  double score(const Mapping& mapping) const;

 private:
  const Platform& platform_;
  std::vector<PatternMessage> messages_;
};

// What a mapping does to the contended resources.
struct ContentionFigures {
  std::array<double, 3> level_bytes{};  // intra-socket, inter-socket, inter-node (the network)
  int nic_sharers_max = 0;              // ranks of one node with inter-node traffic
  int socket_sharers_max = 0;           // ranks of one socket with intra-node traffic
  int nodes_used = 0;
};
ContentionFigures contention_figures(const CommGraph& graph, const Mapping& mapping, const NodeArchitecture& nodes);

}  // namespace contend
