#include "sim/engine/mpi.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace contend {

double Mpi::now() const { return simgrid::s4u::Engine::get_clock(); }

RequestId Mpi::isend(int dst, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const double begin = now();
  const RequestId id = core_.isend(rank_, dst, bytes, tag, comm, type);
  core_.calls(rank_).nonblocking.add(now() - begin);
  return id;
}

RequestId Mpi::irecv(int src, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const double begin = now();
  const RequestId id = core_.irecv(rank_, src, bytes, tag, comm, type);
  core_.calls(rank_).nonblocking.add(now() - begin);
  return id;
}

void Mpi::waitall(const std::vector<RequestId>& ids) {
  const double begin = now();
  core_.waitall(rank_, ids);
  core_.calls(rank_).wait.add(now() - begin);
}

bool Mpi::test(RequestId id) {
  const double begin = now();
  const bool done = core_.test(rank_, id);
  core_.calls(rank_).test.add(now() - begin);
  return done;
}

void Mpi::send(int dst, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const double begin = now();
  core_.wait(rank_, core_.isend(rank_, dst, bytes, tag, comm, type));
  core_.calls(rank_).blocking.add(now() - begin);
}

void Mpi::recv(int src, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const double begin = now();
  core_.wait(rank_, core_.irecv(rank_, src, bytes, tag, comm, type));
  core_.calls(rank_).blocking.add(now() - begin);
}

void Mpi::compute(double flops) {
  const double begin = now();
  core_.compute(rank_, flops);
  core_.calls(rank_).outside += now() - begin;
}

void Mpi::sleep(double seconds) {
  const double begin = now();
  core_.sleep(rank_, seconds);
  core_.calls(rank_).outside += now() - begin;
}

}  // namespace contend
