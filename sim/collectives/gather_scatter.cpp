// MPI_Gather(v), MPI_Scatter(v): coll_base_gather.c, coll_base_scatter.c
// and (for the v variants, which tuned leaves to coll/basic in 4.1)
// coll_basic_gatherv.c / coll_basic_scatterv.c, rewritten. `blocks` holds
// every local rank's block in elements.
#include <numeric>

#include "sim/collectives/context.hpp"
#include "sim/collectives/topology.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

// Elements of the blocks of the in-order binomial subtree rooted at shifted
// rank `vchild` below shifted rank `vparent` (ranks vchild .. vchild + span - 1).
std::uint64_t subtree_elements(const std::vector<std::uint64_t>& blocks, int root, int vparent, int vchild) {
  const int size = static_cast<int>(blocks.size());
  const int span = std::min(vchild - vparent, size - vchild);
  std::uint64_t n = 0;
  for (int v = vchild; v < vchild + span; ++v) n += blocks[static_cast<std::size_t>((v + root) % size)];
  return n;
}

std::uint64_t my_subtree_elements(const std::vector<std::uint64_t>& blocks, int root, int rank) {
  const int size = static_cast<int>(blocks.size());
  const TreeNode tree = build_in_order_bmtree(size, root, rank);
  const int v = (rank - root + size) % size;
  std::uint64_t n = blocks[static_cast<std::size_t>(rank)];
  for (int child : tree.children) n += subtree_elements(blocks, root, v, (child - root + size) % size);
  return n;
}

// ompi_coll_base_{gather,scatter}_intra_basic_linear (and coll/basic's
// gatherv and scatterv: empty blocks are neither sent nor received): one
// blocking message per non-root rank with its block, to the root (gather)
// or from it (scatter), the root taking the ranks in order.
void linear_blocks(Context& c, int root, const std::vector<std::uint64_t>& blocks, bool skip_empty, bool to_root) {
  auto block = [&](int rank) { return blocks[static_cast<std::size_t>(rank)]; };
  auto message = [&](bool send, int peer, std::uint64_t n) { send ? c.send(peer, n) : c.recv(peer, n); };
  if (c.rank() != root) {
    if (!skip_empty || block(c.rank()) > 0) message(to_root, root, block(c.rank()));
    return;
  }
  for (int i = 0; i < c.size(); ++i) {
    if (i == root || (skip_empty && block(i) == 0)) continue;
    message(!to_root, i, block(i));
  }
}

// ompi_coll_base_gather_intra_binomial: in-order binomial tree; a node
// receives each child's whole subtree (blocking, children in order), then
// sends its own subtree to its parent.
void gather_binomial(Context& c, int root, const std::vector<std::uint64_t>& blocks) {
  const int size = c.size(), rank = c.rank();
  const TreeNode tree = build_in_order_bmtree(size, root, rank);
  const int v = (rank - root + size) % size;
  for (int child : tree.children) c.recv(child, subtree_elements(blocks, root, v, (child - root + size) % size));
  if (rank != root) c.send(tree.parent, my_subtree_elements(blocks, root, rank));
}

// ompi_coll_base_gather_intra_linear_sync: the root, rank by rank, posts the
// first-segment receive, sends an empty "go" message, posts the rest's
// receive and waits for the first segment; then waits for all the rests.
// With the fixed rules' segment size 0 the first segment is the whole block
// and the rest is an empty message.
void gather_linear_sync(Context& c, int root, const std::vector<std::uint64_t>& blocks, std::uint64_t segment_bytes) {
  const std::uint64_t block = blocks[static_cast<std::size_t>(c.rank())];
  if (c.rank() != root) {
    const std::uint64_t first = segment_count(segment_bytes, c.element_bytes(), block);
    c.recv(root, 0);
    c.send(root, first);
    c.send(root, block - first);
    return;
  }
  std::vector<RequestId> rests;
  for (int i = 0; i < c.size(); ++i) {
    if (i == root) continue;
    const std::uint64_t b = blocks[static_cast<std::size_t>(i)];
    const std::uint64_t first = segment_count(segment_bytes, c.element_bytes(), b);
    const RequestId first_req = c.irecv(i, first);
    c.send(i, 0);
    rests.push_back(c.irecv(i, b - first));
    c.wait(first_req);
  }
  c.waitall(rests);
}

// ompi_coll_base_scatter_intra_linear_nb with the tuned default
// blocking_send_ratio 0: the root Isends every block, then waits for all.
void scatter_linear_nb(Context& c, int root, const std::vector<std::uint64_t>& blocks) {
  if (c.rank() != root) {
    c.recv(root, blocks[static_cast<std::size_t>(c.rank())]);
    return;
  }
  std::vector<RequestId> sends;
  for (int i = 0; i < c.size(); ++i) {
    if (i != root) sends.push_back(c.isend(i, blocks[static_cast<std::size_t>(i)]));
  }
  c.waitall(sends);
}

// ompi_coll_base_scatter_intra_binomial: in-order binomial tree; a node
// receives its subtree's blocks from its parent, then sends each child its
// subtree, the last (largest) child first.
void scatter_binomial(Context& c, int root, const std::vector<std::uint64_t>& blocks) {
  const int size = c.size(), rank = c.rank();
  const TreeNode tree = build_in_order_bmtree(size, root, rank);
  const int v = (rank - root + size) % size;
  if (rank != root) c.recv(tree.parent, my_subtree_elements(blocks, root, rank));
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
    c.send(*child, subtree_elements(blocks, root, v, (*child - root + size) % size));
  }
}

}  // namespace

void run_gather(Context& c, const AlgorithmChoice& a, int root, const std::vector<std::uint64_t>& blocks) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear") return linear_blocks(c, root, blocks, false, true);
  if (n == "linear_v") return linear_blocks(c, root, blocks, true, true);
  if (n == "binomial") return gather_binomial(c, root, blocks);
  if (n == "linear_sync") return gather_linear_sync(c, root, blocks, a.segment_bytes);
  throw Error("internal error: unknown gather algorithm " + n);
}

void run_scatter(Context& c, const AlgorithmChoice& a, int root, const std::vector<std::uint64_t>& blocks) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear") return linear_blocks(c, root, blocks, false, false);
  if (n == "linear_v") return linear_blocks(c, root, blocks, true, false);
  if (n == "binomial") return scatter_binomial(c, root, blocks);
  if (n == "linear_nb") return scatter_linear_nb(c, root, blocks);
  throw Error("internal error: unknown scatter algorithm " + n);
}

}  // namespace contend::coll
