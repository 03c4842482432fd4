// MPI_Bcast: coll_base_bcast.c of Open MPI 4.1, rewritten.
#include <fmt/format.h>

#include <algorithm>

#include "sim/collectives/context.hpp"
#include "sim/collectives/topology.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {

std::uint64_t segment_count(std::uint64_t segment_bytes, std::uint32_t element_bytes, std::uint64_t count) {
  // COLL_BASE_COMPUTED_SEGCOUNT: round to the nearest element count, only
  // when a segment is at least one element and smaller than the message.
  if (segment_bytes >= element_bytes && segment_bytes < element_bytes * count) {
    std::uint64_t per = segment_bytes / element_bytes;
    if (segment_bytes - per * element_bytes > element_bytes / 2) ++per;
    return per;
  }
  return count;
}

void too_many_segments(std::uint64_t count, std::uint64_t per_segment, std::uint64_t segments) {
  throw LimitError(
      limits::exceeds(fmt::format("{} elements in segments of {}: {} segments", count, per_segment, segments),
                      limits::kMaxSegmentsText) +
      "; force a larger segment size (--coll OP=ALGORITHM:SEGSIZE)");
}

namespace {

// ompi_coll_base_bcast_intra_generic: segments flow down the tree; a node
// forwards segment s-1 (Isend to every child, Waitall) while segment s is
// being received (two receives outstanding at most).
void bcast_generic(Context& c, const TreeNode& tree, std::uint64_t count, std::uint64_t per_segment) {
  if (count == 0) return;
  const std::uint64_t nseg = segments_of(count, per_segment);
  auto seg_elems = [&](std::uint64_t s) { return s + 1 == nseg ? count - per_segment * s : per_segment; };
  auto forward = [&](std::uint64_t s) {
    std::vector<RequestId> sends;
    for (int child : tree.children) sends.push_back(c.isend(child, seg_elems(s)));
    c.waitall(sends);
  };
  if (c.rank() == tree.root) {
    for (std::uint64_t s = 0; s < nseg; ++s) forward(s);
    return;
  }
  if (!tree.children.empty()) {
    RequestId previous = c.irecv(tree.parent, seg_elems(0));
    for (std::uint64_t s = 1; s < nseg; ++s) {
      const RequestId next = c.irecv(tree.parent, seg_elems(s));
      c.wait(previous);
      forward(s - 1);
      previous = next;
    }
    c.wait(previous);
    forward(nseg - 1);
    return;
  }
  // Leaf: Irecv segment s, Wait segment s-1 (double buffering).
  RequestId previous = c.irecv(tree.parent, seg_elems(0));
  for (std::uint64_t s = 1; s < nseg; ++s) {
    const RequestId next = c.irecv(tree.parent, seg_elems(s));
    c.wait(previous);
    previous = next;
  }
  c.wait(previous);
}

}  // namespace

// ompi_coll_base_bcast_intra_basic_linear: the root Isends to every rank in
// rank order and waits for all; the others Recv.
void bcast_linear(Context& c, int root, std::uint64_t count) {
  if (c.size() < 2) return;
  if (c.rank() != root) {
    c.recv(root, count);
    return;
  }
  std::vector<RequestId> sends;
  for (int r = 0; r < c.size(); ++r) {
    if (r != root) sends.push_back(c.isend(r, count));
  }
  c.waitall(sends);
}

