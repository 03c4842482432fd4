// run_collective: validates a call, picks the algorithm, and runs it.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "sim/collectives/context.hpp"
#include "sim/core/error.hpp"

namespace contend::coll {
namespace {

// Open MPI's MCA_COLL_BASE_TAG_* are negative (-10 .. -27 in coll_tags.h);
// these follow the operations' order here and stay below MPI_ANY_TAG (-1).
constexpr int kFirstTag = -10;

std::string where(const CollectiveCall& call) { return fmt::format("{}", to_string(call.op)); }

std::uint64_t elements(const CollectiveCall& call, std::uint64_t bytes) {
  if (bytes % call.element_bytes != 0) {
    throw Error(
        fmt::format("{}: {} bytes is not a whole number of {}-byte elements", where(call), bytes, call.element_bytes));
  }
  return bytes / call.element_bytes;
}

std::vector<std::uint64_t> element_vector(const CollectiveCall& call, const std::vector<std::uint64_t>& bytes, int size,
                                          const char* what) {
  if (static_cast<int>(bytes.size()) != size) {
    throw Error(
        fmt::format("{}: {} has {} entries for a communicator of {} ranks", where(call), what, bytes.size(), size));
  }
  std::vector<std::uint64_t> out;
  for (std::uint64_t b : bytes) out.push_back(elements(call, b));
  return out;
}

void check_root(const CollectiveCall& call, int size) {
  if (call.root < 0 || call.root >= size) {
    throw Error(fmt::format("{}: root {} is not a rank of a {}-rank communicator", where(call), call.root, size));
  }
}

AlgorithmChoice linear_v() {
  AlgorithmChoice a;
  a.algorithm = "linear_v";
  return a;
}

// The MPI layer's early returns (ompi/mpi/c/*.c): empty bcast, reduce,
// allreduce, gather, scatter, allgather, alltoall, and a reduce_scatter
// whose counts are all zero, send nothing. The v variants have none.
bool mpi_layer_skips(const CollectiveCall& call) {
  switch (call.op) {
    case CollectiveOp::bcast:
    case CollectiveOp::reduce:
    case CollectiveOp::allreduce:
    case CollectiveOp::gather:
    case CollectiveOp::scatter:
    case CollectiveOp::allgather:
    case CollectiveOp::alltoall:
      return call.bytes == 0;
    case CollectiveOp::reduce_scatter:
      return call.counts.empty() ? call.bytes == 0
                                 : std::all_of(call.counts.begin(), call.counts.end(), [](auto n) { return n == 0; });
    default:
      return false;
  }
}

// The call's MPI name: MPI_Bcast, MPI_Reduce_scatter.
std::string mpi_name(CollectiveOp op) {
  std::string name = "MPI_" + std::string(to_string(op));
  name[4] = static_cast<char>(name[4] - 'a' + 'A');
  return name;
}

// The collective is one MPI call on the rank's timeline, whatever it runs.
class CallSpan {
 public:
  CallSpan(Mpi& mpi, CollectiveOp op) : mpi_(mpi), op_(op) { mpi_.begin_call(); }
  ~CallSpan() { mpi_.end_call(mpi_.records_timeline() ? mpi_name(op_) : std::string()); }
  CallSpan(const CallSpan&) = delete;
  CallSpan& operator=(const CallSpan&) = delete;

 private:
  Mpi& mpi_;
  CollectiveOp op_;
};

}  // namespace

int collective_tag(CollectiveOp op) { return kFirstTag - static_cast<int>(op); }

void require_two_ranks(const Context& c, const char* op) {
  if (c.size() != 2) {
    throw Error(fmt::format("{} algorithm two_proc needs exactly 2 ranks, the communicator has {}", op, c.size()));
  }
}

void nested_collective(const Context& c, const CollectiveCall& call, const CollectiveSettings& settings) {
  run_collective(c.mpi(), c.comm(), call, settings);
}

void run_collective(Mpi& mpi, const Communicator& comm, const CollectiveCall& call,
                    const CollectiveSettings& settings) {
  if (call.element_bytes == 0) throw Error(where(call) + ": element size 0");
  if (comm.my_world_rank() != mpi.rank()) {
    throw Error(fmt::format("internal error: rank {} runs a collective as rank {}", mpi.rank(), comm.my_world_rank()));
  }
  const CallSpan span(mpi, call.op);
  const int size = comm.size();
  const bool rooted = call.op == CollectiveOp::bcast || call.op == CollectiveOp::reduce ||
                      call.op == CollectiveOp::gather || call.op == CollectiveOp::gatherv ||
                      call.op == CollectiveOp::scatter || call.op == CollectiveOp::scatterv;
  if (rooted) check_root(call, size);
  if (mpi_layer_skips(call)) return;
  const AlgorithmChoice choice = choose_algorithm(call, size, settings);
  Context c(mpi, comm, call.op, call.element_bytes);
  const auto uniform = [&](std::uint64_t bytes) {
    return std::vector<std::uint64_t>(static_cast<std::size_t>(size), elements(call, bytes));
  };
  switch (call.op) {
    case CollectiveOp::bcast:
      return run_bcast(c, choice, call.root, elements(call, call.bytes));
    case CollectiveOp::reduce:
      return run_reduce(c, choice, call.root, elements(call, call.bytes), call.commutative);
    case CollectiveOp::allreduce:
      return run_allreduce(c, choice, elements(call, call.bytes), call.commutative, settings);
    case CollectiveOp::barrier:
      return run_barrier(c, choice);
    case CollectiveOp::gather:
      return run_gather(c, choice, call.root, uniform(call.bytes));
    case CollectiveOp::gatherv:
      return run_gather(c, linear_v(), call.root, element_vector(call, call.counts, size, "counts"));
    case CollectiveOp::scatter:
      return run_scatter(c, choice, call.root, uniform(call.bytes));
    case CollectiveOp::scatterv:
      return run_scatter(c, linear_v(), call.root, element_vector(call, call.counts, size, "counts"));
    case CollectiveOp::allgather:
      return run_allgather(c, choice, uniform(call.bytes), settings);
    case CollectiveOp::allgatherv:
      return run_allgather(c, choice, element_vector(call, call.counts, size, "counts"), settings);
    case CollectiveOp::alltoall:
      return run_alltoall(c, choice, uniform(call.bytes), uniform(call.bytes));
    case CollectiveOp::alltoallv: {
      AlgorithmChoice v = choice;
      v.algorithm += "_v";
      return run_alltoall(c, v, element_vector(call, call.send_counts, size, "send_counts"),
                          element_vector(call, call.recv_counts, size, "recv_counts"));
    }
    case CollectiveOp::reduce_scatter:
      return run_reduce_scatter(
          c, choice, call.counts.empty() ? uniform(call.bytes) : element_vector(call, call.counts, size, "counts"),
          call.commutative, settings);
  }
}

}  // namespace contend::coll
