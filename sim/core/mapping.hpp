#pragma once
// Where each MPI rank runs: node, socket and core. The mapping decides the
// level of every message (intra-socket, inter-socket, inter-node).
//
//   block   fills the cores node by node (rank r on core r of the machine)
//   cyclic  deals ranks round-robin over the nodes (Open MPI --map-by node)
//   socket  deals ranks round-robin over the sockets of a node, filling the
//           nodes in order (Open MPI --map-by socket)
//   FILE    one line per rank: `rank node socket core` (# comments)
#include <string>
#include <vector>

#include "sim/core/platform.hpp"

namespace contend {

struct Placement {
  int node = 0;
  int socket = 0;
  int core = 0;  // index within the socket
  bool operator==(const Placement&) const = default;
};

class Mapping {
 public:
  Mapping() = default;
  explicit Mapping(std::vector<Placement> placements) : placements_(std::move(placements)) {}

  int rank_count() const { return static_cast<int>(placements_.size()); }
  const Placement& operator[](int rank) const { return placements_[static_cast<std::size_t>(rank)]; }
  const std::vector<Placement>& placements() const { return placements_; }
  Level level(int from, int to) const;

 private:
  std::vector<Placement> placements_;
};

// spec: "block", "cyclic", "socket", or a file name. More ranks than cores is
// an error unless oversubscribe is set (then ranks wrap around the cores).
Mapping make_mapping(const std::string& spec, int rank_count, const NodeArchitecture& nodes, bool oversubscribe);
Mapping read_mapping_file(const std::string& path, int rank_count, const NodeArchitecture& nodes, bool oversubscribe);

inline const std::vector<std::string>& builtin_mapping_names() {
  static const std::vector<std::string> names = {"block", "cyclic", "socket"};
  return names;
}

}  // namespace contend
