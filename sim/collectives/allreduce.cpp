// MPI_Allreduce: coll_base_allreduce.c of Open MPI 4.1, rewritten.
#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

// ompi_coll_base_allreduce_intra_basic_linear: linear reduce to 0, then
// linear bcast from 0.
void allreduce_linear(Context& c, std::uint64_t count) {
  Context reduce_ctx(c.mpi(), c.comm(), CollectiveOp::reduce, c.element_bytes());
  reduce_linear(reduce_ctx, 0, count);
  Context bcast_ctx(c.mpi(), c.comm(), CollectiveOp::bcast, c.element_bytes());
  bcast_linear(bcast_ctx, 0, count);
}

// ompi_coll_base_allreduce_intra_nonoverlapping: the communicator's reduce
// to 0 then its bcast from 0 (tuned: forced algorithm or fixed rule).
void allreduce_nonoverlapping(const Context& c, std::uint64_t count, bool commutative,
                              const CollectiveSettings& settings) {
  CollectiveCall reduce = make_call(CollectiveOp::reduce, c.bytes(count));
  reduce.element_bytes = c.element_bytes();
  reduce.commutative = commutative;
  nested_collective(c, reduce, settings);
  CollectiveCall bcast = make_call(CollectiveOp::bcast, c.bytes(count));
  bcast.element_bytes = c.element_bytes();
  nested_collective(c, bcast, settings);
}

// ompi_coll_base_allreduce_intra_ring: count >= size; a reduce-scatter ring
// (receives posted one block ahead) then an allgather ring.
void allreduce_ring(Context& c, std::uint64_t count) {
  const int size = c.size(), rank = c.rank();
  if (count < static_cast<std::uint64_t>(size)) {
    allreduce_recursive_doubling(c, count);
    return;
  }
  const BlockSplit b = split_blocks(count, static_cast<std::uint64_t>(size));
  const std::uint64_t max_block = b.early;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  auto block = [&](int k) { return b.count_of(static_cast<std::uint64_t>(k)); };
  reduce_scatter_ring_steps(c, rank, max_block, block);
  for (int k = 0; k < size - 1; ++k) {
    const int send_from = (rank + 1 + size - k) % size;
    c.sendrecv(right, block(send_from), left, max_block);
  }
}

// ompi_coll_base_allreduce_intra_ring_segmented: the reduce-scatter ring
// runs once per phase on the phase's slice of every block (slices of about
// segcount elements), then one allgather ring of whole blocks. The plain
// ring when count < size * segcount (always with the fixed rules' segment
// size 0).
void allreduce_segmented_ring(Context& c, std::uint64_t count, std::uint64_t segment_bytes) {
  const int size = c.size(), rank = c.rank();
  const std::uint64_t p = static_cast<std::uint64_t>(size);
  const std::uint64_t segcount = segment_count(segment_bytes, c.element_bytes(), count);
  if (count < p * segcount) {
    allreduce_ring(c, count);
    return;
  }
  segments_of(count, p * segcount);  // a phase per P segments: refuses more than limits::kMaxSegments
  std::uint64_t phases = count / (p * segcount);
  const std::uint64_t rest = count % (p * segcount);
  if (rest >= p && rest > p * segcount / 2) ++phases;
  const BlockSplit blocks = split_blocks(count, p);
  const std::uint64_t max_segcount = split_blocks(blocks.early, phases).early;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  auto slice = [&](int block, std::uint64_t phase) {
    return split_blocks(blocks.count_of(static_cast<std::uint64_t>(block)), phases).count_of(phase);
  };
  for (std::uint64_t phase = 0; phase < phases; ++phase) {
    reduce_scatter_ring_steps(c, rank, max_segcount, [&](int block) { return slice(block, phase); });
  }
  for (int k = 0; k < size - 1; ++k) {
    const int send_from = (rank + 1 + size - k) % size;
    c.sendrecv(right, blocks.count_of(static_cast<std::uint64_t>(send_from)), left, blocks.early);
  }
}

// ompi_coll_base_allreduce_intra_redscat_allgather (Rabenseifner).
void allreduce_rabenseifner(Context& c, std::uint64_t count, bool commutative) {
  const int size = c.size(), rank = c.rank();
  const int pof2 = largest_power_of_two_at_most(size);
  if (count < static_cast<std::uint64_t>(pof2) || !commutative) {
    allreduce_linear(c, count);
    return;
  }
  const HalvingPlan plan = rabenseifner_reduce_scatter(c, count);
  if (plan.vrank != -1) {
    // Allgather by recursive doubling, the halving steps in reverse.
    for (auto st = plan.steps.rbegin(); st != plan.steps.rend(); ++st) {
      c.sendrecv(st->dest, st->recv_count, st->dest, st->send_count);
    }
  }
  // Step 4: the folded-out odd ranks get the whole result.
  if (rank < 2 * plan.remainder) {
    if (rank % 2 != 0) {
      c.recv(rank - 1, count);
    } else {
      c.send(rank + 1, count);
    }
  }
}

}  // namespace

// ompi_coll_base_allreduce_intra_recursivedoubling. Non-power-of-two: even
// ranks below 2r hand their data to rank+1 and wait for the result.
void allreduce_recursive_doubling(Context& c, std::uint64_t count) {
  const int size = c.size(), rank = c.rank();
  const int adjsize = largest_power_of_two_at_most(size);
  const int extra = size - adjsize;
  const int newrank = fold_even_into_odd(c, extra, count);
  for (int distance = 1; distance < adjsize && newrank >= 0; distance <<= 1) {
    const int newremote = newrank ^ distance;
    const int remote = newremote < extra ? newremote * 2 + 1 : newremote + extra;
    c.sendrecv(remote, count, remote, count);
    c.reduce_compute(count);
  }
  if (rank < 2 * extra) {
    if (rank % 2 == 0) {
      c.recv(rank + 1, count);
    } else {
      c.send(rank - 1, count);
    }
  }
}

void run_allreduce(Context& c, const AlgorithmChoice& a, std::uint64_t count, bool commutative,
                   const CollectiveSettings& settings) {
  if (c.size() < 2) return;
  const std::string& n = a.algorithm;
  if (n == "linear") return allreduce_linear(c, count);
  if (n == "nonoverlapping") return allreduce_nonoverlapping(c, count, commutative, settings);
  if (n == "recursive_doubling") return allreduce_recursive_doubling(c, count);
  if (n == "ring") return allreduce_ring(c, count);
  if (n == "segmented_ring") return allreduce_segmented_ring(c, count, a.segment_bytes);
  if (n == "rabenseifner") return allreduce_rabenseifner(c, count, commutative);
  throw Error("internal error: unknown allreduce algorithm " + n);
}

}  // namespace contend::coll
