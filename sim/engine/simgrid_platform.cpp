#include "sim/engine/simgrid_platform.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <string>

#include "sim/core/dragonfly_plus.hpp"

namespace contend {
namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

sg4::Link* plain_link(sg4::NetZone* zone, const std::string& name, double bandwidth, double latency) {
  return zone->create_link(name, bandwidth)->set_latency(latency)->seal();
}

struct NodeZone {
  sg4::NetZone* zone;
  NetPoint* gateway;
};

}  // namespace

// The level links are named node-N-nic-out, node-N-nic-in, node-N-sS-memory
// and node-N-sS-ingress (NodeBuilder::build).
std::string SimgridPlatform::resource_name(const sg4::Link* link) {
  const std::string& name = link->get_name();
  int node = 0, socket = 0, used = 0;
  char kind[16] = {};
  if (std::sscanf(name.c_str(), "node-%d-nic-%15[a-z]%n", &node, kind, &used) == 2 &&
      static_cast<std::size_t>(used) == name.size()) {
    return "nic:node" + std::to_string(node) + "/" + kind;
  }
  if (std::sscanf(name.c_str(), "node-%d-s%d-%15[a-z]%n", &node, &socket, kind, &used) == 3 &&
      static_cast<std::size_t>(used) == name.size()) {
    return std::string(kind) + ":node" + std::to_string(node) + "/socket" + std::to_string(socket);
  }
  return "link:" + name;
}

double LevelCapacity::operator()(int n) const { return std::min(cap, table->aggregate(std::max(1, n))); }

// Builds one node: a full zone with core hosts, socket endpoints and level
// links. Results are stored by node index, whatever order SimGrid's cluster
// zones call us in.
class NodeBuilder {
 public:
  struct Storage {
    std::vector<sg4::Host*>& cores;
    std::vector<sg4::Host*>& endpoints;
    std::vector<sg4::Link*>& memory;
    std::vector<sg4::Link*>& ingress;
    std::vector<sg4::Link*>& nic_out;
    std::vector<sg4::Link*>& nic_in;
    std::unordered_map<const sg4::Link*, LevelCapacity>& level_capacity;
  };

  NodeBuilder(const Platform& p, const Mapping& mapping, Storage storage) : p_(p), out_(storage) {
    used_.assign(static_cast<std::size_t>(p.nodes.total_cores()), false);
    for (const auto& pl : mapping.placements()) used_[core_index(pl.node, pl.socket, pl.core)] = true;
    const auto sockets = static_cast<std::size_t>(p.nodes.count) * static_cast<std::size_t>(p.nodes.sockets);
    out_.cores.assign(sockets * static_cast<std::size_t>(p.nodes.cores_per_socket), nullptr);
    out_.endpoints.assign(sockets, nullptr);
    out_.memory.assign(sockets, nullptr);
    out_.ingress.assign(sockets, nullptr);
    out_.nic_out.assign(static_cast<std::size_t>(p.nodes.count), nullptr);
    out_.nic_in.assign(static_cast<std::size_t>(p.nodes.count), nullptr);
  }

