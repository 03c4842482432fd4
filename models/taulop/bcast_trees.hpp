#pragma once
// The virtual trees Open MPI's tuned broadcasts run on (Open MPI v4.1,
// ompi/mca/coll/base/coll_base_topo.c), rooted at rank 0
// (Open MPI shifts ranks by the root; the models take root 0). Only the
// shapes: the analytical models (bcast_models.hpp) read each node's children.
#include <vector>

namespace contend::taulop {

struct BcastTree {
  std::vector<std::vector<int>> children;  // by rank
  std::vector<int> depth;                  // root 0 at depth 0
  int height = 0;                          // the deepest node's depth
  int size() const { return static_cast<int>(children.size()); }
};

// children of v: v + mask, v + 2 mask, ... (< P), mask the least power of two > v.
BcastTree binomial_tree(int procs);
// Level by level, fanout 2: at level l, children of v are v + 2^l and v + 2^(l+1).
BcastTree binary_tree(int procs);
// The P - 1 non-roots in `fanout` contiguous chains (the first (P-1) % fanout
// one longer); the root feeds every chain head. fanout 1 is the pipeline;
// fanout is clamped to 1..min(P - 1, 32) as Open MPI's build_chain does.
BcastTree chain_tree(int procs, int fanout);

}  // namespace contend::taulop
