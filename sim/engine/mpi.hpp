#pragma once
// What a rank's program sees: MPI-like point-to-point calls, compute and
// sleep, all on SimGrid's clock. Workloads (patterns, traces, collectives)
// are written against this handle and run inside the rank's actor, so they
// read like ordinary blocking MPI code. Every call's duration is counted by
// kind (EngineCore::calls), as a PMPI profiler would.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/engine/engine_core.hpp"
#include "sim/engine/matching.hpp"

namespace contend {

class Mpi {
 public:
  static constexpr int kAnySource = contend::kAnySource;
  static constexpr int kAnyTag = contend::kAnyTag;
  static constexpr int kCommWorld = 0;

  Mpi(EngineCore& core, int rank) : core_(core), rank_(rank) {}

  int rank() const { return rank_; }
  int size() const { return core_.rank_count(); }
  double now() const;

  RequestId isend(int dst, std::uint64_t bytes, int tag = 0, int comm = kCommWorld, DatatypeId type = kContiguous);
  RequestId irecv(int src, std::uint64_t bytes, int tag = 0, int comm = kCommWorld, DatatypeId type = kContiguous);
  // The run's id of a datatype (MPI_Type_commit); `bytes` stay the payload size.
  DatatypeId datatype(const Datatype& type) { return core_.intern(type); }
  // The run's communicator context ids (coll::split_communicator, dup_communicator).
  ContextRegistry& contexts() { return core_.contexts(); }
  void wait(RequestId id);
  void waitall(const std::vector<RequestId>& ids);
  // The rank is about to post `count` nonblocking requests before it waits:
  // a hint that saves growing its request table one post at a time.
  void reserve_requests(std::size_t count) { core_.reserve_requests(rank_, count); }
  // True (and the request freed) if it has completed.
  bool test(RequestId id);
  // Blocking calls (MPI_Send, MPI_Recv).
  void send(int dst, std::uint64_t bytes, int tag = 0, int comm = kCommWorld, DatatypeId type = kContiguous);
  void recv(int src, std::uint64_t bytes, int tag = 0, int comm = kCommWorld, DatatypeId type = kContiguous);

  // An MPI call made of others (a collective): between begin_call and
  // end_call the calls it makes are inside it, and the rank's timeline shows
  // one span, `name` (MPI_Bcast), holding the waits. Calls nest (a
  // collective run inside another is part of it).
  void begin_call();
  bool records_timeline() const { return core_.timeline() != nullptr; }
  void end_call(std::string_view name);

  void compute(double flops);
  // `seconds` of computation at the core's nominal speed.
  void compute_seconds(double seconds) { compute(seconds * core_.core_speed(rank_)); }
  void sleep(double seconds);

 private:
  // MPI_Wait and MPI_Waitall: `name` is which, for the timeline.
  void wait_for(const std::vector<RequestId>& ids, std::uint16_t name);
  // When a call began, and its number on the timeline (0 without one).
  struct CallStart {
    double time;
    std::uint64_t order;
  };
  CallStart start_call();
  // Records [begin, now] as a span of the rank's timeline, if the run keeps
  // one and the span is not part of an enclosing call.
  void record(RankActivity activity, std::uint16_t name, CallStart begin);

  EngineCore& core_;
  int rank_;
  int enclosing_calls_ = 0;  // begin_call without its end_call yet
  CallStart call_begin_{};   // of the outermost enclosing call
};

}  // namespace contend