namespace {

void bcast_chain(Context& c, int root, std::uint64_t count, std::uint64_t segment_bytes, int fanout) {
  const std::uint64_t per = segment_count(segment_bytes, c.element_bytes(), count);
  bcast_generic(c, build_chain(fanout, c.size(), root, c.rank()), count, per);
}

// Split binary tree: each half of the message goes down one subtree of a
// binary tree, then partners of the two subtrees swap halves.
void bcast_split_binary(Context& c, int root, std::uint64_t count, std::uint64_t segment_bytes, int chain_fanout) {
  const int size = c.size(), rank = c.rank();
  if (size < 2 || count == 0) return;
  // The message halves: ceil(count/2) elements go left, the rest right.
  const std::uint64_t half[2] = {(count + 1) / 2, count / 2};
  // Segments of segsize / typesize elements (no rounding, unlike
  // COLL_BASE_COMPUTED_SEGCOUNT); segsize 0: one segment per half.
  const std::uint64_t seg_elements =
      segment_bytes == 0 ? 0 : std::max<std::uint64_t>(1, segment_bytes / c.element_bytes());
  std::uint64_t per[2];
  std::uint64_t nseg[2];
  for (int i = 0; i < 2; ++i) {
    per[i] = seg_elements == 0 ? half[i] : seg_elements;
    nseg[i] = segments_of(half[i], per[i]);
  }
  // Open MPI falls back to a chain of fanout 1 with the same segment size
  // when a half is empty or smaller than a segment.
  (void)chain_fanout;
  if (half[1] == 0 || segment_bytes > half[0] * c.element_bytes() || segment_bytes > half[1] * c.element_bytes()) {
    bcast_chain(c, root, count, segment_bytes, 1);
    return;
  }
  const TreeNode tree = build_tree(2, size, root, rank);
  const int v = (rank - root + size) % size;
  const int lr = (v + 1) % 2;  // 0: left subtree, 1: right (the root counts as right)
  auto seg_elems = [&](int side, std::uint64_t s) {
    return s + 1 == nseg[side] ? half[side] - per[side] * s : per[side];
  };
  // Phase 1: the halves go down their subtrees, segment by segment.
  if (rank == root) {
    const std::uint64_t most = std::max(nseg[0], nseg[1]);
    for (std::uint64_t s = 0; s < most; ++s) {
      for (std::size_t i = 0; i < tree.children.size() && i < 2; ++i) {
        if (s >= nseg[i]) continue;
        c.send(tree.children[i], seg_elems(static_cast<int>(i), s));  // blocking, as Open MPI
      }
    }
  } else if (!tree.children.empty()) {
    RequestId previous = c.irecv(tree.parent, seg_elems(lr, 0));
    for (std::uint64_t s = 1; s < nseg[lr]; ++s) {
      const RequestId next = c.irecv(tree.parent, seg_elems(lr, s));
      c.wait(previous);
      for (int child : tree.children) c.send(child, seg_elems(lr, s - 1));
      previous = next;
    }
    c.wait(previous);
    for (int child : tree.children) c.send(child, seg_elems(lr, nseg[lr] - 1));
  } else {
    for (std::uint64_t s = 0; s < nseg[lr]; ++s) c.recv(tree.parent, seg_elems(lr, s));
  }
  // Phase 2: exchange halves with the twin in the other subtree: a left
  // node (odd v) pairs with rank+1, a right node with rank-1. For an even
  // size the last shifted rank's twin would be the root, which sends it the
  // right half instead.
  if (size % 2 == 0) {
    if (rank == root) {
      c.send((root + size - 1) % size, half[1]);
      return;
    }
    if (v == size - 1) {
      c.recv(root, half[1]);
      return;
    }
  } else if (rank == root) {
    return;
  }
  const int pair = lr == 0 ? (rank + 1) % size : (rank + size - 1) % size;
  c.sendrecv(pair, half[lr], pair, half[lr ^ 1]);
}

}  // namespace

