#pragma once
// The Dragonfly+ network as a SimGrid zone that computes each route when
// SimGrid asks for it (DragonflyPlusGraph::route), instead of a full zone
// holding every node pair's route: N nodes cost O(N) to set up, not N^2
// routes (2000 nodes: 4 M routes, 46 s before). SimGrid 3.32 has no
// Dragonfly+ zone; this one implements NetZoneImpl's routing hook, as
// SimGrid's own DragonflyZone does.
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/core/dragonfly_plus.hpp"

namespace contend {

class DragonflyPlusZone : public simgrid::kernel::routing::NetZoneImpl {
 public:
  // Every cable as two links, `cable_links[c]` = {a -> b, b -> a}.
  struct CableLinks {
    simgrid::s4u::Link* forward;
    simgrid::s4u::Link* backward;
  };

  // Creates the zone under `parent` (SimGrid owns it from then on) and
  // returns it; add the nodes' zones as its children, then the cables'
  // links, then seal it.
  static DragonflyPlusZone* create(const std::string& name, const simgrid::s4u::NetZone* parent,
                                   DragonflyPlusGraph graph);

  const DragonflyPlusGraph& graph() const { return graph_; }
  // Node `node` is the child zone `zone`, entered and left through `gateway`.
  void add_node(int node, simgrid::s4u::NetZone* zone, simgrid::kernel::routing::NetPoint* gateway);
  void set_cable_links(std::vector<CableLinks> links) { cable_links_ = std::move(links); }

 private:
  DragonflyPlusZone(const std::string& name, DragonflyPlusGraph graph);

  // SimGrid asks for the route between two of our children (node zones).
  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* into, double* latency) override;
  void do_seal() override;

  struct NodeEnds {
    int node = -1;  // -1: not a node zone
    simgrid::kernel::routing::NetPoint* gateway = nullptr;
  };

  DragonflyPlusGraph graph_;
  std::vector<NodeEnds> node_of_vertex_;  // by the child's netpoint id in this zone
  std::vector<CableLinks> cable_links_;
};

}  // namespace contend