  NodeZone build(int node, const sg4::NetZone* parent) {
    const std::string name = "node-" + std::to_string(node);
    auto* zone = sg4::create_full_zone(name);
    zone->set_parent(parent);
    auto* gateway = zone->create_router(name + "-gw");
    const auto& intra = p_.level(Level::IntraSocket);
    const auto& inter = p_.level(Level::InterSocket);
    const auto& net = p_.level(Level::InterNode);
    const auto S = static_cast<std::size_t>(p_.nodes.sockets);
    const auto C = static_cast<std::size_t>(p_.nodes.cores_per_socket);
    const std::size_t first_socket = static_cast<std::size_t>(node) * S;

    for (std::size_t s = 0; s < S; ++s) {
      const std::string prefix = name + "-s" + std::to_string(s);
      for (std::size_t c = 0; c < C; ++c) {
        const std::size_t index = (first_socket + s) * C + c;
        if (used_[index]) out_.cores[index] = zone->create_host(prefix + "-c" + std::to_string(c), p_.nodes.core_speed);
      }
      out_.endpoints[first_socket + s] = zone->create_host(prefix + "-ep", p_.nodes.core_speed);
      out_.memory[first_socket + s] = level_link(zone, prefix + "-memory", intra.bandwidth, intra.latency);
      out_.ingress[first_socket + s] = level_link(zone, prefix + "-ingress", inter.bandwidth, inter.latency);
    }
    const double nic_bw = p_.nic.aggregate_bandwidth();
    auto* out = level_link(zone, name + "-nic-out", net.bandwidth, net.latency + p_.nic.latency, nic_bw);
    auto* in = level_link(zone, name + "-nic-in", net.bandwidth, p_.nic.latency, nic_bw);
    out_.nic_out[static_cast<std::size_t>(node)] = out;
    out_.nic_in[static_cast<std::size_t>(node)] = in;
    for (std::size_t a = 0; a < S; ++a) {
      auto* from = out_.endpoints[first_socket + a]->get_netpoint();
      for (std::size_t b = 0; b < S; ++b) {
        auto* link = a == b ? out_.memory[first_socket + a] : out_.ingress[first_socket + b];
        zone->add_route(from, out_.endpoints[first_socket + b]->get_netpoint(), nullptr, nullptr,
                        {sg4::LinkInRoute(link)}, false);
      }
      zone->add_route(from, gateway, nullptr, nullptr, {sg4::LinkInRoute(out)}, false);
      zone->add_route(gateway, from, nullptr, nullptr, {sg4::LinkInRoute(in)}, false);
    }
    zone->seal();
    return NodeZone{zone, gateway};
  }

 private:
  std::size_t core_index(int node, int socket, int core) const {
    return (static_cast<std::size_t>(node) * static_cast<std::size_t>(p_.nodes.sockets) +
            static_cast<std::size_t>(socket)) *
               static_cast<std::size_t>(p_.nodes.cores_per_socket) +
           static_cast<std::size_t>(core);
  }

  // A NONLINEAR link whose capacity for n flows is BW_MP(n) of `table`, at most `cap`.
  sg4::Link* level_link(sg4::NetZone* zone, const std::string& name, const BandwidthTable& table, double latency,
                        double cap = std::numeric_limits<double>::infinity()) {
    const LevelCapacity capacity{&table, cap};
    auto* link = zone->create_link(name, std::min(cap, table.max()))
                     ->set_latency(latency)
                     ->set_sharing_policy(sg4::Link::SharingPolicy::NONLINEAR,
                                          // SimGrid calls this with the number of flows crossing the link.
                                          [capacity](double /*nominal*/, int n) { return capacity(n); })
                     ->seal();
    out_.level_capacity.emplace(link, capacity);
    return link;
  }

  const Platform& p_;
  Storage out_;
  std::vector<bool> used_;  // cores that hold a rank
};

