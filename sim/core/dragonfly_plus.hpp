#pragma once
// Dragonfly+ routing, which SimGrid 3.32 does not provide (its DragonflyZone is
// the original Dragonfly). The router graph (leaves, spines, local and global
// links) is a Boost.Graph; routes are minimal (BFS distances) and, among equal
// minimal paths, chosen destination-mod-k (d-mod-k) so that static routing
// spreads traffic over the spines and global links as fat-tree routing does.
// Betzy's adaptive non-minimal routing is not modelled: under heavy
// inter-group load the real machine may do better than this static choice.
#include <cstddef>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend {

// A directed use of one cable: `link` indexes DragonflyPlusGraph::cables,
// `forward` is true when going from cable.a to cable.b.
struct CableHop {
  std::size_t cable = 0;
  bool forward = true;
  bool operator==(const CableHop&) const = default;
};

class DragonflyPlusGraph {
 public:
  enum class CableKind { Node, Local, Global };
  struct Cable {
    CableKind kind;
    int a, b;  // router ids, or for Node cables: a = node, b = leaf router
  };

  DragonflyPlusGraph(const DragonflyPlusNetwork& network, int node_count);

  int router_count() const { return router_count_; }
  int leaf_of_node(int node) const { return node_leaf_[static_cast<std::size_t>(node)]; }
  int group_of_node(int node) const;
  const std::vector<Cable>& cables() const { return cables_; }

  // Cables from node `from` to node `to` (from != to), in order.
  std::vector<CableHop> route(int from, int to) const;

 private:
  int leaf_id(int group, int leaf) const { return group * network_.leaves_per_group + leaf; }
  int spine_id(int group, int spine) const {
    return network_.groups * network_.leaves_per_group + group * network_.spines_per_group + spine;
  }

  DragonflyPlusNetwork network_;
  int router_count_ = 0;
  std::vector<Cable> cables_;
  std::vector<std::size_t> node_cable_;  // per node: its Node cable
  std::vector<int> node_leaf_;
  // adjacency_[router] = cables touching it (for walking the BFS levels)
  std::vector<std::vector<std::size_t>> adjacency_;
  // distance_[leaf][router]: hops from router to that destination leaf
  std::vector<std::vector<int>> distance_to_leaf_;
};

}  // namespace contend
