#pragma once
// Base for models that compute transfer rates themselves (staircase, flow
// cut, tau-Lop, LogGOPS). This class owns what they all need and runs it on
// SimGrid's clock from one daemon actor, delivering completed transfers to
// the engine; the derived model keeps only its sharing state.
//
// As in SimGrid's network model with lazy updates (NetworkCm02Model, whose
// ActionHeap holds each action once, its latency as a phase of the action),
// every transfer has at most one timer, in one queue (timer_queue.hpp):
//  - a started transfer first waits its latency (latency(): by default its
//    route's), then its data starts moving (on_data_start());
//  - a transfer whose arrival time is known (LogGOPS's, flowcut's flows
//    between two changes of their rate) waits a delivery timer
//    (deliver_at(), which also moves it).
// Sharing state beyond per-transfer timers (staircase's groups, tau-Lop's
// channels, flowcut's conflict graph) answers next_sharing_event() and
// advance_sharing().
//
// The model's own timeline is authoritative: completions carry the exact
// times the model computed, not SimGrid's clock (which only tells the actor
// when to wake). A start may arrive at a clock value a rounding error before
// the model's last event; models clamp such times to their own (clock()).
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <vector>

#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/model.hpp"
#include "sim/engine/timer_queue.hpp"

namespace contend {

class FluidModel : public CommunicationModel {
 public:
  explicit FluidModel(const ModelContext& context);
  void start(TransferId id) final;
  bool delivers_by_itself() const final { return true; }

 protected:
  struct Completion {
    TransferId id;
    double time;
  };
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // The engine hands transfer `id` over at `now` (SimGrid's clock). By
  // default its latency phase begins: its data starts moving at
  // now + latency(), at once when that is not later than now (no latency, or
  // one lost in now's rounding; SimGrid starts such an action at once too).
  virtual void on_start(TransferId id, double now);
  // How long `t` waits before its data moves: within a node its level's tau;
  // between nodes the SimGrid route's latency (tau, the NICs and the network
  // links), as maxmin sees it.
  virtual double latency(const Transfer& t) const;
  // The data of `id` starts moving at `at` (its latency is over).
  virtual void on_data_start(TransferId id, double at) = 0;
  // The earliest time at which the sharing state changes by itself (a
  // completion, a change of rates), kNever if none.
  virtual double next_sharing_event() const { return kNever; }
  // Brings the sharing state to `now`, once the timers due by `now` have
  // fired, and appends every transfer it completed at or before `now`, with
  // its exact time.
  virtual void advance_sharing(double /*now*/, std::vector<Completion>& /*completed*/) {}
  // The delivery timer of `id` fired at `time`: it is complete.
  virtual void on_delivered(TransferId /*id*/, double /*time*/) {}

  // The data of `id` starts moving at `ready` (> now; or = now, to start it
  // in id order with the other timers of this instant).
  // (Latency ends keep to a few FIFOs: those of one latency value come in
  // time order.)
  void wait_latency(TransferId id, double ready) { timers_.set(id, ready, kLatencyEnd, TimerQueue::kAnyLane); }
  // `id` arrives at `time`: plans its delivery, or moves it.
  void deliver_at(TransferId id, double time) { timers_.set(id, time, kDelivery, TimerQueue::kNoLane); }
  // The same, for a model that knows the deliveries of `family` (a small
  // dense number) mostly come in time order: they wait in one FIFO instead
  // of a heap of every timer (the order of deliveries is the same).
  void deliver_at(TransferId id, double time, std::uint32_t family) {
    timers_.set(id, time, kDelivery, TimerQueue::family_lane(family));
  }
  // Transport buffering: only t.release_remaining bytes of `id` remain
  // undelivered at `time` (>= now): plans the release of its sender, or
  // moves it. Dropped if the transfer is delivered first (delivery
  // completes the sender anyway).
  void release_at(TransferId id, double time) { releases_.set(id, time); }
  // `id` has `remaining` bytes undelivered at `now` and receives `rate`
  // bytes/s until further notice: plans (or plans again) the release of its
  // sender, when only t.release_remaining remain. Nothing without
  // transport buffering or once the sender is released.
  void plan_release(TransferId id, double now, double remaining, double rate);
  // Transport buffering for models whose rates change at their events
  // (staircase, flowcut): from `at`, `id`'s bytes move at the rate
  // moving_transfers() reports; after every start and every event the model
  // brings its delivered bytes up to date and plans its release again
  // (exact: rates are constant between events). Nothing without buffering.
  void follow_release(TransferId id, double at);
  // Forgets the planned release of `id` (its sender was released, or its
  // rate changed and the model plans it again).
  void cancel_release(TransferId id) {
    if (releases_.contains(id)) releases_.erase(id);
  }
  // For --step (context().step): the actor wakes at `time` (> now), an
  // instant at which the model's flows change without a timer of their own
  // (LogGOPS's NIC phases). Nothing happens then but the step log's report.
  void wake_at(double time) { wakeups_.push(time); }
  // The latency of SimGrid's route between two nodes, looked up once per pair.
  double route_latency(int from_node, int to_node) const;
  // The time of the model's last event (SimGrid's clock may read a rounding
  // error behind it when a start arrives).
  double clock() const { return clock_; }

  // Null unless the run records attribution.
  AttributionRecorder* recorder() const { return context_.recorder; }
  // With a recorder: `t` waits `seconds` of latency from `at` (resource `latency`).
  void record_latency(const Transfer& t, double at, double seconds) const;

  TransferSink& sink() { return sink_; }
  const ModelContext& context() const { return context_; }

 private:
  // What a timer's end means, kept as its tag in timers_.
  static constexpr std::uint8_t kLatencyEnd = 0, kDelivery = 1;

  double next_event() const;
  // Fires every timer due by `now`, in (time, id) order, then brings the
  // sharing state to `now`; collects the completions in completed_.
  void advance(double now);
  void run_network_actor();

  ModelContext context_;
  TransferSink& sink_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr wakeup_;
  // When the actor sleeps, the time it will wake at; -infinity while it runs
  // or has been notified (it re-plans anyway). A start notifies it only if it
  // makes an earlier event: most starts (a million at t = 0 in a large
  // pattern) cost no context switch.
  double planned_wakeup_ = -kNever;
  double clock_ = 0;
  TimerQueue timers_;                 // each transfer's end of latency or delivery
  IndexedHeap<TransferId> releases_;  // transport buffering: when a transfer's sender is released
  // follow_release(): the followed transfers' progress, by id.
  struct Followed {
    double remaining;  // bytes undelivered at `since`
    double rate;       // B/s since `since`
    double since;
  };
  std::unordered_map<TransferId, Followed> followed_;
  std::unordered_map<TransferId, double> rates_;  // scratch: the moving transfers' rates
  std::vector<MovingTransfer> moving_;            // scratch
  // Brings the followed transfers to `now` and plans their releases at their new rates.
  void follow_rates(double now);
  std::vector<Completion> released_;
  mutable std::unordered_map<std::uint64_t, double> route_latency_;  // by (source node, destination node)
  std::vector<Completion> completed_;
  std::priority_queue<double, std::vector<double>, std::greater<>> wakeups_;  // wake_at()
};

}  // namespace contend
