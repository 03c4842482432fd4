#include "sim/engine/overheads_on_top.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/engine/attribution_recorder.hpp"
#include "sim/engine/daemon_loop.hpp"
#include "sim/engine/indexed_heap.hpp"
#include "sim/engine/simgrid_platform.hpp"

namespace contend {
namespace {
namespace sg4 = simgrid::s4u;

constexpr double kNever = std::numeric_limits<double>::infinity();

// One rank's CPU for one direction (its sends, or its receives): when its
// last overhead ends and when the gap lets the next one begin.
struct CpuLane {
  double end = -kNever;
  double next_begin = -kNever;

  // A message ready for this CPU at `at` costs `work` and leaves `gap`
  // before the next: it begins once the lane is free and the previous gap
  // has passed. Returns the CPU time from max(at, previous end): the wait
  // for the gap, then `work` (exactly `work` when the gap does not bind).
  double charge(double at, double work, double gap) {
    const double free = std::max(at, end);
    const double begin = std::max(free, next_begin);
    end = begin + work;
    next_begin = begin + gap;
    return (begin - free) + work;
  }
};

class OverheadsOnTop final : public CommunicationModel {
 public:
  OverheadsOnTop(const ModelContext& c, std::unique_ptr<CommunicationModel> data,
                 std::unique_ptr<CommunicationModel> overheads)
      : context_(c),
        data_(std::move(data)),
        overheads_(std::move(overheads)),
        sends_(static_cast<std::size_t>(c.mapping.rank_count())),
        receives_(static_cast<std::size_t>(c.mapping.rank_count())),
        delayed_by_rank_(static_cast<std::size_t>(c.mapping.rank_count())) {
    // Hands delayed transfers to the data model when their sender's CPU is
    // done; it lives on a socket endpoint host and never computes.
    sg4::Actor::create("overheads-starter", c.simgrid.endpoint(0, 0), [this] { run_starter(); })->daemonize();
  }

  void start(TransferId id) override {
    const Transfer& t = context_.sink.transfer(id);
    const double now = sg4::Engine::get_clock();
    double ready = now;
    if (auto it = data_ready_.find(t.message); it != data_ready_.end()) {
      ready = it->second;
      data_ready_.erase(it);
    }
    ready = std::max(ready, t.start);  // a send posted ahead of the clock (accepts_early_starts)
    if (ready <= now) {
      data_->start(id);
      return;
    }
    if (context_.recorder != nullptr) {
      context_.recorder->bound(
          t, now, "cpu:o_s", 0,
          fmt::format("rank {}'s CPU sends the message (gap, then o_s + O_s k) until {:.9g} s", t.src, ready));
    }
    pending_.set(id, ready);
    if (!data_->delivers_by_itself()) delayed_by_rank_[static_cast<std::size_t>(t.src)].push_back(id);
    if (ready < planned_wakeup_) {
      planned_wakeup_ = -kNever;
      wakeup_->notify_one();
    }
  }

  bool delivers_by_itself() const override { return data_->delivers_by_itself(); }
  // A transfer waits in pending_ until its sender's CPU is done, never
  // before its start: the data model sees it start at its exact instant.
  // Not with --step or a timeline, which report the instants as they come.
  bool accepts_early_starts() const override { return !context_.step && context_.loads == nullptr; }

  // Only for data models that do not deliver by themselves (simgrid-lmm):
  // a transfer still waiting for its sender's CPU is started first.
  void await(TransferId id) override {
    while (pending_.contains(id)) {
      const double ready = pending_.time_of(id);
      if (ready > sg4::Engine::get_clock()) {
        sg4::this_actor::sleep_until(ready);
      } else {
        pending_.erase(id);
        data_->start(id);
      }
    }
    data_->await(id);
  }
  void poll(TransferId id) override {
    if (!pending_.contains(id)) data_->poll(id);
  }

