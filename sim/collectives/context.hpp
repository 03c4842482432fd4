#pragma once
// What every algorithm needs: point-to-point calls in local ranks on the
// communicator's context with the operation's tag, the element size, and the
// compute cost of reductions.
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/collectives/collectives.hpp"
#include "sim/core/limits.hpp"
#include "sim/engine/mpi.hpp"

namespace contend::coll {

// Decision: a reduction costs one flop per element (one add/max/... of two
// operands), executed at the core's nominal speed (Mpi::compute).
inline constexpr double kFlopsPerReducedElement = 1.0;

class Context {
 public:
  Context(Mpi& mpi, const Communicator& comm, CollectiveOp op, std::uint32_t element_bytes)
      : mpi_(mpi), comm_(comm), tag_(collective_tag(op)), element_bytes_(element_bytes) {}

  int rank() const { return comm_.local_rank; }
  int size() const { return comm_.size(); }
  std::uint64_t bytes(std::uint64_t elements) const { return elements * element_bytes_; }
  std::uint32_t element_bytes() const { return element_bytes_; }
  Mpi& mpi() const { return mpi_; }
  const Communicator& comm() const { return comm_; }

  // Peers are local ranks; sizes are in elements.
  RequestId isend(int peer, std::uint64_t elements) {
    return mpi_.isend(comm_.world_rank(peer), bytes(elements), tag_, comm_.context);
  }
  RequestId irecv(int peer, std::uint64_t elements) {
    return mpi_.irecv(comm_.world_rank(peer), bytes(elements), tag_, comm_.context);
  }
  // MPI_ANY_SOURCE with this operation's tag.
  RequestId irecv_any(std::uint64_t elements) {
    return mpi_.irecv(Mpi::kAnySource, bytes(elements), tag_, comm_.context);
  }
  void send(int peer, std::uint64_t elements) { mpi_.wait(isend(peer, elements)); }
  void recv(int peer, std::uint64_t elements) { mpi_.wait(irecv(peer, elements)); }
  void wait(RequestId id) { mpi_.wait(id); }
  void waitall(const std::vector<RequestId>& ids) {
    if (!ids.empty()) mpi_.waitall(ids);
  }
  // ompi_coll_base_sendrecv: a local copy when both peers are this rank,
  // else Irecv, blocking Send, Wait the receive.
  void sendrecv(int dst, std::uint64_t send_elements, int src, std::uint64_t recv_elements) {
    if (dst == rank() && src == rank()) return;
    const RequestId r = irecv(src, recv_elements);
    send(dst, send_elements);
    wait(r);
  }
  // ompi_op_reduce on `elements` elements.
  void reduce_compute(std::uint64_t elements) {
    if (elements > 0) mpi_.compute(static_cast<double>(elements) * kFlopsPerReducedElement);
  }

