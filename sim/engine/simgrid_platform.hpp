#pragma once
// The platform as SimGrid zones, hosts, links and routes.
//
// SimGrid's root zone "machine" holds three zones: "cores", one host per
// core that holds a rank (where the rank actors run and compute; nothing
// routes from them), "levels", the level links below, and "network", whose
// nodes are full zones holding one endpoint host per socket, where messages
// enter and leave the socket. Routes between endpoints carry the levels:
//   same socket      [memory(s)]                       intra_socket: BW_MP(n), tau
//   other socket     [ingress(t)]                      inter_socket: BW_MP(n), tau
//   other node       [nic_out(i), fabric..., nic_in(j)] inter_node + NIC + network
// Level links are NONLINEAR: SimGrid calls back their capacity with the number
// n of flows crossing them, and gets the level's BW_MP(n) (the NIC links take
// the smaller of BW_MP(n) and the NICs' bandwidth). Latencies add along the
// route: an inter-node message pays tau_inter_node + 2 x nic.latency + the
// latencies of the network links it crosses.
//
// The network is SimGrid's StarZone (star) or FatTreeZone (fat-tree), or our
// DragonflyPlusZone, whose routes are computed on demand (dragonfly+). Set-up
// is linear in the nodes, cables and rank-holding cores (docs/benchmarks.md,
// "Whole machines").
#include <simgrid/s4u.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"

namespace contend {

// The capacity of a level link crossed by n flows, as its NONLINEAR callback
// gives it to SimGrid: the level's BW_MP(n), at most `cap` (the NICs'
// bandwidth for the NIC links).
struct LevelCapacity {
  const BandwidthTable* table = nullptr;  // the platform's, which outlives the simulation
  double cap = 0;
  double operator()(int n) const;
};

class SimgridPlatform {
 public:
  // Builds the platform into the current SimGrid engine (one per process).
  // Only the cores that hold a rank become hosts (a host costs memory, and
  // most runs use a few nodes of a large machine).
  SimgridPlatform(const Platform& platform, const Mapping& mapping);

  simgrid::s4u::Host* core_host(const Placement& p) const;  // null for cores without a rank
  simgrid::s4u::Host* endpoint(int node, int socket) const;

  simgrid::s4u::Link* memory_link(int node, int socket) const { return memory_[socket_index(node, socket)]; }
  simgrid::s4u::Link* ingress_link(int node, int socket) const { return ingress_[socket_index(node, socket)]; }
  simgrid::s4u::Link* nic_out(int node) const { return nic_out_[static_cast<std::size_t>(node)]; }
  simgrid::s4u::Link* nic_in(int node) const { return nic_in_[static_cast<std::size_t>(node)]; }

  // The full SimGrid route between two nodes, NIC links included.
  std::vector<simgrid::s4u::Link*> node_route(int from_node, int to_node, double* latency = nullptr) const;
  // The short stable name of a link in attribution (sim/core/attribution.hpp):
  // nic:nodeN/out, nic:nodeN/in, memory:nodeN/socketS, ingress:nodeN/socketS
  // for the level links, link:NAME for the network's.
  static std::string resource_name(const simgrid::s4u::Link* link);
  // How the capacity of `link` depends on its flows, if it is a level link
  // (NONLINEAR); null for the network's plain links.
  const LevelCapacity* level_capacity(const simgrid::s4u::Link* link) const;

 private:
  std::size_t socket_index(int node, int socket) const {
    return static_cast<std::size_t>(node) * static_cast<std::size_t>(sockets_) + static_cast<std::size_t>(socket);
  }

  int sockets_ = 0;
  int cores_per_socket_ = 0;
  std::vector<simgrid::s4u::Host*> cores_;
  std::vector<simgrid::s4u::Host*> endpoints_;
  std::vector<simgrid::s4u::Link*> memory_, ingress_, nic_out_, nic_in_;
  std::unordered_map<const simgrid::s4u::Link*, LevelCapacity> level_capacity_;
};

}  // namespace contend
