#pragma once
// MPI point-to-point semantics on SimGrid actors: posting, matching,
// eager/rendezvous protocols, waiting, and the detection of runs that can no
// longer progress. One EngineCore per simulation; each rank's actor calls it
// through its Mpi handle (mpi.hpp).
#include <array>
#include <boost/container/small_vector.hpp>
#include <functional>
#include <optional>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/core/datatype.hpp"
#include "sim/core/results.hpp"
#include "sim/core/timeline.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/context_registry.hpp"
#include "sim/engine/matching.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/request.hpp"
#include "sim/engine/transfer.hpp"

namespace contend {

class SimgridPlatform;

// Thrown inside rank actors to unwind them once the simulation is aborted.
struct SimulationAborted {};

class EngineCore final : public TransferSink {
 public:
  // `recorder`: null unless the run records attribution.
  EngineCore(const Platform& platform, const Mapping& mapping, const SimgridPlatform& simgrid, bool record_messages,
             Progress progress, AttributionRecorder* recorder = nullptr);

  void set_model(CommunicationModel* model) { model_ = model; }
  // The workload will post about `messages` messages: the transfer table and
  // the message records are reserved for them at once (no reallocation and
  // copy as they grow: pages reserved but never written cost no memory).
  void expect_messages(std::uint64_t messages);
  // Record what each rank does in time, and every received message
  // (--timeline, --paje). Without it nothing is recorded.
  void record_timeline() { timeline_.emplace(); }
  // The recording, null when the run does not record one.
  Timeline* timeline() { return timeline_ ? &*timeline_ : nullptr; }
  const Timeline* timeline() const { return timeline_ ? &*timeline_ : nullptr; }
  // The recording, sorted, once the run is over.
  Timeline take_timeline();
  Progress progress() const { return progress_; }
  // Lets ranks post their sends ahead of SimGrid's clock (see isend) where
  // the result cannot differ: `exact_sources` (no receive from
  // MPI_ANY_SOURCE in the run), a model that accepts early starts and
  // delivers by itself, background progression, no attribution or timeline,
  // and only for ranks alone on their core. Call after set_model and
  // record_timeline.
  void allow_posting_ahead(bool exact_sources);
  // Rank `me`'s time: SimGrid's clock, or later while it posts sends ahead.
  double local_time(int me) const;
  DatatypeId intern(const Datatype& type) { return datatypes_.intern(type); }
  ContextRegistry& contexts() { return contexts_; }
  int rank_count() const { return static_cast<int>(ranks_.size()); }
  simgrid::s4u::Host* host_of(int rank) const { return ranks_[static_cast<std::size_t>(rank)].host; }
  // Time rank `r` spent in each kind of MPI call (the Mpi handle counts it).
  MpiCallStats& calls(int r) { return rank(r).calls; }

  // MPI operations, called from rank `me`'s actor.
  RequestId isend(int me, int dst, std::uint64_t bytes, int tag, int comm, DatatypeId datatype = kContiguous);
  RequestId irecv(int me, int src, std::uint64_t bytes, int tag, int comm, DatatypeId datatype = kContiguous);
  void wait(int me, RequestId id) { waitall(me, std::vector<RequestId>{id}); }
  void waitall(int me, const std::vector<RequestId>& ids);
  // Rank `me` is about to post `count` requests before it waits (a hint).
  void reserve_requests(int me, std::size_t count) { rank(me).requests.reserve(count); }
  bool test(int me, RequestId id);
  void compute(int me, double flops);
  double core_speed(int me) const;
  void sleep(int me, double seconds);

  // Rank lifecycle, called by the actor wrapper.
  void rank_finished(int me);
  void drain(int me) { model_->drain(me); }
  void rank_failed(int me, const std::string& message);

  // TransferSink
  const Transfer& transfer(TransferId id) const override { return transfers_[id]; }
  const Datatype& datatype(DatatypeId id) const override { return datatypes_[id]; }
  void deliver(TransferId id, double end_time) override;
  void release_sender(TransferId id, double time) override;

  // Called at every MPI call of a rank (with a wall-clock limit or a progress
  // line): SimGrid's time-advance callback alone never fires while a run
  // spends long at one instant (every rank posting its sends at time 0), so a
  // limit would pass unnoticed and the run would look hung.
  void set_heartbeat(std::function<void()> heartbeat) { heartbeat_ = std::move(heartbeat); }

  // Progress, for reports on runs stopped early.
  std::uint64_t messages_posted() const {
    std::uint64_t n = 0;
    for (const auto& l : level_stats_) n += l.messages;
    return n;
  }
  std::uint64_t messages_delivered() const { return delivered_; }

  // After the run.
  const std::optional<std::string>& failure() const { return failure_; }
  // Once: the message records move into the results.
  Results collect_results();
  // Ranks that did not finish and what each was doing (for internal errors).
  std::string unfinished_report() const;

