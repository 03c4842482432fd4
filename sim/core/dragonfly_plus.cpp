#include "sim/core/dragonfly_plus.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <stdexcept>

namespace contend {

DragonflyPlusGraph::DragonflyPlusGraph(const DragonflyPlusNetwork& network, int node_count) : network_(network) {
  const int G = network.groups, L = network.leaves_per_group, S = network.spines_per_group;
  router_count_ = G * (L + S);
  adjacency_.resize(static_cast<std::size_t>(router_count_));

  auto add_router_cable = [&](CableKind kind, int a, int b) {
    cables_.push_back(Cable{kind, a, b});
    adjacency_[static_cast<std::size_t>(a)].push_back(cables_.size() - 1);
    adjacency_[static_cast<std::size_t>(b)].push_back(cables_.size() - 1);
  };
  // Inside a group: every leaf to every spine (full bisection).
  for (int g = 0; g < G; ++g)
    for (int l = 0; l < L; ++l)
      for (int s = 0; s < S; ++s) add_router_cable(CableKind::Local, leaf_id(g, l), spine_id(g, s));
  // Between groups: `global_links` cables per pair, attached to the spines of
  // each group in turn so that every spine carries a similar share.
  std::vector<int> next_spine(static_cast<std::size_t>(G), 0);
  for (int a = 0; a < G; ++a)
    for (int b = a + 1; b < G; ++b)
      for (int k = 0; k < network.global_links; ++k) {
        const int sa = next_spine[static_cast<std::size_t>(a)]++ % S;
        const int sb = next_spine[static_cast<std::size_t>(b)]++ % S;
        add_router_cable(CableKind::Global, spine_id(a, sa), spine_id(b, sb));
      }
  // Nodes fill the first nodes_per_group[g] slots of their group, leaf by leaf.
  int node = 0;
  for (int g = 0; g < G; ++g) {
    for (int slot = 0; slot < network.nodes_per_group[static_cast<std::size_t>(g)]; ++slot, ++node) {
      const int leaf = leaf_id(g, slot / network.nodes_per_leaf);
      cables_.push_back(Cable{CableKind::Node, node, leaf});
      node_cable_.push_back(cables_.size() - 1);
      node_leaf_.push_back(leaf);
    }
  }
  if (node != node_count) throw std::logic_error("dragonfly+: nodes_per_group does not match the node count");

  // BFS from every leaf over the router graph (Boost.Graph), giving each
  // router's hop distance to that leaf.
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph graph(static_cast<std::size_t>(router_count_));
  for (const auto& c : cables_)
    if (c.kind != CableKind::Node) boost::add_edge(static_cast<std::size_t>(c.a), static_cast<std::size_t>(c.b), graph);
  distance_to_leaf_.resize(static_cast<std::size_t>(G * L));
  for (int leaf = 0; leaf < G * L; ++leaf) {
    auto& dist = distance_to_leaf_[static_cast<std::size_t>(leaf)];
    dist.assign(static_cast<std::size_t>(router_count_), -1);
    dist[static_cast<std::size_t>(leaf)] = 0;
    boost::breadth_first_search(
        graph, static_cast<std::size_t>(leaf),
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()))));
  }
}

int DragonflyPlusGraph::group_of_node(int node) const { return leaf_of_node(node) / network_.leaves_per_group; }

std::vector<CableHop> DragonflyPlusGraph::route(int from, int to) const {
  std::vector<CableHop> hops;
  hops.push_back(CableHop{node_cable_[static_cast<std::size_t>(from)], true});  // node -> leaf
  const int target = leaf_of_node(to);
  const auto& dist = distance_to_leaf_[static_cast<std::size_t>(target)];
  int here = leaf_of_node(from);
  // d-mod-k: successive digits of the destination in the mixed radix of the
  // choices met on the way, so that consecutive choices are not correlated.
  auto key = static_cast<std::size_t>(to);
  if (dist[static_cast<std::size_t>(here)] < 0) throw std::logic_error("dragonfly+: destination leaf unreachable");
  while (here != target) {
    // All cables leading one hop closer; pick one by destination (d-mod-k).
    std::vector<CableHop> closer;
    for (std::size_t c : adjacency_[static_cast<std::size_t>(here)]) {
      const auto& cable = cables_[c];
      const bool forward = cable.a == here;
      const int next = forward ? cable.b : cable.a;
      if (dist[static_cast<std::size_t>(next)] == dist[static_cast<std::size_t>(here)] - 1) {
        closer.push_back(CableHop{c, forward});
      }
    }
    const CableHop chosen = closer[key % closer.size()];
    key /= closer.size();
    hops.push_back(chosen);
    const auto& cable = cables_[chosen.cable];
    here = chosen.forward ? cable.b : cable.a;
  }
  hops.push_back(CableHop{node_cable_[static_cast<std::size_t>(to)], false});  // leaf -> node
  return hops;
}

}  // namespace contend
