#pragma once
// One MPI collective call as plain data: which operation, its root and its
// sizes. Pattern files and traces produce it; sim/collectives executes it as
// Open MPI would (run_collective), and the real runner of the emulated
// cluster calls the MPI function.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace contend::coll {

enum class CollectiveOp {
  bcast,
  reduce,
  allreduce,
  barrier,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  alltoall,
  alltoallv,
  reduce_scatter,
};

const std::vector<CollectiveOp>& all_collective_ops();
std::string_view to_string(CollectiveOp op);  // "bcast", "reduce_scatter", ...
// Throws contend::Error with "did you mean" for unknown names.
CollectiveOp parse_collective_op(std::string_view name);

// One collective call as seen by one rank. Byte counts are payload sizes; the
// element count is bytes / element_bytes (segmentation and the element-wise
// splits of ring/Rabenseifner work in elements, as Open MPI does in counts).
struct CollectiveCall {
  CollectiveOp op = CollectiveOp::barrier;
  int root = 0;  // local rank of the root (bcast, reduce, gather(v), scatter(v))
  // bcast/reduce/allreduce: the message size.
  // gather/scatter/allgather: the block of one rank (sendcount * type size).
  // alltoall: the block sent to each peer.
  // reduce_scatter: ignored when `counts` is given, else every rank's block.
  std::uint64_t bytes = 0;
  // gatherv/scatterv/allgatherv: the block of each local rank (size entries;
  // a non-root of gatherv/scatterv needs only its own entry right, but give
  // all). reduce_scatter: the result block of each local rank (recvcounts).
  std::vector<std::uint64_t> counts;
  // alltoallv only: this rank's bytes to / from each local rank.
  std::vector<std::uint64_t> send_counts;
  std::vector<std::uint64_t> recv_counts;
  // Datatype size (1 = MPI_BYTE, 8 = MPI_DOUBLE); the byte counts must be
  // multiples of it. Reductions cost one flop per element and reduction
  // (kFlopsPerReducedElement in sim/collectives/context.hpp), and segments
  // hold whole elements.
  std::uint32_t element_bytes = 1;
  bool commutative = true;  // the reduction operation (MPI_SUM: true)
};

// One line for summaries, e.g. "bcast of 1048576 B, root 0".
std::string summary(const CollectiveCall& call);

// A call with the common fields set (element size 1, commutative).
inline CollectiveCall make_call(CollectiveOp op, std::uint64_t bytes, int root = 0) {
  CollectiveCall call;
  call.op = op;
  call.bytes = bytes;
  call.root = root;
  return call;
}

}  // namespace contend::coll
