#include "sim/engine/dragonfly_plus_zone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <stdexcept>

namespace contend {
using simgrid::kernel::routing::NetPoint;

DragonflyPlusZone::DragonflyPlusZone(const std::string& name, DragonflyPlusGraph graph)
    : NetZoneImpl(name), graph_(std::move(graph)) {}

DragonflyPlusZone* DragonflyPlusZone::create(const std::string& name, const simgrid::s4u::NetZone* parent,
                                             DragonflyPlusGraph graph) {
  auto* zone = new DragonflyPlusZone(name, std::move(graph));
  // From here the parent owns the zone (NetZoneImpl deletes its children).
  zone->get_iface()->set_parent(parent);
  return zone;
}

void DragonflyPlusZone::add_node(int node, simgrid::s4u::NetZone* zone, NetPoint* gateway) {
  const auto vertex = static_cast<std::size_t>(zone->get_netpoint()->id());
  if (node_of_vertex_.size() <= vertex) node_of_vertex_.resize(vertex + 1);
  node_of_vertex_[vertex] = NodeEnds{node, gateway};
}

void DragonflyPlusZone::do_seal() {
  if (cable_links_.size() != graph_.cables().size()) {
    throw std::logic_error("dragonfly+ zone " + get_name() + ": sealed without the links of every cable");
  }
}

void DragonflyPlusZone::get_local_route(const NetPoint* src, const NetPoint* dst, simgrid::kernel::routing::Route* into,
                                        double* latency) {
  auto ends = [this](const NetPoint* point) -> const NodeEnds& {
    const auto vertex = static_cast<std::size_t>(point->id());
    if (vertex >= node_of_vertex_.size() || node_of_vertex_[vertex].node < 0) {
      throw std::logic_error("dragonfly+ zone " + get_name() + ": " + point->get_name() + " is not a node");
    }
    return node_of_vertex_[vertex];
  };
  const NodeEnds& from = ends(src);
  const NodeEnds& to = ends(dst);
  into->gw_src_ = from.gateway;
  into->gw_dst_ = to.gateway;
  // Latencies are added link by link in route order, as SimGrid's zones do
  // (add_link_latency), so that the sum is the same to the last bit.
  for (const CableHop& hop : graph_.route(from.node, to.node)) {
    const CableLinks& cable = cable_links_[hop.cable];
    const simgrid::s4u::Link* link = hop.forward ? cable.forward : cable.backward;
    into->link_list_.push_back(link->get_impl());
    if (latency != nullptr) *latency += link->get_latency();
  }
}

}  // namespace contend
