#pragma once
// Virtual topologies of Open MPI's coll/base (coll_base_topo.c), rewritten:
// every builder returns the node of one local rank, in local ranks. All but
// the in-order binary tree are built on the shifted rank v = (rank - root +
// size) % size and mapped back with (x + root) % size.
#include <vector>

namespace contend::coll {

struct TreeNode {
  int root = 0;
  int parent = -1;            // -1 for the root
  std::vector<int> children;  // in the order Open MPI serves them
};

// ompi_coll_base_topo_build_tree: level-ordered k-ary tree (fanout 2 = the
// "binary" tree of bcast/reduce). Size 7, fanout 2: 0->{1,2}, 1->{3,5}, 2->{4,6}.
TreeNode build_tree(int fanout, int size, int root, int rank);
// ompi_coll_base_topo_build_in_order_bintree: rooted at size-1, an in-order
// binary tree (used by the non-commutative reduce); ignores any user root.
TreeNode build_in_order_bintree(int size, int rank);
// ompi_coll_base_topo_build_bmtree: binomial, children by increasing mask.
TreeNode build_bmtree(int size, int root, int rank);
// ompi_coll_base_topo_build_in_order_bmtree (gather/scatter): children by
// increasing mask, parent = v with its lowest set bit cleared.
TreeNode build_in_order_bmtree(int size, int root, int rank);
// ompi_coll_base_topo_build_kmtree: k-nomial, children by decreasing mask.
TreeNode build_kmtree(int size, int root, int rank, int radix);
// ompi_coll_base_topo_build_chain: `fanout` chains (clamped to 1..32 and to
// size-1); the first (size-1) % fanout chains are one longer.
TreeNode build_chain(int fanout, int size, int root, int rank);

inline constexpr int kMaxTreeFanout = 32;  // MAXTREEFANOUT

}  // namespace contend::coll
