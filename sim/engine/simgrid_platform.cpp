#include "sim/engine/simgrid_platform.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <string>

#include "sim/core/dragonfly_plus.hpp"
#include "sim/engine/dragonfly_plus_zone.hpp"

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

// Builds the core hosts and the level links (each set in a zone of its own,
// see create_core_hosts), then each node: a full zone with its socket
// endpoints and the routes over its level links. Results are stored by node
// index, whatever order SimGrid's cluster zones call us in.
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

  // One host per core that holds a rank, named node-N-sS-cC, all in `zone`,
  // which is not yet in the zone tree (detached_zone). SimGrid 3.32 checks
  // each new host's name against every zone of the tree (HostImpl's
  // constructor: Engine::host_by_name_or_null) and seals each zone by
  // scanning every host of the tree (NetZoneImpl::get_all_hosts): one host
  // per core inside the node zones made both hosts x nodes (131 k ranks on
  // 1024 nodes: minutes). The rank actors run and compute on these hosts and
  // nothing routes from them: messages leave from the socket endpoints.
  void create_core_hosts(sg4::NetZone* zone) {
    const auto C = static_cast<std::size_t>(p_.nodes.cores_per_socket);
    for (std::size_t index = 0; index < used_.size(); ++index) {
      if (!used_[index]) continue;
      const std::size_t socket = index / C;
      const std::size_t node = socket / static_cast<std::size_t>(p_.nodes.sockets);
      const std::size_t s = socket % static_cast<std::size_t>(p_.nodes.sockets);
      out_.cores[index] = zone->create_host(
          "node-" + std::to_string(node) + "-s" + std::to_string(s) + "-c" + std::to_string(index % C),
          p_.nodes.core_speed);
    }
  }

  // Every node's level links, in `zone`, also detached: SimGrid checks each
  // new link's name against every zone of the tree too
  // (Engine::link_by_name_or_null). Routes may use links of any zone.
  void create_level_links(sg4::NetZone* zone) {
    const auto& intra = p_.level(Level::IntraSocket);
    const auto& inter = p_.level(Level::InterSocket);
    const auto& net = p_.level(Level::InterNode);
    const auto S = static_cast<std::size_t>(p_.nodes.sockets);
    const double nic_bw = p_.nic.aggregate_bandwidth();
    for (int node = 0; node < p_.nodes.count; ++node) {
      const std::string name = "node-" + std::to_string(node);
      const std::size_t first_socket = static_cast<std::size_t>(node) * S;
      for (std::size_t s = 0; s < S; ++s) {
        const std::string prefix = name + "-s" + std::to_string(s);
        out_.memory[first_socket + s] = level_link(zone, prefix + "-memory", intra.bandwidth, intra.latency);
        out_.ingress[first_socket + s] = level_link(zone, prefix + "-ingress", inter.bandwidth, inter.latency);
      }
      const auto n = static_cast<std::size_t>(node);
      out_.nic_out[n] = level_link(zone, name + "-nic-out", net.bandwidth, net.latency + p_.nic.latency, nic_bw);
      out_.nic_in[n] = level_link(zone, name + "-nic-in", net.bandwidth, p_.nic.latency, nic_bw);
    }
  }

  NodeZone build(int node, const sg4::NetZone* parent) {
    const std::string name = "node-" + std::to_string(node);
    auto* zone = sg4::create_full_zone(name);
    zone->set_parent(parent);
    auto* gateway = zone->create_router(name + "-gw");
    const auto S = static_cast<std::size_t>(p_.nodes.sockets);
    const std::size_t first_socket = static_cast<std::size_t>(node) * S;
    for (std::size_t s = 0; s < S; ++s) {
      out_.endpoints[first_socket + s] =
          zone->create_host(name + "-s" + std::to_string(s) + "-ep", p_.nodes.core_speed);
    }
    auto* out = out_.nic_out[static_cast<std::size_t>(node)];
    auto* in = out_.nic_in[static_cast<std::size_t>(node)];
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

void build_star(const Platform& p, const StarNetwork& star, NodeBuilder& nodes, const sg4::NetZone* machine) {
  auto* root = sg4::create_star_zone("network");
  root->set_parent(machine);
  // Links before node zones: each new link's name is looked up through every
  // zone of the tree (see create_level_links).
  std::vector<std::pair<sg4::Link*, sg4::Link*>> links;
  for (int n = 0; n < p.nodes.count; ++n) {
    const std::string name = "node-" + std::to_string(n);
    links.emplace_back(plain_link(root, name + "-uplink", star.link_bandwidth, star.link_latency),
                       plain_link(root, name + "-downlink", star.link_bandwidth, star.link_latency));
  }
  for (int n = 0; n < p.nodes.count; ++n) {
    const NodeZone nz = nodes.build(n, root);
    const auto& [up, down] = links[static_cast<std::size_t>(n)];
    root->add_route(nz.zone->get_netpoint(), nullptr, nz.gateway, nullptr, {sg4::LinkInRoute(up)}, false);
    root->add_route(nullptr, nz.zone->get_netpoint(), nullptr, nz.gateway, {sg4::LinkInRoute(down)}, false);
  }
  root->seal();
}

void build_fat_tree(const Platform& p, const FatTreeNetwork& tree, NodeBuilder& nodes, const sg4::NetZone* machine) {
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
  auto* root = sg4::create_fatTree_zone("network", machine, params, sg4::ClusterCallbacks(make_leaf),
                                        tree.link_bandwidth, tree.link_latency,
                                        sg4::Link::SharingPolicy::SPLITDUPLEX);  // full-duplex cables
  root->seal();
}

// Routes are computed on demand by DragonflyPlusZone: set-up is linear in
// the nodes and cables.
void build_dragonfly_plus(const Platform& p, const DragonflyPlusNetwork& net, NodeBuilder& nodes,
                          const sg4::NetZone* machine) {
  auto* root = DragonflyPlusZone::create("network", machine, DragonflyPlusGraph(net, p.nodes.count));
  auto* zone = root->get_iface();
  // Every cable is two links, one per direction (full duplex); made before
  // the node zones, as in build_star.
  const auto& cables = root->graph().cables();
  std::vector<DragonflyPlusZone::CableLinks> links;
  links.reserve(cables.size());
  for (std::size_t c = 0; c < cables.size(); ++c) {
    const auto& cable = cables[c];
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
    links.push_back({plain_link(zone, name + "-fwd", bw, lat), plain_link(zone, name + "-bwd", bw, lat)});
  }
  root->set_cable_links(std::move(links));
  for (int n = 0; n < p.nodes.count; ++n) {
    const NodeZone nz = nodes.build(n, zone);
    root->add_node(n, nz.zone, nz.gateway);
  }
  root->seal();
}

// A zone with the models of `machine` (SimGrid's root) but not yet its child:
// what is made in it is not looked up through, nor scanned by, the tree
// (NodeBuilder::create_core_hosts). Attach it with set_parent when done.
sg4::NetZone* detached_zone(const std::string& name, const sg4::NetZone* machine) {
  auto* zone = sg4::create_empty_zone(name);
  const auto* models = machine->get_impl();
  auto* impl = zone->get_impl();
  impl->set_network_model(models->get_network_model());
  impl->set_cpu_pm_model(models->get_cpu_pm_model());
  impl->set_cpu_vm_model(models->get_cpu_vm_model());
  impl->set_disk_model(models->get_disk_model());
  impl->set_host_model(models->get_host_model());
  return zone;
}

}  // namespace