 private:
  Mpi& mpi_;
  const Communicator& comm_;
  int tag_;
  std::uint32_t element_bytes_;
};

// COLL_BASE_COMPUTED_SEGCOUNT: elements per segment for a segment size in
// bytes (0 or >= the message: the whole count).
std::uint64_t segment_count(std::uint64_t segment_bytes, std::uint32_t element_bytes, std::uint64_t count);
// Segments of `count` elements, `per_segment` each. More than
// limits::kMaxSegments is an error: a tiny forced segment size on a large
// message would make millions of messages.
[[noreturn]] void too_many_segments(std::uint64_t count, std::uint64_t per_segment, std::uint64_t segments);
inline std::uint64_t segments_of(std::uint64_t count, std::uint64_t per_segment) {
  const std::uint64_t n = per_segment == 0 ? 0 : count / per_segment + (count % per_segment != 0 ? 1 : 0);
  if (n > limits::kMaxSegments) too_many_segments(count, per_segment, n);
  return n;
}

// The algorithms, by operation. `count` is in elements.
void run_bcast(Context& c, const AlgorithmChoice& a, int root, std::uint64_t count);
void run_reduce(Context& c, const AlgorithmChoice& a, int root, std::uint64_t count, bool commutative);
void run_allreduce(Context& c, const AlgorithmChoice& a, std::uint64_t count, bool commutative,
                   const CollectiveSettings& settings);
void run_barrier(Context& c, const AlgorithmChoice& a);
// gather/scatter(v): block elements per local rank.
void run_gather(Context& c, const AlgorithmChoice& a, int root, const std::vector<std::uint64_t>& blocks);
void run_scatter(Context& c, const AlgorithmChoice& a, int root, const std::vector<std::uint64_t>& blocks);
void run_allgather(Context& c, const AlgorithmChoice& a, const std::vector<std::uint64_t>& blocks,
                   const CollectiveSettings& settings);
void run_alltoall(Context& c, const AlgorithmChoice& a, const std::vector<std::uint64_t>& send,
                  const std::vector<std::uint64_t>& recv);
void run_reduce_scatter(Context& c, const AlgorithmChoice& a, const std::vector<std::uint64_t>& blocks,
                        bool commutative, const CollectiveSettings& settings);

// The two_proc algorithms: Open MPI returns MPI_ERR_UNSUPPORTED_OPERATION on
// other sizes; contend stops with an error naming the operation.
void require_two_ranks(const Context& c, const char* op);

// Building blocks shared between operations.
void bcast_linear(Context& c, int root, std::uint64_t count);
void reduce_linear(Context& c, int root, std::uint64_t count);
void allreduce_recursive_doubling(Context& c, std::uint64_t count);
// A collective run through the communicator's selected component, as Open
// MPI's comm->c_coll->coll_* calls do (own tag; forced algorithm or fixed rule).
void nested_collective(const Context& c, const CollectiveCall& call, const CollectiveSettings& settings);
// COLL_BASE_COMPUTE_BLOCKCOUNT: `count` split into `blocks` blocks, the first
// count % blocks of them one element larger.
struct BlockSplit {
  std::uint64_t early = 0, late = 0;
  std::uint64_t split = 0;  // blocks [0, split) are early
  std::uint64_t count_of(std::uint64_t block) const { return block < split ? early : late; }
  std::uint64_t offset_of(std::uint64_t block) const { return block < split ? block * early : block * late + split; }
};
inline BlockSplit split_blocks(std::uint64_t count, std::uint64_t blocks) {
  BlockSplit b;
  b.early = b.late = count / blocks;
  b.split = count % blocks;
  if (b.split != 0) ++b.early;
  return b;
}

// Rabenseifner's first two steps (ompi_coll_base_{allreduce,reduce}_intra_
// redscat_*): ranks below 2r (r = size - p', p' = largest power of two <=
// size) fold pairwise (odd ranks hand over their data and drop out), then the
// p' remaining ranks reduce-scatter by recursive vector halving. Returns this
// rank's virtual rank (-1 if folded out) and its windows per step, in
// elements, which the gather/allgather phases replay in reverse.
struct HalvingStep {
  int dest = 0;
  std::uint64_t send_index = 0, send_count = 0, recv_index = 0, recv_count = 0;
};
struct HalvingPlan {
  int vrank = -1;
  int remainder = 0;  // r
  int pof2 = 1;       // p'
  std::vector<HalvingStep> steps;
};
HalvingPlan rabenseifner_reduce_scatter(Context& c, std::uint64_t count);

// The other reductions' fold (allreduce recursive doubling, reduce_scatter
// recursive halving and butterfly): of the first 2r ranks, each even one
// sends its `count` elements to rank + 1 and drops out, each odd one
// receives and reduces them. Returns the rank among the p' ranks that go
// on (rank / 2 below 2r, rank - r above), -1 for those that dropped out.
int fold_even_into_odd(Context& c, int remainder, std::uint64_t count);

// The reduce-scatter ring of the ring allreduces and of reduce_scatter's
// ring: block `first` leaves to the right; at each of the next size - 2
// steps the block that came from the left (first - 1, first - 2, ...) is
// reduced and passed on; the last one to come is reduced and kept.
// Receives are posted one step ahead into two buffers of `max_block`
// elements; `elements(b)` is the size of block b.
void reduce_scatter_ring_steps(Context& c, int first, std::uint64_t max_block,
                               const std::function<std::uint64_t(int)>& elements);
inline int rabenseifner_real_rank(int vrank, int remainder) {
  return vrank < remainder ? vrank * 2 : vrank + remainder;
}

inline int largest_power_of_two_at_most(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace contend::coll