  // Called once per send, at its post, in each rank's order (the engine's
  // isend): the sender's lane advances here.
  double send_overhead(const Transfer& t) const override {
    const double charge = sends_[static_cast<std::size_t>(t.src)].charge(t.post_time, overheads_->send_overhead(t),
                                                                         overheads_->overhead_gap(t));
    if (charge > 0) data_ready_[t.message] = t.post_time + charge;
    return charge;
  }
  // Called once per receive, when it completes (its last byte in at t.end).
  double receive_overhead(const Transfer& t) const override {
    return receives_[static_cast<std::size_t>(t.dst)].charge(t.end, overheads_->receive_overhead(t),
                                                             overheads_->overhead_gap(t));
  }
  double overhead_gap(const Transfer& t) const override { return overheads_->overhead_gap(t); }

  // Alone: the sender's o_s + O_s k not yet spent when the data may move, then A's time.
  double contention_free_time(const Transfer& t) const override {
    const double cpu_left = std::max(0.0, t.post_time + overheads_->send_overhead(t) - t.start);
    return cpu_left + data_->contention_free_time(t);
  }

  void drain(int rank) override {
    // SimGrid activities this wrapper started from its own actor: the rank
    // awaits them as the data model's drain() awaits those it started.
    auto mine = std::move(delayed_by_rank_[static_cast<std::size_t>(rank)]);
    delayed_by_rank_[static_cast<std::size_t>(rank)].clear();
    for (TransferId id : mine) {
      if (context_.sink.transfer(id).state == Transfer::State::Moving) await(id);
    }
    data_->drain(rank);
  }

  bool moving_transfers(std::vector<MovingTransfer>& out) const override { return data_->moving_transfers(out); }
  // The data model moves the bytes, so it releases the senders (on the sink it shares).
  bool releases_senders(Level level) const override { return data_->releases_senders(level); }
  std::string no_release_reason() const override { return data_->no_release_reason(); }

 private:
  void run_starter() {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    run_daemon_loop(lock, [&] {
      while (true) {
        if (pending_.empty()) {
          planned_wakeup_ = kNever;
          wakeup_->wait(lock);
          planned_wakeup_ = -kNever;
          continue;
        }
        const double next = pending_.top().time;
        if (next > sg4::Engine::get_clock()) {
          planned_wakeup_ = next;
          const auto status = wakeup_->wait_until(lock, next);
          planned_wakeup_ = -kNever;
          if (status == std::cv_status::no_timeout) continue;  // woken by an earlier start: plan again
        }
        // In (time, id) order; starting one may let other actors run, so
        // the heap's top is read anew each time.
        while (!pending_.empty() && pending_.top().time <= next) {
          const TransferId id = pending_.top().id;
          pending_.pop();
          data_->start(id);
        }
      }
    });
  }

  ModelContext context_;
  std::unique_ptr<CommunicationModel> data_;
  std::unique_ptr<CommunicationModel> overheads_;
  // The CPU lanes and the sends' data-ready times change in the const
  // overhead queries, which the engine calls exactly once per message.
  mutable std::vector<CpuLane> sends_, receives_;
  mutable std::unordered_map<std::uint64_t, double> data_ready_;  // by message: when its sender's CPU is done
  IndexedHeap<TransferId> pending_;                               // transfers waiting for their sender's CPU
  std::vector<std::vector<TransferId>> delayed_by_rank_;          // by sender, for drain() (simgrid-lmm)
  double planned_wakeup_ = -kNever;
  sg4::MutexPtr mutex_ = sg4::Mutex::create();
  sg4::ConditionVariablePtr wakeup_ = sg4::ConditionVariable::create();
};

}  // namespace

std::unique_ptr<CommunicationModel> add_overheads_on_top(const ModelContext& context,
                                                         std::unique_ptr<CommunicationModel> data,
                                                         std::unique_ptr<CommunicationModel> overheads) {
  return std::make_unique<OverheadsOnTop>(context, std::move(data), std::move(overheads));
}

}  // namespace contend
