#include "sim/search/socket_assignment.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace contend {

SocketAssignment::SocketAssignment(const NodeArchitecture& nodes, std::vector<int> socket_of)
    : nodes_(nodes), socket_of_(std::move(socket_of)) {
  members_.assign(static_cast<std::size_t>(nodes.count) * static_cast<std::size_t>(nodes.sockets), {});
  for (std::size_t r = 0; r < socket_of_.size(); ++r) {
    auto& m = members_.at(static_cast<std::size_t>(socket_of_[r]));
    m.push_back(static_cast<int>(r));
    if (static_cast<int>(m.size()) > capacity()) {
      throw Error("the search places one rank per core: socket " + std::to_string(socket_of_[r]) + " would hold " +
                  std::to_string(m.size()) + " ranks");
    }
  }
}

SocketAssignment SocketAssignment::of(const Mapping& mapping, const NodeArchitecture& nodes) {
  std::vector<int> socket_of;
  socket_of.reserve(static_cast<std::size_t>(mapping.rank_count()));
  for (int r = 0; r < mapping.rank_count(); ++r)
    socket_of.push_back(mapping[r].node * nodes.sockets + mapping[r].socket);
  return SocketAssignment(nodes, std::move(socket_of));
}

void SocketAssignment::remove(int rank) {
  auto& m = members_[static_cast<std::size_t>(socket_of(rank))];
  m.erase(std::find(m.begin(), m.end(), rank));
}

void SocketAssignment::swap(int a, int b) {
  const int sa = socket_of(a), sb = socket_of(b);
  if (sa == sb) return;
  auto& ma = members_[static_cast<std::size_t>(sa)];
  auto& mb = members_[static_cast<std::size_t>(sb)];
  *std::find(ma.begin(), ma.end(), a) = b;
  *std::find(mb.begin(), mb.end(), b) = a;
  socket_of_[static_cast<std::size_t>(a)] = sb;
  socket_of_[static_cast<std::size_t>(b)] = sa;
}

void SocketAssignment::move(int rank, int socket) {
  if (socket == socket_of(rank)) return;
  if (free(socket) <= 0) throw Error("internal: moving a rank to a full socket");
  remove(rank);
  members_[static_cast<std::size_t>(socket)].push_back(rank);
  socket_of_[static_cast<std::size_t>(rank)] = socket;
}

Mapping SocketAssignment::to_mapping() const {
  std::vector<Placement> placements(socket_of_.size());
  std::vector<int> next(members_.size(), 0);
  for (std::size_t r = 0; r < socket_of_.size(); ++r) {
    const int s = socket_of_[r];
    placements[r] = Placement{s / nodes_.sockets, s % nodes_.sockets, next[static_cast<std::size_t>(s)]++};
  }
  return Mapping(std::move(placements));
}

std::vector<int> socket_counts(int ranks, const NodeArchitecture& nodes, bool spread) {
  std::vector<int> per_node(static_cast<std::size_t>(nodes.count), 0);
  if (spread) {
    for (int n = 0; n < nodes.count; ++n)
      per_node[static_cast<std::size_t>(n)] = ranks / nodes.count + (n < ranks % nodes.count ? 1 : 0);
  } else {
    int left = ranks;
    for (auto& c : per_node) {
      c = std::min(left, nodes.cores_per_node());
      left -= c;
    }
  }
  std::vector<int> out;
  for (int k : per_node) {
    for (int s = 0; s < nodes.sockets; ++s) out.push_back(k / nodes.sockets + (s < k % nodes.sockets ? 1 : 0));
  }
  return out;
}

}  // namespace contend
