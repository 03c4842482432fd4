#pragma once
// The search's view of a mapping: which socket each rank is on. Cores of a
// socket are interchangeable for every model (a core matters only when ranks
// share it, which the search never does), so each socket's ranks take its
// cores in rank order.
#include <vector>

#include "sim/core/mapping.hpp"
#include "sim/core/platform.hpp"

namespace contend {

class SocketAssignment {
 public:
  SocketAssignment(const NodeArchitecture& nodes, std::vector<int> socket_of);  // node * sockets + socket per rank
  static SocketAssignment of(const Mapping& mapping, const NodeArchitecture& nodes);

  int ranks() const { return static_cast<int>(socket_of_.size()); }
  int sockets() const { return static_cast<int>(members_.size()); }
  int capacity() const { return nodes_.cores_per_socket; }
  int socket_of(int rank) const { return socket_of_[static_cast<std::size_t>(rank)]; }
  int node_of_socket(int socket) const { return socket / nodes_.sockets; }
  // The ranks on a socket, in no particular order.
  const std::vector<int>& members(int socket) const { return members_[static_cast<std::size_t>(socket)]; }
  int free(int socket) const { return capacity() - static_cast<int>(members(socket).size()); }

  void swap(int a, int b);
  void move(int rank, int socket);  // needs a free core there

  Mapping to_mapping() const;
  const std::vector<int>& sockets_by_rank() const { return socket_of_; }
  bool operator==(const SocketAssignment& other) const { return socket_of_ == other.socket_of_; }

 private:
  void remove(int rank);
  NodeArchitecture nodes_;
  std::vector<int> socket_of_;
  std::vector<std::vector<int>> members_;
};

// How many ranks each node holds: packed (filled in order, as few nodes as
// possible) or spread (every node, as even as possible); within a node the
// sockets share its ranks evenly. Indexed node * sockets + socket.
std::vector<int> socket_counts(int ranks, const NodeArchitecture& nodes, bool spread);

}  // namespace contend
