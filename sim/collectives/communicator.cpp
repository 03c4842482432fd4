#include <algorithm>

#include "sim/collectives/collectives.hpp"
#include "sim/core/error.hpp"
#include "sim/engine/mpi.hpp"

namespace contend::coll {
std::optional<int> Communicator::local_of_world(int world) const {
  const auto it = std::find(world_ranks.begin(), world_ranks.end(), world);
  if (it == world_ranks.end()) return std::nullopt;
  return static_cast<int>(it - world_ranks.begin());
}

Communicator world_communicator(const Mpi& mpi) {
  Communicator c;
  c.context = Mpi::kCommWorld;
  c.world_ranks.resize(static_cast<std::size_t>(mpi.size()));
  for (int r = 0; r < mpi.size(); ++r) c.world_ranks[static_cast<std::size_t>(r)] = r;
  c.local_rank = mpi.rank();
  return c;
}

std::optional<Communicator> split_communicator(contend::ContextRegistry& contexts, Communicator& parent,
                                               const std::vector<ColorKey>& by_parent_rank) {
  if (static_cast<int>(by_parent_rank.size()) != parent.size()) {
    throw Error("comm_split: " + std::to_string(by_parent_rank.size()) + " (color, key) pairs for a communicator of " +
                std::to_string(parent.size()) + " ranks");
  }
  const int derivation = parent.derived_count++;
  const int color = by_parent_rank[static_cast<std::size_t>(parent.local_rank)].color;
  if (color == kUndefinedColor) return std::nullopt;
  std::vector<int> members;  // parent local ranks with my color
  for (int r = 0; r < parent.size(); ++r) {
    if (by_parent_rank[static_cast<std::size_t>(r)].color == color) members.push_back(r);
  }
  std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
    return by_parent_rank[static_cast<std::size_t>(a)].key < by_parent_rank[static_cast<std::size_t>(b)].key;
  });
  Communicator c;
  c.context = contexts.derive(parent.context, derivation, color);
  for (std::size_t i = 0; i < members.size(); ++i) {
    c.world_ranks.push_back(parent.world_rank(members[i]));
    if (members[i] == parent.local_rank) c.local_rank = static_cast<int>(i);
  }
  return c;
}

Communicator dup_communicator(contend::ContextRegistry& contexts, Communicator& parent) {
  Communicator c;
  c.context = contexts.derive(parent.context, parent.derived_count++, 0);
  c.world_ranks = parent.world_ranks;
  c.local_rank = parent.local_rank;
  return c;
}

}  // namespace contend::coll
