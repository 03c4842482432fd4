#include "sim/workload/pingpong_workload.hpp"

#include "sim/engine/mpi.hpp"

namespace contend {

PingPongWorkload::PingPongWorkload(std::vector<std::uint64_t> sizes, Datatype datatype)
    : sizes_(std::move(sizes)), datatype_(std::move(datatype)) {}

std::string PingPongWorkload::description() const {
  return "ping-pong of " + std::to_string(sizes_.size()) + " sizes (" + datatype_.name() + ")";
}

void PingPongWorkload::run(Mpi& mpi) {
  const DatatypeId type = mpi.datatype(datatype_);
  const int me = mpi.rank();
  if (me > 1) return;
  const int peer = 1 - me;
  if (me == 0) round_trips_.assign(sizes_.size(), 0.0);
  for (std::size_t i = 0; i < sizes_.size(); ++i) {
    const std::uint64_t k = sizes_[i];
    if (me == 0) {
      const double begin = mpi.now();
      mpi.wait(mpi.isend(peer, k, 0, Mpi::kCommWorld, type));
      mpi.wait(mpi.irecv(peer, k, 0, Mpi::kCommWorld, type));
      round_trips_[i] = mpi.now() - begin;
    } else {
      mpi.wait(mpi.irecv(peer, k, 0, Mpi::kCommWorld, type));
      mpi.wait(mpi.isend(peer, k, 0, Mpi::kCommWorld, type));
    }
  }
}

}  // namespace contend