 private:
  // Every message touches its sender's and its receiver's state at random
  // (the model delivers in time order, not rank order): the fields a
  // delivery and a match read come first, so that they share as few cache
  // lines as possible (each is a miss at thousands of ranks), and a rank's
  // state starts on a line of its own.
  struct alignas(64) RankState {
    // Read by every delivery (complete_send, complete_receive, on_completed).
    RequestPool requests;
    double recv_time = 0, send_time = 0;
    int rank = 0;
    int wait_incomplete = 0;         // requests of the wait set not complete yet
    int wait_unmatched = 0;          // ... of which not matched yet
    bool blocked_for_match = false;  // every incomplete one is unmatched
    bool sleeping = false;           // waiting on `wakeup`
    bool awaiting = false;           // in a wait on SimGrid activities (inside MPI)
    bool paying_overhead = false;    // busy with an MPI call's CPU overhead (inside MPI)
    // (the first 64 bytes end here)
    // Posting ahead (allow_posting_ahead): whether the rank may, and until
    // when its core is busy with send overheads it has not slept yet.
    bool posts_ahead = false;
    bool core_shared = false;  // another rank runs on the same core (--oversubscribe)
    bool finished = false;
    double busy_until = 0;
    double core_speed = 0;  // its core's speed (flop/s), read once: every CPU overhead needs it
    // Read by every send to this rank.
    MatchQueues inbox;
    // Where the rank sleeps while it waits. A semaphore, not a condition
    // variable: a release that comes before the acquire is not lost (taking
    // a condition variable's mutex lets other actors run, and notify first).
    simgrid::s4u::SemaphorePtr wakeup;
    // The set of requests the rank waits for, while it waits (its storage
    // kept from one wait to the next: no allocation per wait).
    std::vector<RequestId> wait_set;
    // Without background progression: rendezvous handshakes waiting for
    // this rank to enter an MPI call.
    std::vector<TransferId> handshakes;
    Placement place;
    simgrid::s4u::Host* host = nullptr;
    double finish_time = 0;
    MpiCallStats calls;
  };

  // Every SimGrid call (starting a communication, notifying a condition
  // variable) may let other actors run before it returns, and they change
  // the engine's tables. So an operation first brings the state up to date,
  // collecting what it must do in SimGrid, then does it from copied values.
  // An operation has a few effects at most: kept inline, so that a
  // message's calls allocate nothing for them.
  struct Effects {
    boost::container::small_vector<TransferId, 4> starts;  // transfers whose data starts moving now
    boost::container::small_vector<int, 4> wakes;          // ranks to notify
  };
  void apply(const Effects& effects);

  RankState& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  void check_peer(int me, int peer, const char* what) const;
  void start_transfer(TransferId id, Effects& fx);
  // Transport buffering: the sender of `id` is done with it at `time`.
  void complete_send(TransferId id, double time, Effects& fx);
  void bind(TransferId id, int receiver, RequestId recv, int caller, Effects& fx);
  // Progression without a progress thread (Progress::None).
  // A rank inside MPI: waiting (asleep, or blocked on a SimGrid activity in
  // the model's await()), finished (MPI_Finalize), or paying an MPI call's
  // CPU overhead (LogGOPS o + O k is time spent inside the call).
  bool progresses(const RankState& r) const { return r.sleeping || r.awaiting || r.finished || r.paying_overhead; }
  void receiver_saw_request(TransferId id, int caller, Effects& fx);
  void enter_mpi(int me, Effects& fx);
  void cpu(int me, double seconds);
  void catch_up(int me);
  void pay_receive_overhead(int me, double seconds);
  void complete_receive(RankState& receiver, RequestId recv, double when, Effects& fx);
  bool matched(const Request& q) const;
  void sleep_until_woken(RankState& r);
  void on_matched(RankState& r, RequestId id, Effects& fx);
  void on_completed(RankState& r, RequestId id, Effects& fx);
  void check_aborted() const {
    if (failure_) throw SimulationAborted{};
    if (heartbeat_) heartbeat_();
  }
  void abort_all(const std::string& message);
  void check_deadlock();
  std::string describe_wait(const RankState& r) const;

  const Platform& platform_;
  const Mapping& mapping_;
  CommunicationModel* model_ = nullptr;
  Progress progress_;
  double compute_slowdown_ = 1;  // N_core / (N_core - 1) with a dedicated core
  DatatypeTable datatypes_;
  ContextRegistry contexts_;  // derived communicators of this run
  TransferTable transfers_;
  std::vector<RankState> ranks_;
  std::uint64_t delivered_ = 0;
  std::function<void()> heartbeat_;
  int blocked_ = 0;
  int finished_ = 0;
  std::optional<std::string> failure_;
  bool record_messages_;
  std::vector<MessageRecord> messages_;
  std::optional<Timeline> timeline_;
  AttributionRecorder* recorder_;
  std::uint64_t next_message_ = 0;
  std::array<LevelStats, 3> level_stats_{};
};

}  // namespace contend
