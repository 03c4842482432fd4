#include "sim/workload/collective_step.hpp"

#include "sim/engine/mpi.hpp"

namespace contend {

void CollectiveStep::run(Mpi& mpi) const {
  const coll::Communicator world = coll::world_communicator(mpi);
  if (call_.op != coll::CollectiveOp::alltoallv) {
    coll::run_collective(mpi, world, call_, settings_);
    return;
  }
  coll::CollectiveCall call = call_;
  const std::uint64_t mine = call_.counts.at(static_cast<std::size_t>(mpi.rank()));
  call.send_counts.assign(call_.counts.size(), mine);
  call.recv_counts = call_.counts;
  call.counts.clear();
  coll::run_collective(mpi, world, call, settings_);
}

}  // namespace contend
