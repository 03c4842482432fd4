#include "sim/engine/mpi.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace contend {

// The rank's own time: later than SimGrid's clock while it posts sends ahead.
double Mpi::now() const { return core_.local_time(rank_); }

Mpi::CallStart Mpi::start_call() {
  Timeline* timeline = core_.timeline();
  return CallStart{now(), timeline != nullptr ? timeline->next_order() : 0};
}

void Mpi::record(RankActivity activity, std::uint16_t name, CallStart begin) {
  if (Timeline* timeline = core_.timeline(); timeline != nullptr && enclosing_calls_ == 0) {
    timeline->add_span(rank_, activity, name, begin.time, begin.order, now());
  }
}

void Mpi::begin_call() {
  if (enclosing_calls_++ == 0) call_begin_ = start_call();
}

void Mpi::end_call(std::string_view name) {
  if (--enclosing_calls_ > 0) return;
  if (Timeline* timeline = core_.timeline()) {
    timeline->add_span(rank_, RankActivity::Mpi, timeline->name_index(name), call_begin_.time, call_begin_.order,
                       now());
  }
}

RequestId Mpi::isend(int dst, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const CallStart begin = start_call();
  const RequestId id = core_.isend(rank_, dst, bytes, tag, comm, type);
  core_.calls(rank_).nonblocking.add(now() - begin.time);
  record(RankActivity::Mpi, Timeline::kIsend, begin);
  return id;
}

RequestId Mpi::irecv(int src, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const CallStart begin = start_call();
  const RequestId id = core_.irecv(rank_, src, bytes, tag, comm, type);
  core_.calls(rank_).nonblocking.add(now() - begin.time);
  record(RankActivity::Mpi, Timeline::kIrecv, begin);
  return id;
}

void Mpi::wait(RequestId id) { wait_for({id}, Timeline::kWait); }

void Mpi::waitall(const std::vector<RequestId>& ids) { wait_for(ids, Timeline::kWaitall); }

void Mpi::wait_for(const std::vector<RequestId>& ids, std::uint16_t name) {
  const CallStart begin = start_call();
  core_.waitall(rank_, ids);
  core_.calls(rank_).wait.add(now() - begin.time);
  record(RankActivity::Mpi, name, begin);
}

bool Mpi::test(RequestId id) {
  const CallStart begin = start_call();
  const bool done = core_.test(rank_, id);
  core_.calls(rank_).test.add(now() - begin.time);
  record(RankActivity::Mpi, Timeline::kTest, begin);
  return done;
}

void Mpi::send(int dst, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const CallStart begin = start_call();
  core_.wait(rank_, core_.isend(rank_, dst, bytes, tag, comm, type));
  core_.calls(rank_).blocking.add(now() - begin.time);
  record(RankActivity::Mpi, Timeline::kSend, begin);
}

void Mpi::recv(int src, std::uint64_t bytes, int tag, int comm, DatatypeId type) {
  const CallStart begin = start_call();
  core_.wait(rank_, core_.irecv(rank_, src, bytes, tag, comm, type));
  core_.calls(rank_).blocking.add(now() - begin.time);
  record(RankActivity::Mpi, Timeline::kRecv, begin);
}

void Mpi::compute(double flops) {
  const CallStart begin = start_call();
  core_.compute(rank_, flops);
  core_.calls(rank_).outside += now() - begin.time;
  record(RankActivity::Compute, Timeline::kCompute, begin);
}

void Mpi::sleep(double seconds) {
  const CallStart begin = start_call();
  core_.sleep(rank_, seconds);
  core_.calls(rank_).outside += now() - begin.time;
  record(RankActivity::Compute, Timeline::kSleep, begin);
}

}  // namespace contend
