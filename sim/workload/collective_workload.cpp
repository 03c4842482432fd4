#include "sim/workload/collective_workload.hpp"

#include "sim/engine/mpi.hpp"

namespace contend {

void CollectiveWorkload::run(Mpi& mpi) {
  const coll::Communicator world = coll::world_communicator(mpi);
  coll::run_collective(mpi, world, call_, settings_);
}

}  // namespace contend
