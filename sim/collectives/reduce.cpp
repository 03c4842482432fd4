// MPI_Reduce: coll_base_reduce.c of Open MPI 4.1, rewritten.
#include <algorithm>
#include <optional>

#include "sim/collectives/context.hpp"
#include "sim/collectives/topology.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

// ompi_coll_base_reduce_generic. Inner nodes receive each segment from every
// child in turn (two receives in flight), reduce it into the accumulator, and
// once a segment has been reduced with all children, send it (blocking) to
// the parent. Leaves send their segments with blocking sends: the tuned
// component's max_requests is 0 (unlimited) in 4.1, so the synchronous-send
// window is never used.
void reduce_generic(Context& c, const TreeNode& tree, std::uint64_t count, std::uint64_t per_segment) {
  if (count == 0) return;
  const std::uint64_t nseg = segments_of(count, per_segment);
  auto seg_elems = [&](std::uint64_t s) { return s + 1 == nseg ? count - per_segment * s : per_segment; };
  if (tree.children.empty()) {
    if (tree.parent >= 0) {
      for (std::uint64_t s = 0; s < nseg; ++s) c.send(tree.parent, seg_elems(s));
    }
    return;
  }
  std::optional<RequestId> in_flight[2];
  int slot = 0;
  const std::size_t nchildren = tree.children.size();
  for (std::uint64_t s = 0; s <= nseg; ++s) {
    for (std::size_t i = 0; i < nchildren; ++i) {
      if (s < nseg) in_flight[slot] = c.irecv(tree.children[i], seg_elems(s));
      // Wait for the previous receive (previous child, or the last child of
      // the previous segment) and reduce it.
      if (in_flight[slot ^ 1]) {
        c.wait(*in_flight[slot ^ 1]);
        in_flight[slot ^ 1].reset();
      }
      if (i > 0) {
        c.reduce_compute(seg_elems(s));
      } else if (s > 0) {
        c.reduce_compute(seg_elems(s - 1));
        if (c.rank() != tree.root) c.send(tree.parent, seg_elems(s - 1));
      }
      if (s == nseg) break;
      slot ^= 1;
    }
  }
}

void reduce_tree(Context& c, const TreeNode& tree, std::uint64_t count, std::uint64_t segment_bytes) {
  reduce_generic(c, tree, count, segment_count(segment_bytes, c.element_bytes(), count));
}

// ompi_coll_base_reduce_intra_in_order_binary: the in-order tree is rooted at
// size-1; if the user's root differs, size-1 sends it the result.
void reduce_in_order_binary(Context& c, int root, std::uint64_t count, std::uint64_t segment_bytes) {
  const int io_root = c.size() - 1;
  reduce_tree(c, build_in_order_bintree(c.size(), c.rank()), count, segment_bytes);
  if (io_root == root) return;
  if (c.rank() == root) c.recv(io_root, count);
  if (c.rank() == io_root) c.send(root, count);
}

// ompi_coll_base_reduce_intra_redscat_gather: Rabenseifner's reduce
// (reduce-scatter by recursive halving, then a binomial gather to the root).
void reduce_rabenseifner(Context& c, int root, std::uint64_t count, bool commutative) {
  const int size = c.size(), rank = c.rank();
  const int pof2 = largest_power_of_two_at_most(size);
  if (pof2 < 2 || count < static_cast<std::uint64_t>(pof2) || !commutative) {
    reduce_linear(c, root, count);
    return;
  }
  HalvingPlan plan = rabenseifner_reduce_scatter(c, count);
  const int rem = plan.remainder;
  int nsteps = 0;  // log2(p')
  while ((1 << nsteps) < pof2) ++nsteps;
  int vrank = plan.vrank;
  int vroot;
  if (root < 2 * rem) {
    if (root % 2 != 0) {
      // An odd root folded out: it takes vrank 0's place for the gather.
      vroot = 0;
      if (rank == root) {
        plan.steps.assign(static_cast<std::size_t>(nsteps), HalvingStep{});
        std::uint64_t window = count;
        for (auto& st : plan.steps) {
          st.recv_count = window / 2;
          st.send_count = window - st.recv_count;
          st.recv_index = 0;
          st.send_index = st.recv_count;
          window /= 2;
        }
        c.recv(0, plan.steps.back().recv_count);
        vrank = 0;
      } else if (vrank == 0) {
        c.send(root, plan.steps.back().recv_count);
        vrank = -1;
      }
    } else {
      vroot = root / 2;
    }
  } else {
    vroot = root - rem;
  }
  if (vrank == -1) return;
  // Binomial gather along the halving steps in reverse.
  int step = nsteps - 1;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1, --step) {
    const int vdest = vrank ^ mask;
    int dest = rabenseifner_real_rank(vdest, rem);
    if (vdest == 0 && root < 2 * rem && root % 2 != 0) dest = root;
    const HalvingStep& st = plan.steps[static_cast<std::size_t>(step)];
    if ((vdest >> step) << step == (vroot >> step) << step) {
      c.send(dest, st.recv_count);
      break;
    }
    c.recv(dest, st.send_count);
  }
}

}  // namespace

