#pragma once
// Where each MPI rank runs: node, socket and core. The mapping decides the
// level of every message (intra-socket, inter-socket, inter-node).
//
//   block          fills the cores node by node (rank r on core r of the machine)
//   cyclic         deals ranks round-robin over the nodes (Open MPI --map-by node)
//   socket         deals ranks round-robin over the sockets of a node, filling
//                  the nodes in order (Open MPI --map-by socket)
//   ompi:POLICY    what Open MPI 4.1's mpirun --map-by POLICY does (launcher_mapping.hpp)
//   slurm:DIST     what srun --distribution=DIST does
//   rankfile:FILE  an Open MPI 4 rankfile (rankfile.hpp)
//   FILE           one line per rank: `rank node socket core` (# comments)
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/hosts.hpp"
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
  // cores_per_rank: cores each rank is bound to, from its placement's core on
  // (Open MPI's :PE=n); the simulation runs a rank on its first core.
  explicit Mapping(std::vector<Placement> placements, int cores_per_rank = 1)
      : placements_(std::move(placements)), cores_per_rank_(cores_per_rank) {}

  int rank_count() const { return static_cast<int>(placements_.size()); }
  const Placement& operator[](int rank) const { return placements_[static_cast<std::size_t>(rank)]; }
  const std::vector<Placement>& placements() const { return placements_; }
  Level level(int from, int to) const;
  int cores_per_rank() const { return cores_per_rank_; }
  bool operator==(const Mapping&) const = default;

 private:
  std::vector<Placement> placements_;
  int cores_per_rank_ = 1;
};

// spec: one of the forms above. More ranks than cores (or than a launcher's
// slots) is an error unless oversubscribe is set (then ranks share cores).
// Launcher files (rankfiles) name the machine's hosts.
Mapping make_mapping(const std::string& spec, int rank_count, const Machine& machine, bool oversubscribe);
// The same with default host names (node0, node1, ...).
Mapping make_mapping(const std::string& spec, int rank_count, const NodeArchitecture& nodes, bool oversubscribe);
Mapping read_mapping_file(const std::string& path, int rank_count, const NodeArchitecture& nodes, bool oversubscribe);
// The `rank node socket core` form that read_mapping_file reads, after
// `# comment` lines.
void write_mapping_file(std::ostream& out, const Mapping& mapping, const std::vector<std::string>& comments = {});

// Throws unless every rank has a core of its own (or oversubscribe is set);
// `what` names the mapping in the message.
void check_cores_not_shared(const Mapping& mapping, bool oversubscribe, const std::string& what);

// "block, cyclic, socket, ompi:POLICY, slurm:DIST, rankfile:FILE" for messages.
std::string mapping_forms();

inline const std::vector<std::string>& builtin_mapping_names() {
  static const std::vector<std::string> names = {"block", "cyclic", "socket"};
  return names;
}

}  // namespace contend