// ompi_coll_base_bcast_intra_scatter_allgather (and _ring): binomial scatter
// of ceil(count/size)-element blocks, then a recursive-doubling (or ring)
// allgather of the blocks.
namespace {

std::uint64_t block_range_elems(std::uint64_t count, std::uint64_t block, std::int64_t first, std::int64_t last) {
  // Elements of blocks [first, last) of `block` elements in a `count` message.
  const std::uint64_t lo = std::min<std::uint64_t>(count, static_cast<std::uint64_t>(first) * block);
  const std::uint64_t hi = std::min<std::uint64_t>(count, static_cast<std::uint64_t>(last) * block);
  return hi - lo;
}

void binomial_block_scatter(Context& c, int root, std::uint64_t count, std::uint64_t block) {
  const int size = c.size(), v = (c.rank() - root + size) % size;
  // Receive from the parent: my subtree's blocks [v, v + lowbit(v)).
  int mask = 1;
  while (mask < size) {
    if (v & mask) {
      const std::uint64_t n = block_range_elems(count, block, v, std::min(v + mask, size));
      if (n > 0) c.recv((c.rank() - mask + size) % size, n);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (v + mask >= size) continue;
    const int sub_end = std::min(v + 2 * mask, size);
    const std::uint64_t n = block_range_elems(count, block, v + mask, sub_end);
    if (n > 0) c.send((c.rank() + mask) % size, n);
  }
}

// The first phase of both scatter-allgather broadcasts: the binomial
// scatter of blocks of ceil(count / size) elements, whose size it returns;
// 0 when nothing is left to do (one rank, or fewer elements than ranks:
// then the linear broadcast did it all).
std::uint64_t scatter_for_allgather(Context& c, int root, std::uint64_t count) {
  const int size = c.size();
  if (size < 2) return 0;
  if (count < static_cast<std::uint64_t>(size)) {
    bcast_linear(c, root, count);
    return 0;
  }
  const std::uint64_t block = (count + size - 1) / size;
  binomial_block_scatter(c, root, count, block);
  return block;
}

void bcast_scatter_allgather(Context& c, int root, std::uint64_t count) {
  const int size = c.size();
  const std::uint64_t block = scatter_for_allgather(c, root, count);
  if (block == 0) return;
  // Recursive doubling: after the exchange at `mask`, v holds the blocks of
  // [rounddown(v, 2 mask), +2 mask). Decision: amounts are those blocks'
  // elements (Open MPI reads them from the status; the data are the same).
  const int v = (c.rank() - root + size) % size;
  for (int mask = 1; mask < size; mask <<= 1) {
    const int vremote = v ^ mask;
    const int my_root = v / mask * mask, remote_root = vremote / mask * mask;
    if (vremote < size) {
      const int remote = (vremote + root) % size;
      c.sendrecv(remote, block_range_elems(count, block, my_root, std::min(my_root + mask, size)), remote,
                 block_range_elems(count, block, remote_root, std::min(remote_root + mask, size)));
    }
    if (remote_root + mask > size) {
      // Non-power-of-two: the processes whose partner subtree is missing
      // get its data from a neighbour that has it (recursive halving).
      const int with_data = size - my_root - mask;
      const std::uint64_t n = block_range_elems(count, block, my_root + mask, std::min(my_root + 2 * mask, size));
      for (int h = mask >> 1; h > 0; h >>= 1) {
        const int vr = v ^ h;
        const int tree_root = v / (h << 1) * (h << 1);
        const int remote = (vr + root) % size;
        if (vr > v && v < tree_root + with_data && vr >= tree_root + with_data) {
          if (n > 0) c.send(remote, n);
        } else if (vr < v && vr < tree_root + with_data && v >= tree_root + with_data) {
          if (n > 0) c.recv(remote, n);
        }
      }
    }
  }
}

void bcast_scatter_allgather_ring(Context& c, int root, std::uint64_t count) {
  const int size = c.size();
  const std::uint64_t block = scatter_for_allgather(c, root, count);
  if (block == 0) return;
  // Ring allgather: at step i, send block (v - i) to the right, receive
  // block (v - i - 1) from the left.
  const int v = (c.rank() - root + size) % size;
  const int left = (c.rank() - 1 + size) % size, right = (c.rank() + 1) % size;
  for (int i = 0; i < size - 1; ++i) {
    const int send_block = (v - i + size) % size, recv_block = (v - i - 1 + size) % size;
    c.sendrecv(right, block_range_elems(count, block, send_block, send_block + 1), left,
               block_range_elems(count, block, recv_block, recv_block + 1));
  }
}

}  // namespace

void run_bcast(Context& c, const AlgorithmChoice& a, int root, std::uint64_t count) {
  const std::uint64_t per = segment_count(a.segment_bytes, c.element_bytes(), count);
  const std::string& n = a.algorithm;
  if (n == "linear") return bcast_linear(c, root, count);
  if (n == "chain") return bcast_chain(c, root, count, a.segment_bytes, a.fanout);
  if (n == "pipeline") return bcast_chain(c, root, count, a.segment_bytes, 1);
  if (n == "split_binary") return bcast_split_binary(c, root, count, a.segment_bytes, a.fanout);
  if (n == "binary") return bcast_generic(c, build_tree(2, c.size(), root, c.rank()), count, per);
  if (n == "binomial") return bcast_generic(c, build_bmtree(c.size(), root, c.rank()), count, per);
  if (n == "knomial") return bcast_generic(c, build_kmtree(c.size(), root, c.rank(), a.fanout), count, per);
  if (n == "scatter_allgather") return bcast_scatter_allgather(c, root, count);
  if (n == "scatter_allgather_ring") return bcast_scatter_allgather_ring(c, root, count);
  throw Error("internal error: unknown bcast algorithm " + n);
}

}  // namespace contend::coll
