#pragma once
// Where the search starts: the launchers' own mappings, a topology-aware
// graph partitioning (METIS: the ranks into nodes, each node's into
// sockets), and a greedy TreeMatch-style grouping (ranks into socket-sized
// groups by affinity, then the groups into nodes), each with the ranks
// packed into as few nodes as possible and spread over all of them.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/hosts.hpp"
#include "sim/core/mapping.hpp"
#include "sim/search/comm_graph.hpp"

namespace contend {

struct NamedMapping {
  std::string name;
  Mapping mapping;
};

// Launcher mappings that fit one rank per core (block first), each once:
// names that give the same ranks on the same sockets are merged ("socket =
// ompi:default").
std::vector<NamedMapping> launcher_mappings(int ranks, const Machine& machine);

// METIS's hierarchical partitioning (nodes, then sockets), repaired to the
// exact counts the layout asks for.
Mapping partitioned_mapping(const CommGraph& graph, const NodeArchitecture& nodes, bool spread, std::uint64_t seed);

// Greedy grouping by affinity, bottom up: socket groups, then nodes.
Mapping grouped_mapping(const CommGraph& graph, const NodeArchitecture& nodes, bool spread);

// Whether two mappings put every rank on the same node and socket.
bool same_sockets(const Mapping& a, const Mapping& b);

}  // namespace contend