SimgridPlatform::SimgridPlatform(const Platform& p, const Mapping& mapping)
    : sockets_(p.nodes.sockets), cores_per_socket_(p.nodes.cores_per_socket) {
  NodeBuilder nodes(p, mapping,
                    NodeBuilder::Storage{cores_, endpoints_, memory_, ingress_, nic_out_, nic_in_, level_capacity_});
  // The first zone is SimGrid's root: "machine", holding the network and
  // two zones without routes (only the network's endpoints exchange
  // messages): "cores" (the core hosts) and "levels" (the level links),
  // both made detached and attached last (see create_core_hosts).
  auto* machine = sg4::create_empty_zone("machine");
  auto* cores = detached_zone("cores", machine);
  nodes.create_core_hosts(cores);
  auto* levels = detached_zone("levels", machine);
  nodes.create_level_links(levels);
  struct Visitor {
    const Platform& p;
    NodeBuilder& nodes;
    const sg4::NetZone* machine;
    void operator()(const StarNetwork& n) const { build_star(p, n, nodes, machine); }
    void operator()(const FatTreeNetwork& n) const { build_fat_tree(p, n, nodes, machine); }
    void operator()(const DragonflyPlusNetwork& n) const { build_dragonfly_plus(p, n, nodes, machine); }
  };
  std::visit(Visitor{p, nodes, machine}, p.network);
  cores->set_parent(machine);
  levels->set_parent(machine);
  machine->seal();
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
