#pragma once
// The routes of SimGrid's platform as variables of a MaxMinSystem, one per
// distinct route: SimGrid's links become the system's links with their
// sharing policy and capacity, and a message's flow belongs to the variable
// of its route, with the penalty and bound SimGrid's CM02 model gives a
// communication on it (src/surf/network_cm02.cpp, NetworkCm02Model::
// communicate, with latency and bandwidth factors 1, weight-S 0, TCP gamma 0
// and no cross-traffic, as sim/engine/simulation.cpp configures SimGrid):
//  - latency: the sum of the route's link latencies, paid before the flow
//    joins the sharing;
//  - penalty: the latency (SimGrid's flows share in inverse proportion to
//    it), or 1 for a route without latency;
//  - bound: none (TCP gamma 0 makes it 0, which means none) when the
//    latency is positive; else the smallest nominal bandwidth of the route.
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/maxmin/max_min_system.hpp"
#include "sim/core/mapping.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {

class RouteClasses {
 public:
  struct Route {
    MaxMinSystem::VariableId variable;
    double latency;
    double penalty;  // CM02's sharing penalty, before any weight
  };

  RouteClasses(const SimgridPlatform& simgrid, const Mapping& mapping, MaxMinSystem& system)
      : simgrid_(simgrid), mapping_(mapping), system_(system) {}

  // The route class of messages from rank `src` to rank `dst`, built on
  // first use (SimGrid's route between their sockets' endpoints).
  std::uint32_t route_of(int src, int dst);
  // The route class of a pair route_of() has already seen.
  std::uint32_t known_route(int src, int dst) const;
  const Route& route(std::uint32_t id) const { return routes_[id]; }
  std::size_t size() const { return routes_.size(); }
  // SimGrid's link behind a link of the system.
  const simgrid::s4u::Link* link(MaxMinSystem::LinkId id) const { return simgrid_links_[id]; }

 private:
  MaxMinSystem::LinkId link_of(const simgrid::s4u::Link* link);
  std::uint64_t key_of(int src, int dst) const;
  std::uint32_t build(int from_node, int from_socket, int to_node, int to_socket);

  const SimgridPlatform& simgrid_;
  const Mapping& mapping_;
  MaxMinSystem& system_;
  std::vector<Route> routes_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_endpoints_;  // (source endpoint, destination endpoint)
  std::map<std::pair<std::vector<MaxMinSystem::LinkId>, double>, std::uint32_t> by_links_;
  std::unordered_map<const simgrid::s4u::Link*, MaxMinSystem::LinkId> links_;
  std::vector<const simgrid::s4u::Link*> simgrid_links_;  // by the system's link id
};

}  // namespace contend
