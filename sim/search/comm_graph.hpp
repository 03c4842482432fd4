#pragma once
// The communication graph of a workload: bytes and messages between every
// pair of ranks, point-to-point and what the collectives decompose into
// under the run's Open MPI rules. It is recorded from one simulation
// (--messages' records, summed per pair): collectives, traces and patterns
// alike, exactly the messages the simulator moves. The messages do not
// depend on the mapping (Open MPI's fixed rules look at sizes and
// communicator sizes only), except where a trace's MPI_ANY_SOURCE lets
// timing choose the sender.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/results.hpp"

namespace contend {

struct CommEdge {
  int src = 0, dst = 0;
  double bytes = 0;
  std::uint64_t messages = 0;
};

class CommGraph {
 public:
  CommGraph() = default;
  // Sums the records per (src, dst) pair.
  CommGraph(int ranks, const std::vector<MessageRecord>& records);
  CommGraph(int ranks, std::vector<CommEdge> edges);

  int ranks() const { return ranks_; }
  // Directed edges, one per (src, dst) pair, sorted by src then dst.
  const std::vector<CommEdge>& edges() const { return edges_; }
  double total_bytes() const { return total_bytes_; }
  std::uint64_t total_messages() const { return total_messages_; }

  // Undirected view (bytes both ways summed): neighbours of rank r.
  struct Neighbour {
    int rank;
    double bytes;
  };
  const std::vector<Neighbour>& neighbours(int rank) const { return adjacency_[static_cast<std::size_t>(rank)]; }
  // Bytes rank r sends or receives, all partners together.
  double volume(int rank) const { return volume_[static_cast<std::size_t>(rank)]; }

  // Bytes per level (intra-socket, inter-socket, inter-node) under a mapping.
  std::array<double, 3> bytes_per_level(const Mapping& mapping) const;

  // Text for a pipe: "ranks N" then one "src dst bytes messages" line per edge.
  std::string serialize() const;
  static CommGraph parse(std::string_view text);

 private:
  void index();

  int ranks_ = 0;
  std::vector<CommEdge> edges_;
  std::vector<std::vector<Neighbour>> adjacency_;
  std::vector<double> volume_;
  double total_bytes_ = 0;
  std::uint64_t total_messages_ = 0;
};

}  // namespace contend