HalvingPlan rabenseifner_reduce_scatter(Context& c, std::uint64_t count) {
  const int size = c.size(), rank = c.rank();
  HalvingPlan plan;
  plan.pof2 = largest_power_of_two_at_most(size);
  plan.remainder = size - plan.pof2;
  const int rem = plan.remainder;
  // Step 1: fold the first 2r ranks pairwise.
  if (rank < 2 * rem) {
    const std::uint64_t lhalf = count / 2, rhalf = count - lhalf;
    if (rank % 2 != 0) {
      c.sendrecv(rank - 1, lhalf, rank - 1, rhalf);
      c.reduce_compute(rhalf);
      c.send(rank - 1, rhalf);
      plan.vrank = -1;
    } else {
      c.sendrecv(rank + 1, rhalf, rank + 1, lhalf);
      c.reduce_compute(lhalf);
      c.recv(rank + 1, rhalf);
      plan.vrank = rank / 2;
    }
  } else {
    plan.vrank = rank - rem;
  }
  // Step 2: recursive vector halving, distance doubling.
  if (plan.vrank == -1) return plan;
  std::uint64_t window = count, index = 0;
  for (int mask = 1; mask < plan.pof2; mask <<= 1) {
    HalvingStep st;
    const int vdest = plan.vrank ^ mask;
    st.dest = rabenseifner_real_rank(vdest, rem);
    if (rank < st.dest) {  // keep the lower half
      st.recv_count = window / 2;
      st.send_count = window - st.recv_count;
      st.recv_index = index;
      st.send_index = index + st.recv_count;
    } else {  // keep the upper half
      st.send_count = window / 2;
      st.recv_count = window - st.send_count;
      st.send_index = index;
      st.recv_index = index + st.send_count;
    }
    c.sendrecv(st.dest, st.send_count, st.dest, st.recv_count);
    c.reduce_compute(st.recv_count);
    index = st.recv_index;
    window = st.recv_count;
    plan.steps.push_back(st);
  }
  return plan;
}

int fold_even_into_odd(Context& c, int remainder, std::uint64_t count) {
  const int rank = c.rank();
  if (rank >= 2 * remainder) return rank - remainder;
  if (rank % 2 == 0) {
    c.send(rank + 1, count);
    return -1;
  }
  c.recv(rank - 1, count);
  c.reduce_compute(count);
  return rank / 2;
}

// ompi_coll_base_reduce_intra_basic_linear: non-roots send (blocking). The
// root receives rank size-1's data (unless it is size-1: then it copies its
// own), then for i = size-2 down to 0 receives rank i's data (its own buffer
// for i = root) and reduces it: size-1 reductions in all.
void reduce_linear(Context& c, int root, std::uint64_t count) {
  if (c.rank() != root) {
    c.send(root, count);
    return;
  }
  const int last = c.size() - 1;
  if (root != last) c.recv(last, count);
  for (int i = last - 1; i >= 0; --i) {
    if (i != root) c.recv(i, count);
    c.reduce_compute(count);
  }
}

void run_reduce(Context& c, const AlgorithmChoice& a, int root, std::uint64_t count, bool commutative) {
  const int size = c.size(), rank = c.rank();
  if (size < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear") return reduce_linear(c, root, count);
  if (n == "chain") return reduce_tree(c, build_chain(a.fanout, size, root, rank), count, a.segment_bytes);
  if (n == "pipeline") return reduce_tree(c, build_chain(1, size, root, rank), count, a.segment_bytes);
  if (n == "binary") return reduce_tree(c, build_tree(2, size, root, rank), count, a.segment_bytes);
  if (n == "binomial") return reduce_tree(c, build_in_order_bmtree(size, root, rank), count, a.segment_bytes);
  if (n == "in_order_binary") return reduce_in_order_binary(c, root, count, a.segment_bytes);
  if (n == "rabenseifner") return reduce_rabenseifner(c, root, count, commutative);
  throw Error("internal error: unknown reduce algorithm " + n);
}

}  // namespace contend::coll
