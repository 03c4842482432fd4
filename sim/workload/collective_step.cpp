#include "workload/collective_step.hpp"

#include <fmt/format.h>

#include "engine/mpi.hpp"

namespace contend {

void CollectiveStep::run(Mpi& mpi) const {
  const coll::Communicator world = coll::world_communicator(mpi);
  if (call_.op != coll::CollectiveOp::alltoallv) {
    coll::run_collective(mpi, world, call_, mpi.collective_settings());
    return;
  }
  coll::CollectiveCall call = call_;
  const std::uint64_t mine = call_.counts.at(static_cast<std::size_t>(mpi.rank()));
  call.send_counts.assign(call_.counts.size(), mine);
  call.recv_counts = call_.counts;
  call.counts.clear();
  coll::run_collective(mpi, world, call, mpi.collective_settings());
}

std::string CollectiveStep::summary() const {
  using coll::CollectiveOp;
  const auto name = coll::to_string(call_.op);
  switch (call_.op) {
    case CollectiveOp::barrier:
      return "barrier";
    case CollectiveOp::bcast:
    case CollectiveOp::reduce:
    case CollectiveOp::gather:
    case CollectiveOp::scatter:
      return fmt::format("{} of {} B, root {}", name, call_.bytes, call_.root);
    case CollectiveOp::gatherv:
    case CollectiveOp::scatterv:
      return fmt::format("{} of {} blocks, root {}", name, call_.counts.size(), call_.root);
    case CollectiveOp::allgatherv:
    case CollectiveOp::alltoallv:
      return fmt::format("{} of {} blocks", name, call_.counts.size());
    case CollectiveOp::reduce_scatter:
      if (!call_.counts.empty()) return fmt::format("{} of {} blocks", name, call_.counts.size());
      return fmt::format("{} of {} B", name, call_.bytes);
    default:
      return fmt::format("{} of {} B", name, call_.bytes);
  }
}

}  // namespace contend
