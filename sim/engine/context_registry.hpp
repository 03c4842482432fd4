#pragma once
// The context ids of one simulation's derived communicators (MPI_Comm_split,
// MPI_Comm_dup). Every member of a new communicator asks with the same key
// (parent context, derivation number on the parent, color) and gets the same
// id; different derivations never share one. Ids start above the world's 0
// and grow in order of first request, which SimGrid's deterministic
// scheduling makes reproducible. One registry per simulation (EngineCore
// owns it), so nothing outlives a run.
#include <map>
#include <tuple>

namespace contend {

class ContextRegistry {
 public:
  int derive(int parent_context, int derivation, int color) {
    const auto [it, added] =
        ids_.try_emplace(std::make_tuple(parent_context, derivation, color), static_cast<int>(ids_.size()) + 1);
    return it->second;
  }

 private:
  std::map<std::tuple<int, int, int>, int> ids_;
};

}  // namespace contend