namespace {

void build_star(const Platform& p, const StarNetwork& star, NodeBuilder& nodes) {
  auto* root = sg4::create_star_zone("network");
  for (int n = 0; n < p.nodes.count; ++n) {
    NodeZone nz = nodes.build(n, root);
    const std::string name = "node-" + std::to_string(n);
    auto* up = plain_link(root, name + "-uplink", star.link_bandwidth, star.link_latency);
    auto* down = plain_link(root, name + "-downlink", star.link_bandwidth, star.link_latency);
    root->add_route(nz.zone->get_netpoint(), nullptr, nz.gateway, nullptr, {sg4::LinkInRoute(up)}, false);
    root->add_route(nullptr, nz.zone->get_netpoint(), nullptr, nz.gateway, {sg4::LinkInRoute(down)}, false);
  }
  root->seal();
}

void build_fat_tree(const Platform& p, const FatTreeNetwork& tree, NodeBuilder& nodes) {
  sg4::FatTreeParams params(tree.levels, tree.down, tree.up, tree.link_count);
  auto make_leaf = [&p, &nodes](sg4::NetZone* zone, const std::vector<unsigned long>& /*coord*/,
                                unsigned long id) -> std::pair<NetPoint*, NetPoint*> {
    if (id < static_cast<unsigned long>(p.nodes.count)) {
      NodeZone nz = nodes.build(static_cast<int>(id), zone);
      return {nz.zone->get_netpoint(), nz.gateway};
    }
    // More leaves than nodes: the rest are empty switch ports.
    return {zone->create_router("unused-leaf-" + std::to_string(id)), nullptr};
  };
  auto* root = sg4::create_fatTree_zone("network", nullptr, params, sg4::ClusterCallbacks(make_leaf),
                                        tree.link_bandwidth, tree.link_latency,
                                        sg4::Link::SharingPolicy::SPLITDUPLEX);  // full-duplex cables
  root->seal();
}

void build_dragonfly_plus(const Platform& p, const DragonflyPlusNetwork& net, NodeBuilder& nodes) {
  const DragonflyPlusGraph graph(net, p.nodes.count);
  auto* root = sg4::create_full_zone("network");
  std::vector<NodeZone> zones;
  for (int n = 0; n < p.nodes.count; ++n) zones.push_back(nodes.build(n, root));

  // Every cable is two links, one per direction (full duplex).
  std::vector<std::pair<sg4::Link*, sg4::Link*>> links;
  for (std::size_t c = 0; c < graph.cables().size(); ++c) {
    const auto& cable = graph.cables()[c];
    double bw = net.local_link_bandwidth, lat = net.local_link_latency;
    std::string kind = "local";
    if (cable.kind == DragonflyPlusGraph::CableKind::Node) {
      bw = net.node_link_bandwidth;
      lat = net.node_link_latency;
      kind = "node";
    } else if (cable.kind == DragonflyPlusGraph::CableKind::Global) {
      bw = net.global_link_bandwidth;
      lat = net.global_link_latency;
      kind = "global";
    }
    const std::string name =
        kind + "-" + std::to_string(c) + "-" + std::to_string(cable.a) + "-" + std::to_string(cable.b);
    links.emplace_back(plain_link(root, name + "-fwd", bw, lat), plain_link(root, name + "-bwd", bw, lat));
  }
  for (int a = 0; a < p.nodes.count; ++a) {
    for (int b = 0; b < p.nodes.count; ++b) {
      if (a == b) continue;
      std::vector<sg4::LinkInRoute> route;
      for (const auto& hop : graph.route(a, b)) {
        const auto& pair = links[hop.cable];
        route.emplace_back(hop.forward ? pair.first : pair.second);
      }
      const auto& za = zones[static_cast<std::size_t>(a)];
      const auto& zb = zones[static_cast<std::size_t>(b)];
      root->add_route(za.zone->get_netpoint(), zb.zone->get_netpoint(), za.gateway, zb.gateway, route, false);
    }
  }
  root->seal();
}

}  // namespace

SimgridPlatform::SimgridPlatform(const Platform& p, const Mapping& mapping)
    : sockets_(p.nodes.sockets), cores_per_socket_(p.nodes.cores_per_socket) {
  NodeBuilder nodes(p, mapping,
                    NodeBuilder::Storage{cores_, endpoints_, memory_, ingress_, nic_out_, nic_in_, level_capacity_});
  struct Visitor {
    const Platform& p;
    NodeBuilder& nodes;
    void operator()(const StarNetwork& n) const { build_star(p, n, nodes); }
    void operator()(const FatTreeNetwork& n) const { build_fat_tree(p, n, nodes); }
    void operator()(const DragonflyPlusNetwork& n) const { build_dragonfly_plus(p, n, nodes); }
  };
  std::visit(Visitor{p, nodes}, p.network);
}

sg4::Host* SimgridPlatform::core_host(const Placement& pl) const {
  return cores_[socket_index(pl.node, pl.socket) * static_cast<std::size_t>(cores_per_socket_) +
                static_cast<std::size_t>(pl.core)];
}

sg4::Host* SimgridPlatform::endpoint(int node, int socket) const { return endpoints_[socket_index(node, socket)]; }

const LevelCapacity* SimgridPlatform::level_capacity(const sg4::Link* link) const {
  auto it = level_capacity_.find(link);
  return it == level_capacity_.end() ? nullptr : &it->second;
}

std::vector<sg4::Link*> SimgridPlatform::node_route(int from_node, int to_node, double* latency) const {
  std::vector<sg4::Link*> links;
  double lat = 0;
  endpoint(from_node, 0)->route_to(endpoint(to_node, 0), links, &lat);
  if (latency != nullptr) *latency = lat;
  return links;
}

}  // namespace contend
