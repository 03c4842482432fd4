#include "models/maxmin/route_classes.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/error.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;

namespace {

std::uint64_t endpoint_key(int node, int socket) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(node)) << 8 | static_cast<std::uint8_t>(socket);
}

}  // namespace

std::uint64_t RouteClasses::key_of(int src, int dst) const {
  const Placement& from = mapping_[src];
  const Placement& to = mapping_[dst];
  return endpoint_key(from.node, from.socket) << 32 | endpoint_key(to.node, to.socket);
}

std::uint32_t RouteClasses::route_of(int src, int dst) {
  auto [it, inserted] = by_endpoints_.try_emplace(key_of(src, dst), 0);
  if (inserted) {
    const Placement& from = mapping_[src];
    const Placement& to = mapping_[dst];
    it->second = build(from.node, from.socket, to.node, to.socket);
  }
  return it->second;
}

std::uint32_t RouteClasses::known_route(int src, int dst) const {
  const auto it = by_endpoints_.find(key_of(src, dst));
  if (it == by_endpoints_.end()) throw Error("internal error: maxmin has no route class for this pair yet");
  return it->second;
}

MaxMinSystem::LinkId RouteClasses::link_of(const sg4::Link* link) {
  auto [it, inserted] = links_.try_emplace(link, 0);
  if (!inserted) return it->second;
  switch (link->get_sharing_policy()) {
    case sg4::Link::SharingPolicy::NONLINEAR: {
      const LevelCapacity* capacity = simgrid_.level_capacity(link);
      if (capacity == nullptr) {
        throw Error("internal error: maxmin does not know the capacity of NONLINEAR link " + link->get_name());
      }
      it->second = system_.add_link(link->get_bandwidth(), MaxMinSystem::Policy::NonLinear,
                                    [capacity](int n) { return (*capacity)(n); });
      break;
    }
    case sg4::Link::SharingPolicy::FATPIPE:
      it->second = system_.add_link(link->get_bandwidth(), MaxMinSystem::Policy::FatPipe);
      break;
    case sg4::Link::SharingPolicy::SHARED:
    case sg4::Link::SharingPolicy::SPLITDUPLEX:  // the route holds one direction's link, itself shared
      it->second = system_.add_link(link->get_bandwidth(), MaxMinSystem::Policy::Shared);
      break;
    default:
      throw Error("internal error: maxmin does not model link " + link->get_name() + "'s sharing policy");
  }
  if (simgrid_links_.size() <= it->second) simgrid_links_.resize(it->second + 1);
  simgrid_links_[it->second] = link;
  return it->second;
}

std::uint32_t RouteClasses::build(int from_node, int from_socket, int to_node, int to_socket) {
  std::vector<sg4::Link*> path;
  double latency = 0;
  simgrid_.endpoint(from_node, from_socket)->route_to(simgrid_.endpoint(to_node, to_socket), path, &latency);
  std::vector<MaxMinSystem::LinkId> links;
  double bandwidth_bound = -1;  // NetworkCm02Model::comm_action_set_bounds
  for (const sg4::Link* link : path) {
    links.push_back(link_of(link));
    if (bandwidth_bound < 0 || link->get_bandwidth() < bandwidth_bound) bandwidth_bound = link->get_bandwidth();
  }
  {
    auto sorted = links;
    std::sort(sorted.begin(), sorted.end());
    if (links.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      throw Error("internal error: maxmin needs routes that cross each link once");
    }
  }
  auto [it, inserted] = by_links_.try_emplace({links, latency}, 0);
  if (!inserted) return it->second;
  // NetworkCm02Model::communicate and comm_action_set_variable.
  const double penalty = latency > 0 ? latency : 1.0;
  const double bound = latency > 0 ? 0.0 : bandwidth_bound;
  routes_.push_back(Route{system_.add_variable(std::move(links), penalty, bound), latency, penalty});
  it->second = static_cast<std::uint32_t>(routes_.size() - 1);
  return it->second;
}

}  // namespace contend
